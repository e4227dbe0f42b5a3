/**
 * JSON-RPC batches (2025-03-26 sessions only) are bounded and answered in
 * order (core/framing.ts, transport/batch.ts, transport/stdio.ts): a batch
 * of maxBatchItems messages is served, one more is -32600 naming
 * MCP_MAX_BATCH_ITEMS; answers come in the batch's order, on HTTP written
 * only as fast as the client reads them, so a batch whose answers are many
 * times the stream buffer reaches a client that reads slowly whole. On
 * stdio the answers are one line written piece by piece, an 80,000-item
 * line is refused, and a response too large to be made into text becomes
 * an error response instead of ending the process.
 */
import { request as httpRequest } from "node:http";
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeFrame } from "../../../templates/runtime/core/framing.js";
import { MAX_MESSAGE_BYTES } from "../../../templates/runtime/core/limits.js";
import { serveHttp, serveStdio, type RunningHttpServer } from "../../../templates/runtime/index.js";
import { LineReader, post, testServer } from "../../helpers/mcp-client.js";

const BIG = 100 * 1024;

/** A server with a slow tool, a fast one and one whose result is 100 KiB. */
function batchServer() {
  const server = testServer();
  server.tool({ name: "slow", inputSchema: { type: "object" } }, async () => {
    await new Promise((resolve) => setTimeout(resolve, 200));
    return { content: [{ type: "text", text: "slow" }] };
  });
  server.tool({ name: "fast", inputSchema: { type: "object" } }, () => ({
    content: [{ type: "text", text: "fast" }],
  }));
  server.tool({ name: "big", inputSchema: { type: "object" } }, () => ({
    content: [{ type: "text", text: "b".repeat(BIG) }],
  }));
  return server;
}

const call = (id: number, name: string) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: {} },
});
const ping = (id: number) => ({ jsonrpc: "2.0", id, method: "ping" });

describe("over HTTP", () => {
  let http: RunningHttpServer;
  let session: string;
  beforeAll(async () => {
    http = await serveHttp(batchServer(), { port: 0 });
    const opened = await post(
      http.url,
      {
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: {
          protocolVersion: "2025-03-26",
          capabilities: {},
          clientInfo: { name: "batcher", version: "1" },
        },
      },
      { "mcp-method": undefined, "mcp-protocol-version": undefined },
    );
    session = opened.headers.get("mcp-session-id")!;
  });
  afterAll(() => http.close());

  const batch = (items: unknown[]) =>
    post(http.url, JSON.stringify(items), {
      "mcp-method": undefined,
      "mcp-protocol-version": undefined,
      "mcp-session-id": session,
    });

  it("serves 100 messages (MCP_MAX_BATCH_ITEMS' default) in order; 101 is -32600 naming the variable", async () => {
    const served = await batch(Array.from({ length: 100 }, (_, i) => ping(i + 1)));
    expect(served.status).toBe(200);
    expect(served.messages.map((m) => m.id)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    const refused = await batch(Array.from({ length: 101 }, (_, i) => ping(i + 1)));
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: {
        code: -32600,
        message: "Invalid Request",
        data: {
          reason:
            "the batch holds 101 messages, more than the 100 a batch may hold here (MCP_MAX_BATCH_ITEMS); send it in parts",
        },
      },
    });
  });

  it("answers in the batch's order, a slow request before the fast ones after it, an item that is no message in its place", async () => {
    const served = await batch([call(1, "slow"), 7, call(2, "fast"), ping(3)]);
    expect(served.messages.map((m) => [m.id, "error" in m ? "error" : "result"])).toEqual([
      [1, "result"],
      [null, "error"],
      [2, "result"],
      [3, "result"],
    ]);
  });

  it("writes answers as fast as the client reads them: 100 answers of 100 KiB reach a client that pauses, whole", async () => {
    const body = JSON.stringify(Array.from({ length: 100 }, (_, i) => call(i + 1, "big")));
    const url = new URL(http.url);
    const text = await new Promise<string>((resolve, reject) => {
      const req = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            "mcp-session-id": session,
          },
        },
        (res) => {
          res.pause();
          // The client reads nothing for a second: the server must wait, not overflow.
          setTimeout(() => {
            let all = "";
            res.setEncoding("utf8");
            res.on("data", (chunk: string) => (all += chunk));
            res.on("end", () => resolve(all));
            res.on("error", reject);
            res.resume();
          }, 1000);
        },
      );
      req.on("error", reject);
      req.end(body);
    });
    const answers = text
      .split("\n")
      .filter((line) => line.startsWith("data: "))
      .map((line) => JSON.parse(line.slice(6)) as { id: number; result: unknown });
    expect(answers).toHaveLength(100);
    expect(answers.map((a) => a.id)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(answers.every((a) => JSON.stringify(a.result).length > BIG)).toBe(true);
  });
});

describe("over stdio", () => {
  function connect() {
    const input = new PassThrough();
    const output = new PassThrough();
    const done = serveStdio(batchServer(), { input, output });
    const reader = new LineReader(output);
    const send = (message: unknown) => input.write(`${JSON.stringify(message)}\n`);
    send({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: {
        protocolVersion: "2025-03-26",
        capabilities: {},
        clientInfo: { name: "batcher", version: "1" },
      },
    });
    return { input, done, reader, send };
  }

  it("answers 100 messages as one array in the batch's order; 101 is -32600", async () => {
    const { input, done, reader, send } = connect();
    await reader.next();
    send([call(1, "slow"), 7, ...Array.from({ length: 98 }, (_, i) => ping(i + 2))]);
    const answers = (await reader.next()) as unknown as Array<{ id: unknown }>;
    expect(answers.map((a) => a.id)).toEqual([
      1,
      null,
      ...Array.from({ length: 98 }, (_, i) => i + 2),
    ]);
    send(Array.from({ length: 101 }, (_, i) => ping(i)));
    expect(await reader.next()).toMatchObject({
      id: null,
      error: {
        code: -32600,
        data: { reason: expect.stringContaining("MCP_MAX_BATCH_ITEMS") as unknown },
      },
    });
    input.end();
    await done;
  });

  it("refuses a line of an 80,000-message batch and goes on serving", async () => {
    const { input, done, reader, send } = connect();
    await reader.next();
    const batch = Array.from({ length: 80_000 }, (_, i) => call(i, "big"));
    expect(JSON.stringify(batch).length).toBeGreaterThan(MAX_MESSAGE_BYTES);
    send(batch);
    // Refused as a line past the default line limit (4 MiB), before it is parsed as a batch.
    expect(await reader.next()).toMatchObject({
      id: null,
      error: {
        code: -32600,
        data: {
          reason: `the line is longer than ${MAX_MESSAGE_BYTES} bytes, the most a message may have; it was dropped`,
        },
      },
    });
    send(ping(1));
    expect(await reader.next()).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
    input.end();
    await done;
  });
});

describe("a response too large to be made into text", () => {
  const tooLarge = {
    toJSON() {
      throw new RangeError("Invalid string length");
    },
  };

  it("is sent as an error response to the same request", () => {
    expect(JSON.parse(writeFrame({ jsonrpc: "2.0", id: 4, result: { huge: tooLarge } }))).toEqual({
      jsonrpc: "2.0",
      id: 4,
      error: { code: -32603, message: "Internal error: the response is too large to send" },
    });
  });

  it("throws to its sender when it is not a response", () => {
    expect(() =>
      writeFrame({ jsonrpc: "2.0", method: "notifications/message", params: { data: tooLarge } }),
    ).toThrow(RangeError);
  });
});
