/**
 * `mcp-gen dev` in a scaffolded server project: the developer's loop.
 *
 * Three parts, each doing one thing:
 * - the project's inputs (mcp-gen.json, tools.json, its extensions) are
 *   watched, and a change regenerates src/generated and src/mcp-gen, as
 *   `npm run regenerate` does (the same watch as `generate --watch`);
 * - the TypeScript compiler watches src/ and emits to dist/ incrementally,
 *   so an edit recompiles only what it touches, and the project's
 *   scripts/copy-generated.mjs copies the generated JavaScript tsc does
 *   not emit (the tool validators) after it;
 * - after every compile without errors the server (`node dist/index.js`)
 *   is restarted. A compile with errors prints them and keeps the server
 *   that last compiled running; watching goes on either way. A client
 *   project has no server to run: its command line (dist/cli.js) is
 *   current after every compile without errors.
 *
 * The compiler is the project's own `typescript` (the version its build
 * uses), found from the project's folder.
 *
 * In a server with authorization, while `mcp-gen auth-dev` runs in the
 * project its `.auth-dev/server.env` names it (MCP_AUTH_ISSUER): the server
 * is started with those settings, under any the environment sets itself,
 * and restarted when the file appears, changes or goes away.
 */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { existsSync, unwatchFile, watchFile } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type * as TypeScript from "typescript";
import { CONFIG_FILE, readConfig, type Config } from "../config/config.js";
import { diagnostic, formatDiagnostic, McpGenError, type Diagnostic } from "../diagnostics.js";
import { generateConfig } from "../config/generate-config.js";
import { inputsOfConfig, watchInputs, type WatchHandle } from "../config/watch.js";
import { COPY_GENERATED_SCRIPT } from "../project/build-scripts.js";
import { removedToolLine } from "../project/regenerate.js";
import { readSettings } from "../project/settings.js";
import { readServerEnv, SERVER_ENV_FILE } from "./auth-dev-files.js";

/** Options of {@link startDev}. */
export interface DevOptions {
  /** The project folder (it holds mcp-gen.json, tsconfig.json and package.json). */
  readonly dir: string;
  /** Arguments for the server after `dist/index.js` (for example `--stdio`). */
  readonly serverArgs?: readonly string[];
  /** Extra environment for the server. */
  readonly env?: NodeJS.ProcessEnv;
  /** Where the loop says what it does (one line each). */
  readonly log: (line: string) => void;
  /** How long a stopping server may take before it is killed (default 2 s). */
  readonly stopTimeoutMs?: number;
}

/** How a regeneration of the loop ended: its warnings, or the error that stopped it. */
export type Regeneration =
  | { readonly ok: true; readonly diagnostics: readonly Diagnostic[] }
  | { readonly ok: false; readonly error: unknown };

/** A running dev loop. */
export interface DevHandle {
  /** Resolves after each start of the server, with the restart count (1 for the first start). */
  readonly onStart: (listener: (count: number) => void) => void;
  /** Called after each regeneration of the project's generated files (the first included), with how it ended. */
  readonly onRegenerated: (listener: (outcome: Regeneration) => void) => void;
  /** Stops watching and stops the server. */
  close(): Promise<void>;
}

/**
 * Starts the loop in the project at `options.dir`; the first regeneration,
 * compile and start follow at once. Throws MCPG805 outside a project made
 * by mcp-gen server or client, MCPG806 before `npm install`.
 */
export function startDev(options: DevOptions): DevHandle {
  const configFile = join(options.dir, CONFIG_FILE);
  const project = existsSync(configFile) ? readConfig(configFile).project : undefined;
  if (!project)
    throw new McpGenError([diagnostic("MCPG805", { dir: options.dir, command: "dev" })]);
  const ts = projectTypeScript(options.dir);
  const authorized = project.kind === "server" && hasAuth(options.dir);
  const server = serverProcess({
    dir: options.dir,
    log: options.log,
    ...(options.serverArgs ? { serverArgs: options.serverArgs } : {}),
    ...(options.stopTimeoutMs !== undefined ? { stopTimeoutMs: options.stopTimeoutMs } : {}),
    env: () => ({ ...(authorized ? devAuthorizationEnv(options) : {}), ...options.env }),
  });
  const authDev = join(options.dir, SERVER_ENV_FILE);
  if (authorized) watchFile(authDev, { interval: 500 }, () => server.restartIfStarted());
  let compiling: { close(): void } | undefined;
  let closed = false;
  const regenerated: Array<(outcome: Regeneration) => void> = [];
  // The compiler starts once the first regeneration has ended: a project whose
  // generated files were stale would otherwise compile, start, see them
  // rewritten, and restart the server moments after its first start.
  const tell = (outcome: Regeneration) => regenerated.forEach((listener) => listener(outcome));
  const regenerating = watchProjectInputs(configFile, options.log, tell, () => {
    if (closed) return;
    const after =
      project.kind === "server"
        ? {
            compiled: () => copyGenerated(options.dir, options.log, () => server.restart()),
            kept: "the server keeps running the last code that compiled",
          }
        : {
            compiled: () =>
              copyGenerated(options.dir, options.log, () =>
                options.log("compiled: dist/cli.js is current"),
              ),
            kept: "dist/cli.js keeps the last code that compiled",
          };
    compiling = watchCompile(ts, options.dir, options.log, after.compiled, after.kept);
  });
  return {
    onStart: (listener) => server.onStart(listener),
    onRegenerated: (listener) => regenerated.push(listener),
    async close() {
      closed = true;
      unwatchFile(authDev);
      await regenerating.close();
      compiling?.close();
      await server.stop();
    },
  };
}

/**
 * Runs the project's copy of the generated JavaScript tsc does not emit
 * (the tool validators) into dist/, as its `npm run build` does after tsc,
 * then `then`. The regeneration that starts the loop writes the script
 * when the project has none. A copy that fails is said in the log.
 */
function copyGenerated(dir: string, log: (line: string) => void, then: () => void): void {
  execFile(
    process.execPath,
    [join(dir, COPY_GENERATED_SCRIPT)],
    // A copy of a few files: a script that hangs must not hold the loop's restarts.
    { cwd: dir, timeout: 60_000 },
    (error, _out, err) => {
      if (error) log(`${COPY_GENERATED_SCRIPT} failed: ${String(err).trim() || error.message}`);
      then();
    },
  );
}

/** Whether the project's mcp-gen.json has a server's `auth` section. */
function hasAuth(dir: string): boolean {
  try {
    const settings = readSettings(dir);
    return settings.kind === "server" && typeof settings.auth === "object";
  } catch {
    return false;
  }
}

/**
 * The settings of `.auth-dev/server.env` the environment does not set
 * itself, said in the log; a hint when neither names an authorization
 * server (mcp-gen.json may still: the server says so if not).
 */
function devAuthorizationEnv(options: DevOptions): Record<string, string> {
  const file = readServerEnv(options.dir) ?? {};
  const taken = { ...process.env, ...options.env };
  const used = Object.fromEntries(
    Object.entries(file).filter(([name]) => (taken[name] ?? "").trim() === ""),
  );
  if (used.MCP_AUTH_ISSUER !== undefined)
    options.log(
      `authorization server: ${used.MCP_AUTH_ISSUER} (npm run auth:dev, from ${SERVER_ENV_FILE})`,
    );
  else if ((taken.MCP_AUTH_ISSUER ?? "").trim() === "")
    options.log(
      "no MCP_AUTH_ISSUER: run npm run auth:dev in another terminal for a development authorization server (the server restarts when it is up)",
    );
  return used;
}

/**
 * Regenerates the project's generated folders whenever one of its inputs
 * changes, as `mcp-gen generate` does (the project's plan, written), and
 * tells `regenerated` how each run ended; `firstRunEnded` is called once,
 * after the first run, whether it succeeded or not.
 */
function watchProjectInputs(
  configFile: string,
  log: (line: string) => void,
  regenerated: (outcome: Regeneration) => void,
  firstRunEnded: () => void,
): WatchHandle {
  let config: Config | undefined;
  let first = true;
  return watchInputs({
    run: async () => {
      try {
        config = readConfig(configFile);
        const outcome = await generateConfig(config, { check: false, force: false });
        const written = outcome.project?.files.length ?? 0;
        const diagnostics = outcome.project?.diagnostics ?? [];
        for (const warning of diagnostics) log(formatDiagnostic(warning));
        // The first run finds the project as it is: nothing to say.
        if (!first) log(`regenerated ${written} files in src/generated and src/mcp-gen`);
        for (const stub of outcome.project?.stubs ?? [])
          log(
            `new tool: wrote its handler stub to ${stub}; add it to the handlers in src/tools.ts`,
          );
        for (const name of outcome.project?.removed ?? []) log(removedToolLine(name));
        regenerated({ ok: true, diagnostics });
      } catch (error) {
        regenerated({ ok: false, error });
        throw error;
      } finally {
        if (first) {
          first = false;
          firstRunEnded();
        }
      }
    },
    inputs: () => [configFile, ...(config ? inputsOfConfig(config) : [])],
    onError: (error) => log(`regeneration failed: ${(error as Error).message}`),
  });
}

/** The project's own TypeScript compiler (MCPG806 when it is not installed). */
function projectTypeScript(dir: string): typeof TypeScript {
  const require = createRequire(join(dir, "package.json"));
  try {
    return require("typescript") as typeof TypeScript;
  } catch {
    throw new McpGenError([diagnostic("MCPG806", { dir })]);
  }
}

/** Compiles the project on every change of its sources; `compiled` runs after each compile without errors, `kept` says what stays after one with errors. */
function watchCompile(
  ts: typeof TypeScript,
  dir: string,
  log: (line: string) => void,
  compiled: () => void,
  kept: string,
): { close(): void } {
  const format: TypeScript.FormatDiagnosticsHost = {
    getCanonicalFileName: (f) => f,
    getCurrentDirectory: () => dir,
    getNewLine: () => "\n",
  };
  const host = ts.createWatchCompilerHost(
    join(dir, "tsconfig.json"),
    {},
    ts.sys,
    ts.createEmitAndSemanticDiagnosticsBuilderProgram,
    (diagnostic) => log(ts.formatDiagnostic(diagnostic, format).trimEnd()),
    (_status, _newLine, _options, errorCount) => {
      // Called with an error count once a compile has ended, without one when it starts.
      if (errorCount === undefined) return;
      if (errorCount === 0) compiled();
      else log(`${errorCount} error${errorCount === 1 ? "" : "s"}: ${kept}`);
    },
  );
  const program = ts.createWatchProgram(host);
  return { close: () => program.close() };
}

/** The server as a child process, restarted on demand, one at a time; `env()` is read at each start. */
function serverProcess(options: Omit<DevOptions, "env"> & { env: () => NodeJS.ProcessEnv }) {
  const listeners: Array<(count: number) => void> = [];
  const stopTimeoutMs = options.stopTimeoutMs ?? 2000;
  let child: ChildProcess | undefined;
  let starts = 0;
  let queue = Promise.resolve();
  let closed = false;

  const stopChild = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => running.once("exit", () => resolve()));
    running.kill("SIGTERM");
    const timer = setTimeout(() => running.kill("SIGKILL"), stopTimeoutMs);
    await exited;
    clearTimeout(timer);
  };
  const startChild = () => {
    child = spawn(
      process.execPath,
      [
        "--enable-source-maps",
        join(options.dir, "dist", "index.js"),
        ...(options.serverArgs ?? []),
      ],
      { cwd: options.dir, env: { ...process.env, ...options.env() }, stdio: "inherit" },
    );
    starts += 1;
    const count = starts;
    options.log(count === 1 ? "server started" : `server restarted (${count - 1})`);
    for (const listener of listeners) listener(count);
  };
  return {
    onStart: (listener: (count: number) => void) => listeners.push(listener),
    restart() {
      queue = queue.then(async () => {
        if (closed) return;
        await stopChild();
        if (!closed) startChild();
      });
    },
    /** Restarts a server that was started before (before the first compile there is none to run). */
    restartIfStarted() {
      if (starts > 0) this.restart();
    },
    async stop() {
      closed = true;
      await queue;
      await stopChild();
    },
  };
}
