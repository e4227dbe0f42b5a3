/**
 * The HTTP client transport (templates/runtime/transport/http-client.ts)
 * and its event stream reader, against scripted servers on 127.0.0.1:
 * responses as JSON and as event streams (notifications first), the
 * 2025-era resumption of a stream that ends early (after `retry`, with
 * Last-Event-ID), the standalone GET stream of a legacy session on which
 * the server sends requests the client answers, the auth hook's one retry,
 * and the fetch wire.
 */
import type { ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import {
  ChannelError,
  connectHttp,
  fetchWire,
  McpClient,
  type HttpAuth,
  type RetryVerdict,
  type JsonRpcMessage,
} from "../../templates/runtime/client.js";
import { readEvents, type SseResumption } from "../../templates/runtime/transport/sse-reader.js";
import { legacy, protocol } from "../helpers/mcp-client.js";
import { discovered, json, result, scripted, type Scripted } from "./fixtures/scripted.js";
import { until } from "../helpers/wait.js";

let server: Scripted | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function* chunks(...parts: string[]): AsyncGenerator<Uint8Array> {
  for (const part of parts) yield await Promise.resolve(new TextEncoder().encode(part));
}

async function events(parts: string[], resumption: SseResumption = {}) {
  const out = [];
  for await (const event of readEvents(chunks(...parts), resumption)) out.push(event);
  return out;
}

describe("the event stream reader", () => {
  it("reads events split anywhere, with LF, CRLF or CR line ends, skipping comments", async () => {
    expect(
      await events([
        ": keep-alive\n\nevent: message\nda",
        'ta: {"a":1}\r',
        "\n\r\ndata: one\rdata: two\r\rdata:  spaced\n\n",
      ]),
    ).toEqual([
      { event: "message", data: '{"a":1}' },
      { event: "message", data: "one\ntwo" },
      { event: "message", data: " spaced" },
    ]);
  });

  it("keeps the last event id and the retry time, also from an event without data", async () => {
    const resumption: SseResumption = {};
    const read = await events(["id: e-1\nretry: 500\n\nid: e-2\nretry: x\ndata: \n\n"], resumption);
    expect(read).toEqual([{ event: "message", data: "" }]);
    expect(resumption).toEqual({ lastEventId: "e-2", retryMs: 500 });
  });

  it("drops an event the stream ends in the middle of", async () => {
    expect(await events(["data: complete\n\ndata: cut"])).toEqual([
      { event: "message", data: "complete" },
    ]);
  });
});

/** An event stream reply: each message an event, with ids when asked. */
function stream(
  res: ServerResponse,
  messages: unknown[],
  options: { ids?: boolean; end?: boolean } = {},
) {
  res.writeHead(200, { "content-type": "text/event-stream" });
  messages.forEach((m, i) =>
    res.write(`${options.ids ? `id: ${i}\n` : ""}event: message\ndata: ${JSON.stringify(m)}\n\n`),
  );
  if (options.end !== false) res.end();
}

const modern = () =>
  new McpClient({
    protocol,
    legacy,
    channel: connectHttp(server!.url),
    info: { name: "http-tests", version: "1.0.0" },
  });

describe("responses", () => {
  it("reads a response from an event stream, after the request's notifications", async () => {
    server = await scripted((r, res) => {
      const id = r.body!.id;
      if (r.body!.method === "server/discover") return json(res, result(id, discovered()));
      const token = (r.body!.params as { _meta: { progressToken: unknown } })._meta.progressToken;
      stream(res, [
        {
          jsonrpc: "2.0",
          method: "notifications/progress",
          params: { progressToken: token, progress: 1 },
        },
        result(id, { resultType: "complete", content: [{ type: "text", text: "streamed" }] }),
      ]);
    });
    const progress: unknown[] = [];
    const out = await modern().callTool("x", {}, { onProgress: (p) => progress.push(p) });
    expect(out.content).toEqual([{ type: "text", text: "streamed" }]);
    expect(progress).toEqual([{ progress: 1 }]);
    expect(server.received[1]!.headers.accept).toBe("application/json, text/event-stream");
  });

  it("fails a modern request whose stream ends without its response (no resumption in 2026-07-28)", async () => {
    server = await scripted((r, res) => {
      if (r.body!.method === "server/discover") return json(res, result(r.body!.id, discovered()));
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end("id: 1\nretry: 10\ndata: \n\n");
    });
    const call = modern().callTool("x");
    await expect(call).rejects.toBeInstanceOf(ChannelError);
    await expect(call).rejects.toThrow("the event stream ended before the response to tools/call");
    expect(server.received.filter((r) => r.method === "GET")).toEqual([]);
  });

  it("works over any fetch", async () => {
    server = await scripted((r, res) => json(res, result(r.body!.id, discovered())));
    const fetched: string[] = [];
    const client = new McpClient({
      protocol,
      channel: connectHttp(server.url, {
        wire: fetchWire((input, init) => {
          fetched.push(input instanceof URL ? input.href : (input as string));
          return fetch(input, init);
        }),
      }),
      info: { name: "http-tests", version: "1.0.0" },
    });
    expect(await client.connect()).toMatchObject({ era: "modern" });
    expect(fetched).toEqual([server.url]);
  });
});

/** A 2025-era server: initialize opens a session; `onCall` answers tools/call; GETs go to `onGet`. */
async function legacyServer(
  onCall: (id: unknown, res: ServerResponse) => void,
  onGet: (res: ServerResponse, lastEventId: string | undefined) => void,
) {
  return scripted((r, res) => {
    if (r.method === "GET") return onGet(res, r.headers["last-event-id"] as string | undefined);
    if (r.method === "DELETE") return void res.writeHead(200).end();
    const body = r.body!;
    if (body.method === "initialize")
      return json(
        res,
        result(body.id, {
          protocolVersion: "2025-11-25",
          capabilities: { tools: {} },
          serverInfo: { name: "old", version: "1" },
        }),
        200,
        { "mcp-session-id": "s-1" },
      );
    if (body.id === undefined || body.method === undefined) return void res.writeHead(202).end();
    if (body.method === "tools/call") return onCall(body.id, res);
    return json(res, result(body.id, {}));
  });
}

const oldClient = (handlers = {}) =>
  new McpClient({
    protocol,
    legacy,
    channel: connectHttp(server!.url),
    info: { name: "http-tests", version: "1.0.0" },
    protocolVersion: "2025-11-25",
    handlers,
  });

describe("legacy sessions", () => {
  it("resumes a stream that ends early: waits its retry, then GETs with Last-Event-ID", async () => {
    let closedAt = 0;
    let pending: unknown;
    const gets: Array<{ at: number; lastEventId?: string }> = [];
    server = await legacyServer(
      (id, res) => {
        pending = id;
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.write("id: e-7\nretry: 300\ndata: \n\n");
        setTimeout(() => {
          closedAt = Date.now();
          res.end();
        }, 20);
      },
      (res, lastEventId) => {
        gets.push({ at: Date.now(), ...(lastEventId ? { lastEventId } : {}) });
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.write("id: g-1\ndata: \n\n");
        if (lastEventId && pending !== undefined)
          res.write(
            `id: e-8\nevent: message\ndata: ${JSON.stringify(result(pending, { content: [{ type: "text", text: "resumed" }] }))}\n\n`,
          );
      },
    );
    const client = oldClient();
    const out = await client.callTool("slow");
    expect(out.content).toEqual([{ type: "text", text: "resumed" }]);
    const resumed = gets.find((g) => g.lastEventId === "e-7")!;
    expect(resumed.at - closedAt).toBeGreaterThanOrEqual(280);
    const get = server.received.find(
      (r) => r.method === "GET" && r.headers["last-event-id"] === "e-7",
    )!;
    expect(get.headers).toMatchObject({
      "mcp-session-id": "s-1",
      "mcp-protocol-version": "2025-11-25",
    });
    await client.close();
    expect(server.received.at(-1)).toMatchObject({
      method: "DELETE",
      headers: { "mcp-session-id": "s-1" },
    });
  });

  it("answers requests the server sends on the standalone stream, with the handlers", async () => {
    const answers: JsonRpcMessage[] = [];
    server = await scripted((r, res) => {
      if (r.method === "GET") {
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.write(
          `event: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", id: "srv-1", method: "elicitation/create", params: { message: "Name?", requestedSchema: { type: "object", properties: { name: { type: "string", default: "Ada" } } } } })}\n\n`,
        );
        res.write(
          `event: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", id: "srv-2", method: "ping" })}\n\n`,
        );
        return;
      }
      if (r.method === "DELETE") return void res.writeHead(200).end();
      const body = r.body!;
      if (body.method === "initialize")
        return json(
          res,
          result(body.id, {
            protocolVersion: "2025-11-25",
            capabilities: {},
            serverInfo: { name: "old", version: "1" },
          }),
          200,
          { "mcp-session-id": "s-2" },
        );
      if (body.method === undefined) answers.push(body);
      return void res.writeHead(202).end();
    });
    const client = oldClient({ elicitation: () => ({ action: "accept", content: {} }) });
    await client.connect();
    await until(() => answers.length === 2);
    expect(answers).toEqual([
      { jsonrpc: "2.0", id: "srv-1", result: { action: "accept", content: { name: "Ada" } } },
      { jsonrpc: "2.0", id: "srv-2", result: {} },
    ]);
    await client.close();
  });
});

describe("the auth hook", () => {
  it("adds credentials, and after a 401 renews them and retries once", async () => {
    server = await scripted((r, res) => {
      if (r.headers.authorization !== "Bearer fresh")
        return void res
          .writeHead(401, { "www-authenticate": 'Bearer error="invalid_token"' })
          .end();
      json(res, result(r.body!.id, discovered()));
    });
    let token = "stale";
    const refusals: unknown[] = [];
    const auth: HttpAuth = {
      headers: () => ({ authorization: `Bearer ${token}` }),
      refused: (refusal) => {
        refusals.push({ status: refusal.status, challenge: refusal.headers["www-authenticate"] });
        token = "fresh";
        return true;
      },
    };
    const client = new McpClient({
      protocol,
      channel: connectHttp(server.url, { auth }),
      info: { name: "t", version: "1" },
    });
    expect(await client.connect()).toMatchObject({ era: "modern" });
    expect(refusals).toEqual([{ status: 401, challenge: 'Bearer error="invalid_token"' }]);
    expect(server.received.map((r) => r.headers.authorization)).toEqual([
      "Bearer stale",
      "Bearer fresh",
    ]);
  });

  it("retries once per reason, and not at all when the hook declines", async () => {
    server = await scripted((_r, res) => void res.writeHead(403).end());
    const asked: string[][] = [];
    const auth = (retry: boolean): HttpAuth => ({
      headers: () => ({}),
      refused: (refusal) => (asked.push([...refusal.retried]), retry),
    });
    for (const retry of [true, false]) {
      const client = new McpClient({
        protocol,
        channel: connectHttp(server.url, { auth: auth(retry) }),
        info: { name: "t", version: "1" },
      });
      await expect(client.connect()).rejects.toMatchObject({ status: 403 });
    }
    // Asked again after the retry, told new credentials were tried: a second `true` is not a second retry.
    expect(asked).toEqual([[], ["credentials"], []]);
    expect(server.received).toHaveLength(3);
  });

  it("sends a request again at most once for each reason and twice in all", async () => {
    server = await scripted((_r, res) => void res.writeHead(401).end());
    const verdicts: RetryVerdict[] = [true, "dpop-nonce", "dpop-nonce", true];
    const asked: string[][] = [];
    const client = new McpClient({
      protocol,
      channel: connectHttp(server.url, {
        auth: {
          headers: () => ({}),
          refused: (refusal) => (asked.push([...refusal.retried]), verdicts.shift()!),
        },
      }),
      info: { name: "t", version: "1" },
    });
    await expect(client.connect()).rejects.toMatchObject({ status: 401 });
    expect(asked).toEqual([[], ["credentials"]]);
    expect(server.received).toHaveLength(3);
  });
});
