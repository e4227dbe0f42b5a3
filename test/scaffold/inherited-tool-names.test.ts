/**
 * Tools named after what every object inherits (`__proto__`, `constructor`,
 * `hasOwnProperty`, `toString`) each get their handler: a server scaffolded
 * from such a tools.json registers the handler src/tools.ts gives each of
 * them (none of the names reaches a prototype, so `__proto__` is not left
 * without a handler), and a client scaffolded from the same file has a
 * wrapper of its own for each, which reaches that handler. Both projects
 * compile under --strict.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scaffoldClient } from "../../generator/scaffold/client.js";
import { scaffoldServer, writeProject } from "../../generator/scaffold/scaffold.js";
import {
  importFromProject,
  tempDir,
  testSources,
  type ProjectRuntime,
  type ProjectServer,
} from "../helpers/index.js";
import { post, request } from "../helpers/mcp-client.js";
import { linkNodeModules } from "../helpers/project.js";
import { compileProject } from "../helpers/typecheck.js";

const NAMES = ["__proto__", "constructor", "hasOwnProperty", "toString"] as const;
const TOOLS = NAMES.map((name) => ({
  name,
  description: `A tool named ${name}`,
  inputSchema: { type: "object", properties: { n: { type: "integer" } } },
}));

type ToolCall = (args: Record<string, unknown>) => Promise<{
  isError?: boolean;
  content: Array<{ text: string }>;
}>;

interface ClientModule {
  createClient: (options: { channel: unknown }) => {
    tools: Record<string, ToolCall>;
    connect(): Promise<unknown>;
    close(): Promise<void>;
  };
}

describe("tools named like inherited properties, scaffolded", () => {
  let server: string;
  let client: string;
  let url: string;
  let close: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    const dir = tempDir("inherited-names");
    const toolsFile = join(dir, "tools.json");
    // JSON.stringify keeps "__proto__" an own key, as a server would send it.
    writeFileSync(toolsFile, JSON.stringify(TOOLS, null, 2));
    server = join(dir, "server");
    client = join(dir, "client");
    const made = await scaffoldServer({ dir: server, tools: toolsFile, sources: testSources() });
    writeProject(server, made.files);
    const madeClient = await scaffoldClient({
      dir: client,
      tools: toolsFile,
      sources: testSources(),
    });
    writeProject(client, madeClient.files);
    linkNodeModules(server);
    linkNodeModules(client);
    // Each handler answers with its own tool's name, so a call shows which handler ran.
    const handlers = join(server, "src", "tools.ts");
    writeFileSync(
      handlers,
      readFileSync(handlers, "utf8").replace(
        /throw new NotImplemented\("tool ([^"]+)"\);/g,
        'return { content: [{ type: "text", text: "handled by $1" }] };',
      ),
    );
    const [runtime, { createServer }] = await Promise.all([
      importFromProject<ProjectRuntime>(server, "src/mcp-gen/runtime/index.ts"),
      importFromProject<ProjectServer>(server, "src/server.ts"),
    ]);
    const served = await runtime.serveHttp(createServer(), { port: 0 });
    url = served.url;
    close = served.close;
  });
  afterAll(async () => {
    await close?.();
  });

  it("both projects compile under --strict", () => {
    expect(compileProject(server).errors).toEqual([]);
    expect(compileProject(client).errors).toEqual([]);
  });

  it("src/tools.ts gives every tool a handler of its own", async () => {
    const { tools } = await importFromProject<{ tools: object }>(server, "src/tools.ts");
    expect(Object.getPrototypeOf(tools)).toBe(Object.prototype);
    for (const name of NAMES) expect(Object.hasOwn(tools, name), name).toBe(true);
  });

  it.each(NAMES)("the server runs the handler of %s", async (name) => {
    const reply = await post(url, request("tools/call", { name, arguments: { n: 1 } }));
    expect(reply.body.result).toMatchObject({
      resultType: "complete",
      content: [{ type: "text", text: `handled by ${name}` }],
    });
  });

  it("the client has an own wrapper per tool, and each reaches its handler", async () => {
    const [{ createClient }, { connectHttp }] = await Promise.all([
      importFromProject<ClientModule>(client, "src/generated/client.gen.ts"),
      importFromProject<{ connectHttp: (url: string) => unknown }>(
        client,
        "src/mcp-gen/runtime/client.ts",
      ),
    ]);
    const connected = createClient({ channel: connectHttp(url) });
    await connected.connect();
    try {
      for (const name of NAMES) {
        expect(Object.hasOwn(connected.tools, name), name).toBe(true);
        const result = await connected.tools[name]!({ n: 2 });
        expect(result.content).toEqual([{ type: "text", text: `handled by ${name}` }]);
      }
    } finally {
      await connected.close();
    }
  });
});
