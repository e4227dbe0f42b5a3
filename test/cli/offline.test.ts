/**
 * `mcp-gen generate --spec <known revision>` when the schemas cannot be had
 * (offline, nothing cached, no MCP_GEN_SCHEMA_DIR copy): the files are
 * mcp-gen's committed output, byte for byte what generation from the
 * schemas writes with the same flags, and a note says so. (What mcp-gen
 * ships no output for still fails: test/cli/bad-input.test.ts.)
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { generateFiles } from "../../generator/index.js";
import { listFiles } from "../../generator/write/write-output.js";
import { runCli, snapshotFolder, tempDir } from "../helpers/run-cli.js";

/** Runs the CLI where no schema can be had: an empty MCP_GEN_SCHEMA_DIR, an empty cache, offline. */
function offline(args: readonly string[]) {
  return runCli(args, { schemaDir: tempDir("no-schemas") });
}

const NOTE =
  /^--spec: note MCPG107: the files are mcp-gen's committed generated\/([\w+-]+), the same as generation writes but for the banners' regenerate line, since the schemas could not be had \(could not find the schema of revision [\d-]+; tried: MCP_GEN_SCHEMA_DIR .* \(not there\); cache .* \(not there\); download \(disabled by MCP_GEN_OFFLINE=1\)\) \(fix: to generate from the schemas themselves, run `mcp-gen schema pull [\d-]+` while online or set MCP_GEN_SCHEMA_DIR\)$/;

describe("generate offline, from mcp-gen's committed output", () => {
  it.each([
    ["2025-06-18", []],
    ["2026-07-28", []],
    ["2026-07-28", ["--extension", "tasks"]],
  ])("--spec %s %j: the same files as from the schemas, with a note", async (spec, extra) => {
    const parent = tempDir("out");
    const fromSchemas = join(parent, "online");
    const fromCommitted = join(parent, "offline");
    const online = await runCli([
      "generate",
      "--spec",
      spec,
      ...extra,
      "--out",
      fromSchemas,
      "--quiet",
    ]);
    expect(online.code).toBe(0);
    const run = await offline(["generate", "--spec", spec, ...extra, "--out", fromCommitted]);
    expect(run.code).toBe(0);
    expect(run.stderrLines[0]).toBe(`mcp-gen: generating ${spec}`);
    expect(run.stderrLines.slice(1)).toHaveLength(1);
    expect(run.stderrLines[1]).toMatch(NOTE);
    expect(NOTE.exec(run.stderrLines[1]!)![1]).toBe(extra.length ? `${spec}+tasks` : spec);
    expect(run.stdout).toBe(`wrote ${listFiles(fromCommitted).length} files to ${fromCommitted}\n`);
    // Banners name the command without the output folder's path, so the two folders are byte-identical.
    expect(snapshotFolder(fromCommitted)).toEqual(snapshotFolder(fromSchemas));
  });

  it("--check passes offline against output generated from the schemas", async () => {
    const out = join(tempDir("out"), "mcp");
    expect((await runCli(["generate", "--spec", "2026-07-28", "--out", out, "--quiet"])).code).toBe(
      0,
    );
    const check = await offline([
      "generate",
      "--spec",
      "2026-07-28",
      "--out",
      out,
      "--check",
      "--quiet",
    ]);
    expect(check.stderr).toBe("");
    expect(check.code).toBe(0);
  });

  it("--quiet leaves out the note", async () => {
    const out = join(tempDir("out"), "mcp");
    const run = await offline(["generate", "--spec", "2026-07-28", "--out", out, "--quiet"]);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
  });

  it("the library's generateFiles gives the committed files and the note, without a model", async () => {
    const result = await generateFiles({
      spec: "2026-07-28",
      out: "src/mcp",
      sources: {
        schemaDir: tempDir("no-schemas"),
        cacheDir: tempDir("cache"),
        allowDownload: false,
      },
    });
    expect(result.model).toBeUndefined();
    expect(result.diagnostics.map((d) => d.code)).toEqual(["MCPG107"]);
    expect(result.files.map((f) => f.path)).toEqual(
      listFiles(join(import.meta.dirname, "..", "..", "generated", "2026-07-28")),
    );
    for (const file of result.files)
      expect(file.contents, file.path).toContain(
        " * Regenerate: mcp-gen generate --spec 2026-07-28 --out . (run in this file's folder)\n",
      );
  });
});
