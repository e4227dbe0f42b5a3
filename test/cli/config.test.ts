/**
 * Config-driven generation: mcp-gen.json found in the current folder or
 * the nearest parent, paths relative to it, checked against
 * schema/config.schema.json with one diagnostic per problem; --check by
 * content from any working directory and any spelling of the path; a
 * scaffolded project's settings beside targets. Through the CLI and the
 * library API.
 */
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig, readConfig } from "../../generator/config/config.js";
import { generateConfig } from "../../generator/config/generate-config.js";
import { McpGenError } from "../../generator/diagnostics.js";
import { listFiles } from "../../generator/write/write-output.js";
import { testSources } from "../helpers/index.js";
import { fixture, runCli, snapshotFolder, tempDir } from "../helpers/run-cli.js";

const FIX_CONFIG =
  "(fix: edit mcp-gen.json at the place named; its format is schema/config.schema.json in mcp-gen's package (docs/config.md))";

/** A folder with mcp-gen.json, a spec folder `schemas/custom` and a subfolder `deep/er`. */
function configFolder(config: unknown): string {
  const dir = tempDir("config");
  cpSync(fixture("custom-schema"), join(dir, "schemas", "custom"), { recursive: true });
  mkdirSync(join(dir, "deep", "er"), { recursive: true });
  writeFileSync(join(dir, "mcp-gen.json"), JSON.stringify(config, null, 2));
  return dir;
}

const TWO_TARGETS = {
  targets: [
    { spec: "schemas/custom", out: "src/mcp" },
    { spec: "./schemas/custom/", out: "packages/other/gen" },
  ],
};

describe("mcp-gen generate with mcp-gen.json", () => {
  it("generates every target from the nearest parent's file, paths relative to it; --check passes from anywhere", async () => {
    const dir = configFolder(TWO_TARGETS);
    const run = await runCli(["generate", "--quiet"], { cwd: join(dir, "deep", "er") });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const out = join(dir, "src", "mcp");
    expect(run.stdout).toBe(
      `wrote ${listFiles(out).length} files to ../../src/mcp\nwrote ${listFiles(join(dir, "packages", "other", "gen")).length} files to ../../packages/other/gen\n`,
    );
    // The banner names the settings file from the target folder: the same however the run was started.
    expect(readFileSync(join(out, "index.ts"), "utf8")).toContain(
      "Regenerate: mcp-gen generate (settings: ../../mcp-gen.json, target src/mcp)",
    );
    const before = snapshotFolder(dir);
    for (const cwd of [dir, join(dir, "src", "mcp"), join(dir, "deep")]) {
      const check = await runCli(["generate", "--check", "--quiet"], { cwd });
      expect(check.stderr).toBe("");
      expect(check.code).toBe(0);
    }
    const fromRoot = await runCli(["generate", "--check", "--quiet"], { cwd: dir });
    expect(fromRoot.stdout).toContain("src/mcp is up to date");
    expect(snapshotFolder(dir)).toEqual(before);
  });

  it("--check fails (exit 1) naming each stale file of each target, and writes nothing", async () => {
    const dir = configFolder(TWO_TARGETS);
    expect((await runCli(["generate", "--quiet"], { cwd: dir })).code).toBe(0);
    const edited = join(dir, "src", "mcp", "types.gen.ts");
    writeFileSync(edited, `${readFileSync(edited, "utf8")}// edited\n`);
    writeFileSync(join(dir, "packages", "other", "gen", "extra.gen.ts"), "// mcp-gen\n");
    const before = snapshotFolder(dir);
    const check = await runCli(["generate", "--check", "--quiet"], { cwd: join(dir, "deep") });
    expect(check.code).toBe(1);
    const fix = `(fix: run mcp-gen generate in ${dir} (settings: mcp-gen.json))`;
    expect(check.stderrLines).toEqual([
      `../src/mcp/types.gen.ts: error MCPG503: ../src/mcp/types.gen.ts is stale ${fix}`,
      `../packages/other/gen/extra.gen.ts: error MCPG503: ../packages/other/gen/extra.gen.ts is extra ${fix}`,
    ]);
    expect(check.stdout).toBe(
      "../src/mcp is stale: 1 of its files differ from a fresh generation\n../packages/other/gen is stale: 1 of its files differ from a fresh generation\n",
    );
    expect(snapshotFolder(dir)).toEqual(before);
  });

  it("--config names the file to read; flags still work alone, ignoring mcp-gen.json", async () => {
    const dir = configFolder({ targets: [{ spec: "schemas/custom", out: "src/mcp" }] });
    const elsewhere = tempDir("elsewhere");
    const run = await runCli(["generate", "--config", join(dir, "mcp-gen.json"), "--quiet"], {
      cwd: elsewhere,
    });
    expect(run.code).toBe(0);
    expect(listFiles(join(dir, "src", "mcp"))).toContain("index.ts");
    const flags = await runCli(
      ["generate", "--spec", "schemas/custom", "--out", "flags-out", "--quiet"],
      { cwd: dir },
    );
    expect(flags.code).toBe(0);
    expect(flags.stdout).toMatch(/^wrote \d+ files to flags-out\n$/);
  });

  it("--check with flags passes from another working directory and another spelling of the folder", async () => {
    const dir = configFolder({ targets: [{ spec: "schemas/custom", out: "src/mcp" }] });
    const args = ["generate", "--spec", "schemas/custom", "--out", "./src/mcp/", "--quiet"];
    expect((await runCli(args, { cwd: dir })).code).toBe(0);
    for (const [cwd, spec, out] of [
      [dir, "schemas/custom/", "src/mcp"],
      [join(dir, "deep", "er"), "../../schemas/custom", "../../src/mcp"],
      [tempDir("elsewhere"), join(dir, "schemas", "custom"), join(dir, "src", "mcp")],
    ] as const) {
      const check = await runCli(["generate", "--spec", spec, "--out", out, "--check"], { cwd });
      expect(check.stdout, `from ${cwd}`).toMatch(/ is up to date \(\d+ files\)\n$/);
      expect(check.code).toBe(0);
    }
  });
});

describe("a bad mcp-gen.json", () => {
  it("gets one diagnostic per problem, each at its place, exit 2, and nothing is written", async () => {
    const dir = configFolder({
      targets: [
        { spec: "schemas/custom", out: "" },
        { spec: "2026-07-28", extensions: ["tasks", 3], output: "x" },
        { spec: "schemas/custom", out: "src/mcp" },
      ],
      targts: [],
      transport: "http",
    });
    const before = snapshotFolder(dir);
    const run = await runCli(["generate"], { cwd: dir });
    expect(run.code).toBe(2);
    const file = join(dir, "mcp-gen.json");
    expect([...run.stderrLines].sort()).toEqual(
      [
        `${file}#/targts: error MCPG801: mcp-gen.json: "targts" is not a setting of mcp-gen.json (settings: targets; in a project made by mcp-gen server or mcp-gen client also kind, revision, extensions, tools, example, transport, target, auth, fromServer, fromServerFolder, lists, patterns) ${FIX_CONFIG}`,
        `${file}#/transport: error MCPG801: mcp-gen.json: "transport" is a project setting, which needs "kind" (mcp-gen server or mcp-gen client writes it) ${FIX_CONFIG}`,
        `${file}#/targets/0/out: error MCPG801: mcp-gen.json: "out" must not be empty ${FIX_CONFIG}`,
        `${file}#/targets/1/out: error MCPG801: mcp-gen.json: "out" is missing ${FIX_CONFIG}`,
        `${file}#/targets/1/output: error MCPG801: mcp-gen.json: "output" is not a target setting (a target has spec, extensions and out) ${FIX_CONFIG}`,
        `${file}#/targets/1/extensions/1: error MCPG801: mcp-gen.json: "1" must be a string ${FIX_CONFIG}`,
      ].sort(),
    );
    expect(snapshotFolder(dir)).toEqual(before);
  });

  it("targets that overlap, or that would overwrite the file, are MCPG803 each", async () => {
    const dir = configFolder({
      targets: [
        { spec: "schemas/custom", out: "src/mcp" },
        { spec: "schemas/custom", out: "src/mcp/inner" },
        { spec: "schemas/custom", out: "." },
      ],
    });
    const run = await runCli(["generate", "--quiet"], { cwd: dir });
    expect(run.code).toBe(2);
    const file = join(dir, "mcp-gen.json");
    expect(run.stderrLines).toEqual([
      `${file}#/targets/1/out: error MCPG803: target folder src/mcp/inner overlaps the target at /targets/0 (src/mcp): one would overwrite the other (fix: give every target a folder of its own, outside the others)`,
      `${file}#/targets/2/out: error MCPG803: target folder . overlaps the target at /targets/0 (src/mcp): one would overwrite the other (fix: give every target a folder of its own, outside the others)`,
    ]);
    expect(listFiles(dir)).not.toContain("src/mcp/index.ts");
  });

  it("an empty list, JSON that does not parse, and a target whose spec fails: each a clear error, nothing written", async () => {
    const empty = configFolder({ targets: [] });
    const run = await runCli(["generate"], { cwd: empty });
    expect(run.code).toBe(2);
    expect(run.stderrLines).toEqual([
      `${join(empty, "mcp-gen.json")}#/targets: error MCPG804: ${join(empty, "mcp-gen.json")} lists no targets: there is nothing to generate (fix: add a target, e.g. "targets": [{ "spec": "2026-07-28", "extensions": ["tasks"], "out": "src/mcp" }])`,
    ]);

    const broken = configFolder({});
    writeFileSync(join(broken, "mcp-gen.json"), '{ "targets": [ }');
    const parse = await runCli(["generate"], { cwd: broken });
    expect(parse.code).toBe(2);
    expect(parse.stderrLines).toHaveLength(1);
    expect(parse.stderrLines[0]).toMatch(/mcp-gen\.json:1:\d+: error MCPG201: /);

    // One target good, one bad: the good one is not written either.
    const half = configFolder({
      targets: [
        { spec: "schemas/custom", out: "good" },
        { spec: "schemas/missing", out: "bad" },
      ],
    });
    const failed = await runCli(["generate", "--quiet"], { cwd: half });
    expect(failed.code).toBe(2);
    expect(failed.stderrLines).toEqual([
      `${join(half, "schemas", "missing")}: error MCPG104: no schema.json in ${join(half, "schemas", "missing")} (fix: pass --spec a folder that holds schema.json (and optionally schema.ts), or a revision name)`,
    ]);
    expect(listFiles(half)).toEqual(["mcp-gen.json", "schemas/custom/schema.json"]);
  });
});

describe("a scaffolded project's mcp-gen.json", () => {
  it("keeps its settings beside targets: one run regenerates both, --check covers both, the user's files stay", async () => {
    const cwd = tempDir("project");
    expect((await runCli(["server", "proj", "--quiet"], { cwd })).code).toBe(0);
    const project = join(cwd, "proj");
    const settingsFile = join(project, "mcp-gen.json");
    const settings = JSON.parse(readFileSync(settingsFile, "utf8")) as Record<string, unknown>;
    cpSync(fixture("custom-schema"), join(project, "schemas", "custom"), { recursive: true });
    writeFileSync(
      settingsFile,
      JSON.stringify({ ...settings, targets: [{ spec: "schemas/custom", out: "src/custom" }] }),
    );
    const userFile = join(project, "src", "tools.ts");
    const userText = readFileSync(userFile, "utf8");

    const stale = await runCli(["generate", "--check", "--quiet"], { cwd: join(project, "src") });
    expect(stale.code).toBe(1);
    expect(stale.stdout).toMatch(
      /^custom is stale: \d+ of its files differ from a fresh generation\nthe project is up to date \(\d+ generated files\)\n$/,
    );

    const run = await runCli(["generate", "--quiet"], { cwd: project });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /^wrote \d+ files to src\/custom\nregenerated \d+ files in src\/generated and src\/mcp-gen\n$/,
    );
    expect(readFileSync(userFile, "utf8")).toBe(userText);
    const check = await runCli(["generate", "--check", "--quiet"], { cwd: join(project, "src") });
    expect(check.code).toBe(0);

    // A target over the project's own generated folders is refused.
    writeFileSync(
      settingsFile,
      JSON.stringify({
        ...settings,
        targets: [{ spec: "schemas/custom", out: "src/generated/x" }],
      }),
    );
    const clash = await runCli(["generate", "--quiet"], { cwd: project });
    expect(clash.code).toBe(2);
    expect(clash.stderrLines).toEqual([
      `${settingsFile}#/targets/0/out: error MCPG803: target folder src/generated/x overlaps the project's src/generated: one would overwrite the other (fix: give every target a folder of its own, outside the others)`,
    ]);
  });
});

describe("the library API", () => {
  it("loadConfig finds the nearest file and resolves paths against it; generateConfig checks by content", async () => {
    const dir = configFolder({
      targets: [{ spec: "schemas/custom", extensions: [], out: "src/mcp" }],
    });
    const config = loadConfig(join(dir, "deep", "er"));
    expect(config.file).toBe(join(dir, "mcp-gen.json"));
    expect(config.targets).toEqual([
      {
        spec: join(dir, "schemas", "custom"),
        extensions: [],
        out: join(dir, "src", "mcp"),
        name: "src/mcp",
        pointer: "/targets/0",
      },
    ]);
    const missing = await generateConfig(config, { check: true, sources: testSources() });
    expect(missing.targets[0]!.stale!.length).toBeGreaterThan(0);
    const written = await generateConfig(config, { sources: testSources() });
    expect(written.targets[0]!.stale).toBeUndefined();
    const checked = await generateConfig(config, { check: true, sources: testSources() });
    expect(checked.targets[0]!.stale).toEqual([]);
  });

  it("readConfig throws every problem at once as an McpGenError", () => {
    const dir = configFolder({ targets: [{ spec: 1, out: 2 }], kind: "server" });
    let error: unknown;
    try {
      readConfig(join(dir, "mcp-gen.json"));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(McpGenError);
    expect((error as McpGenError).diagnostics.map((d) => d.location?.pointer).sort()).toEqual([
      "/extensions",
      "/revision",
      "/targets/0/out",
      "/targets/0/spec",
      "/tools",
    ]);
  });
});
