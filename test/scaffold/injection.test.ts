/**
 * Nothing from a tools file becomes code. A tools.json written to break
 * out of strings and comments (`*\/`, backticks, `${...}`, U+2028), to
 * smuggle a statement in through a keyword json-schema-to-typescript
 * honoured (`tsType`), and to confuse validators with names every object
 * inherits (`__proto__`, `constructor`, `hasOwnProperty`, `toString`)
 * scaffolds, compiles under --strict, lists exactly as written and
 * validates by own properties only. (What a tools file may not do at all
 * is refused at generation: tool-rules.test.ts.)
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scaffoldServer, writeProject } from "../../generator/scaffold/scaffold.js";
import { importFromProject, tempDir, testSources, type ProjectServer } from "../helpers/index.js";
import { post, request } from "../helpers/mcp-client.js";
import type { ProjectRuntime } from "../helpers/index.js";
import { compileProject } from "../helpers/typecheck.js";
import { linkNodeModules } from "../helpers/project.js";

const PAYLOAD = 'globalThis.__mcpGenInjected = "ran"';

/** Tools written to break generated code, each of them legal MCP. */
const HOSTILE = [
  {
    name: "comments",
    title: "Ends */ comments, `backticks` and ${templates}",
    description: `*/ ${PAYLOAD}; /* and \`\${${PAYLOAD}}\` and a line\u2028separator\u2029and "quotes" \\ too`,
    inputSchema: {
      type: "object",
      description: "*/ throw 1; /*",
      properties: {
        "a*/b": { type: "string", description: "*/ `${x}` \u2028" },
        'quote"key': { type: "string" },
        typed: { type: "string", tsType: `string; ${PAYLOAD}; type X = string` },
      },
      additionalProperties: false,
    },
  },
  {
    name: "inherited",
    description: "Properties every object inherits, as plain names.",
    inputSchema: {
      type: "object",
      properties: {
        constructor: { type: "string" },
        hasOwnProperty: { type: "integer" },
        // A computed key: an own property named __proto__, as JSON.parse makes it.
        ["__proto__"]: { type: "object", properties: { polluted: { type: "boolean" } } },
        toString: { type: "string" },
      },
      required: ["constructor"],
      additionalProperties: false,
    },
    outputSchema: {
      type: "object",
      properties: { ["__proto__"]: { type: "string" }, toString: { type: "string" } },
      required: ["__proto__"],
    },
  },
] as const;

/** A value as JSON text would give it: `__proto__` as an own property, never the prototype. */
const json = (text: string): unknown => JSON.parse(text);

describe("a hostile tools.json, scaffolded", () => {
  let project: string;
  let files: Awaited<ReturnType<typeof scaffoldServer>>["files"];
  let close: (() => Promise<void>) | undefined;
  let url: string;

  beforeAll(async () => {
    const dir = tempDir("injection");
    const toolsFile = join(dir, "tools.json");
    writeFileSync(toolsFile, JSON.stringify(HOSTILE, null, 2));
    project = join(dir, "proj");
    ({ files } = await scaffoldServer({
      dir: project,
      tools: toolsFile,
      name: "hostile",
      sources: testSources(),
    }));
    writeProject(project, files);
    linkNodeModules(project);
    const [runtime, { createServer }] = await Promise.all([
      importFromProject<ProjectRuntime>(project, "src/mcp-gen/runtime/index.ts"),
      importFromProject<ProjectServer>(project, "src/server.ts"),
    ]);
    const served = await runtime.serveHttp(createServer(), { port: 0 });
    url = served.url;
    close = served.close;
  });
  afterAll(async () => {
    await close?.();
  });

  it("compiles under --strict", () => {
    expect(compileProject(project).errors).toEqual([]);
  });

  it("runs nothing from the tools file, and copies no keyword into code: its text is only in strings and comments", () => {
    expect((globalThis as Record<string, unknown>).__mcpGenInjected).toBeUndefined();
    // Every TypeScript and JavaScript file the scaffold wrote, not only the ones made from tools.json.
    const written = files.map((f) => f.path).filter((path) => /\.(ts|js|mjs)$/.test(path));
    expect(written).toEqual(
      expect.arrayContaining([
        "src/generated/tools.gen.ts",
        "src/generated/tool-validators-2020.gen.js",
        "src/generated/tool-validators-2020.gen.d.ts",
      ]),
    );
    for (const file of written) {
      const text = readFileSync(join(project, file), "utf8");
      const scanner = ts.createScanner(
        ts.ScriptTarget.ES2022,
        false,
        ts.LanguageVariant.Standard,
        text,
      );
      const identifiers = new Set<string>();
      for (
        let token = scanner.scan();
        token !== ts.SyntaxKind.EndOfFileToken;
        token = scanner.scan()
      )
        if (token === ts.SyntaxKind.Identifier) identifiers.add(scanner.getTokenText());
      expect(identifiers.has("__mcpGenInjected"), file).toBe(false);
      // The runtime's own files may use globalThis; none made from the tools file may.
      if (!file.startsWith("src/mcp-gen/runtime/"))
        expect(identifiers.has("globalThis"), file).toBe(false);
    }
  });

  it("lists every tool exactly as tools.json has it", async () => {
    const reply = await post(url, request("tools/list"));
    expect(reply.body.result).toMatchObject({ tools: json(JSON.stringify(HOSTILE)) });
    const tools = (reply.body.result as { tools: unknown[] }).tools;
    expect(JSON.stringify(tools)).toBe(JSON.stringify(HOSTILE));
  });

  it.each([
    ["constructor given, optional toString left out", '{"constructor":"c"}', false],
    ["required constructor left out: {} is not enough", "{}", true],
    [
      "__proto__ as an own property, checked like any other",
      '{"constructor":"c","__proto__":{"polluted":"yes"}}',
      true,
    ],
    [
      "a valid __proto__ is accepted, not taken for an additional property",
      '{"constructor":"c","__proto__":{"polluted":true}}',
      false,
    ],
    ["hasOwnProperty as an own property", '{"constructor":"c","hasOwnProperty":1}', false],
  ])("%s", async (_title, args, isError) => {
    const body = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"inherited","arguments":${args},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`;
    const reply = await post(url, body, {
      "mcp-method": "tools/call",
      "mcp-name": "inherited",
      accept: "application/json, text/event-stream",
    });
    const result = reply.body.result as { isError?: boolean; content: Array<{ text: string }> };
    // A valid call reaches the stub, which answers "not implemented yet"; an invalid one names its problems.
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text.startsWith("Invalid arguments")).toBe(isError);
  });
});
