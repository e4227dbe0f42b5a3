/**
 * `mcp-gen client` through the real command line: a project from
 * tools.json, from a live server's tools/list (`--from-server`), and from
 * a hostile tool list whose names, descriptions and schemas try to become
 * code. Each project is compiled with tsc under --strict (the repository's
 * node_modules linked in, so nothing is installed) and its command line
 * (`npm run mcp`, src/cli.ts) is run against mcp-gen's own server over
 * real HTTP on 127.0.0.1.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { stripVTControlCharacters } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveHttp } from "../../templates/runtime/index.js";
import { buildServer } from "../client/fixtures/server.js";
import { runCli, tempDir } from "../helpers/run-cli.js";
import { linkNodeModules, runNode } from "../helpers/project.js";
import { compileProject } from "../helpers/typecheck.js";

const MINUTE = 60_000;

/** Scaffolds a client project in a fresh folder, links node_modules in and compiles it; the project's folder. */
async function scaffoldAndBuild(
  label: string,
  args: readonly string[],
  setup?: (cwd: string) => void,
): Promise<{ project: string; stderr: string }> {
  const cwd = tempDir(label);
  setup?.(cwd);
  const run = await runCli(["client", "proj", ...args, "--quiet"], { cwd });
  expect(run.code, run.stderr).toBe(0);
  const project = join(cwd, "proj");
  linkNodeModules(project);
  expect(compileProject(project, { emit: true }).errors).toEqual([]);
  return { project, stderr: run.stderr };
}

const server = buildServer();
let url: string;
let closeHttp: () => Promise<void>;
beforeAll(async () => {
  ({ url, close: closeHttp } = await serveHttp(server, { port: 0 }));
});
afterAll(() => closeHttp());

describe("mcp-gen client --from-server, then the project's command line", () => {
  let project: string;
  beforeAll(async () => {
    ({ project } = await scaffoldAndBuild("client-from-server", ["--from-server", url]));
  }, 4 * MINUTE);

  it("writes the server's tools into tools.json and types a wrapper for each", () => {
    const tools = JSON.parse(readFileSync(join(project, "tools.json"), "utf8")) as Array<{
      name: string;
    }>;
    expect(tools.map((t) => t.name)).toEqual(["echo", "ask", "think", "wait", "count"]);
    const module = readFileSync(join(project, "src", "generated", "tools.gen.ts"), "utf8");
    expect(module).toMatch(/export namespace Echo \{/);
    expect(module).toMatch(/text: string;/);
  });

  it("the project's own tests pass (npm test)", async () => {
    const tested = await runNode(
      [join(project, "node_modules", "vitest", "vitest.mjs"), "run"],
      project,
    );
    expect(tested.code, `${tested.stdout}${tested.stderr}`).toBe(0);
    expect(stripVTControlCharacters(tested.stdout)).toMatch(/Tests\s+\d+ passed \(\d+\)\n/);
  });

  it("discover, list-tools, call, read and get-prompt print JSON on stdout and exit 0", async () => {
    const cli = join(project, "dist", "cli.js");
    const discovered = await runNode([cli, url, "discover"], project);
    expect(discovered.code, discovered.stderr).toBe(0);
    expect(JSON.parse(discovered.stdout)).toMatchObject({
      protocolVersion: "2026-07-28",
      serverInfo: { name: "client-tests" },
    });
    const listed = await runNode([cli, url, "list-tools"], project);
    expect((JSON.parse(listed.stdout) as unknown[]).length).toBe(5);
    const called = await runNode([cli, url, "call", "echo", '{"text":"hi"}'], project);
    expect(called.code, called.stderr).toBe(0);
    expect(JSON.parse(called.stdout)).toMatchObject({ content: [{ type: "text", text: "hi" }] });
    const read = await runNode([cli, url, "read", "test://readme"], project);
    expect(JSON.parse(read.stdout)).toMatchObject({ contents: [{ text: "read me" }] });
    const prompt = await runNode([cli, url, "get-prompt", "greet", '{"who":"Ada"}'], project);
    expect(JSON.parse(prompt.stdout)).toMatchObject({
      messages: [{ content: { text: "Hello Ada" } }],
    });
  });

  it("exit codes: 2 for arguments that fail the inputSchema (nothing sent), 1 for a server error, 3 when unreachable", async () => {
    const cli = join(project, "dist", "cli.js");
    const bad = await runNode([cli, url, "call", "echo", '{"text":1}'], project);
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe("");
    expect(bad.stderr).toMatch(/inputSchema/);
    const unknown = await runNode([cli, url, "get-prompt", "nope"], project);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^mcp: the server answered with error/);
    const usage = await runNode([cli, url, "frobnicate"], project);
    expect(usage.code).toBe(2);
    const closed = await runNode([cli, "http://127.0.0.1:1/mcp", "discover"], project);
    expect(closed.code).toBe(3);
    expect(closed.stdout).toBe("");
  });
});

describe("mcp-gen client with a hostile tool list", () => {
  /** Tool names, descriptions and schemas that would be code if pasted into TypeScript. */
  const HOSTILE = [
    {
      name: "__proto__",
      description: "*/ globalThis.pwned = 1; /*",
      inputSchema: {
        type: "object",
        properties: { a: { type: "string", description: "*/ globalThis.pwned = 2; /*" } },
      },
    },
    {
      name: "get-item",
      description: "`${globalThis.pwned = 3}`",
      inputSchema: {
        type: "object",
        properties: { x: { tsType: "string; globalThis.pwned = 4; //" } },
      },
    },
    {
      name: "get_item",
      inputSchema: {
        type: "object",
        properties: {
          "`${globalThis.pwned = 5}`": { type: "string", enum: ["*/", "`${x}`", "\"'\\"] },
        },
      },
    },
    {
      name: "GetItem",
      inputSchema: {
        type: "object",
        properties: {
          __proto__: { type: "object", properties: { constructor: { type: "number" } } },
        },
      },
    },
    { name: "ToolArguments", inputSchema: { type: "object", tsEnumNames: ["x"] } },
    { name: "get-item", inputSchema: { type: "object" } },
  ];

  let project: string;
  let stderr: string;
  beforeAll(async () => {
    ({ project, stderr } = await scaffoldAndBuild(
      "client-hostile",
      ["--tools", "tools.json"],
      (cwd) =>
        // JSON.stringify keeps "__proto__" an own key: the file holds exactly what a server could send.
        writeFileSync(join(cwd, "tools.json"), JSON.stringify(HOSTILE, null, 2)),
    ));
  }, 4 * MINUTE);

  it("leaves out the tool that repeats a name, with MCPG720", () => {
    expect(stderr).toMatch(
      /warning MCPG720: tool get-item is left out .*another tool of the list has its name/,
    );
  });

  it("regenerates from its mcp-gen.json, leaving the same tool out with MCPG720 again", async () => {
    const run = await runCli(["generate", "--check", "--quiet"], { cwd: project });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(
      /warning MCPG720: tool get-item is left out .*another tool of the list has its name/,
    );
    expect(run.stdout).toMatch(/^the project is up to date \(\d+ generated files\)\n$/);
  });

  it("compiles, and the module holds the list as data: TOOLS is the input, nothing ran", async () => {
    const module = (await import(
      pathToFileURL(join(project, "dist", "generated", "tools.gen.js")).href
    )) as { TOOLS: unknown; TOOL_CHECKS: Record<string, unknown> };
    expect((globalThis as { pwned?: unknown }).pwned).toBeUndefined();
    expect(JSON.parse(JSON.stringify(module.TOOLS))).toEqual(
      JSON.parse(JSON.stringify(HOSTILE.slice(0, 5))),
    );
    expect(Object.getPrototypeOf(module.TOOL_CHECKS)).toBe(Object.prototype);
    expect(Object.keys(module.TOOL_CHECKS)).toEqual([
      "__proto__",
      "get-item",
      "get_item",
      "GetItem",
      "ToolArguments",
    ]);
    const source = readFileSync(join(project, "src", "generated", "tools.gen.ts"), "utf8");
    // The colliding namespaces are numbered; tsType did not become a type.
    expect(source).toMatch(/export namespace GetItem_2 \{/);
    expect(source).toMatch(/export namespace ToolArguments_2 \{/);
    expect(source).toMatch(/x\?: unknown;/);
  });
});
