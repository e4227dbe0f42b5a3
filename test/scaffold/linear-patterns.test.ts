/**
 * A hostile server's schemas cannot stall a scaffolded client
 * (generator/shared/linear-patterns.ts): the client's tool validators run
 * `pattern` and `patternProperties` with re2js, in time linear in the input,
 * so a result checked against `"pattern": "^(a+)+$"` (exponential for
 * JavaScript's RegExp: 31 characters took more than 100 s) is answered at
 * once. A pattern re2js cannot run (a lookahead) is left unchecked with a
 * warning naming the tool and where (MCPG724), the rest of the schema still
 * checked. A server runs its own patterns with RegExp unless mcp-gen.json
 * says `"patterns": "linear"`. The checks run in a child process killed
 * after 30 s: a stalled RegExp cannot be interrupted in the test's own.
 */
import { execFile } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { runCli, tempDir } from "../helpers/run-cli.js";
import { linkNodeModules, projectEnv } from "../helpers/project.js";

const TSX = pathToFileURL(createRequire(import.meta.url).resolve("tsx/esm")).href;
const EVIL = "^(a+)+$";
const TOOLS = [
  {
    name: "lookup",
    inputSchema: { type: "object" },
    outputSchema: {
      type: "object",
      properties: {
        code: { type: "string", pattern: EVIL },
        ahead: { type: "string", pattern: "^(?=x)x+$", maxLength: 5 },
      },
    },
  },
];

/** Runs `output` checks of the project's tool `lookup` in a child process; what they answered, or "stalled". */
function checkOutputs(project: string, values: readonly unknown[]): Promise<unknown> {
  const script = join(project, "check-outputs.mts");
  writeFileSync(
    script,
    `import { TOOL_CHECKS } from "./src/generated/tools.gen.ts";
const values = ${JSON.stringify(values)};
const verdicts = [];
for (const value of values) verdicts.push(await TOOL_CHECKS.lookup.output(value));
process.stdout.write(JSON.stringify(verdicts));
`,
  );
  return new Promise((resolve) =>
    execFile(
      process.execPath,
      ["--import", TSX, script],
      { cwd: project, env: projectEnv(), timeout: 30_000 },
      (error, stdout, stderr) =>
        resolve(error ? (error.killed ? "stalled" : `failed: ${stderr}`) : JSON.parse(stdout)),
    ),
  );
}

let cwd: string;
let toolsFile: string;
beforeAll(() => {
  cwd = tempDir("linear-patterns");
  toolsFile = join(cwd, "tools.json");
  writeFileSync(toolsFile, JSON.stringify(TOOLS));
});

describe("a client's tool validators", () => {
  let project: string;
  let stderr: string;
  beforeAll(async () => {
    const run = await runCli(["client", "client", "--tools", toolsFile, "--quiet"], { cwd });
    expect(run.code, run.stderr).toBe(0);
    stderr = run.stderr;
    project = join(cwd, "client");
    linkNodeModules(project);
  }, 120_000);

  it("check ^(a+)+$ against 40 characters at once, and still check it", async () => {
    const hostile = `${"a".repeat(40)}!`;
    expect(await checkOutputs(project, [{ code: hostile }, { code: "aaaa" }])).toMatchObject([
      { ok: false, errors: [{ path: "/code" }] },
      { ok: true },
    ]);
  });

  it("leave a pattern re2js cannot run unchecked, warning where it is, and check the rest", async () => {
    expect(stderr).toContain(
      'warning MCPG724: tool lookup: the pattern "^(?=x)x+$" is not checked: the linear-time engine (re2js) cannot run it',
    );
    expect(stderr).toContain("#/0/outputSchema/properties/ahead/pattern");
    expect(await checkOutputs(project, [{ ahead: "yy" }, { ahead: "yyyyyy" }])).toMatchObject([
      { ok: true },
      { ok: false, errors: [{ path: "/ahead" }] },
    ]);
  });

  it("import re2js, which the project depends on", () => {
    const module = readFileSync(
      join(project, "src", "generated", "tool-validators-2020.gen.js"),
      "utf8",
    );
    expect(module).toContain('import { RE2JS } from "re2js";');
    const manifest = JSON.parse(readFileSync(join(project, "package.json"), "utf8")) as {
      dependencies: Record<string, string>;
    };
    expect(manifest.dependencies.re2js).toBe("2.10.0");
  });
});

describe("a server's tool validators", () => {
  it('run its own patterns with RegExp by default, and with re2js once mcp-gen.json says "patterns": "linear"', async () => {
    const run = await runCli(["server", "server", "--tools", toolsFile, "--quiet"], { cwd });
    expect(run.code, run.stderr).toBe(0);
    const project = join(cwd, "server");
    const module = () =>
      readFileSync(join(project, "src", "generated", "tool-validators-2020.gen.js"), "utf8");
    expect(module()).not.toContain("re2js");
    const settingsFile = join(project, "mcp-gen.json");
    const settings = JSON.parse(readFileSync(settingsFile, "utf8")) as Record<string, unknown>;
    writeFileSync(settingsFile, JSON.stringify({ ...settings, patterns: "linear" }, null, 2));
    const regenerated = await runCli(["generate", "--quiet"], { cwd: project });
    expect(regenerated.code, regenerated.stderr).toBe(0);
    expect(regenerated.stderr).toContain("warning MCPG724");
    expect(module()).toContain('import { RE2JS } from "re2js";');
    linkNodeModules(project);
    expect(await checkOutputs(project, [{ code: `${"a".repeat(40)}!` }])).toMatchObject([
      { ok: false },
    ]);
  });
});
