/**
 * Every command that works with mcp-gen's committed output works with the
 * network unreachable (every fetch refused), no MCP_GEN_SCHEMA_DIR, an
 * empty cache and downloads allowed: `generate` with a known extension,
 * `diff` between named revisions (from the committed models,
 * generated/models/) and scaffolds with a known extension; `upgrade` is
 * test/upgrade/unreachable.e2e.test.ts.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, tempDir } from "../helpers/run-cli.js";
import { runCliUnreachable as unreachable } from "../helpers/unreachable.js";

const COMMITTED_MODEL =
  /^[\d-]+: note MCPG109: ([\d-]+) is compared as mcp-gen's committed model generated\/models\/([\d-]+)\.json, the one its pinned schemas build, since the schemas could not be had \(.*download of https:\/\/\S+ failed: fetch failed.*\) \(fix: to load the schemas themselves, run `mcp-gen schema pull [\d-]+` while online or set MCP_GEN_SCHEMA_DIR\)$/;

describe("with the network unreachable and nothing cached", () => {
  it("diff between named revisions prints what it prints from the schemas, with a note per side", async () => {
    const online = await runCli(["diff", "2025-11-25", "2026-07-28", "--quiet"]);
    expect(online.code).toBe(0);
    const run = await unreachable(["diff", "2025-11-25", "2026-07-28"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe(online.stdout);
    expect(run.stderrLines).toHaveLength(2);
    expect(run.stderrLines.map((line) => COMMITTED_MODEL.exec(line)?.[1])).toEqual([
      "2025-11-25",
      "2026-07-28",
    ]);
  });

  it("diff labels each side's problem with that side, and hints --tools for two files", async () => {
    const unknown = await unreachable(["diff", "2026-07-2", "2026-07-28"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderrLines[0]).toMatch(
      /^2026-07-2: error MCPG101: unknown MCP revision "2026-07-2"; did you mean 2026-07-28\?/,
    );
    const cwd = tempDir("tool-files");
    writeFileSync(join(cwd, "old.json"), "[]");
    writeFileSync(join(cwd, "new.json"), "[]");
    const files = await unreachable(["diff", "old.json", "new.json"], { cwd });
    expect(files.code).toBe(2);
    expect(files.stderrLines[0]).toBe(
      "mcp-gen: old.json is a file: diff compares revisions (names, or folders with schema.json); to compare two tool lists, add --tools: mcp-gen diff --tools old.json new.json",
    );
  });

  it("generate with a known extension writes the committed output", async () => {
    const out = join(tempDir("out"), "mcp");
    const run = await unreachable([
      "generate",
      "--spec",
      "2026-07-28",
      "--extension",
      "tasks",
      "--out",
      out,
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(
      "note MCPG107: the files are mcp-gen's committed generated/2026-07-28+tasks",
    );
  });

  it.each([["server"], ["client"]])("%s --extension tasks scaffolds", async (kind) => {
    const cwd = tempDir(`scaffold-${kind}`);
    const run = await unreachable([kind, "proj", "--extension", "tasks", "--quiet"], { cwd });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toBe("");
  });
});
