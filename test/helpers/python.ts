/**
 * The Python side of the tests: the virtual environment `npm run setup:python`
 * makes (.venv/, with pydantic, ruff and the official SDK), running Python
 * in a child process, and the packages of generated-python/.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { generatedTargets } from "../../scripts/generate/targets.js";
import { ROOT } from "./index.js";

/** The venv's Python. */
export const PYTHON = join(ROOT, ".venv", "bin", "python");
/** The venv's ruff. */
export const RUFF = join(ROOT, ".venv", "bin", "ruff");

/**
 * Whether the Python tests can run. CI always makes the venv first, so
 * there a missing one is a failure, not a reason to skip.
 */
export function pythonAvailable(): boolean {
  if (existsSync(PYTHON)) return true;
  if (process.env.CI) throw new Error(".venv/ is missing: run `npm run setup:python` first");
  return false;
}

/** Every folder of generated-python/, with the import name of its package. */
export function pythonTargets() {
  return generatedTargets(["python"]).map((t) => ({
    ...t,
    dir: join(ROOT, "generated-python", t.folder),
    module: `mcp_gen_${[t.spec, ...t.extensions]
      .join("_")
      .replace(/[^A-Za-z0-9]+/g, "_")
      .toLowerCase()}`,
  }));
}

/** What a child process printed, and how it ended. */
export interface PythonRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `command` (the venv's python or ruff) with `args`, feeding it `input`. */
export function runPython(
  args: readonly string[],
  options: { input?: string; cwd?: string; command?: string; timeoutMs?: number } = {},
): Promise<PythonRun> {
  return new Promise((resolve) => {
    const child = execFile(
      options.command ?? PYTHON,
      args,
      {
        cwd: options.cwd ?? ROOT,
        timeout: options.timeoutMs ?? 120_000,
        maxBuffer: 256 << 20,
        // No __pycache__ in generated-python/: the drift check owns that folder.
        env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1" },
      },
      (error, stdout, stderr) =>
        resolve({
          code: error ? (typeof error.code === "number" ? error.code : -1) : 0,
          stdout,
          stderr,
        }),
    );
    if (options.input !== undefined) child.stdin?.end(options.input);
  });
}
