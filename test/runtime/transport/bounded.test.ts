/**
 * Bounded resources (templates/runtime/transport: sessions.ts,
 * event-stream.ts, lines.ts, stdio.ts): legacy sessions expire when idle
 * and are capped, and a failed initialize leaves none; event streams that
 * are never read are closed once they hold too much, so memory stays flat
 * under a flood of notifications; stdio bounds its lines, reads a last
 * line without a newline, and writes answers under way before it ends.
 */
import { connect, type Socket } from "node:net";
import { PassThrough } from "node:stream";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it, vi } from "vitest";
import {
  McpHttpHandler,
  serveHttp,
  serveStdio,
  type HttpRequest,
} from "../../../templates/runtime/index.js";
import { headersFor, LineReader, request, testServer, VERSION } from "../../helpers/mcp-client.js";
import { sleep, until } from "../../helpers/wait.js";

const INIT_PARAMS = {
  protocolVersion: "2025-11-25",
  capabilities: {},
  clientInfo: { name: "bounded-tests", version: "1.0.0" },
};

/** A POST to the core, without a network. */
function corePost(handler: McpHttpHandler, body: unknown, headers: Record<string, string> = {}) {
  const all: Record<string, string> = {
    host: "localhost",
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    ...headers,
  };
  const req: HttpRequest = {
    method: "POST",
    path: "/mcp",
    header: (name) => all[name.toLowerCase()],
    body: JSON.stringify(body),
    signal: new AbortController().signal,
  };
  return handler.handle(req);
}

async function initialize(handler: McpHttpHandler): Promise<string> {
  const reply = await corePost(handler, {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: INIT_PARAMS,
  });
  const id = reply.headers["mcp-session-id"];
  expect(id).toBeDefined();
  return id!;
}

function ping(handler: McpHttpHandler, session: string) {
  return corePost(
    handler,
    { jsonrpc: "2.0", id: 2, method: "ping" },
    { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" },
  );
}

describe("legacy sessions", () => {
  it("a failed initialize leaves no session behind and gets no session id", async () => {
    const server = testServer();
    const handler = new McpHttpHandler(server);
    const listenersBefore = server.changes.size;
    for (let i = 0; i < 500; i++) {
      const noId = await corePost(handler, {
        jsonrpc: "2.0",
        method: "initialize",
        params: { bad: 1 },
      });
      expect(noId.headers["mcp-session-id"]).toBeUndefined();
      const badParams = await corePost(handler, {
        jsonrpc: "2.0",
        id: i,
        method: "initialize",
        params: { protocolVersion: 7 },
      });
      expect(badParams.status).toBe(400);
      expect(badParams.headers["mcp-session-id"]).toBeUndefined();
    }
    expect(handler.openSessions).toBe(0);
    expect(server.changes.size).toBe(listenersBefore);
    await initialize(handler);
    expect(handler.openSessions).toBe(1);
  });

  it("a session idle past sessionIdleMs ends (404, so the client initializes again); one in use does not", async () => {
    // The sessions' clock is Date.now: moved by hand, so a loaded machine cannot stretch the steps.
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      const handler = new McpHttpHandler(testServer(), { sessionIdleMs: 300 });
      const idle = await initialize(handler);
      const used = await initialize(handler);
      for (let i = 0; i < 5; i++) {
        vi.setSystemTime(Date.now() + 100);
        expect((await ping(handler, used)).status).toBe(200);
      }
      expect((await ping(handler, idle)).status).toBe(404);
      expect(handler.openSessions).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it("at maxSessions a new session ends the least recently used one", async () => {
    const handler = new McpHttpHandler(testServer(), { maxSessions: 3 });
    const [a, b, c] = [
      await initialize(handler),
      await initialize(handler),
      await initialize(handler),
    ];
    expect((await ping(handler, a)).status).toBe(200); // b is now the least recently used
    const d = await initialize(handler);
    expect(handler.openSessions).toBe(3);
    expect((await ping(handler, b)).status).toBe(404);
    for (const id of [a, c, d]) expect((await ping(handler, id)).status).toBe(200);
  });
});

describe("event streams nobody reads", () => {
  it(
    "a flood of notifications at 10 unread streams leaves memory flat; a client that reads gets every one",
    { timeout: 60_000 },
    async () => {
      setFlagsFromString("--expose-gc");
      const gc = runInNewContext("gc") as () => void;
      const server = testServer();
      server.tool({ name: "noop", inputSchema: { type: "object" } }, () => ({ content: [] }));
      const running = await serveHttp(server, { port: 0, maxStreamBufferBytes: 256 * 1024 });
      const port = Number(new URL(running.url).port);
      try {
        const listen = request("subscriptions/listen", {
          notifications: { toolsListChanged: true },
        });
        // Five listen streams and five legacy standalone (GET) streams, opened and never read.
        const unread: Socket[] = [];
        for (let i = 0; i < 5; i++) unread.push(await rawOpen(port, postText(listen)));
        const handlerSessions: string[] = [];
        for (let i = 0; i < 5; i++) {
          const init = await fetch(running.url, {
            method: "POST",
            headers: {
              "content-type": "application/json",
              accept: "application/json, text/event-stream",
            },
            body: JSON.stringify({
              jsonrpc: "2.0",
              id: 1,
              method: "initialize",
              params: INIT_PARAMS,
            }),
          });
          await init.text();
          const session = init.headers.get("mcp-session-id")!;
          handlerSessions.push(session);
          unread.push(
            await rawOpen(
              port,
              `GET /mcp HTTP/1.1\r\nhost: localhost\r\naccept: text/event-stream\r\nmcp-session-id: ${session}\r\nmcp-protocol-version: 2025-11-25\r\n\r\n`,
            ),
          );
        }
        // One client that reads, on a listen stream of its own.
        const reader = await fetch(running.url, {
          method: "POST",
          headers: headersFor(listen),
          body: JSON.stringify(listen),
        });
        const body: ReadableStreamDefaultReader<Uint8Array> = reader.body!.getReader();
        let received = 0;
        const reading = (async () => {
          const decoder = new TextDecoder();
          // Whole events only: a chunk may end in the middle of one.
          let pending = "";
          for (;;) {
            const { value, done } = await body.read();
            if (done) return;
            pending += decoder.decode(value, { stream: true });
            const events = pending.split("\n\n");
            pending = events.pop()!;
            received += events.filter((e) => e.includes("notifications/tools/list_changed")).length;
          }
        })();
        await sleep(200);
        gc();
        const before = process.memoryUsage().heapUsed;
        const FLOOD = 40_000;
        for (let i = 0; i < FLOOD; i++) {
          server.notifyToolsChanged();
          if (i % 500 === 499) await new Promise((r) => setImmediate(r));
        }
        await until(() => received >= FLOOD, {
          what: `${FLOOD} notifications read`,
          timeoutMs: 60_000,
          everyMs: 20,
        });
        gc();
        const after = process.memoryUsage().heapUsed;
        const growthMiB = (after - before) / 1024 / 1024;
        // Unbounded, 10 streams x 40,000 notifications of ~150 bytes held about 60 MiB.
        expect(growthMiB, `heap grew ${growthMiB.toFixed(1)} MiB`).toBeLessThan(15);
        // The unread streams were closed; only the reader's listen stream and the 5 sessions still listen.
        expect(server.changes.size).toBe(1 + 5);
        expect(received).toBe(FLOOD);
        for (const socket of unread) socket.destroy();
        await body.cancel();
        await reading.catch(() => {});
      } finally {
        await running.close();
      }
    },
  );
});

describe("stdio limits and end of input", () => {
  function start(options: { maxLineBytes?: number } = {}) {
    const server = testServer();
    server.tool({ name: "slow", inputSchema: { type: "object" } }, async () => {
      await sleep(300);
      return { content: [{ type: "text", text: "done" }] };
    });
    const input = new PassThrough();
    const output = new PassThrough();
    const served = serveStdio(server, { input, output, ...options });
    return { input, served, lines: new LineReader(output) };
  }
  const discover = JSON.stringify(request("server/discover", {}, 1));

  it("drops a line longer than the limit as it arrives, answers -32600 naming the limit, and goes on", async () => {
    const { input, served, lines } = start({ maxLineBytes: 10_000 });
    for (let i = 0; i < 50; i++) input.write("x".repeat(1000)); // 50 kB, no newline yet
    input.write("\n");
    input.write(`${discover}\n`);
    expect(await lines.next()).toMatchObject({
      id: null,
      error: {
        code: -32600,
        data: { reason: expect.stringContaining("longer than 10000 bytes") as unknown },
      },
    });
    expect(await lines.next()).toMatchObject({ id: 1, result: { supportedVersions: [VERSION] } });
    input.end();
    await served;
  });

  it("answers a last line that has no newline", async () => {
    const { input, served, lines } = start();
    input.end(discover);
    expect(await lines.next()).toMatchObject({ id: 1, result: {} });
    await served;
  });

  it("writes the answers of requests under way before it ends, when stdin closes", async () => {
    const { input, served, lines } = start();
    const call = request("tools/call", { name: "slow", arguments: {} }, 9);
    input.end(`${JSON.stringify(call)}\n`);
    await served;
    expect(lines.pending).toBe(1);
    expect(await lines.next()).toMatchObject({ id: 9, result: { content: [{ text: "done" }] } });
  });

  it("reads a line whose characters are split across chunks", async () => {
    const { input, served, lines } = start();
    const text = Buffer.from(
      `${JSON.stringify(request("server/discover", { _meta: { note: "héllo ✓" } }, 3))}\n`,
    );
    const cut = text.indexOf(Buffer.from("✓")) + 1;
    input.write(text.subarray(0, cut));
    input.write(text.subarray(cut));
    expect(await lines.next()).toMatchObject({ id: 3 });
    input.end();
    await served;
  });
});

function postText(message: Record<string, unknown>): string {
  const body = JSON.stringify(message);
  const headers = Object.entries(headersFor(message))
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join("");
  return `POST /mcp HTTP/1.1\r\nhost: localhost\r\n${headers}content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

/** Opens a connection, sends `text`, and never reads what comes back. */
function rawOpen(port: number, text: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => {
      socket.pause();
      socket.write(text, () => resolve(socket));
    });
    socket.on("error", () => {});
    socket.once("error", reject);
  });
}
