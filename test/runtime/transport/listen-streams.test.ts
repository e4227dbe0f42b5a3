/**
 * The streams that never end by themselves (transport/streams.ts, http.ts):
 * listen streams and 2025-era GET streams. One client holds at most
 * maxListenStreamsPerClient of them and the endpoint maxListenStreams (429
 * past either, at the limit and one past it); a stream that sent no message
 * for listenIdleMs ends with its closing result although keep-alive comments
 * flow, and one open listenLifetimeMs ends although messages flow; at
 * shutdown a listen stream gets its closing result too. serveHttp keeps the
 * streams below its connection cap, so a client opening streams by the
 * hundred never keeps tools/list from being answered. A session holds one
 * GET stream, and DELETE ends it. Real HTTP on 127.0.0.1.
 */
import { afterEach, describe, expect, it } from "vitest";
import {
  httpSettingsFromEnvironment,
  McpHttpHandler,
  serveHttp,
  SettingError,
  type HttpOptions,
  type RunningHttpServer,
} from "../../../templates/runtime/index.js";
import { withStreamCap } from "../../../templates/runtime/transport/node.js";
import {
  openRequestStream,
  openStream,
  post,
  request,
  testServer,
  type OpenStream,
} from "../../helpers/mcp-client.js";
import { sleep, until } from "../../helpers/wait.js";

const SUBSCRIPTION = "io.modelcontextprotocol/subscriptionId";
const running: RunningHttpServer[] = [];
const opened: OpenStream[] = [];

afterEach(async () => {
  for (const stream of opened.splice(0)) stream.close();
  await Promise.all(running.splice(0).map((r) => r.close()));
});

/** A server with a tool (so tools/list_changed can be listened for) over real HTTP. */
async function start(options: Parameters<typeof serveHttp>[1] = {}) {
  const server = testServer();
  server.tool({ name: "noop", inputSchema: { type: "object" } }, () => ({ content: [] }));
  const http = await serveHttp(server, { port: 0, ...options });
  running.push(http);
  return { server, url: http.url, http };
}

/** Opens a listen stream for tools/list_changed; the stream (its acknowledgment not read yet). */
async function listen(url: string, id: number): Promise<OpenStream> {
  const stream = await openStream(
    url,
    request("subscriptions/listen", { notifications: { toolsListChanged: true } }, id),
  );
  opened.push(stream);
  return stream;
}

describe("how many listen streams", () => {
  it("one client holds 16 (MCP_MAX_LISTEN_STREAMS_PER_CLIENT's default); the 17th is 429, and one closed makes room", async () => {
    const { url } = await start();
    const streams: OpenStream[] = [];
    for (let id = 1; id <= 16; id++) streams.push(await listen(url, id));
    for (const stream of streams) {
      expect(stream.status).toBe(200);
      expect(await stream.next()).toMatchObject({
        method: "notifications/subscriptions/acknowledged",
      });
    }
    const refused = await post(
      url,
      request("subscriptions/listen", { notifications: { toolsListChanged: true } }, 17),
    );
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({
      id: 17,
      error: {
        code: -32600,
        message: expect.stringContaining(
          "this client holds 16 listen or GET streams, the most one client may (MCP_MAX_LISTEN_STREAMS_PER_CLIENT)",
        ) as unknown,
      },
    });
    streams[0]!.close();
    const again = await until(
      async () => {
        const stream = await listen(url, 18);
        return stream.status === 200 ? stream : undefined;
      },
      { what: "room for a new stream" },
    );
    expect(await again.next()).toMatchObject({
      method: "notifications/subscriptions/acknowledged",
    });
  });

  it("the endpoint holds maxListenStreams of every client together: at the limit served, one past 429 naming MCP_MAX_LISTEN_STREAMS", async () => {
    const server = testServer();
    const handler = new McpHttpHandler(server, { maxListenStreams: 3 });
    const controllers: AbortController[] = [];
    const listenAs = async (peer: string, id: number) => {
      const controller = new AbortController();
      controllers.push(controller);
      const message = request("subscriptions/listen", { notifications: {} }, id);
      return handler.handle({
        method: "POST",
        path: "/mcp",
        header: (name) =>
          ({
            host: "localhost",
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            "mcp-protocol-version": "2026-07-28",
            "mcp-method": "subscriptions/listen",
          })[name.toLowerCase()],
        body: JSON.stringify(message),
        signal: controller.signal,
        peer,
      });
    };
    try {
      for (const [peer, id] of [
        ["10.0.0.1", 1],
        ["10.0.0.2", 2],
        ["10.0.0.3", 3],
      ] as const)
        expect((await listenAs(peer, id)).status).toBe(200);
      expect(handler.openStreams).toBe(3);
      const refused = await listenAs("10.0.0.4", 4);
      expect(refused.status).toBe(429);
      expect(refused.kind === "body" && JSON.parse(refused.body)).toMatchObject({
        error: {
          message: expect.stringContaining(
            "the server holds 3 listen or GET streams, the most it keeps open (MCP_MAX_LISTEN_STREAMS)",
          ) as unknown,
        },
      });
      controllers[0]!.abort();
      await until(() => handler.openStreams === 2, { what: "the closed stream forgotten" });
      expect((await listenAs("10.0.0.4", 5)).status).toBe(200);
    } finally {
      for (const controller of controllers) controller.abort();
    }
  });

  it("serveHttp keeps streams below its connection cap: half of it by default, and a setting at the cap stops the start", async () => {
    await expect(
      serveHttp(testServer(), { port: 0, maxConnections: 10, maxListenStreams: 10 }),
    ).rejects.toThrow(SettingError);
    expect(() =>
      httpSettingsFromEnvironment({ MCP_MAX_CONNECTIONS: "100", MCP_MAX_LISTEN_STREAMS: "100" }),
    ).toThrow(/MCP_MAX_LISTEN_STREAMS \(100\) must be below MCP_MAX_CONNECTIONS \(100\)/);
    expect(
      httpSettingsFromEnvironment({ MCP_MAX_CONNECTIONS: "100", MCP_MAX_LISTEN_STREAMS: "99" })
        .maxListenStreams,
    ).toBe(99);
    // Unset, the settings leave it out, and serveHttp fills in its default.
    expect(httpSettingsFromEnvironment({}).maxListenStreams).toBeUndefined();
    expect(withStreamCap(httpSettingsFromEnvironment({})).maxListenStreams).toBe(500);
    expect(
      withStreamCap(httpSettingsFromEnvironment({ MCP_MAX_CONNECTIONS: "40" })).maxListenStreams,
    ).toBe(20);
  });

  it("a client opening streams until refused never fills the connection cap: tools/list is still answered", async () => {
    const { url } = await start({ maxConnections: 24, maxListenStreamsPerClient: 100 });
    const streams = await Promise.all(Array.from({ length: 40 }, (_, i) => listen(url, i + 1)));
    const statuses = streams.map((s) => s.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(12);
    expect(statuses.filter((status) => status === 429)).toHaveLength(28);
    const listed = await post(url, request("tools/list", {}, 99));
    expect(listed.status).toBe(200);
    expect(listed.body).toMatchObject({ result: { tools: [{ name: "noop" }] } });
  });
});

describe("how long a listen stream lasts", () => {
  it("one that sent nothing for listenIdleMs ends with its closing result, though keep-alive comments flowed", async () => {
    const { url } = await start({ listenIdleMs: 400, keepAliveMs: 50 });
    const stream = await listen(url, 7);
    expect(await stream.next()).toMatchObject({
      method: "notifications/subscriptions/acknowledged",
    });
    const started = Date.now();
    expect(await stream.next(5000)).toEqual({
      jsonrpc: "2.0",
      id: 7,
      result: {
        resultType: "complete",
        _meta: {
          "io.modelcontextprotocol/serverInfo": { name: "runtime-tests", version: "1.0.0" },
          [SUBSCRIPTION]: 7,
        },
      },
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    await stream.ended;
  });

  it("one whose notifications keep coming outlives listenIdleMs, and ends at listenLifetimeMs", async () => {
    const { url, server } = await start({ listenIdleMs: 300, listenLifetimeMs: 1500 });
    const stream = await listen(url, 8);
    await stream.next();
    const ticker = setInterval(() => server.notifyToolsChanged(), 100);
    try {
      const seen: Array<Record<string, unknown>> = [];
      const started = Date.now();
      for (;;) {
        const message = await stream.next(5000);
        seen.push(message);
        if ("id" in message) break;
      }
      expect(Date.now() - started).toBeGreaterThan(1000);
      expect(
        seen.filter((m) => m.method === "notifications/tools/list_changed").length,
      ).toBeGreaterThan(4);
      expect(seen.at(-1)).toMatchObject({ id: 8, result: { _meta: { [SUBSCRIPTION]: 8 } } });
    } finally {
      clearInterval(ticker);
    }
  });

  it("at shutdown a listen stream gets its closing result before its connection closes", async () => {
    const { url, http } = await start();
    const stream = await listen(url, 9);
    await stream.next();
    const stopped = http.shutdown(2000);
    expect(await stream.next(5000)).toMatchObject({
      id: 9,
      result: { resultType: "complete", _meta: { [SUBSCRIPTION]: 9 } },
    });
    expect(await stopped).toBe(true);
  });
});

describe("2025-era GET streams", () => {
  const legacyHeaders = (session?: string): Record<string, string> => ({
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": "2025-11-25",
    ...(session ? { "mcp-session-id": session } : {}),
  });

  async function session(url: string): Promise<string> {
    const opened = await post(
      url,
      {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-11-25",
          capabilities: {},
          clientInfo: { name: "old", version: "1" },
        },
      },
      { "mcp-method": undefined, "mcp-protocol-version": undefined },
    );
    return opened.headers.get("mcp-session-id")!;
  }

  const get = async (url: string, id: string) => {
    const stream = await openRequestStream(url, { method: "GET", headers: legacyHeaders(id) });
    opened.push(stream);
    return stream;
  };

  it("count as streams of their client, one per session (a new one ends the one it replaces), and end with DELETE", async () => {
    const { url } = await start({ maxListenStreamsPerClient: 2 });
    const id = await session(url);
    const first = await get(url, id);
    expect(first.status).toBe(200);
    const second = await get(url, id);
    expect(second.status).toBe(200);
    await first.ended;
    const listening = await listen(url, 3);
    expect(listening.status).toBe(200);
    const refused = await get(url, id);
    expect(refused.status).toBe(429);
    const deleted = await fetch(url, { method: "DELETE", headers: legacyHeaders(id) });
    expect([deleted.status, await deleted.text()]).toEqual([200, ""]);
    await second.ended;
  });

  it("end once idle for listenIdleMs, keep-alive comments aside", async () => {
    const { url } = await start({ listenIdleMs: 300, keepAliveMs: 50 });
    const id = await session(url);
    const stream = await get(url, id);
    const started = Date.now();
    await stream.ended;
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
    await sleep(10);
  });
});

describe("the settings", () => {
  it("come from MCP_MAX_LISTEN_STREAMS_PER_CLIENT, MCP_MAX_LISTEN_STREAMS, MCP_LISTEN_IDLE_MS, MCP_LISTEN_LIFETIME_MS and MCP_MAX_BATCH_ITEMS", () => {
    const settings: HttpOptions = httpSettingsFromEnvironment({
      MCP_MAX_LISTEN_STREAMS_PER_CLIENT: "4",
      MCP_MAX_LISTEN_STREAMS: "40",
      MCP_LISTEN_IDLE_MS: "60000",
      MCP_LISTEN_LIFETIME_MS: "120000",
      MCP_MAX_BATCH_ITEMS: "10",
    });
    expect(settings).toMatchObject({
      maxListenStreamsPerClient: 4,
      maxListenStreams: 40,
      listenIdleMs: 60_000,
      listenLifetimeMs: 120_000,
      maxBatchItems: 10,
    });
    expect(() => httpSettingsFromEnvironment({ MCP_LISTEN_IDLE_MS: "10" })).toThrow(
      'MCP_LISTEN_IDLE_MS must be a whole number from 1000 to 86400000, not "10"',
    );
  });
});
