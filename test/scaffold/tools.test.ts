/**
 * `mcp-gen server --tools tools.json`: one typed stub per tool in
 * src/tools.ts, and in src/generated/tools.gen.ts a namespace per tool
 * whose Arguments and StructuredContent types follow its schemas (checked
 * with the TypeScript compiler, both ways). Then the project's own code,
 * run in process over real HTTP: arguments are validated before a handler
 * runs, a stub answers with a tool error, and structured output that does
 * not match the outputSchema is -32603.
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixture, runCli, tempDir } from "../helpers/run-cli.js";
import { importFromProject, type ProjectRuntime, type ProjectServer } from "../helpers/index.js";
import { post, request } from "../helpers/mcp-client.js";
import type { ProtocolModule } from "../../templates/runtime/index.js";
import { compileProject } from "../helpers/typecheck.js";
import { linkNodeModules } from "../helpers/project.js";

const TOOLS = fixture("scaffold-tools/tools.json");
const NAMES = ["search_docs", "set-mode", "legacy.point", "get_weather"];
let project: string;

beforeAll(async () => {
  const cwd = tempDir("scaffold-tools");
  const run = await runCli(["server", "proj", "--tools", TOOLS, "--quiet"], { cwd });
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  project = join(cwd, "proj");
  // The compiler and @types/node of this repository stand in for the project's own devDependencies.
  linkNodeModules(project);
});

const read = (path: string) => readFileSync(join(project, path), "utf8");

/** Compiles the project as tsc would; its diagnostics, one per line. */
function typecheck(): { code: number; errors: string[] } {
  const { errors } = compileProject(project);
  return { code: errors.length > 0 ? 2 : 0, errors };
}

describe("--tools: TOOL_SCHEMAS, every tool's Standard Schema", () => {
  interface Standard {
    readonly "~standard": {
      readonly version: number;
      readonly vendor: string;
      validate(value: unknown): { value?: unknown; issues?: ReadonlyArray<{ message: string }> };
      readonly jsonSchema: { input(options: { target: string }): unknown };
    };
  }
  it("arguments for each tool of tools.json, output exactly where it has an outputSchema, each checking as the tool's schema does", async () => {
    const tools = JSON.parse(readFileSync(TOOLS, "utf8")) as Array<{
      name: string;
      inputSchema: object;
      outputSchema?: object;
    }>;
    const { TOOL_SCHEMAS } = await importFromProject<{
      TOOL_SCHEMAS: Record<string, { arguments: Standard; output: Standard | undefined }>;
    }>(project, "src/generated/tool-schemas.gen.ts");
    expect(Object.keys(TOOL_SCHEMAS)).toEqual(NAMES);
    for (const tool of tools) {
      const schemas = TOOL_SCHEMAS[tool.name]!;
      for (const schema of [schemas.arguments, schemas.output].filter((s) => s !== undefined)) {
        expect(schema["~standard"]).toMatchObject({ version: 1, vendor: "mcp-gen" });
        // Not an object: every tool's arguments and output here are objects.
        expect(schema["~standard"].validate("not an object").issues?.length).toBeGreaterThan(0);
      }
      // The JSON Schema it checks is the tool's own, in the dialect the tool declares.
      const dialect = "$schema" in tool.inputSchema ? "draft-07" : "draft-2020-12";
      expect(schemas.arguments["~standard"].jsonSchema.input({ target: dialect })).toEqual(
        tool.inputSchema,
      );
      expect(schemas.output === undefined, tool.name).toBe(tool.outputSchema === undefined);
      if (tool.outputSchema)
        expect(schemas.output!["~standard"].jsonSchema.input({ target: "draft-2020-12" })).toEqual(
          tool.outputSchema,
        );
    }
  });
});

describe("--tools: the files", () => {
  it("copies tools.json as given and records it in mcp-gen.json", () => {
    expect(read("tools.json")).toBe(readFileSync(TOOLS, "utf8"));
    expect(JSON.parse(read("mcp-gen.json"))).toEqual({
      kind: "server",
      revision: "2026-07-28",
      extensions: [],
      tools: "tools.json",
      example: "minimal",
      transport: "both",
    });
  });

  it("src/tools.ts has one stub per tool, in order, each answering that it is not implemented yet", () => {
    const source = read("src/tools.ts");
    expect(
      [...source.matchAll(/^ {2}("?[\w.-]+"?): async \(args, ctx\) => \{$/gm)].map((m) => m[1]),
    ).toEqual(["search_docs", '"set-mode"', '"legacy.point"', "get_weather"]);
    expect(
      [...source.matchAll(/throw new NotImplemented\("tool ([\w.-]+)"\);/g)].map((m) => m[1]),
    ).toEqual(NAMES);
    expect(source).toContain("  /** Finds pages that mention a query. */\n  search_docs:");
  });

  it("tools.gen.ts has a namespace per tool, and the maps by name", () => {
    const source = read("src/generated/tools.gen.ts");
    expect([...source.matchAll(/^export namespace (\w+) \{$/gm)].map((m) => m[1])).toEqual([
      "SearchDocs",
      "SetMode",
      "LegacyPoint",
      "GetWeather",
    ]);
    expect(source).toContain(
      'export interface ToolArguments {\n  search_docs: SearchDocs.Arguments;\n  "set-mode": SetMode.Arguments;\n  "legacy.point": LegacyPoint.Arguments;\n  get_weather: GetWeather.Arguments;\n}',
    );
    expect(source).toContain(
      'export interface StructuredContent {\n    temperature: number;\n    conditions: "sunny" | "cloudy" | "rain";\n  }',
    );
  });

  it("compiles each dialect with its own validator module: 2020-12 by default, draft-07 when declared", () => {
    expect(read("src/generated/tools.gen.ts")).toContain(
      '  search_docs: { arguments: check(checks2020, "tool0_input") },\n' +
        '  "set-mode": { arguments: check(checks2020, "tool1_input") },\n' +
        '  "legacy.point": { arguments: check(checks07, "tool2_input") },\n' +
        '  get_weather: { arguments: check(checks2020, "tool3_input"), output: check(checks2020, "tool3_output") },\n',
    );
    expect(read("src/generated/tool-validators-draft-07.gen.js")).toContain(
      '"$id":"mcp-gen:tool:legacy.point:input"',
    );
    expect(read("src/generated/tool-validators-2020.gen.js")).not.toContain("legacy.point");
    // minLength and uniqueItems over objects need ajv's helpers: ajv's code require()s them, and the
    // module's own require hands out the copies it imports from the protocol module (nothing loads ajv).
    const validators = read("src/generated/tool-validators-2020.gen.js");
    expect(validators).toContain('\nimport { deepEqual, ucs2length } from "./protocol.gen.js";\n');
    expect(validators).toContain("\nfunction require(id) {\n");
    expect(validators).toContain('require("ajv/dist/runtime/ucs2length").default');
  });
});

const EQUAL = `type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const same = <A, B>(_proof: Equal<A, B>) => undefined;
`;

describe("--tools: the types follow the schemas (tsc)", () => {
  it("types that match the schemas compile, with the project", () => {
    writeFileSync(
      join(project, "src", "typed-ok.ts"),
      `import type { GetWeather, LegacyPoint, SearchDocs, SetMode, ToolHandlers } from "./generated/tools.gen.js";
${EQUAL}
same<SearchDocs.Arguments["query"], string>(true);
same<SearchDocs.Arguments["limit"], number | undefined>(true);
same<NonNullable<SearchDocs.Arguments["filters"]>, { tags: string[]; since?: string }>(true);
same<SetMode.Arguments["mode"], "fast" | "safe" | "off">(true);
same<LegacyPoint.Arguments["at"], [] | [number] | [number, number]>(true);
same<GetWeather.Arguments, { city: string; stations?: { id?: string }[] }>(true);
same<GetWeather.StructuredContent, { temperature: number; conditions: "sunny" | "cloudy" | "rain" }>(true);
same<SetMode.StructuredContent, unknown>(true);

export const handlers: ToolHandlers = {
  search_docs: ({ query, limit, filters }) => ({ content: [{ type: "text", text: \`\${query} \${limit ?? 10} \${filters?.tags.join() ?? ""}\` }] }),
  "set-mode": ({ mode }) => ({ content: [{ type: "text", text: mode }] }),
  "legacy.point": ({ at }) => ({ content: [{ type: "text", text: at.join(",") }] }),
  get_weather: async ({ city }) => ({ content: [], structuredContent: { temperature: city.length, conditions: "rain" } }),
};
`,
    );
    try {
      expect(typecheck()).toEqual({ code: 0, errors: [] });
    } finally {
      rmSync(join(project, "src", "typed-ok.ts"));
    }
  });

  it("a wrong argument or output type does not compile, each where it is", () => {
    const lines = [
      'import type { GetWeather, SearchDocs, SetMode, ToolHandlers } from "./generated/tools.gen.js";',
      "export const a: SearchDocs.Arguments = { query: 42 };",
      'export const b: SetMode.Arguments = { mode: "turbo" };',
      'export const c: SearchDocs.Arguments = { query: "x", filters: { since: "2024" } };',
      'export const d: SearchDocs.Arguments = { query: "x", page: 2 };',
      'export const e: GetWeather.StructuredContent = { temperature: 20, conditions: "snow" };',
      'export const f: ToolHandlers["get_weather"] = () => ({ content: [], structuredContent: { temperature: "hot", conditions: "sunny" } });',
      'export const g: ToolHandlers["search_docs"] = ({ query }) => ({ content: [{ type: "text", text: query.toFixed(2) }] });',
      "export const h: SearchDocs.Arguments = { limit: 5 };",
    ];
    writeFileSync(join(project, "src", "typed-bad.ts"), `${lines.join("\n")}\n`);
    try {
      const { code, errors } = typecheck();
      expect(code).toBe(2);
      expect(
        errors.every((e) => e.startsWith("src/typed-bad.ts(")),
        errors.join("\n"),
      ).toBe(true);
      expect([...new Set(errors.map((e) => Number(/\((\d+),/.exec(e)![1])))]).toEqual([
        2, 3, 4, 5, 6, 7, 8, 9,
      ]);
    } finally {
      rmSync(join(project, "src", "typed-bad.ts"));
    }
  });
});

describe("--tools: the project's code at run time", () => {
  type Json = Record<string, unknown>;
  type Handler = (args: Json) => Json;
  /** src/generated/tools.gen.ts: registerTools takes a handler for each tool of tools.json. */
  interface ToolsModule {
    readonly registerTools: (
      server: InstanceType<ProjectRuntime["McpServer"]>,
      handlers: Record<string, Handler>,
    ) => void;
  }
  /** src/generated/protocol.gen.ts: the project's generated protocol modules. */
  interface ProtocolModules {
    readonly protocol: ProtocolModule;
    readonly legacy: ProtocolModule;
  }
  let url: string;
  let stubsUrl: string;
  let closers: Array<() => Promise<void>> = [];
  const calls: Array<readonly [string, unknown]> = [];
  const logged: string[] = [];

  beforeAll(async () => {
    const [{ registerTools }, runtime, { protocol, legacy }, { createServer }] = await Promise.all([
      importFromProject<ToolsModule>(project, "src/generated/tools.gen.ts"),
      importFromProject<ProjectRuntime>(project, "src/mcp-gen/runtime/index.ts"),
      importFromProject<ProtocolModules>(project, "src/generated/protocol.gen.ts"),
      importFromProject<ProjectServer>(project, "src/server.ts"),
    ]);
    const server = new runtime.McpServer({
      protocol,
      legacy,
      info: { name: "proj", version: "0.1.0" },
      onError: (error, where) => logged.push(`${where}: ${(error as Error).message}`),
    });
    const record = (name: string, result: Handler) => (args: Json) => {
      calls.push([name, args]);
      return result(args);
    };
    // The runtime's untyped server (McpServer<any>) is what a project without generated types has.
    registerTools(server as Parameters<ToolsModule["registerTools"]>[0], {
      search_docs: record("search_docs", (args) => ({
        content: [{ type: "text", text: String(args.query) }],
      })),
      "set-mode": record("set-mode", (args) => ({
        content: [{ type: "text", text: String(args.mode) }],
      })),
      "legacy.point": record("legacy.point", (args) => ({
        content: [{ type: "text", text: String(args.at) }],
      })),
      get_weather: record("get_weather", (args) => ({
        content: [],
        structuredContent:
          args.city === "Atlantis"
            ? { temperature: "hot", conditions: "sunny" }
            : { temperature: 21.5, conditions: "cloudy" },
      })),
    });
    const own = await runtime.serveHttp(server, { port: 0 });
    const stubs = await runtime.serveHttp(createServer(), { port: 0 });
    url = own.url;
    stubsUrl = stubs.url;
    closers = [own.close, stubs.close];
  });
  afterAll(async () => {
    for (const close of closers) await close();
  });

  const callTool = (name: string, args: unknown, at = url) =>
    post(at, request("tools/call", { name, arguments: args }));

  it.each(NAMES)(
    "the stub of %s answers with a tool error saying it is not implemented yet",
    async (name) => {
      const args = {
        search_docs: { query: "q" },
        "set-mode": { mode: "off" },
        "legacy.point": { at: [1, 2] },
        get_weather: { city: "Oslo" },
      }[name];
      const reply = await callTool(name, args, stubsUrl);
      expect(reply.status).toBe(200);
      expect(reply.body.result).toMatchObject({
        resultType: "complete",
        isError: true,
        content: [{ type: "text", text: `tool ${name} is not implemented yet` }],
      });
    },
  );

  it.each([
    ["search_docs", {}, "/query", "is required"],
    ["search_docs", { query: 5 }, "/query", "must be string"],
    ["search_docs", { query: "" }, "/query", "must be at least 1 characters long"],
    ["search_docs", { query: "x", limit: 0 }, "/limit", "must be >= 1"],
    ["search_docs", { query: "x", limit: 2.5 }, "/limit", "must be integer"],
    ["search_docs", { query: "x", filters: { since: "2024" } }, "/filters/tags", "is required"],
    ["search_docs", { query: "x", filters: { tags: [1] } }, "/filters/tags/0", "must be string"],
    ["search_docs", { query: "x", page: 2 }, "/page", "is not allowed"],
    ["set-mode", { mode: "turbo" }, "/mode", 'must be one of "fast", "safe", "off"'],
    ["legacy.point", { at: [1, "2"] }, "/at/1", "must be number"],
    ["legacy.point", { at: [1, 2, 3] }, "/at", 'must satisfy additionalItems {"limit":2}'],
    [
      "get_weather",
      { city: "Oslo", stations: [{ id: "a" }, { id: "a" }] },
      "/stations",
      "must not have duplicate items (items 0 and 1 are equal)",
    ],
  ])(
    "%s with %j is a tool execution error naming %s, and its handler is not called",
    async (name, args, path, message) => {
      calls.length = 0;
      const reply = await callTool(name, args);
      expect(reply.status).toBe(200);
      expect(reply.body.result).toMatchObject({
        resultType: "complete",
        isError: true,
        content: [
          {
            type: "text",
            text: `Invalid arguments for tool ${name} (1 problem):\n- ${path}: ${message}`,
          },
        ],
      });
      expect(calls).toEqual([]);
    },
  );

  it("arguments with several problems: every one is listed, each with its JSON pointer", async () => {
    calls.length = 0;
    const reply = await callTool("search_docs", {
      query: 5,
      limit: 0,
      page: 2,
      filters: { tags: [1, "a", 2] },
    });
    expect(reply.body.result).toMatchObject({ isError: true });
    const text = (reply.body.result as { content: Array<{ text: string }> }).content[0]!.text;
    expect(text.split("\n")).toEqual([
      "Invalid arguments for tool search_docs (5 problems):",
      "- /page: is not allowed",
      "- /query: must be string",
      "- /limit: must be >= 1",
      "- /filters/tags/0: must be string",
      "- /filters/tags/2: must be string",
    ]);
    expect(calls).toEqual([]);
  });

  it("an unknown tool and malformed arguments stay protocol errors (-32602)", async () => {
    const unknown = await callTool("no_such_tool", {});
    expect(unknown.body.error).toMatchObject({
      code: -32602,
      message: "Unknown tool: no_such_tool",
    });
    const malformed = await callTool("search_docs", "not an object");
    expect(malformed.body.error).toMatchObject({ code: -32602 });
  });

  it.each([
    ["search_docs", { query: "ü", limit: 50, filters: { tags: [] } }],
    ["set-mode", { mode: "safe" }],
    ["legacy.point", { at: [1.5, -2] }],
    ["legacy.point", { at: [] }],
    ["get_weather", { city: "Oslo", stations: [{ id: "a" }, { id: "b" }] }],
  ])("%s with valid arguments %j reaches its handler with them", async (name, args) => {
    calls.length = 0;
    const reply = await callTool(name, args);
    expect(reply.body).toHaveProperty(["result", "resultType"], "complete");
    expect(calls).toEqual([[name, args]]);
  });

  it("structuredContent that matches the outputSchema is sent", async () => {
    const reply = await callTool("get_weather", { city: "Oslo" });
    expect(reply.body.result).toMatchObject({
      resultType: "complete",
      structuredContent: { temperature: 21.5, conditions: "cloudy" },
    });
  });

  it("structuredContent that does not match the outputSchema is logged with the tool's name and answered -32603 without internals", async () => {
    logged.length = 0;
    const reply = await callTool("get_weather", { city: "Atlantis" });
    expect(reply.status).toBe(200);
    expect(reply.body.error).toEqual({ code: -32603, message: "Internal error" });
    expect(logged).toEqual([
      "tools/call get_weather: tool get_weather returned structuredContent that does not match its outputSchema: /temperature must be number",
    ]);
  });
});

describe("--tools with no tool", () => {
  it.each(["server", "client"] as const)(
    "a %s of an empty tools.json compiles under --strict (for servers with prompts or resources only)",
    async (kind) => {
      const cwd = tempDir("no-tools");
      writeFileSync(join(cwd, "tools.json"), "[]");
      const run = await runCli([kind, "proj", "--tools", "tools.json", "--quiet"], { cwd });
      expect(run.code, run.stderr).toBe(0);
      const project = join(cwd, "proj");
      linkNodeModules(project);
      expect(compileProject(project).errors).toEqual([]);
    },
    120_000,
  );
});
