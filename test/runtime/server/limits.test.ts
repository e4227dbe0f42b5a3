/**
 * What one client may make the server keep (templates/runtime/server/
 * limits.ts), each at the limit (kept) and one byte past it (refused with
 * -32602 naming the variable, nothing kept): a listen request's filter
 * (maxListenFilterBytes), what a 2025-era session keeps of `initialize`
 * (maxClientInfoBytes; a 3.75 MB `capabilities.experimental` is refused and
 * opens no session), and a session's resource subscriptions together
 * (maxListenFilterBytes). The limits come from the environment, checked.
 */
import { describe, expect, it } from "vitest";
import { jsonLengthWithin } from "../../../templates/runtime/core/limits.js";
import {
  McpHttpHandler,
  SERVER_LIMITS,
  serverLimitsFromEnvironment,
  serveHttp,
} from "../../../templates/runtime/index.js";
import { post, request, testServer } from "../../helpers/mcp-client.js";

describe("jsonLengthWithin", () => {
  it.each([
    ["an object", { a: [1, "two", null, true], b: { c: "" }, "d e": -1.5 }],
    ["an array", [[], {}, "x", 0]],
    ["a string", "hello"],
  ])("is the length of JSON.stringify for %s, and limit + 1 past the limit", (_, value) => {
    const length = JSON.stringify(value).length;
    expect(jsonLengthWithin(value, length)).toBe(length);
    expect(jsonLengthWithin(value, length - 1)).toBe(length);
  });

  it("stops counting once past the limit", () => {
    const big = Array.from({ length: 1_000_000 }, () => "x".repeat(10));
    expect(jsonLengthWithin(big, 100)).toBe(101);
  });
});

describe("limits from the environment", () => {
  it("default to 64 KiB each; the variables set them; a bad value names its variable", () => {
    expect(SERVER_LIMITS).toEqual({ maxListenFilterBytes: 65_536, maxClientInfoBytes: 65_536 });
    expect(serverLimitsFromEnvironment({})).toEqual(SERVER_LIMITS);
    expect(
      serverLimitsFromEnvironment({
        MCP_MAX_LISTEN_FILTER_BYTES: "1000",
        MCP_MAX_CLIENT_INFO_BYTES: "2000",
      }),
    ).toEqual({ maxListenFilterBytes: 1000, maxClientInfoBytes: 2000 });
    expect(() => serverLimitsFromEnvironment({ MCP_MAX_CLIENT_INFO_BYTES: "0" })).toThrow(
      'MCP_MAX_CLIENT_INFO_BYTES must be a whole number from 1 to 1073741824, not "0"',
    );
  });

  it("a server reads them when made without limits", () => {
    const saved = process.env.MCP_MAX_LISTEN_FILTER_BYTES;
    process.env.MCP_MAX_LISTEN_FILTER_BYTES = "1234";
    try {
      expect(testServer().limits.maxListenFilterBytes).toBe(1234);
      expect(testServer({ limits: { maxClientInfoBytes: 5 } }).limits).toEqual({
        maxListenFilterBytes: 65_536,
        maxClientInfoBytes: 5,
      });
    } finally {
      if (saved === undefined) delete process.env.MCP_MAX_LISTEN_FILTER_BYTES;
      else process.env.MCP_MAX_LISTEN_FILTER_BYTES = saved;
    }
  });
});

/** A padding string that makes `make(padding)` exactly `length` characters of JSON. */
function padTo(length: number, make: (padding: string) => unknown): string {
  const bare = JSON.stringify(make("")).length;
  return "x".repeat(length - bare);
}

describe("a listen filter", () => {
  const LIMIT = 300;
  const server = testServer({ limits: { maxListenFilterBytes: LIMIT } });
  server.resource({ uri: "file:///a", name: "a" }, (uri) => ({ contents: [{ uri, text: "" }] }));
  const filter = (padding: string) => ({
    resourceSubscriptions: ["file:///a", `file:///${padding}`],
  });

  it("of maxListenFilterBytes is acknowledged; one byte more is -32602 naming MCP_MAX_LISTEN_FILTER_BYTES", async () => {
    const { url, close } = await serveHttp(server, { port: 0 });
    try {
      const at = filter(padTo(LIMIT, filter));
      expect(JSON.stringify(at).length).toBe(LIMIT);
      const controller = new AbortController();
      const accepted = await fetch(url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2026-07-28",
          "mcp-method": "subscriptions/listen",
        },
        body: JSON.stringify(request("subscriptions/listen", { notifications: at }, 1)),
        signal: controller.signal,
      });
      expect(accepted.status).toBe(200);
      expect(accepted.headers.get("content-type")).toBe("text/event-stream");
      controller.abort();
      const past = filter(padTo(LIMIT + 1, filter));
      const refused = await post(url, request("subscriptions/listen", { notifications: past }, 2));
      expect(refused.body).toEqual({
        jsonrpc: "2.0",
        id: 2,
        error: {
          code: -32602,
          message: `Invalid params: the listen filter's keys take more than ${LIMIT} bytes as JSON, the most this server keeps (MCP_MAX_LISTEN_FILTER_BYTES)`,
          data: { limit: LIMIT },
        },
      });
    } finally {
      await close();
    }
  });

  it("of 1 MB is refused at the default limit, and nothing stays listening", async () => {
    const big = testServer();
    big.resource({ uri: "file:///a", name: "a" }, (uri) => ({ contents: [{ uri, text: "" }] }));
    const { url, close } = await serveHttp(big, { port: 0 });
    try {
      const uris = Array.from(
        { length: 20_000 },
        (_, i) => `file:///resource/${i}/${"y".repeat(30)}`,
      );
      const refused = await post(
        url,
        request("subscriptions/listen", { notifications: { resourceSubscriptions: uris } }, 3),
      );
      expect(refused.body).toMatchObject({ id: 3, error: { code: -32602 } });
      expect(big.changes.size).toBe(0);
    } finally {
      await close();
    }
  });
});

describe("a 2025-era session", () => {
  const LIMIT = 500;
  const legacy = (handler: McpHttpHandler, message: Record<string, unknown>, session?: string) =>
    handler.handle({
      method: "POST",
      path: "/mcp",
      header: (name) =>
        ({
          host: "localhost",
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...(session ? { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" } : {}),
        })[name.toLowerCase()],
      body: JSON.stringify(message),
      signal: new AbortController().signal,
    });
  /** The JSON-RPC answer of a reply: its JSON body, or the last message of its event stream. */
  const answerOf = async (
    reply: Awaited<ReturnType<typeof legacy>>,
  ): Promise<Record<string, unknown>> => {
    if (reply.kind === "body") return JSON.parse(reply.body) as Record<string, unknown>;
    let out = "";
    const ended = new Promise<void>((resolve) =>
      reply.stream.attach({
        write: (chunk) => void (out += chunk),
        finish: resolve,
        buffered: () => 0,
        abort: resolve,
      }),
    );
    await ended;
    const data = out.split("\n").filter((line) => line.startsWith("data: "));
    return JSON.parse(data.at(-1)!.slice(6)) as Record<string, unknown>;
  };
  const initialize = (padding: string) => ({
    capabilities: { experimental: { note: { text: padding } } },
    clientInfo: { name: "old", version: "1.0.0" },
  });

  it("keeps capabilities and clientInfo of maxClientInfoBytes; one byte more is -32602 and opens no session", async () => {
    const server = testServer({ limits: { maxClientInfoBytes: LIMIT } });
    const handler = new McpHttpHandler(server);
    const init = (params: Record<string, unknown>, id: number) =>
      legacy(handler, {
        jsonrpc: "2.0",
        id,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", ...params },
      });
    const at = initialize(padTo(LIMIT, initialize));
    expect(JSON.stringify(at).length).toBe(LIMIT);
    const opened = await init(at, 1);
    expect(opened.status).toBe(200);
    expect(opened.headers["mcp-session-id"]).toBeDefined();
    expect(handler.openSessions).toBe(1);
    const refused = await init(initialize(padTo(LIMIT + 1, initialize)), 2);
    expect(refused.headers["mcp-session-id"]).toBeUndefined();
    expect(await answerOf(refused)).toMatchObject({
      id: 2,
      error: {
        code: -32602,
        message: `Invalid params: the capabilities and clientInfo of initialize take more than ${LIMIT} bytes as JSON, the most this server keeps (MCP_MAX_CLIENT_INFO_BYTES)`,
      },
    });
    expect(handler.openSessions).toBe(1);
  });

  it("of 3.75 MB of capabilities.experimental is refused at the default limit", async () => {
    const handler = new McpHttpHandler(testServer());
    const reply = await legacy(handler, {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        ...initialize("z".repeat(3_750_000)),
      },
    });
    expect(await answerOf(reply)).toMatchObject({
      error: {
        code: -32602,
        message: expect.stringContaining("(MCP_MAX_CLIENT_INFO_BYTES)") as unknown,
      },
    });
    expect(handler.openSessions).toBe(0);
  });

  it("subscribes to resources while they take maxListenFilterBytes together; past it -32602", async () => {
    const server = testServer({ limits: { maxListenFilterBytes: 100 } });
    server.resourceTemplate({ uriTemplate: "file:///{name}", name: "files" }, (uri) => ({
      contents: [{ uri, text: "" }],
    }));
    const handler = new McpHttpHandler(server);
    const opened = await legacy(handler, {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", ...initialize("") },
    });
    const session = opened.headers["mcp-session-id"]!;
    const subscribe = async (uri: string, id: number) =>
      answerOf(
        await legacy(
          handler,
          { jsonrpc: "2.0", id, method: "resources/subscribe", params: { uri } },
          session,
        ),
      );
    // ["file:///aaaa…", "file:///bbbb…"] is 100 characters of JSON with 44 and 45 in the URIs.
    const first = `file:///${"a".repeat(36)}`;
    const second = `file:///${"b".repeat(100 - JSON.stringify([first, ""]).length - 8)}`;
    expect(JSON.stringify([first, second]).length).toBe(100);
    expect(await subscribe(first, 2)).toMatchObject({ result: {} });
    expect(await subscribe(second, 3)).toMatchObject({ result: {} });
    expect(await subscribe("file:///c", 4)).toMatchObject({
      error: {
        code: -32602,
        message: expect.stringContaining(
          "the session's resource subscriptions take more than 100 bytes",
        ) as unknown,
      },
    });
    expect(await subscribe(first, 5)).toMatchObject({ result: {} });
  });
});
