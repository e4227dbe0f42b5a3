/**
 * Working with a scaffolded project from a test: the repository's
 * node_modules linked in (so nothing is installed), the environment its
 * own commands get, and running node in it to the end.
 */
import { execFile } from "node:child_process";
import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./index.js";

/**
 * The environment of a project's own commands: this test run's variables
 * (vitest's, mcp-gen's settings for the tests, a task store) left out, so
 * the project behaves as it would for its user; `extra` on top.
 */
export function projectEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      ([k]) => !/^(VITEST|MCP_GEN_|MCP_TASK_STORE$|NODE_ENV$|TEST$)/.test(k),
    ),
  );
  return { ...env, ...extra };
}

/** Links the repository's node_modules into `project`: its compiler, types and runtime dependencies stand in for the project's own. */
export function linkNodeModules(project: string): void {
  symlinkSync(join(ROOT, "node_modules"), join(project, "node_modules"), "dir");
}

/** What a finished process said: its exit code (-1 when it was killed) and output. */
export interface Finished {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `node args` in `cwd` to its end, with the project's environment; killed after `timeoutMs`. */
export function runNode(
  args: readonly string[],
  cwd: string,
  { env = {}, timeoutMs = 180_000 }: { env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<Finished> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      args,
      { cwd, env: projectEnv(env), timeout: timeoutMs },
      (error, stdout, stderr) =>
        resolve({
          code: error ? (typeof error.code === "number" ? error.code : -1) : 0,
          stdout,
          stderr,
        }),
    );
  });
}
