/**
 * Streamable HTTP beyond the request headers (templates/runtime/transport/http.ts),
 * over real HTTP on 127.0.0.1: DNS-rebinding protection (Host and
 * Origin), the body limit, methods other than POST, a whole legacy
 * (2025-11-25) session, and the Fetch adapter.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchHandler, McpHttpHandler, serveHttp } from "../../../templates/runtime/index.js";
import {
  headersFor,
  legacy,
  post,
  protocol,
  raw,
  readBody,
  request,
  send,
  testServer,
  VERSION,
} from "../../helpers/mcp-client.js";
import { sleep } from "../../helpers/wait.js";

function weatherServer() {
  const server = testServer();
  server.tool(
    {
      name: "get_weather",
      inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    },
    (args, ctx) => {
      ctx.log("info", `looking up ${String(args.city)}`);
      return { content: [{ type: "text", text: `sunny in ${String(args.city)}` }] };
    },
  );
  return server;
}

const server = weatherServer();
let url: string;
let port: string;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ url, close } = await serveHttp(server, { port: 0, maxBodyBytes: 4096 }));
  port = new URL(url).port;
});
afterAll(() => close());

const discover = JSON.stringify(request("server/discover"));
const discoverHeaders = { ...headersFor(request("server/discover")) };

describe("HTTP: Host and Origin (DNS rebinding)", () => {
  it.each([
    ["Host 127.0.0.1:<port>", { host: "127.0.0.1:PORT" }],
    ["Host localhost:<port>", { host: "localhost:PORT" }],
    ["Host [::1]:<port>", { host: "[::1]:PORT" }],
    ["Host localhost without a port", { host: "localhost" }],
    [
      "Origin http://localhost:<other port>",
      { host: "127.0.0.1:PORT", origin: "http://localhost:5173" },
    ],
    ["Origin http://[::1]:<port>", { host: "127.0.0.1:PORT", origin: "http://[::1]:PORT" }],
  ])("accepts %s", async (_title, headers) => {
    const reply = await raw(url, {
      headers: { ...discoverHeaders, ...withPort(headers) },
      body: discover,
    });
    expect(reply.status).toBe(200);
  });

  it.each([
    ["a Host naming another machine (a rebound DNS name)", { host: "attacker.example:PORT" }],
    ["a Host whose name merely starts with localhost", { host: "localhost.attacker.example" }],
    ["an Origin of another site", { host: "127.0.0.1:PORT", origin: "http://attacker.example" }],
    [
      "an Origin that is only a subdomain of localhost's name",
      { host: "127.0.0.1:PORT", origin: "http://localhost.attacker.example:PORT" },
    ],
    ["the opaque Origin null", { host: "127.0.0.1:PORT", origin: "null" }],
    ["an Origin that is not a URL", { host: "127.0.0.1:PORT", origin: "not a url" }],
  ])("refuses %s with 403 and an error without id", async (_title, headers) => {
    const reply = await raw(url, {
      headers: { ...discoverHeaders, ...withPort(headers) },
      body: discover,
    });
    expect(reply.status).toBe(403);
    const body = JSON.parse(reply.text) as {
      id: unknown;
      error: { code: number; message: string };
    };
    expect(body.id).toBeNull();
    expect(body.error.code).toBe(-32000);
    expect(body.error.message).toMatch(
      !("origin" in headers)
        ? /^Forbidden: the Host header .*ALLOWED_HOSTS/
        : /^Forbidden: the Origin header .*ALLOWED_ORIGINS/,
    );
  });

  it("refuses a request without a Host header (node:http already refuses it with 400; the core itself with 403)", async () => {
    expect(
      (await raw(url, { headers: discoverHeaders, body: discover, setHost: false })).status,
    ).toBe(400);
    const core = new McpHttpHandler(server);
    const headers: Record<string, string> = { ...discoverHeaders };
    const reply = await core.handle({
      method: "POST",
      path: "/mcp",
      header: (n) => headers[n],
      body: discover,
      signal: new AbortController().signal,
    });
    expect(reply).toMatchObject({ kind: "body", status: 403 });
  });

  it("checks GET and DELETE too, before anything else", async () => {
    for (const method of ["GET", "DELETE"]) {
      const reply = await raw(url, { method, headers: { host: `attacker.example:${port}` } });
      expect(reply.status).toBe(403);
    }
  });

  it('allowedHosts names the hosts a deployment answers to; "any" turns the check off', async () => {
    const named = await serveHttp(weatherServer(), { port: 0, allowedHosts: ["mcp.example.com"] });
    const open = await serveHttp(weatherServer(), { port: 0, allowedHosts: "any" });
    try {
      expect(
        (
          await raw(named.url, {
            headers: { ...discoverHeaders, host: "mcp.example.com" },
            body: discover,
          })
        ).status,
      ).toBe(200);
      expect(
        (
          await raw(named.url, {
            headers: {
              ...discoverHeaders,
              host: "mcp.example.com",
              origin: "https://mcp.example.com",
            },
            body: discover,
          })
        ).status,
      ).toBe(200);
      expect((await raw(named.url, { headers: discoverHeaders, body: discover })).status).toBe(403);
      expect(
        (
          await raw(open.url, {
            headers: {
              ...discoverHeaders,
              host: "attacker.example",
              origin: "http://attacker.example",
            },
            body: discover,
          })
        ).status,
      ).toBe(200);
    } finally {
      await named.close();
      await open.close();
    }
  });
});

describe("HTTP: guards of the options", () => {
  it("run after the built-in ones, in order; the first reply refuses the request, before its body is read", async () => {
    const seen: string[] = [];
    const handler = new McpHttpHandler(weatherServer(), {
      guards: [
        (request) => {
          seen.push(`first ${request.path}`);
          return undefined;
        },
        async (request) => {
          seen.push("second");
          await sleep(1);
          return request.header("authorization") === "Bearer letmein"
            ? undefined
            : {
                kind: "body",
                status: 401,
                headers: { "www-authenticate": "Bearer" },
                body: "",
              };
        },
      ],
    });
    const handle = fetchHandler(handler);
    const attempt = (headers: Record<string, string>, path = "/mcp") =>
      handle(
        new Request(`http://localhost:8080${path}`, {
          method: "POST",
          headers: { ...discoverHeaders, ...headers },
          body: "{ not even JSON",
        }),
      );
    const refused = await attempt({});
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toBe("Bearer");
    expect((await attempt({}, "/elsewhere")).status).toBe(404);
    expect(seen).toEqual(["first /mcp", "second"]);
    expect((await attempt({ authorization: "Bearer letmein" })).status).toBe(400);
  });
});

describe("HTTP: statuses of protocol errors (transport/status.ts)", () => {
  it("-32021 from a handler asking for input the request's capabilities do not declare is 400; a handler's -32602 is 200", async () => {
    const server = testServer();
    server.tool({ name: "ask", inputSchema: { type: "object" } }, async (_args, ctx) => {
      await ctx.elicit("name", { message: "Name?", requestedSchema: { type: "object" } });
      return { content: [] };
    });
    const handle = fetchHandler(new McpHttpHandler(server));
    const call = async (name: string) => {
      const message = request("tools/call", { name, arguments: {} });
      const response = await handle(
        new Request("http://localhost/mcp", {
          method: "POST",
          headers: headersFor(message),
          body: JSON.stringify(message),
        }),
      );
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    const asked = await call("ask");
    expect(asked.status).toBe(400);
    expect(asked.body).toMatchObject({ error: { code: -32021 } });
    const unknown = await call("nope");
    expect(unknown.status).toBe(200);
    expect(unknown.body).toMatchObject({ error: { code: -32602, message: "Unknown tool: nope" } });
  });
});

describe("HTTP: body limit", () => {
  it("answers a body over maxBodyBytes with 413 and a JSON-RPC error, and keeps serving", async () => {
    const big = JSON.stringify(
      request("tools/call", { name: "get_weather", arguments: { city: "x".repeat(5000) } }),
    );
    const reply = await post(url, big, headersFor(request("tools/call", { name: "get_weather" })));
    expect(reply.status).toBe(413);
    expect(reply.body).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32600, message: "Request body too large" },
    });
    expect((await post(url, request("server/discover"))).status).toBe(200);
  });

  it("accepts a body of exactly maxBodyBytes", async () => {
    const message = request("tools/call", { name: "get_weather", arguments: { city: "" } });
    const padding = 4096 - Buffer.byteLength(JSON.stringify(message));
    const exact = JSON.stringify(
      request("tools/call", { name: "get_weather", arguments: { city: "y".repeat(padding) } }),
    );
    expect(Buffer.byteLength(exact)).toBe(4096);
    const reply = await post(
      url,
      exact,
      headersFor(request("tools/call", { name: "get_weather" })),
    );
    expect(reply.status).toBe(200);
    expect(reply.body).toHaveProperty(
      ["result", "content", 0, "text"],
      `sunny in ${"y".repeat(padding)}`,
    );
  });

  it("a body over the limit sent in many chunks is refused too", async () => {
    const reply = await raw(url, {
      headers: { ...discoverHeaders, "transfer-encoding": "chunked" },
      body: Buffer.alloc(64 * 1024, 0x20),
    });
    expect(reply.status).toBe(413);
  });
});

describe("HTTP: methods and paths", () => {
  it.each(["GET", "DELETE"])(
    "%s without a session is 405 Method Not Allowed (the modern era has no session)",
    async (method) => {
      const reply = await send(url, { method });
      expect(reply.status).toBe(405);
      expect(reply.headers.get("allow")).toBe("POST");
    },
  );

  it("PUT is 405 and names the methods the endpoint allows", async () => {
    const reply = await send(url, { method: "PUT", body: "{}" });
    expect(reply.status).toBe(405);
    expect(reply.headers.get("allow")).toBe("POST, GET, DELETE");
  });

  it("any other path is 404", async () => {
    const reply = await send(url.replace(/\/mcp$/, "/other"), {
      method: "POST",
      headers: discoverHeaders,
      body: discover,
    });
    expect(reply.status).toBe(404);
  });

  it("an Mcp-Session-Id on a modern request is ignored (no session is minted or echoed)", async () => {
    const reply = await post(url, request("server/discover"), { "mcp-session-id": "made-up" });
    expect(reply.status).toBe(200);
    expect(reply.headers.get("mcp-session-id")).toBeNull();
  });

  it.each([
    ["unparsable JSON", "{", 400, -32700],
    ["a batch", "[]", 400, -32600],
    ["a JSON value that is not an object", "42", 400, -32600],
  ])("%s is refused", async (_title, body, status, code) => {
    const reply = await post(url, body, { "mcp-method": undefined });
    expect(reply.status).toBe(status);
    expect(reply.body).toMatchObject({ jsonrpc: "2.0", id: null, error: { code } });
  });
});

describe("HTTP: a legacy (2025-11-25) session", () => {
  const legacyPost = (message: Record<string, unknown>, session?: string) =>
    post(url, message, {
      "mcp-protocol-version": session ? "2025-11-25" : undefined,
      "mcp-method": undefined,
      "mcp-name": undefined,
      ...(session ? { "mcp-session-id": session } : {}),
    });

  it("initialize → Mcp-Session-Id; initialized → 202; tools/call over SSE; DELETE → later requests 404", async () => {
    const init = await legacyPost({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "old", version: "1" },
      },
    });
    expect(init.status).toBe(200);
    expect(init.headers.get("content-type")).toBe("text/event-stream");
    const session = init.headers.get("mcp-session-id")!;
    expect(session).toMatch(/^[0-9a-f-]{36}$/);
    expect(init.body).toMatchObject({
      id: 1,
      result: {
        protocolVersion: "2025-11-25",
        serverInfo: { name: "runtime-tests" },
        capabilities: { tools: { listChanged: true } },
      },
    });
    expect(legacy.parseResponse(init.body, "initialize")).toMatchObject({ ok: true });

    const initialized = await legacyPost(
      { jsonrpc: "2.0", method: "notifications/initialized" },
      session,
    );
    expect(initialized.status).toBe(202);
    expect(initialized.text).toBe("");

    await legacyPost(
      { jsonrpc: "2.0", id: 2, method: "logging/setLevel", params: { level: "info" } },
      session,
    );
    const called = await legacyPost(
      {
        jsonrpc: "2.0",
        id: 3,
        method: "tools/call",
        params: { name: "get_weather", arguments: { city: "Oslo" } },
      },
      session,
    );
    expect(called.status).toBe(200);
    expect(called.headers.get("content-type")).toBe("text/event-stream");
    expect(called.headers.get("mcp-session-id")).toBe(session);
    expect(called.messages).toEqual([
      {
        jsonrpc: "2.0",
        method: "notifications/message",
        params: { level: "info", data: "looking up Oslo" },
      },
      { jsonrpc: "2.0", id: 3, result: { content: [{ type: "text", text: "sunny in Oslo" }] } },
    ]);

    const ended = await send(url, { method: "DELETE", headers: { "mcp-session-id": session } });
    expect(ended.status).toBe(200);
    const after = await legacyPost({ jsonrpc: "2.0", id: 4, method: "tools/list" }, session);
    expect(after.status).toBe(404);
    expect(after.body.error).toMatchObject({ code: -32600, message: "Session not found" });
    expect(
      (await send(url, { method: "DELETE", headers: { "mcp-session-id": session } })).status,
    ).toBe(404);
    expect(
      (await send(url, { method: "GET", headers: { "mcp-session-id": session } })).status,
    ).toBe(404);
  });

  it("a legacy request without a session is 400; with an unknown one, 404", async () => {
    const none = await legacyPost({ jsonrpc: "2.0", id: 1, method: "tools/list" });
    expect(none.status).toBe(400);
    expect(none.body).toHaveProperty(
      ["error", "message"],
      "Bad Request: no Mcp-Session-Id (send initialize first)",
    );
    const unknown = await legacyPost(
      { jsonrpc: "2.0", id: 1, method: "tools/list" },
      "00000000-0000-0000-0000-000000000000",
    );
    expect(unknown.status).toBe(404);
  });

  it("a batch is served only in a session that negotiated 2025-03-26: answers on one stream; elsewhere 400", async () => {
    const open = async (protocolVersion: string) => {
      const init = await legacyPost({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion, capabilities: {}, clientInfo: { name: "old", version: "1" } },
      });
      return init.headers.get("mcp-session-id")!;
    };
    const batch = (session: string, items: unknown[]) =>
      post(url, JSON.stringify(items), {
        "mcp-method": undefined,
        "mcp-protocol-version": undefined,
        "mcp-session-id": session,
      });
    const old = await open("2025-03-26");
    const served = await batch(old, [
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", id: "a", method: "tools/list" },
      {
        jsonrpc: "2.0",
        id: "b",
        method: "tools/call",
        params: { name: "get_weather", arguments: { city: "Rome" } },
      },
      42,
    ]);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("text/event-stream");
    const byId = new Map(served.messages.map((m) => [m.id, m]));
    expect(byId.get("a")).toMatchObject({ result: { tools: [{ name: "get_weather" }] } });
    expect(byId.get("b")).toMatchObject({ result: { content: [{ text: "sunny in Rome" }] } });
    expect(byId.get(null)).toMatchObject({ error: { code: -32600 } });
    expect(served.messages).toHaveLength(3);

    expect(
      (await batch(old, [{ jsonrpc: "2.0", method: "notifications/initialized" }])).status,
    ).toBe(202);
    const empty = await batch(old, []);
    expect(empty.status).toBe(400);
    expect(empty.body).toMatchObject({ error: { data: { reason: "the batch is empty" } } });
    const withInitialize = await batch(old, [
      { jsonrpc: "2.0", id: 1, method: "initialize", params: {} },
    ]);
    expect(withInitialize.body).toMatchObject({
      error: { data: { reason: "initialize must not be part of a batch" } },
    });

    const current = await open("2025-11-25");
    const refused = await batch(current, [{ jsonrpc: "2.0", id: "a", method: "tools/list" }]);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      error: {
        code: -32600,
        data: { reason: "batches are not supported (only a 2025-03-26 session may send them)" },
      },
    });
    expect((await batch("00000000-0000-0000-0000-000000000000", [])).status).toBe(404);
  });

  it("a modern request on the same endpoint is still served statelessly", async () => {
    const reply = await post(url, request("server/discover"));
    expect(reply.body).toHaveProperty(["result", "supportedVersions"], [VERSION]);
    expect(protocol.parseResponse(reply.body, "server/discover")).toMatchObject({ ok: true });
  });
});

describe("HTTP: the Fetch adapter", () => {
  const handle = fetchHandler(new McpHttpHandler(weatherServer(), { maxBodyBytes: 4096 }));
  const fetchRequest = (message: Record<string, unknown>, headers: Record<string, string> = {}) =>
    new Request("http://localhost:8080/mcp", {
      method: "POST",
      headers: { ...headersFor(message), ...headers },
      body: JSON.stringify(message),
    });

  it("answers a tools/call Request with a Response (an event stream, as the handler logs)", async () => {
    const message = request("tools/call", {
      name: "get_weather",
      arguments: { city: "Lima" },
      _meta: { "io.modelcontextprotocol/logLevel": "info" },
    });
    const response = await handle(fetchRequest(message));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const messages = readBody(await response.text(), response.headers.get("content-type"));
    expect(messages[0]).toEqual({
      jsonrpc: "2.0",
      method: "notifications/message",
      params: { level: "info", data: "looking up Lima" },
    });
    expect(messages[1]).toMatchObject({
      id: 1,
      result: { resultType: "complete", content: [{ type: "text", text: "sunny in Lima" }] },
    });
    expect(protocol.parseResponse(messages[1], "tools/call")).toMatchObject({ ok: true });
  });

  it("answers with a JSON body when the handler sends no notification", async () => {
    const response = await handle(
      fetchRequest(request("tools/call", { name: "get_weather", arguments: { city: "Quito" } })),
    );
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(await response.json()).toMatchObject({
      result: { content: [{ text: "sunny in Quito" }] },
    });
  });

  it("applies the same header rules and the body limit", async () => {
    const mismatch = await handle(
      fetchRequest(request("tools/call", { name: "get_weather", arguments: { city: "x" } }), {
        "mcp-name": "other",
      }),
    );
    expect(mismatch.status).toBe(400);
    expect(((await mismatch.json()) as { error: { code: number } }).error.code).toBe(-32020);
    const big = await handle(
      fetchRequest(
        request("tools/call", { name: "get_weather", arguments: { city: "x".repeat(5000) } }),
      ),
    );
    expect(big.status).toBe(413);
    const rebound = await handle(
      new Request("http://attacker.example/mcp", {
        method: "POST",
        headers: headersFor(request("server/discover")),
        body: discover,
      }),
    );
    expect(rebound.status).toBe(403);
  });

  it("stops reading a body that announces no length at the limit, and cancels the rest", async () => {
    // A peer that never stops sending: read whole, the request would never be answered.
    let cancelled = false;
    const endless = new ReadableStream<Uint8Array>({
      pull: (controller) => controller.enqueue(new TextEncoder().encode(" ".repeat(1024))),
      cancel: () => {
        cancelled = true;
      },
    });
    const response = await handle(
      new Request("http://localhost:8080/mcp", {
        method: "POST",
        headers: headersFor(request("server/discover")),
        body: endless,
        duplex: "half",
      }),
    );
    expect(response.status).toBe(413);
    expect(cancelled).toBe(true);
  });
});

function withPort(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, v.replace("PORT", port)]));
}
