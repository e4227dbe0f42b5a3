/**
 * The server answers as an MCP server should. Most tests call it with the
 * runtime's McpClient in memory (connectInMemory: no socket and no child
 * process, yet the path a request takes over HTTP, JSON serialisation,
 * headers and their checks included), then the same calls over real HTTP
 * on 127.0.0.1, each in both eras: 2026-07-28, where a request for input
 * is a Multi Round-Trip Request, and a 2025-11-25 session, where it is a
 * request the server sends. Every tool of tools.json is called, every
 * resource read: a handler not written yet must still answer with a valid
 * message, never crash. A few tests send raw requests over HTTP and stdio.
 */
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { legacy, protocol } from "../src/generated/protocol.gen.js";
import { missingHandlers, TOOLS } from "../src/generated/tools.gen.js";
import {
  connectHttp,
  connectInMemory,
  McpClient,
  RemoteError,
} from "../src/mcp-gen/runtime/client.js";
import { serveHttp, serveStdio } from "../src/mcp-gen/runtime/index.js";
import { createServer } from "../src/server.js";
import { tools } from "../src/tools.js";

const VERSION = protocol.PROTOCOL_VERSION;
const META = {
  "io.modelcontextprotocol/protocolVersion": VERSION,
  "io.modelcontextprotocol/clientCapabilities": {},
};

/** A tool of the tests' own that asks for input: "ask", or a name none of tools.json's tools has. */
let ASK = "ask";
while (TOOLS.some((t) => t.name === ASK)) ASK += "_";

/** The project's server, and the test's tool that asks the user for a name (ctx.elicit). */
function serverWithAsk() {
  const server = createServer();
  server.tool({ name: ASK, inputSchema: { type: "object" } }, async (_args, ctx) => {
    const answer = await ctx.elicit("name", {
      mode: "form",
      message: "Your name?",
      requestedSchema: { type: "object", properties: { name: { type: "string" } } },
    });
    return { content: [{ type: "text", text: `hello ${String(answer.content?.name)}` }] };
  });
  return server;
}

/** A client speaking `protocolVersion` ("auto": 2026-07-28), answering requests for input with "Ada". */
function client(channel: ConstructorParameters<typeof McpClient>[0]["channel"], version: string) {
  return new McpClient({
    protocol,
    legacy,
    channel,
    info: { name: "tests", version: "1.0.0" },
    protocolVersion: version,
    handlers: { elicitation: () => ({ action: "accept", content: { name: "Ada" } }) },
  });
}

/**
 * A call answered with a valid result (McpClient checks it against the
 * schema), or refused with a protocol error: never a crash. An internal
 * error (-32603) is allowed only from a stub that says it is not written
 * yet (NotImplemented).
 */
async function answered(call: Promise<unknown>): Promise<void> {
  try {
    await call;
  } catch (error) {
    expect(error).toBeInstanceOf(RemoteError);
    if ((error as RemoteError).code === -32603)
      expect((error as RemoteError).message).toMatch(/is not implemented yet/);
  }
}

/**
 * Every item of a paged list, following nextCursor page by page as a
 * client does (a server lists 100 items a page unless told otherwise).
 */
async function everyPage(mcp: McpClient, method: "tools/list" | "resources/list", field: string) {
  const items: unknown[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 1000; page++) {
    const result = await mcp.request(method, cursor === undefined ? {} : { cursor });
    items.push(...((result as Record<string, unknown[]>)[field] ?? []));
    cursor = (result as { nextCursor?: string }).nextCursor;
    if (cursor === undefined) return items;
  }
  throw new Error(`${method} gave more than 1000 pages`);
}

describe("tools", () => {
  it("has a handler for every tool of tools.json (a tool added later gets a stub in src/tools/)", () => {
    expect(missingHandlers(tools), "tools of tools.json without a handler in src/tools.ts").toEqual(
      [],
    );
  });
});

describe.each([
  ["in memory", "auto", "modern"],
  ["in memory", "2025-11-25", "legacy"],
  ["over HTTP", "auto", "modern"],
  ["over HTTP", "2025-11-25", "legacy"],
] as const)("%s, speaking %s", (transport, version, era) => {
  let mcp: McpClient;
  let stop = () => Promise.resolve();

  beforeAll(async () => {
    const server = serverWithAsk();
    if (transport === "in memory") mcp = client(connectInMemory(server), version);
    else {
      const running = await serveHttp(server, { port: 0 });
      stop = running.close;
      mcp = client(connectHttp(running.url), version);
    }
  });
  afterAll(async () => {
    await mcp.close();
    await stop();
  });

  it(`connects in the ${era} era`, async () => {
    expect(await mcp.connect()).toMatchObject({ era });
  });

  it("lists every tool of tools.json, in order, page by page", async () => {
    const listed = await everyPage(mcp, "tools/list", "tools");
    expect((listed as Array<{ name: string }>).map((t) => t.name)).toEqual([
      ...TOOLS.map((t) => t.name),
      ASK,
    ]);
  });

  it.each(TOOLS.map((t) => t.name))(
    "answers tools/call %s (no arguments) with a valid result or error",
    (name) => answered(mcp.callTool(name, {})),
  );

  it("answers resources/read for every resource with a valid result or error", async () => {
    const resources = await everyPage(mcp, "resources/list", "resources");
    for (const { uri } of resources as Array<{ uri: string }>)
      await answered(mcp.request("resources/read", { uri }));
  });

  it("asks for input and gets the client's answer", async () => {
    const result = await mcp.callTool(ASK, {});
    expect(result.content).toEqual([{ type: "text", text: "hello Ada" }]);
  });
});

describe("raw requests over HTTP", () => {
  let url: string;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ url, close } = await serveHttp(createServer(), { port: 0 }));
  });
  afterAll(() => close());

  /** One request as a 2026-07-28 client sends it; the last message of an event stream is the response. */
  async function post(
    method: string,
    params: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ) {
    const response = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": VERSION,
        "mcp-method": method,
        ...headers,
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method,
        params: { ...params, _meta: { ...META, ...((params._meta as object | undefined) ?? {}) } },
      }),
    });
    const text = await response.text();
    const events = text.split("\n").filter((line) => line.startsWith("data: "));
    const body =
      events.length > 0 ? JSON.parse(events[events.length - 1]!.slice(6)) : JSON.parse(text);
    return { status: response.status, body };
  }

  it("answers server/discover", async () => {
    const { status, body } = await post("server/discover");
    expect(status).toBe(200);
    expect(body.result.supportedVersions).toContain(VERSION);
    expect(protocol.parseResponse(body, "server/discover")).toMatchObject({ ok: true });
  });

  it("answers unparsable JSON with -32700", async () => {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", "mcp-protocol-version": VERSION },
      body: "{",
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: number } }).error.code).toBe(-32700);
  });

  it("answers an unsupported protocol version with -32022 and the supported ones", async () => {
    const { status, body } = await post(
      "server/discover",
      { _meta: { "io.modelcontextprotocol/protocolVersion": "1999-01-01" } },
      { "mcp-protocol-version": "1999-01-01" },
    );
    expect(status).toBe(400);
    expect(body.error).toMatchObject({
      code: -32022,
      data: { supported: [VERSION], requested: "1999-01-01" },
    });
  });

  it("answers a method 2026-07-28 removed with 404 and -32601", async () => {
    const { status, body } = await post("ping");
    expect(status).toBe(404);
    expect(body.error.code).toBe(-32601);
  });
});

describe("over stdio", () => {
  it("answers server/discover", async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const done = serveStdio(createServer(), { input, output });
    input.write(
      `${JSON.stringify({ jsonrpc: "2.0", id: 7, method: "server/discover", params: { _meta: META } })}\n`,
    );
    const line = await new Promise<string>((resolve) =>
      output.once("data", (chunk: Buffer) => resolve(chunk.toString("utf8"))),
    );
    input.end();
    await done;
    expect(JSON.parse(line)).toMatchObject({ id: 7, result: { supportedVersions: [VERSION] } });
  });
});
