/**
 * The client talks to a server as the protocol says: against a small
 * stand-in server over real HTTP on 127.0.0.1 (answering as a 2026-07-28
 * server would, from tools.json), it discovers, lists and calls tools with
 * the headers the spec asks for, drives a Multi Round-Trip Request, and a
 * tool wrapper refuses arguments that fail the tool's inputSchema before
 * anything is sent. Then the typed wrappers against a server defined here
 * with the runtime's McpServer, in memory (connectInMemory: no socket, the
 * path a request takes over HTTP, JSON included), in both eras.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, type Client } from "../src/generated/client.gen.js";
import { legacy, protocol } from "../src/generated/protocol.gen.js";
import { TOOLS } from "../src/generated/tools.gen.js";
import { connectHttp, connectInMemory } from "../src/mcp-gen/runtime/client.js";
import { McpServer } from "../src/mcp-gen/runtime/server/index.js";

const VERSION = protocol.PROTOCOL_VERSION;

/** What the stand-in server saw: each request's method, headers and params. */
const seen: Array<{
  method: string;
  headers: IncomingMessage["headers"];
  params: Record<string, unknown>;
}> = [];

/** The stand-in's own tool that asks for input: "ask", or a name none of tools.json's tools has. */
let ASK = "ask";
while (TOOLS.some((t) => t.name === ASK)) ASK += "_";

/** Answers as a 2026-07-28 server: discover, the tools of tools.json, and one tool that asks for input. */
function answer(method: string, params: Record<string, unknown>): Record<string, unknown> {
  const complete = { resultType: "complete" };
  // Discovery and lists say how long they may be cached (2026-07-28: ttlMs, cacheScope).
  const cacheable = { ...complete, ttlMs: 0, cacheScope: "private" };
  if (method === "server/discover")
    return {
      ...cacheable,
      supportedVersions: [VERSION],
      capabilities: { tools: {} },
      _meta: { "io.modelcontextprotocol/serverInfo": { name: "stand-in", version: "1.0.0" } },
    };
  if (method === "tools/list")
    return { ...cacheable, tools: [...TOOLS, { name: ASK, inputSchema: { type: "object" } }] };
  if (method === "tools/call" && params.name === ASK) {
    const responses = params.inputResponses as
      Record<string, { content?: { name?: string } }> | undefined;
    if (!responses)
      return {
        resultType: "input_required",
        inputRequests: {
          who: {
            method: "elicitation/create",
            params: {
              message: "Your name?",
              requestedSchema: {
                type: "object",
                properties: { name: { type: "string", default: "Ada" } },
              },
            },
          },
        },
        requestState: "opaque-state",
      };
    return {
      ...complete,
      content: [
        {
          type: "text",
          text: `hello ${responses.who?.content?.name} (${String(params.requestState)})`,
        },
      ],
    };
  }
  if (method === "tools/call") return { ...complete, content: [{ type: "text", text: "done" }] };
  throw new Error(`unexpected ${method}`);
}

let server: Server;
let url: string;
let client: Client;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    req.on("end", () => {
      const message = JSON.parse(body) as {
        id: number;
        method: string;
        params: Record<string, unknown>;
      };
      seen.push({ method: message.method, headers: req.headers, params: message.params });
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          jsonrpc: "2.0",
          id: message.id,
          result: answer(message.method, message.params),
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  client = createClient({
    channel: connectHttp(url),
    info: { name: "client-tests", version: "1.0.0" },
    handlers: { elicitation: () => ({ action: "accept", content: {} }) },
  });
});

afterAll(async () => {
  await client.close();
  await new Promise((resolve) => server.close(resolve));
});

describe("the client", () => {
  it("discovers the server with the request metadata the spec asks for", async () => {
    const found = await client.connect();
    expect(found).toMatchObject({
      era: "modern",
      protocolVersion: VERSION,
      serverInfo: { name: "stand-in" },
    });
    const discover = seen.find((s) => s.method === "server/discover")!;
    expect(discover.headers["mcp-protocol-version"]).toBe(VERSION);
    expect(discover.headers["mcp-method"]).toBe("server/discover");
    expect(discover.params._meta).toMatchObject({
      "io.modelcontextprotocol/protocolVersion": VERSION,
      "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} } },
      "io.modelcontextprotocol/clientInfo": { name: "client-tests", version: "1.0.0" },
    });
  });

  it("lists the server's tools and calls each with its name in Mcp-Name", async () => {
    const { tools } = await client.rpc.toolsList();
    expect(tools.map((t) => t.name)).toEqual([...TOOLS.map((t) => t.name), ASK]);
    for (const tool of TOOLS) {
      const result = await client.raw.callTool(tool.name, {});
      expect(result.content).toEqual([{ type: "text", text: "done" }]);
      expect(seen.at(-1)!.headers["mcp-name"]).toBeDefined();
    }
  });

  it("answers a server's request for input and retries with its state", async () => {
    const result = await client.raw.callTool(ASK, {});
    expect(result.content).toEqual([{ type: "text", text: "hello Ada (opaque-state)" }]);
    const [first, retry] = seen.filter((s) => s.method === "tools/call" && s.params.name === ASK);
    expect(first!.params.requestState).toBeUndefined();
    expect(retry!.params.requestState).toBe("opaque-state");
  });

  it("refuses arguments that fail a tool's inputSchema before sending anything", async () => {
    for (const tool of TOOLS) {
      const before = seen.length;
      const wrapper = client.tools[tool.name as keyof typeof client.tools] as (
        args: unknown,
      ) => Promise<unknown>;
      await expect(wrapper("not an object")).rejects.toThrow(/inputSchema/);
      expect(seen.length).toBe(before);
    }
  });
});

/**
 * A server of the test's own, in this process: every tool of tools.json
 * answers "done", and the ASK tool asks the user for a name. Write the
 * answers your code expects of the real server here, and test against them.
 */
function inMemoryServer(): McpServer {
  const server = new McpServer({ protocol, legacy, info: { name: "in-memory", version: "1.0.0" } });
  for (const tool of TOOLS)
    server.tool(tool, () => ({ content: [{ type: "text", text: "done" }] }));
  server.tool({ name: ASK, inputSchema: { type: "object" } }, async (_args, ctx) => {
    const answer = await ctx.elicit("who", {
      mode: "form",
      message: "Your name?",
      requestedSchema: { type: "object", properties: { name: { type: "string", default: "Ada" } } },
    });
    return { content: [{ type: "text", text: `hello ${String(answer.content?.name)}` }] };
  });
  return server;
}

/** The tools a wrapper can call with no arguments and no structured output to return. */
const CALLABLE = TOOLS.filter(
  (t) =>
    !("outputSchema" in t) &&
    ((t.inputSchema as { required?: readonly string[] }).required ?? []).length === 0,
);

describe.each([
  ["2026-07-28", "auto", "modern"],
  ["a 2025-11-25 session", "2025-11-25", "legacy"],
] as const)("the client against an in-memory server, speaking %s", (_label, version, era) => {
  let inMemory: Client;

  beforeAll(() => {
    inMemory = createClient({
      channel: connectInMemory(inMemoryServer()),
      info: { name: "client-tests", version: "1.0.0" },
      protocolVersion: version,
      handlers: { elicitation: () => ({ action: "accept", content: {} }) },
    });
  });
  afterAll(() => inMemory.close());

  it(`connects in the ${era} era`, async () => {
    expect(await inMemory.connect()).toMatchObject({ era, serverInfo: { name: "in-memory" } });
  });

  it.each(CALLABLE.map((t) => t.name))("calls the wrapper of %s", async (name) => {
    const wrapper = inMemory.tools[name as keyof typeof inMemory.tools] as (
      args: unknown,
    ) => Promise<{ content: unknown }>;
    expect((await wrapper({})).content).toEqual([{ type: "text", text: "done" }]);
  });

  it("answers the server's request for input (the form's default filled in)", async () => {
    const result = await inMemory.raw.callTool(ASK, {});
    expect(result.content).toEqual([{ type: "text", text: "hello Ada" }]);
  });
});
