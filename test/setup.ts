/**
 * Runs before each test file, in its worker:
 * - points mcp-gen at the upstream files global-setup.ts found, offline;
 * - gives the file a temporary folder of its own (TMPDIR, which os.tmpdir()
 *   and the child processes tests start use) and a private cache;
 * - after the file (and its own after-hooks), removes the folders
 *   tempDir() made, fails the file if anything else is left in its
 *   temporary folder, naming what, then removes the folder. Tests clean
 *   up after themselves (tempDir() in test/helpers/index.ts does); this
 *   check keeps it that way.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, inject } from "vitest";

process.env.MCP_GEN_SCHEMA_DIR = inject("schemaDir");
process.env.MCP_GEN_OFFLINE = "1";

// The OS temporary folder, before this file's own replaces it (a worker may run several files).
const osTmp = (process.env.MCP_GEN_TEST_OS_TMPDIR ??= tmpdir());
const root = mkdtempSync(join(osTmp, "mcp-gen-test-"));
const tmp = join(root, "tmp");
mkdirSync(tmp);
process.env.TMPDIR = tmp;
process.env.MCP_GEN_CACHE_DIR = join(root, "cache");
// tsx keeps a transform cache in the temporary folder (tsx-<uid>); children that run tsx here go without it.
process.env.TSX_DISABLE_CACHE = "1";

afterAll(async () => {
  // Imported here, not above: the helpers read MCP_GEN_SCHEMA_DIR, set above, when they load.
  const { removeTempDirs } = await import("./helpers/index.js");
  removeTempDirs();
  const left = readdirSync(tmp);
  rmSync(root, { recursive: true, force: true });
  if (left.length > 0)
    throw new Error(
      `this test file left ${left.length} entries in its temporary folder: ${left.sort().join(", ")}. ` +
        "Make them with tempDir() from test/helpers/index.ts, or remove them in afterAll.",
    );
  // Set here as well as in the configs: test/hygiene.test.ts runs this file under vitest's defaults.
}, 120_000);
