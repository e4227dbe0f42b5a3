/**
 * What McpClient does with servers that answer in every way the spec
 * allows (and some it does not), each played by a scripted HTTP server on
 * 127.0.0.1: version negotiation and the fall back to a legacy session,
 * resultType rules, Multi Round-Trip Requests to the letter (state echoed
 * byte for byte, never elsewhere, a fresh id each round, a bounded loop),
 * the request headers, tools with invalid header annotations, and errors.
 */
import type { ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import {
  ChannelError,
  connectHttp,
  InvalidResponseError,
  McpClient,
  RemoteError,
  ResourceNotFoundError,
  type ClientOptions,
} from "../../templates/runtime/client.js";
import { legacy, protocol } from "../helpers/mcp-client.js";
import * as withTasks from "../../generated/2026-07-28+tasks/index.js";
import {
  discovered,
  failure,
  json,
  result,
  scripted,
  type Received,
  type Scripted,
} from "./fixtures/scripted.js";

let server: Scripted | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A scripted server whose requests `answer` replies to by method (discover answered unless it says otherwise). */
async function serve(
  answer: (request: Received, res: ServerResponse) => unknown,
): Promise<Scripted> {
  server = await scripted((request, res) => {
    const out = answer(request, res);
    if (out !== undefined) json(res, out);
  });
  return server;
}

function clientOf(url: string, options: Partial<ClientOptions> = {}) {
  const warnings: string[] = [];
  const client = new McpClient({
    protocol,
    legacy,
    channel: connectHttp(url),
    info: { name: "protocol-tests", version: "1.0.0" },
    onWarning: (message) => warnings.push(message),
    handlers: { elicitation: () => ({ action: "accept", content: { ok: true } }) },
    ...options,
  });
  return Object.assign(client, { warnings });
}

const posts = (s: Scripted, method?: string) =>
  s.received.filter(
    (r) => r.method === "POST" && (method === undefined || r.body?.method === method),
  );

describe("version negotiation", () => {
  it("retries server/discover with a version the server lists after UnsupportedProtocolVersionError", async () => {
    let first = true;
    const s = await serve((r, res) => {
      if (first) {
        first = false;
        json(
          res,
          failure(r.body!.id, -32022, "Unsupported protocol version", {
            supported: ["2026-07-28"],
            requested: "x",
          }),
          400,
        );
        return undefined;
      }
      return result(r.body!.id, discovered());
    });
    const found = await clientOf(s.url).connect();
    expect(found).toMatchObject({ era: "modern", protocolVersion: "2026-07-28" });
    const [a, b] = posts(s, "server/discover");
    expect(a!.body!.id).not.toBe(b!.body!.id);
    expect(b!.headers["mcp-protocol-version"]).toBe("2026-07-28");
    expect((b!.body!.params as { _meta: Record<string, unknown> })._meta).toMatchObject({
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientInfo": { name: "protocol-tests", version: "1.0.0" },
    });
  });

  it("opens a legacy session when the server lists only legacy versions", async () => {
    const s = await serve((r, res) => {
      if (r.body?.method === "server/discover")
        return failure(r.body.id, -32022, "Unsupported protocol version", {
          supported: ["2025-06-18"],
        });
      if (r.body?.method === "initialize")
        return result(r.body.id, {
          protocolVersion: "2025-06-18",
          capabilities: {},
          serverInfo: { name: "old", version: "1" },
        });
      if (r.method === "GET") {
        res.writeHead(405).end();
        return undefined;
      }
      if (r.body?.method === "notifications/initialized") {
        res.writeHead(202).end();
        return undefined;
      }
      return result(r.body!.id, { tools: [] });
    });
    const client = clientOf(s.url);
    expect(await client.connect()).toMatchObject({ era: "legacy", protocolVersion: "2025-06-18" });
    const initialize = posts(s, "initialize")[0]!;
    expect(initialize.body!.params).toMatchObject({
      protocolVersion: "2025-06-18",
      clientInfo: { name: "protocol-tests" },
      capabilities: { elicitation: { form: {} } },
    });
    await client.request("tools/list");
    expect(posts(s, "tools/list")[0]!.headers["mcp-protocol-version"]).toBe("2025-06-18");
  });

  it.each([
    [
      "a 400 without a JSON-RPC body",
      (res: ServerResponse) => res.writeHead(400).end("Bad Request"),
    ],
    [
      "a 404 page",
      (res: ServerResponse) =>
        res.writeHead(404, { "content-type": "text/html" }).end("<h1>no</h1>"),
    ],
    [
      "-32601 in a 200",
      (res: ServerResponse, id: unknown) => json(res, failure(id, -32601, "Method not found")),
    ],
    [
      "a result that is no DiscoverResult",
      (res: ServerResponse, id: unknown) => json(res, result(id, {})),
    ],
  ])("falls back to initialize after %s to server/discover", async (_title, refuse) => {
    const s = await serve((r, res) => {
      if (r.body?.method === "server/discover") {
        refuse(res, r.body.id);
        return undefined;
      }
      if (r.body?.method === "initialize")
        return result(r.body.id, {
          protocolVersion: "2025-11-25",
          capabilities: {},
          serverInfo: { name: "old", version: "1" },
        });
      if (r.body?.id === undefined) {
        res.writeHead(202).end();
        return undefined;
      }
      return result(r.body.id, {});
    });
    expect(await clientOf(s.url).connect()).toMatchObject({
      era: "legacy",
      protocolVersion: "2025-11-25",
    });
    expect(posts(s).map((r) => r.body!.method)).toEqual([
      "server/discover",
      "initialize",
      "notifications/initialized",
    ]);
  });

  it("stays modern and fails on a modern error it cannot fix (HeaderMismatch)", async () => {
    const s = await serve((r) => failure(r.body!.id, -32020, "Header mismatch: nope"));
    await expect(clientOf(s.url).connect()).rejects.toMatchObject({ code: -32020 });
    expect(posts(s, "initialize")).toEqual([]);
  });

  it("does not fall back when the server refuses the credentials (401)", async () => {
    const s = await serve((_r, res) => {
      res.writeHead(401, { "www-authenticate": 'Bearer realm="mcp"' }).end();
      return undefined;
    });
    await expect(clientOf(s.url).connect()).rejects.toMatchObject({ status: 401 });
    expect(posts(s, "initialize")).toEqual([]);
  });

  it("renegotiates and retries once when a later request gets UnsupportedProtocolVersionError", async () => {
    let refused = false;
    const s = await serve((r) => {
      if (r.body?.method === "server/discover") return result(r.body.id, discovered());
      if (!refused) {
        refused = true;
        return failure(r.body!.id, -32022, "Unsupported protocol version", {
          supported: ["2026-07-28"],
        });
      }
      return result(r.body!.id, {
        resultType: "complete",
        tools: [],
        ttlMs: 0,
        cacheScope: "private",
      });
    });
    expect(await clientOf(s.url).request("tools/list")).toMatchObject({ tools: [] });
    expect(posts(s, "tools/list")).toHaveLength(2);
  });

  it("says which versions neither side shares", async () => {
    const s = await serve((r) =>
      failure(r.body!.id, -32022, "Unsupported protocol version", { supported: ["2099-01-01"] }),
    );
    await expect(clientOf(s.url).connect()).rejects.toThrow(
      "the server supports 2099-01-01; this client speaks 2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05",
    );
  });
});

describe("results", () => {
  const answering = (value: (id: unknown, request: Received) => unknown) =>
    serve((r) =>
      r.body?.method === "server/discover" ? result(r.body.id, discovered()) : value(r.body!.id, r),
    );

  it("reads a result without resultType as complete", async () => {
    const s = await answering((id) => result(id, { content: [{ type: "text", text: "old" }] }));
    expect(await clientOf(s.url).callTool("x")).toMatchObject({
      resultType: "complete",
      content: [{ text: "old" }],
    });
  });

  it("refuses an unknown resultType, and an extension's (task) without the extension", async () => {
    for (const resultType of ["maybe", "task"]) {
      const s = await answering((id) => result(id, { resultType, content: [] }));
      const call = clientOf(s.url).callTool("x");
      await expect(call).rejects.toBeInstanceOf(InvalidResponseError);
      await expect(call).rejects.toThrow(
        `resultType "${resultType}" is not one tools/call may return`,
      );
      await s.close();
    }
  });

  it("takes an extension's resultType (task) when the protocol module has the extension", async () => {
    const task = {
      resultType: "task",
      taskId: "t-1",
      status: "working",
      createdAt: "2026-07-28T00:00:00Z",
      lastUpdatedAt: "2026-07-28T00:00:00Z",
      ttlMs: 60000,
    };
    const s = await answering((id) => result(id, task));
    const client = clientOf(s.url, { protocol: withTasks });
    expect(await client.callTool("x")).toEqual(task);
    // The extension's result is still checked against its schema.
    await s.close();
    const broken = await answering((id) => result(id, { ...task, status: "sleeping" }));
    await expect(
      clientOf(broken.url, { protocol: withTasks }).callTool("x"),
    ).rejects.toBeInstanceOf(InvalidResponseError);
  });

  it("refuses a result that breaks the schema", async () => {
    const s = await answering((id) =>
      result(id, { resultType: "complete", content: "not a list" }),
    );
    await expect(clientOf(s.url).callTool("x")).rejects.toThrow(
      "tools/call: the server's response is not valid: Invalid result: /result/content",
    );
  });

  it.each([
    ["-32002, as earlier revisions answer", -32002, undefined],
    ["-32602 with the uri", -32602, { uri: "file:///gone" }],
  ])("takes %s as resource not found", async (_title, code, data) => {
    const s = await answering((id) => failure(id, code, "Resource not found", data));
    const read = clientOf(s.url).request("resources/read", { uri: "file:///gone" });
    await expect(read).rejects.toBeInstanceOf(ResourceNotFoundError);
    await expect(read).rejects.toMatchObject({ uri: "file:///gone", code });
  });

  it("passes any other error on as RemoteError with its data", async () => {
    const s = await answering((id) => failure(id, -32000, "busy", { retryAfter: 1 }));
    const call = clientOf(s.url).callTool("x");
    await expect(call).rejects.toBeInstanceOf(RemoteError);
    await expect(call).rejects.toMatchObject({
      code: -32000,
      message: "busy",
      data: { retryAfter: 1 },
    });
  });
});

describe("Multi Round-Trip Requests", () => {
  const ask = (requestState?: string) => ({
    resultType: "input_required",
    inputRequests: {
      confirm: {
        method: "elicitation/create",
        params: {
          message: "Sure?",
          requestedSchema: { type: "object", properties: { ok: { type: "boolean" } } },
        },
      },
    },
    ...(requestState === undefined ? {} : { requestState }),
  });

  it("echoes requestState byte for byte with a fresh id, and never on another request", async () => {
    const state = '  état: \u2028{"n":1}\\u00e9 ✓ ';
    const s = await serve((r) => {
      const body = r.body!;
      if (body.method === "server/discover") return result(body.id, discovered());
      const params = body.params as Record<string, unknown>;
      if (params.name === "other") return result(body.id, { resultType: "complete", content: [] });
      return params.inputResponses
        ? result(body.id, { resultType: "complete", content: [] })
        : result(body.id, ask(state));
    });
    const client = clientOf(s.url);
    await Promise.all([client.callTool("confirm", { n: 1 }), client.callTool("other", { n: 2 })]);
    const [first, retry] = posts(s, "tools/call").filter(
      (r) => (r.body!.params as { name: string }).name === "confirm",
    );
    const other = posts(s, "tools/call").find(
      (r) => (r.body!.params as { name: string }).name === "other",
    )!;
    expect(retry!.body!.id).not.toBe(first!.body!.id);
    expect(retry!.body!.params).toMatchObject({
      name: "confirm",
      arguments: { n: 1 },
      requestState: state,
      inputResponses: { confirm: { action: "accept", content: { ok: true } } },
    });
    expect(other.body!.params).not.toHaveProperty("requestState");
    expect(other.body!.params).not.toHaveProperty("inputResponses");
  });

  it("sends no requestState when the server sent none", async () => {
    const s = await serve((r) => {
      const body = r.body!;
      if (body.method === "server/discover") return result(body.id, discovered());
      return (body.params as Record<string, unknown>).inputResponses
        ? result(body.id, { resultType: "complete", content: [] })
        : result(body.id, ask());
    });
    await clientOf(s.url).callTool("confirm");
    expect(posts(s, "tools/call")[1]!.body!.params).not.toHaveProperty("requestState");
  });

  it("gives up after maxRounds", async () => {
    const s = await serve((r) =>
      r.body!.method === "server/discover"
        ? result(r.body!.id, discovered())
        : result(r.body!.id, ask("again")),
    );
    await expect(clientOf(s.url, { maxRounds: 3 }).callTool("confirm")).rejects.toThrow(
      "tools/call: the server still asked for input after 3 rounds (maxRounds)",
    );
    expect(posts(s, "tools/call")).toHaveLength(3);
  });

  it("fails when the server asks for input the client has no handler for", async () => {
    const s = await serve((r) =>
      r.body!.method === "server/discover"
        ? result(r.body!.id, discovered())
        : result(r.body!.id, {
            resultType: "input_required",
            inputRequests: {
              m: { method: "sampling/createMessage", params: { messages: [], maxTokens: 1 } },
            },
          }),
    );
    await expect(clientOf(s.url).callTool("x")).rejects.toThrow(
      "the server asked for sampling/createMessage, but this client has no sampling handler",
    );
  });

  it("checks a handler's answer against the schema before sending it", async () => {
    const s = await serve((r) =>
      r.body!.method === "server/discover"
        ? result(r.body!.id, discovered())
        : result(r.body!.id, ask("s")),
    );
    const client = clientOf(s.url, {
      handlers: { elicitation: () => JSON.parse('{"action":"maybe"}') as never },
    });
    await expect(client.callTool("x")).rejects.toThrow(
      "the elicitation handler's answer is not a valid ElicitResult",
    );
    expect(posts(s, "tools/call")).toHaveLength(1);
  });
});

describe("request headers and tools", () => {
  const tools = [
    {
      name: "ok",
      inputSchema: {
        type: "object",
        properties: {
          region: { type: "string", "x-mcp-header": "Region" },
          n: { type: "integer", "x-mcp-header": "N" },
          flag: { type: "boolean", "x-mcp-header": "Flag" },
        },
      },
    },
    {
      name: "bad-number",
      inputSchema: { type: "object", properties: { f: { type: "number", "x-mcp-header": "F" } } },
    },
    {
      name: "bad-dup",
      inputSchema: {
        type: "object",
        properties: {
          a: { type: "string", "x-mcp-header": "A" },
          b: { type: "string", "x-mcp-header": "a" },
        },
      },
    },
    {
      name: "bad-items",
      inputSchema: {
        type: "object",
        properties: { list: { type: "array", items: { type: "string", "x-mcp-header": "Item" } } },
      },
    },
    {
      name: "bad-token",
      inputSchema: {
        type: "object",
        properties: { a: { type: "string", "x-mcp-header": "My Region" } },
      },
    },
    { name: "café ☕", inputSchema: { type: "object" } },
  ];

  it("leaves out tools with invalid x-mcp-header annotations (with a warning) and mirrors the valid ones", async () => {
    const s = await serve((r) => {
      const body = r.body!;
      if (body.method === "server/discover") return result(body.id, discovered());
      if (body.method === "tools/list")
        return result(body.id, { resultType: "complete", tools, ttlMs: 0, cacheScope: "private" });
      return result(body.id, { resultType: "complete", content: [] });
    });
    const client = clientOf(s.url);
    const listed = await client.request("tools/list");
    expect((listed.tools as Array<{ name: string }>).map((t) => t.name)).toEqual(["ok", "café ☕"]);
    expect(client.warnings).toEqual([
      "tools/list: tool bad-number: x-mcp-header on f needs a string, integer or boolean parameter; the tool is left out",
      "tools/list: tool bad-dup: x-mcp-header a is used twice; the tool is left out",
      "tools/list: tool bad-items: x-mcp-header at /properties/list/items is not on a chain of properties from the root; the tool is left out",
      'tools/list: tool bad-token: x-mcp-header "My Region" at a is not an HTTP token; the tool is left out',
    ]);
    await client.callTool("ok", { region: " us-west1", n: 42, flag: false });
    await client.callTool("café ☕");
    const [call, named] = posts(s, "tools/call");
    expect(call!.headers).toMatchObject({
      "mcp-method": "tools/call",
      "mcp-name": "ok",
      "mcp-param-region": `=?base64?${Buffer.from(" us-west1").toString("base64")}?=`,
      "mcp-param-n": "42",
      "mcp-param-flag": "false",
    });
    expect(named!.headers["mcp-name"]).toBe(
      `=?base64?${Buffer.from("café ☕").toString("base64")}?=`,
    );
  });

  it("lists the tools again and retries once when the server says a header does not match", async () => {
    let mismatched = false;
    const s = await serve((r) => {
      const body = r.body!;
      if (body.method === "server/discover") return result(body.id, discovered());
      if (body.method === "tools/list")
        return result(body.id, {
          resultType: "complete",
          tools: mismatched ? tools.slice(0, 1) : [],
          ttlMs: 0,
          cacheScope: "private",
        });
      if (!mismatched) {
        mismatched = true;
        return failure(body.id, -32020, "Header mismatch: the Mcp-Param-Region header is missing");
      }
      return result(body.id, { resultType: "complete", content: [] });
    });
    await clientOf(s.url).callTool("ok", { region: "eu" });
    expect(posts(s).map((r) => r.body!.method)).toEqual([
      "server/discover",
      "tools/call",
      "tools/list",
      "tools/call",
    ]);
    expect(posts(s, "tools/call")[1]!.headers["mcp-param-region"]).toBe("eu");
  });

  it("reports a reply that is no JSON-RPC as a ChannelError with the status and body", async () => {
    const s = await serve((r, res) => {
      if (r.body?.method === "server/discover") return result(r.body.id, discovered());
      res.writeHead(502, { "content-type": "text/plain" }).end("upstream down");
      return undefined;
    });
    const call = clientOf(s.url).callTool("x");
    await expect(call).rejects.toBeInstanceOf(ChannelError);
    await expect(call).rejects.toMatchObject({ status: 502, body: "upstream down" });
  });
});
