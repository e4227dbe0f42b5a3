/**
 * The stdio transport (templates/runtime/transport/stdio.ts): newline-delimited
 * JSON-RPC, both eras on one stream (modern requests carry the `_meta`
 * envelope; `initialize` opens the connection's legacy session), errors
 * for lines that are not messages, and notifications/cancelled.
 */
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { serveStdio } from "../../../templates/runtime/index.js";
import {
  LineReader,
  legacy,
  protocol,
  request,
  testServer,
  VERSION,
} from "../../helpers/mcp-client.js";
import { sleep } from "../../helpers/wait.js";

/** A server whose `wait` tool runs until it is cancelled, and a connection to it. */
function connect() {
  const server = testServer();
  const cancelled: string[] = [];
  server.tool(
    {
      name: "echo",
      inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    },
    (args) => ({ content: [{ type: "text", text: String(args.text) }] }),
  );
  server.tool({ name: "wait", inputSchema: { type: "object" } }, (_args, ctx) => {
    return new Promise((resolve) => {
      ctx.signal.addEventListener("abort", () => {
        cancelled.push(ctx.era);
        resolve({ content: [{ type: "text", text: "too late" }] });
      });
    });
  });
  const input = new PassThrough();
  const output = new PassThrough();
  const done = serveStdio(server, { input, output });
  const reader = new LineReader(output);
  const send = (message: unknown) =>
    input.write(`${typeof message === "string" ? message : JSON.stringify(message)}\n`);
  return { server, input, output, done, reader, send, cancelled };
}

const initialize = {
  jsonrpc: "2.0",
  id: "init",
  method: "initialize",
  params: {
    protocolVersion: "2025-11-25",
    capabilities: {},
    clientInfo: { name: "old", version: "1" },
  },
};

describe("stdio", () => {
  it("serves a modern request and a legacy session on one stream", async () => {
    const { reader, send, input, done } = connect();
    send(request("server/discover", {}, 1));
    const discovered = await reader.next();
    expect(discovered).toMatchObject({
      id: 1,
      result: { supportedVersions: [VERSION], resultType: "complete" },
    });
    expect(protocol.parseResponse(discovered, "server/discover")).toMatchObject({ ok: true });

    send(initialize);
    const initialized = await reader.next();
    expect(initialized).toMatchObject({
      id: "init",
      result: { protocolVersion: "2025-11-25", serverInfo: { name: "runtime-tests" } },
    });
    expect(legacy.parseResponse(initialized, "initialize")).toMatchObject({ ok: true });
    send({ jsonrpc: "2.0", method: "notifications/initialized" });

    send({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "echo", arguments: { text: "legacy" } },
    });
    expect(await reader.next()).toEqual({
      jsonrpc: "2.0",
      id: 2,
      result: { content: [{ type: "text", text: "legacy" }] },
    });
    send(request("tools/call", { name: "echo", arguments: { text: "modern" } }, 3));
    const modern = await reader.next();
    expect(modern).toMatchObject({
      id: 3,
      result: { resultType: "complete", content: [{ type: "text", text: "modern" }] },
    });
    expect(reader.pending).toBe(0);
    input.end();
    await done;
  });

  it("answers a line that is not JSON with -32700 (id null), one that is not an object or is a batch outside a 2025-03-26 session with -32600, and keeps serving", async () => {
    const { reader, send, input, done } = connect();
    send("{not json");
    expect(await reader.next()).toMatchObject({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32700, message: "Parse error" },
    });
    send("42");
    expect(await reader.next()).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: {
        code: -32600,
        message: "Invalid Request",
        data: { reason: "a message must be a JSON object" },
      },
    });
    send("[1, 2]");
    expect(await reader.next()).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: {
        code: -32600,
        message: "Invalid Request",
        data: { reason: "batches are not supported (only a 2025-03-26 session may send them)" },
      },
    });
    send("");
    send(request("tools/list", {}, 4));
    expect(await reader.next()).toMatchObject({
      id: 4,
      result: { tools: [{ name: "echo" }, { name: "wait" }] },
    });
    input.end();
    await done;
  });

  it("serves a batch in a 2025-03-26 session, answering with one array, and refuses one in a 2025-11-25 session", async () => {
    const { reader, send, input, done } = connect();
    send({ ...initialize, params: { ...initialize.params, protocolVersion: "2025-03-26" } });
    expect(await reader.next()).toMatchObject({ result: { protocolVersion: "2025-03-26" } });
    send([
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", id: 1, method: "ping" },
      {
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "echo", arguments: { text: "b" } },
      },
    ]);
    const answers = (await reader.next()) as unknown as Array<Record<string, unknown>>;
    expect(Array.isArray(answers)).toBe(true);
    expect(answers).toEqual([
      { jsonrpc: "2.0", id: 1, result: {} },
      { jsonrpc: "2.0", id: 2, result: { content: [{ type: "text", text: "b" }] } },
    ]);
    send(initialize);
    await reader.next();
    send([{ jsonrpc: "2.0", id: 3, method: "ping" }]);
    expect(await reader.next()).toMatchObject({ id: null, error: { code: -32600 } });
    input.end();
    await done;
  });

  it("refuses a request without the envelope before initialize with -32602", async () => {
    const { reader, send, input, done } = connect();
    send({ jsonrpc: "2.0", id: 5, method: "tools/list" });
    expect(await reader.next()).toEqual({
      jsonrpc: "2.0",
      id: 5,
      error: {
        code: -32602,
        message: 'Invalid params: missing _meta["io.modelcontextprotocol/protocolVersion"]',
        data: { path: "/params/_meta/io.modelcontextprotocol~1protocolVersion" },
      },
    });
    input.end();
    await done;
  });

  it("notifications/cancelled aborts a running modern request: its handler sees the abort and no response is sent", async () => {
    const { reader, send, input, done, cancelled } = connect();
    send(request("tools/call", { name: "wait" }, "slow"));
    await sleep(50);
    send({
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: "slow", reason: "user" },
    });
    send(request("tools/call", { name: "echo", arguments: { text: "after" } }, 6));
    expect(await reader.next()).toMatchObject({ id: 6, result: { content: [{ text: "after" }] } });
    expect(cancelled).toEqual(["modern"]);
    expect(reader.pending).toBe(0);
    input.end();
    await done;
  });

  it("notifications/cancelled aborts a running request of the legacy session too", async () => {
    const { reader, send, input, done, cancelled } = connect();
    send(initialize);
    await reader.next();
    send({ jsonrpc: "2.0", id: 10, method: "tools/call", params: { name: "wait", arguments: {} } });
    await sleep(50);
    send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 10 } });
    send({ jsonrpc: "2.0", id: 11, method: "ping" });
    expect(await reader.next()).toEqual({ jsonrpc: "2.0", id: 11, result: {} });
    expect(cancelled).toEqual(["legacy"]);
    input.end();
    await done;
  });

  it("notifications/cancelled ends a listen subscription, without a response", async () => {
    const { reader, send, input, done, server } = connect();
    send(request("subscriptions/listen", { notifications: { toolsListChanged: true } }, "sub"));
    expect(await reader.next()).toMatchObject({
      method: "notifications/subscriptions/acknowledged",
      params: { _meta: { "io.modelcontextprotocol/subscriptionId": "sub" } },
    });
    server.notifyToolsChanged();
    expect(await reader.next()).toMatchObject({
      method: "notifications/tools/list_changed",
      params: { _meta: { "io.modelcontextprotocol/subscriptionId": "sub" } },
    });
    send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "sub" } });
    send(request("server/discover", {}, 12));
    expect(await reader.next()).toMatchObject({ id: 12 });
    expect(server.changes.size).toBe(0);
    server.notifyToolsChanged();
    send(request("server/discover", {}, 13));
    expect(await reader.next()).toMatchObject({ id: 13 });
    input.end();
    await done;
  });

  it("holds 16 listen subscriptions (MCP_MAX_LISTEN_STREAMS_PER_CLIENT's default); the 17th is -32600, and one cancelled makes room", async () => {
    const { reader, send, input, done } = connect();
    const listen = (id: string) =>
      send(request("subscriptions/listen", { notifications: { toolsListChanged: true } }, id));
    for (let i = 0; i < 16; i++) {
      listen(`sub-${i}`);
      expect(await reader.next()).toMatchObject({
        method: "notifications/subscriptions/acknowledged",
        params: { _meta: { "io.modelcontextprotocol/subscriptionId": `sub-${i}` } },
      });
    }
    listen("sub-16");
    expect(await reader.next()).toMatchObject({
      id: "sub-16",
      error: {
        code: -32600,
        message: expect.stringContaining("MCP_MAX_LISTEN_STREAMS_PER_CLIENT") as unknown,
      },
    });
    send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "sub-0" } });
    send(request("server/discover", {}, "after-cancel"));
    expect(await reader.next()).toMatchObject({ id: "after-cancel" });
    listen("sub-17");
    expect(await reader.next()).toMatchObject({
      method: "notifications/subscriptions/acknowledged",
      params: { _meta: { "io.modelcontextprotocol/subscriptionId": "sub-17" } },
    });
    input.end();
    await done;
  });

  it("ends when its input ends, aborting what still runs", async () => {
    const { send, input, done, cancelled } = connect();
    send(request("tools/call", { name: "wait" }, 14));
    await sleep(50);
    input.end();
    await done;
    expect(cancelled).toEqual(["modern"]);
  });
});
