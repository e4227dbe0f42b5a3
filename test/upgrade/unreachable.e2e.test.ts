/**
 * `mcp-gen upgrade` with the network unreachable, no MCP_GEN_SCHEMA_DIR and
 * nothing cached: the project's revision is read from mcp-gen's committed
 * model (generated/models/), the new one from its folder, and the upgrade
 * typechecks and tests in a copy as it does online.
 */
import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SCHEMA_DIR } from "../helpers/index.js";
import { linkNodeModules } from "../helpers/project.js";
import { tempDir } from "../helpers/run-cli.js";
import { runCliUnreachable as unreachable } from "../helpers/unreachable.js";

describe("upgrade with the network unreachable and nothing cached", () => {
  it("upgrade reads the project's revision from the committed model", async () => {
    const cwd = tempDir("upgrade");
    expect((await unreachable(["server", "proj", "--quiet"], { cwd })).code).toBe(0);
    const project = join(cwd, "proj");
    linkNodeModules(project);
    // The new revision is a folder (as a draft is), so only the project's side needed the network.
    const next = join(cwd, "next");
    mkdirSync(next);
    for (const file of ["schema.json", "schema.ts"])
      copyFileSync(join(SCHEMA_DIR, "2026-07-28", file), join(next, file));
    const run = await unreachable(["upgrade", next, "--dry-run"], {
      cwd: project,
      timeoutMs: 230_000,
    });
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    const output = `${run.stdout}${run.stderr}`;
    expect(output).toContain(
      "note MCPG109: 2026-07-28 is compared as mcp-gen's committed model generated/models/2026-07-28.json",
    );
    expect(output).toContain("Dry run: nothing was changed.");
  }, 240_000);
});
