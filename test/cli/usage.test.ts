/**
 * The command line as a user meets it: help on every command, exit code 2
 * for bad usage, results on stdout and everything else on stderr.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readRegistry } from "../../generator/index.js";
import { REVISIONS, ROOT } from "../helpers/index.js";
import { runCli } from "../helpers/run-cli.js";

describe.concurrent("--help works on every command", () => {
  it.each([
    [["--help"], "mcp-gen <command> [options]"],
    [["generate", "--help"], "mcp-gen generate"],
    [["schema", "--help"], "mcp-gen schema <action>"],
    [["schema", "pull", "--help"], "mcp-gen schema pull [revision]"],
    [["schema", "list", "--help"], "mcp-gen schema list"],
  ])("mcp-gen %j", async (args, usage) => {
    const run = await runCli(args);
    expect(run.code).toBe(0);
    expect(run.stdout.split("\n")[0]).toBe(usage);
    expect(run.stderr).toBe("");
  });
});

describe.concurrent("--help names every option a command declares", () => {
  // The oracle is the command's own source: every `.option("name"` its builder declares.
  it.each([
    ["generate", "generate.ts"],
    ["server", "server.ts"],
    ["client", "client.ts"],
    ["diff", "diff.ts"],
    ["upgrade", "upgrade.ts"],
    ["dev", "dev.ts"],
    ["schema pull", "schema.ts"],
  ])("mcp-gen %s --help", async (command, file) => {
    const source = readFileSync(join(ROOT, "generator", "cli", file), "utf8");
    // `.option("name", …)` and `.option(\n  "name",` alike (prettier breaks a long one).
    const declared = [...source.matchAll(/\.option\(\s*"([\w-]+)"/g)].map((m) => m[1]!);
    expect(declared.length).toBeGreaterThan(0);
    if (command === "server" || command === "client") expect(declared).toContain("spec");
    const run = await runCli([...command.split(" "), "--help"]);
    expect(run.code).toBe(0);
    const listed = (option: string) =>
      new RegExp(`^\\s+(?:-\\w, )?--${option}\\b`, "m").test(run.stdout);
    expect(declared.filter((option) => !listed(option))).toEqual([]);
  });
});

describe.concurrent("scaffolds state the revisions they serve, in --help and in the docs", () => {
  // One sentence a user meets where --spec is described: a 2026-07-28 project also serves 2025-11-25 clients.
  it.each([
    ["server", "server.md"],
    ["client", "client.md"],
  ])("mcp-gen %s --help and docs/%s", async (command, doc) => {
    const run = await runCli([command, "--help"]);
    const spec = run.stdout.slice(run.stdout.indexOf("--spec"), run.stdout.indexOf("--name"));
    expect(spec.replace(/\s+/g, " ")).toMatch(
      /2026-07-28 or later \([^)]*2025-11-25 (clients|servers)/,
    );
    const docs = readFileSync(join(ROOT, "docs", doc), "utf8");
    expect(docs).toMatch(/`--spec`[^\n]*2026-07-28[\s\S]{0,400}2025-11-25/);
  });
});

describe.concurrent("bad usage exits 2 with one message on stderr", () => {
  it.each([
    ["no command", [], "mcp-gen: Name a command; see --help."],
    ["an unknown command", ["frobnicate"], "mcp-gen: Unknown argument: frobnicate"],
    [
      "an unknown option",
      ["generate", "--spec", "2026-07-28", "--out", "/x", "--colour"],
      "mcp-gen: Unknown option: --colour",
    ],
    [
      "a mistyped option",
      ["server", "x", "--tool", "tools.json"],
      "mcp-gen: Unknown option: --tool (did you mean --tools?)",
    ],
    [
      "two mistyped options",
      ["server", "x", "--exmaple", "everything", "--transprot=http"],
      "mcp-gen: Unknown options: --exmaple (did you mean --example?), --transprot (did you mean --transport?)",
    ],
    [
      "a missing --spec",
      ["generate", "--out", "/x"],
      "mcp-gen: --spec is required with --out (leave out both to generate what mcp-gen.json lists)",
    ],
    [
      "a missing --out",
      ["generate", "--spec", "2026-07-28"],
      "mcp-gen: --out is required with --spec (leave out both to generate what mcp-gen.json lists)",
    ],
    [
      "--config with --spec",
      ["generate", "--spec", "2026-07-28", "--out", "/x", "--config", "mcp-gen.json"],
      "mcp-gen: --config names the settings of a run without --spec and --out; give one or the other",
    ],
    [
      "--extension without --spec",
      ["generate", "--extension", "tasks"],
      "mcp-gen: --extension goes with --spec and --out (in mcp-gen.json, a target lists its extensions)",
    ],
    [
      "--check with --watch",
      ["generate", "--check", "--watch"],
      "mcp-gen: --check and --watch do not go together: --check is for CI, --watch for editing",
    ],
    [
      "--out without a value",
      ["generate", "--spec", "2026-07-28", "--out"],
      "mcp-gen: Not enough arguments following: out",
    ],
    [
      "--spec without a value",
      ["generate", "--spec", "--out", "/x"],
      "mcp-gen: Not enough arguments following: spec",
    ],
    [
      "an empty --out",
      ["generate", "--spec", "2026-07-28", "--out="],
      "mcp-gen: --out needs a value",
    ],
    [
      "--spec given twice",
      ["generate", "--spec", "2026-07-28", "--spec", "2025-11-25", "--out", "/x"],
      "mcp-gen: --spec was given 2 times; give it once",
    ],
    [
      "--out given twice",
      ["generate", "--spec", "2026-07-28", "--out", "/x", "--out", "/y"],
      "mcp-gen: --out was given 2 times; give it once",
    ],
    [
      "schema without an action",
      ["schema"],
      "mcp-gen: Not enough non-option arguments: got 0, need at least 1",
    ],
    [
      "schema pull without a revision",
      ["schema", "pull"],
      "mcp-gen: name a revision or extension, or pass --all (not both)",
    ],
    [
      "schema pull with a revision and --all",
      ["schema", "pull", "2026-07-28", "--all"],
      "mcp-gen: name a revision or extension, or pass --all (not both)",
    ],
  ])("%s", async (_what, args, message) => {
    const run = await runCli(args);
    expect(run.code).toBe(2);
    expect(run.stderrLines).toEqual([message, "Run mcp-gen --help for usage."]);
    expect(run.stdout).toBe("");
  });
});

describe("mcp-gen schema list", () => {
  it("prints every known revision and extension and its canonical URL on stdout", async () => {
    const run = await runCli(["schema", "list"]);
    const registry = readRegistry();
    expect(run.code).toBe(0);
    expect(run.stdout.split("\n").filter(Boolean)).toEqual([
      ...REVISIONS.map((r) => `${r}  ${registry.revisions[r]!.files["schema.json"].url}`),
      "apps (io.modelcontextprotocol/ui, for 2026-07-28)  https://registry.npmjs.org/@modelcontextprotocol/ext-apps/-/ext-apps-2.0.4.tgz",
      "skills (io.modelcontextprotocol/skills, for 2026-07-28)  https://raw.githubusercontent.com/modelcontextprotocol/ext-skills/0682b7b6e9e661fbf8538e27cbd3e7282927b45a/specification/stable/skills.mdx",
      "tasks (io.modelcontextprotocol/tasks, for 2026-07-28)  https://raw.githubusercontent.com/modelcontextprotocol/ext-tasks/e4345978be1f602f1fc48d89051e8559dd5302a6/schema/draft/schema.json",
    ]);
    expect(run.stderr).toBe("");
  });
});

describe.concurrent("mcp-gen schema pull", () => {
  it("refuses to download when MCP_GEN_OFFLINE=1", async () => {
    const run = await runCli(["schema", "pull", "2026-07-28"]);
    expect(run.code).toBe(2);
    expect(run.stderrLines).toEqual([
      "error MCPG106: cannot pull 2026-07-28: downloads are disabled (MCP_GEN_OFFLINE=1) (fix: unset MCP_GEN_OFFLINE to download, or set MCP_GEN_SCHEMA_DIR to a local copy of the schemas)",
    ]);
    expect(run.stdout).toBe("");
  });

  it("--all refuses to download when MCP_GEN_OFFLINE=1, naming every set the cache lacks", async () => {
    const run = await runCli(["schema", "pull", "--all"]);
    expect(run.code).toBe(2);
    expect(run.stderrLines).toHaveLength(1);
    expect(run.stderrLines[0]).toMatch(
      /^error MCPG108: upstream files missing: 2024-11-05, .*2026-07-28, 2026-07-28\/examples, extensions\/apps, extensions\/skills, extensions\/tasks, extensions\/tasks \(looked in .*\/schemas; downloads are disabled by MCP_GEN_OFFLINE=1\) \(fix: /,
    );
    expect(run.stdout).toBe("");
  });

  it("rejects an unknown revision, listing the known ones", async () => {
    const run = await runCli(["schema", "pull", "2099-01-01"]);
    expect(run.code).toBe(2);
    expect(run.stderrLines).toEqual([
      `error MCPG101: unknown MCP revision "2099-01-01" (fix: use one of ${REVISIONS.join(", ")}, or pass --spec <dir> with a schema.json)`,
    ]);
  });
});
