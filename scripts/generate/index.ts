/**
 * Regenerates generated/ (TypeScript) and generated-python/ (a Python
 * package each): every known revision, and each known extension with the
 * revisions it targets (generated/2026-07-28+tasks/), and the model of
 * each in generated/models/ (what `diff` and `upgrade` compare offline:
 * generator/model/committed-model.ts). Schemas come from
 * MCP_GEN_SCHEMA_DIR, the cache, or a verified download, like any
 * `mcp-gen generate` run. Usage: `npm run generate` (add `-- --check` to
 * only report stale files, exit 1 if any).
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import {
  checkOutput,
  formatDiagnostic,
  generate,
  McpGenError,
  staleFileDiagnostics,
  writeOutput,
} from "../../generator/index.js";
import { packageRoot } from "../../generator/load/package-root.js";
import { MODELS_FOLDER, modelFile } from "../../generator/model/committed-model.js";
import type { EmittedFile } from "../../generator/shared/emitted-file.js";
import { generatedTargets } from "./targets.js";

/** The regenerate command banners in generated/ name. */
export const REGENERATE = "npm run generate";

// A checkout next to the shared upstream schemas uses them; elsewhere the cache or a verified download.
const shared = join(packageRoot(), "..", "shared", "mcp-schema");
if (!process.env.MCP_GEN_SCHEMA_DIR && existsSync(shared)) process.env.MCP_GEN_SCHEMA_DIR = shared;

const check = process.argv.includes("--check");
// Each write holds the signals until the event loop has turned twice; a dozen folders written back to back overlap.
process.setMaxListeners(32);
let stale = 0;

/** Writes `files` to `out` of the repository, or with --check compares them. */
function writeOrCheck(out: string, files: readonly EmittedFile[]): void {
  const dir = join(packageRoot(), out);
  if (check) {
    const problems = checkOutput(dir, files);
    stale += problems.length;
    for (const d of staleFileDiagnostics(out, problems)) console.error(formatDiagnostic(d));
  } else {
    writeOutput(dir, files);
    console.error(`${out}: ${files.length} files`);
  }
}

try {
  const models: EmittedFile[] = [];
  for (const target of generatedTargets(["typescript", "python"])) {
    const out = join(
      target.language === "python" ? "generated-python" : "generated",
      target.folder,
    );
    const result = await generate({
      spec: target.spec,
      extensions: target.extensions,
      out,
      regenerateCommand: REGENERATE,
      target: target.language,
    });
    writeOrCheck(out, result.files);
    // One model per folder: the Python package of a target is made from the same model.
    if (target.language === "typescript") models.push(modelFile(target.folder, result.model));
  }
  writeOrCheck(join("generated", MODELS_FOLDER), models);
} catch (error) {
  if (!(error instanceof McpGenError)) throw error;
  for (const d of error.diagnostics) console.error(formatDiagnostic(d));
  process.exit(2);
}
if (stale > 0) process.exit(1);
