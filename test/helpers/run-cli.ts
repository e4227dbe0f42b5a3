/**
 * Runs the built CLI (dist/generator/cli/main.js) as a real child process,
 * the way a user or a CI job does, and collects its exit code and output.
 * Every run is offline, reads the upstream schemas from MCP_GEN_SCHEMA_DIR
 * and uses the test file's cache folder unless given one.
 */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { listFiles } from "../../generator/write/write-output.js";
import { ROOT, SCHEMA_DIR, tempDir } from "./index.js";

export { tempDir };

/** What a run of the CLI did. */
export interface CliRun {
  /** The exit code; null when the run was killed (it hung past the timeout, or a signal ended it). */
  readonly code: number | null;
  /** The signal that ended the run, if one did. */
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  /** stderr split into lines, without the trailing empty one. */
  readonly stderrLines: readonly string[];
}

/** Options of {@link runCli}. */
export interface CliOptions {
  /** Overrides MCP_GEN_SCHEMA_DIR (default: the upstream schemas). */
  readonly schemaDir?: string;
  /**
   * Overrides MCP_GEN_CACHE_DIR (default: the test file's own cache, shared
   * by its runs as a user's runs share theirs; pass a folder of its own for
   * a run that must start from an empty cache).
   */
  readonly cacheDir?: string;
  /** Kill the run after this many milliseconds (default 170 s: under the test timeout of 180 s, and long enough for a full generation on a machine shared with other test runs). */
  readonly timeoutMs?: number;
  /** The folder to run in (default: the repository root). */
  readonly cwd?: string;
  /** More environment variables. */
  readonly env?: Readonly<Record<string, string>>;
  /** Options for node itself, before the script (e.g. `--import` a preload). */
  readonly nodeOptions?: readonly string[];
}

const MAIN = join(ROOT, "dist", "generator", "cli", "main.js");

/** Runs `node dist/generator/cli/main.js ...args`. */
export function runCli(args: readonly string[], options: CliOptions = {}): Promise<CliRun> {
  const env = cliEnv(options);
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...(options.nodeOptions ?? []), MAIN, ...args],
      { cwd: options.cwd ?? ROOT, env, timeout: options.timeoutMs ?? 170_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : null) : 0;
        resolve({
          code,
          signal: error?.signal ?? null,
          stdout,
          stderr,
          stderrLines: stderr.split("\n").filter((l, i, all) => l !== "" || i < all.length - 1),
        });
      },
    );
  });
}

/** The environment of a run: offline, the upstream schemas, a cache of its own. */
function cliEnv(options: CliOptions): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    // The test file's own temporary folder (test/setup.ts), so a child's leftovers are caught too.
    TMPDIR: process.env.TMPDIR,
    MCP_GEN_SCHEMA_DIR: options.schemaDir ?? SCHEMA_DIR,
    MCP_GEN_CACHE_DIR: options.cacheDir ?? process.env.MCP_GEN_CACHE_DIR,
    MCP_GEN_OFFLINE: "1",
    ...options.env,
  };
}

/** A CLI process that keeps running (`generate --watch`), with its output so far. */
export interface LiveCli {
  readonly child: ChildProcess;
  /** Everything written to stdout and stderr so far. */
  stdout(): string;
  stderr(): string;
  /** Resolves once `test` holds for the output so far; rejects after `timeoutMs` naming what was seen. */
  waitFor(test: (stdout: string, stderr: string) => boolean, timeoutMs?: number): Promise<void>;
  /** Sends `signal` and resolves with the exit code once the process ended. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts `node dist/generator/cli/main.js ...args` without waiting for it to end. */
export function startCli(args: readonly string[], options: CliOptions = {}): LiveCli {
  const child = spawn(process.execPath, [...(options.nodeOptions ?? []), MAIN, ...args], {
    cwd: options.cwd ?? ROOT,
    env: cliEnv(options),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  const waiters = new Set<() => void>();
  const changed = () => waiters.forEach((w) => w());
  child.stdout.on("data", (chunk: Buffer) => ((out += chunk.toString()), changed()));
  child.stderr.on("data", (chunk: Buffer) => ((err += chunk.toString()), changed()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  child.on("exit", changed);
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    waitFor: (test, timeoutMs = 30_000) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`timed out; stdout:\n${out}\nstderr:\n${err}`));
        }, timeoutMs);
        const check = () => {
          if (test(out, err)) {
            clearTimeout(timer);
            waiters.delete(check);
            resolve();
          } else if (child.exitCode !== null) {
            clearTimeout(timer);
            waiters.delete(check);
            reject(new Error(`exited ${child.exitCode}; stdout:\n${out}\nstderr:\n${err}`));
          }
        };
        waiters.add(check);
        check();
      }),
    stop: (signal = "SIGTERM") => {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** Every file under `dir` with its bytes, to compare a folder before and after a run. */
export function snapshotFolder(dir: string): Record<string, string> {
  return Object.fromEntries(
    listFiles(dir).map((path) => [path, readFileSync(join(dir, path)).toString("base64")]),
  );
}

/** Names in `dir` that a write in progress uses (`*.mcp-gen-tmp-*`, `*.mcp-gen-old-*`, `*.mcp-gen-lock`). */
export function leftovers(dir: string): string[] {
  return readdirSync(dir).filter((name) => /\.mcp-gen-(tmp-|old-|lock$)/.test(name));
}

/** A fixture folder under test/fixtures. */
export function fixture(name: string): string {
  return join(ROOT, "test", "fixtures", name);
}
