/**
 * `subscriptions/listen` over real HTTP (templates/runtime/server/
 * subscriptions.ts, transport/http.ts): the acknowledgment comes first and carries
 * the subscription id and the filter the server agreed to; only what the
 * filter asks for is delivered, each tagged with the id; when the client
 * closes the stream, the server forgets the listener (spec: subscriptions).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveHttp } from "../../../templates/runtime/index.js";
import { openStream, protocol, request, testServer } from "../../helpers/mcp-client.js";
import { until } from "../../helpers/wait.js";

const SUBSCRIPTION = "io.modelcontextprotocol/subscriptionId";

const server = testServer();
server.tool({ name: "noop", inputSchema: { type: "object" } }, () => ({ content: [] }));
server.resource({ uri: "file:///config.json", name: "config" }, (uri) => ({
  contents: [{ uri, text: "{}" }],
}));
server.resource({ uri: "file:///other.json", name: "other" }, (uri) => ({
  contents: [{ uri, text: "{}" }],
}));
// No prompts: a server cannot agree to deliver prompts/list_changed.

let url: string;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ url, close } = await serveHttp(server, { port: 0, keepAliveMs: 20 }));
});
afterAll(() => close());

const listen = (id: number, notifications: Record<string, unknown>) =>
  openStream(url, request("subscriptions/listen", { notifications }, id));

describe("subscriptions/listen over HTTP", () => {
  it("acknowledges first, with the subscription id and only the part of the filter the server can honor", async () => {
    const stream = await listen(41, {
      toolsListChanged: true,
      promptsListChanged: true,
      resourceSubscriptions: ["file:///config.json"],
    });
    expect(stream.status).toBe(200);
    expect(stream.headers.get("content-type")).toBe("text/event-stream");
    const ack = await stream.next();
    expect(ack).toEqual({
      jsonrpc: "2.0",
      method: "notifications/subscriptions/acknowledged",
      params: {
        notifications: { toolsListChanged: true, resourceSubscriptions: ["file:///config.json"] },
        _meta: { [SUBSCRIPTION]: 41 },
      },
    });
    expect(protocol.parseMessage(ack)).toMatchObject({ ok: true });
    stream.close();
  });

  it("delivers what the filter asks for, tagged with the id, and nothing else", async () => {
    const stream = await listen(7, {
      toolsListChanged: true,
      resourceSubscriptions: ["file:///config.json"],
    });
    await stream.next();
    server.notifyPromptsChanged();
    server.notifyResourcesChanged();
    server.notifyResourceUpdated("file:///other.json");
    server.notifyToolsChanged();
    server.notifyResourceUpdated("file:///config.json");
    expect(await stream.next()).toEqual({
      jsonrpc: "2.0",
      method: "notifications/tools/list_changed",
      params: { _meta: { [SUBSCRIPTION]: 7 } },
    });
    const updated = await stream.next();
    expect(updated).toEqual({
      jsonrpc: "2.0",
      method: "notifications/resources/updated",
      params: { uri: "file:///config.json", _meta: { [SUBSCRIPTION]: 7 } },
    });
    expect(protocol.parseMessage(updated)).toMatchObject({ ok: true });
    stream.close();
  });

  it("two subscriptions get their own notifications, each with its own id", async () => {
    const tools = await listen(1, { toolsListChanged: true });
    const resources = await listen(2, { resourcesListChanged: true });
    await tools.next();
    await resources.next();
    server.notifyResourcesChanged();
    server.notifyToolsChanged();
    expect(await tools.next()).toMatchObject({
      method: "notifications/tools/list_changed",
      params: { _meta: { [SUBSCRIPTION]: 1 } },
    });
    expect(await resources.next()).toMatchObject({
      method: "notifications/resources/list_changed",
      params: { _meta: { [SUBSCRIPTION]: 2 } },
    });
    tools.close();
    resources.close();
  });

  it("when the client closes the stream, the server drops the listener and the stream ends cleanly", async () => {
    await until(() => server.changes.size === 0);
    const stream = await listen(9, { toolsListChanged: true });
    await stream.next();
    expect(server.changes.size).toBe(1);
    stream.close();
    await stream.ended;
    await until(() => server.changes.size === 0);
    // Publishing after the client left reaches no one and breaks nothing.
    expect(() => server.notifyToolsChanged()).not.toThrow();
    expect(server.errors).toEqual([]);
  });

  it("a quiet stream carries keep-alive comments, not messages", async () => {
    const response = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "subscriptions/listen",
      },
      body: JSON.stringify(request("subscriptions/listen", { notifications: {} }, 3)),
    });
    const reader: ReadableStreamDefaultReader<Uint8Array> = response.body!.getReader();
    let text = "";
    while (!text.includes(":\n\n")) text += new TextDecoder().decode((await reader.read()).value);
    await reader.cancel();
    expect(text.startsWith("event: message\ndata: ")).toBe(true);
    expect(text.split("data: ").length - 1).toBe(1);
  });
});
