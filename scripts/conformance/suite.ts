/**
 * The official conformance suite (@modelcontextprotocol/conformance, pinned) and a Node >= 22 to
 * run it with, installed from the npm registry into a cache folder on first use.
 */
import { execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

/** The suite's npm package. */
export const SUITE_PACKAGE = "@modelcontextprotocol/conformance";
/**
 * The suite version, pinned exactly: its `latest` tag has no 2026-07-28 scenarios, and the frozen
 * requirement sets are only comparable across runs of one suite build.
 */
export const SUITE_VERSION = "0.2.0-alpha.12";
/** The Node.js version installed from npm when no Node >= 22 is at hand. */
export const SUITE_NODE_VERSION = "22.23.3";
/** The suite imports `fs.globSync` at load time, which Node 20 lacks: it needs Node 22. */
export const SUITE_NODE_MAJOR = 22;
/** The requirement set used without --requirements. */
export const DEFAULT_REQUIREMENTS = "2026-07-28";

/** A failure that ends the run with a chosen exit code and a one-line message, no stack. */
export class ConformanceError extends Error {
  constructor(
    message: string,
    readonly exitCode: 2 | 3,
  ) {
    super(message);
  }
}

/** The cache folder for installs: MCP_GEN_CONFORMANCE_CACHE, else a folder in the OS temp dir. */
export function cacheDir(): string {
  return resolve(process.env.MCP_GEN_CONFORMANCE_CACHE || join(tmpdir(), "mcp-gen-conformance"));
}

/** An installed copy of the suite. */
export interface Suite {
  version: string;
  /** The package folder (holds `dist/` and `requirements/`). */
  dir: string;
  /** The CLI entry point, run with a Node >= 22. */
  entry: string;
}

/**
 * Makes sure the pinned suite is installed in `cache` (`<cache>/conformance-<version>`) and
 * returns where. npm runs only when it is not there yet.
 */
export async function ensureSuite(cache = cacheDir(), signal?: AbortSignal): Promise<Suite> {
  const target = join(cache, `conformance-${SUITE_VERSION}`);
  const dir = join(target, "node_modules", ...SUITE_PACKAGE.split("/"));
  const suite = { version: SUITE_VERSION, dir, entry: join(dir, "dist", "index.js") };
  const ready = () => existsSync(suite.entry) && packageVersion(dir) === SUITE_VERSION;
  if (!ready()) await installInto(target, `${SUITE_PACKAGE}@${SUITE_VERSION}`, ready, signal);
  return suite;
}

/** A Node.js binary able to run the suite. */
export interface SuiteNode {
  path: string;
  version: string;
  /** Where it was found. */
  source: "CONFORMANCE_NODE" | "PATH" | "npm";
}

/**
 * Finds a Node >= 22 for the suite: CONFORMANCE_NODE, else `node` on PATH, else the npm package
 * `node-<platform>-<arch>@22.23.3` installed into `cache` (its binary is `bin/node`).
 */
export async function nodeForSuite(cache = cacheDir(), signal?: AbortSignal): Promise<SuiteNode> {
  const fromEnv = process.env.CONFORMANCE_NODE;
  if (fromEnv) {
    const found = probeNode(fromEnv);
    if (found && major(found.version) >= SUITE_NODE_MAJOR)
      return { ...found, source: "CONFORMANCE_NODE" };
    note(
      `CONFORMANCE_NODE=${fromEnv} is ${found ? `Node ${found.version}` : "not runnable"}; the suite needs Node >= ${SUITE_NODE_MAJOR}`,
    );
  }
  const onPath = probeNode("node");
  if (onPath && major(onPath.version) >= SUITE_NODE_MAJOR) return { ...onPath, source: "PATH" };
  return { ...(await installNode(cache, signal)), source: "npm" };
}

/** Installs Node 22 from the npm registry (the only registry CI can reach) and probes it. */
async function installNode(
  cache: string,
  signal?: AbortSignal,
): Promise<{ path: string; version: string }> {
  if (process.platform !== "linux" && process.platform !== "darwin") {
    throw new ConformanceError(
      `no Node >= ${SUITE_NODE_MAJOR} found; set CONFORMANCE_NODE to one`,
      3,
    );
  }
  const pkg = `node-${process.platform}-${process.arch}`;
  const target = join(cache, `node-${SUITE_NODE_VERSION}`);
  const binary = join(target, "node_modules", pkg, "bin", "node");
  const ready = () => probeNode(binary)?.version === SUITE_NODE_VERSION;
  if (!ready()) {
    note(`node on PATH is ${onPathVersion()}; the suite needs Node >= ${SUITE_NODE_MAJOR}`);
    await installInto(target, `${pkg}@${SUITE_NODE_VERSION}`, ready, signal);
  }
  return { path: binary, version: SUITE_NODE_VERSION };
}

/**
 * npm-installs `spec` into its own folder `target`. The install happens in a scratch folder that is
 * renamed into place only once it is complete, so an interrupted install never looks finished.
 * `ready` tells whether `target` already holds a good copy (another run may have won the race).
 */
async function installInto(
  target: string,
  spec: string,
  ready: () => boolean,
  signal?: AbortSignal,
): Promise<void> {
  const cache = resolve(target, "..");
  mkdirSync(cache, { recursive: true });
  const scratch = mkdtempSync(join(cache, ".install-"));
  writeFileSync(
    join(scratch, "package.json"),
    '{ "name": "mcp-gen-conformance-cache", "private": true }\n',
  );
  note(`installing ${spec} into ${target} (first run only)`);
  try {
    const args = [
      "install",
      "--ignore-scripts",
      "--no-audit",
      "--no-fund",
      "--save-exact",
      "--loglevel=error",
      spec,
    ];
    const code = await runToFile("npm", args, {
      cwd: scratch,
      log: join(scratch, "npm.log"),
      signal,
    });
    if (code !== 0)
      throw new ConformanceError(
        `npm install ${spec} failed (exit ${code}):\n${tail(join(scratch, "npm.log"))}`,
        3,
      );
    if (ready()) return;
    rmSync(target, { recursive: true, force: true }); // a broken earlier copy
    renameSync(scratch, target);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  if (!ready())
    throw new ConformanceError(
      `npm installed ${spec} into ${target}, but it is not usable there`,
      3,
    );
}

/** The `version` of the package.json in `dir`, if readable. */
function packageVersion(dir: string): string | undefined {
  try {
    const manifest: unknown = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    return isRecord(manifest) && typeof manifest.version === "string"
      ? manifest.version
      : undefined;
  } catch {
    return undefined;
  }
}

/** Runs a Node binary to learn its absolute path and version; undefined if it does not run. */
function probeNode(command: string): { path: string; version: string } | undefined {
  try {
    const out = execFileSync(command, ["-p", 'process.execPath + "\\n" + process.versions.node'], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
      timeout: 15_000,
    });
    const [path, version] = out.trim().split("\n");
    return path && version ? { path, version } : undefined;
  } catch {
    return undefined;
  }
}

function onPathVersion(): string {
  const found = probeNode("node");
  return found ? `Node ${found.version}` : "missing";
}

function major(version: string): number {
  return Number.parseInt(version, 10) || 0;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A progress note on stderr. */
export function note(message: string): void {
  console.error(`conformance: ${message}`);
}

/** The last `lines` lines of a log file, for an error message. */
export function tail(file: string, lines = 20): string {
  try {
    const text = readFileSync(file, "utf8").trimEnd();
    return text ? text.split("\n").slice(-lines).join("\n") : "(empty)";
  } catch {
    return "(no log)";
  }
}

/** Runs a command with stdout and stderr written to `log`; resolves to its exit code or signal. */
export async function runToFile(
  command: string,
  args: string[],
  options: { log: string; cwd?: string; env?: NodeJS.ProcessEnv; signal?: AbortSignal },
): Promise<number | string> {
  const fd = openSync(options.log, "w");
  try {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ["ignore", fd, fd],
      signal: options.signal,
    });
    const [code, signal] = (await once(child, "exit")) as [number | null, NodeJS.Signals | null];
    return code ?? signal ?? "unknown";
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw new ConformanceError(`could not run ${command}: ${(error as Error).message}`, 3);
  } finally {
    closeSync(fd);
  }
}
