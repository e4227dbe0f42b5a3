/**
 * Runs the official MCP server conformance suite (@modelcontextprotocol/conformance, pinned) against
 * a server and scores it against one revision's requirement set. The last line printed is always
 * `conformance: N passed, M failed`, counting the checks of the scenarios the revision requires.
 *
 * Usage:
 *   npx tsx scripts/conformance.ts --url http://127.0.0.1:3000/mcp
 *   npx tsx scripts/conformance.ts --start "node server.js" --url http://127.0.0.1:3000/mcp
 *
 * Options:
 *   --requirements REV  requirement set and wire revision: 2026-07-28 (default) or 2025-11-25
 *   --url URL           the server's MCP endpoint (with --start: where the started server listens)
 *   --start CMD         start the server with CMD (sh -c, own process group), wait until the URL's
 *                       port accepts connections, stop the whole group afterwards
 *   --start-timeout MS  how long to wait for the started server's port (default 60000)
 *   --scenario NAME     run one scenario of the set (at REV's wire) instead of the whole set
 *   --out DIR           results folder, new or empty (default: a fresh temporary folder, removed when all checks pass)
 *   --timeout MS        per-scenario timeout passed to the suite (its default is 30000)
 *   --json              print the summary as JSON instead of text
 *
 * Environment:
 *   MCP_GEN_CONFORMANCE_CACHE  where the suite (and, if needed, Node 22) are installed
 *                              (default: <os tmpdir>/mcp-gen-conformance)
 *   CONFORMANCE_NODE           a Node >= 22 binary to run the suite with
 *
 * Exit codes: 0 every required check passed, 1 some failed, 2 refused to run (bad usage, nothing
 * listening at the URL, the server did not start), 3 the suite or Node 22 could not be installed,
 * or an internal error.
 */
import { execFileSync, spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { once } from "node:events";
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createConnection } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

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

// ------------------------------------------------------------------ installs

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

// ---------------------------------------------------------- requirement sets

/** The server part of a requirement set (`requirements/<revision>.yaml` in the suite package). */
export interface RequirementSet {
  revision: string;
  /** Scored scenarios, in file order. */
  server: string[];
  /** Server scenarios that run but never count, with the set's reason (extension, pending, ...). */
  notScored: Array<{ scenario: string; reason: string }>;
}

/** Reads the requirement set `revision` shipped in the installed suite. */
export function loadRequirementSet(suite: Suite, revision: string): RequirementSet {
  const folder = join(suite.dir, "requirements");
  const file = join(folder, `${revision}.yaml`);
  if (!existsSync(file)) {
    const known = readdirSync(folder)
      .filter((f) => f.endsWith(".yaml"))
      .map((f) => f.slice(0, -5));
    throw new ConformanceError(
      `--requirements ${revision}: the suite has no such set; choose from ${known.join(", ")}`,
      2,
    );
  }
  return parseRequirementSet(readFileSync(file, "utf8"), revision);
}

type YamlItem = string | Record<string, string>;

/**
 * Parses the one YAML shape requirement sets use, and throws on anything else so that a changed
 * layout fails loudly instead of scoring the wrong scenarios:
 *
 *     server:                 # top-level key, a list of scenario names
 *       - server-stateless
 *     not_scored:             # top-level key, a list of flat maps
 *       - scenario: json-schema-2020-12
 *         leg: server
 *         reason: pending
 *         note: >-            # block scalars are skipped
 *           text ...
 */
export function parseRequirementSet(text: string, revision: string): RequirementSet {
  const sections = parseYamlLists(text, `requirements/${revision}.yaml`);
  const server = sections.get("server") ?? [];
  if (server.length === 0 || server.some((s) => typeof s !== "string")) {
    throw new ConformanceError(
      `requirements/${revision}.yaml: no list of server scenarios found`,
      3,
    );
  }
  const notScored = (sections.get("not_scored") ?? [])
    .filter(
      (e): e is Record<string, string> =>
        typeof e !== "string" && e.leg === "server" && !!e.scenario,
    )
    .map((e) => ({ scenario: e.scenario!, reason: e.reason ?? "not scored" }));
  return { revision, server: server as string[], notScored };
}

/** Top-level keys holding lists of scalars or of flat `key: value` maps (see parseRequirementSet). */
function parseYamlLists(text: string, where: string): Map<string, YamlItem[]> {
  const sections = new Map<string, YamlItem[]>();
  let list: YamlItem[] | undefined;
  let map: Record<string, string> | undefined;
  let blockIndent = -1; // inside a block scalar (`>-`, `|`): skip lines indented deeper than its key
  for (const [i, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trimEnd();
    const body = line.trimStart();
    if (body === "" || body.startsWith("#")) continue;
    const indent = line.length - body.length;
    if (blockIndent >= 0 && indent > blockIndent) continue;
    blockIndent = -1;
    const top = indent === 0 ? /^([\w-]+):$/.exec(line) : null;
    if (top) {
      sections.set(top[1]!, (list = []));
      map = undefined;
      continue;
    }
    const item = /^-\s+(.*)$/.exec(body);
    const pair = keyValue(item ? item[1]! : body);
    if (!list || (!item && !(map && pair))) {
      throw new ConformanceError(`${where} line ${i + 1}: unexpected "${body}"`, 3);
    }
    if (item) {
      map = pair ? {} : undefined;
      list.push(map ?? scalar(item[1]!));
    }
    if (pair && map) {
      const block = /^[>|][+-]?$/.test(pair[1]);
      map[pair[0]] = block ? "" : scalar(pair[1]);
      if (block) blockIndent = indent + (item ? 2 : 0); // the key's column
    }
  }
  return sections;
}

/** `key: value` → [key, value]; scenario names like `auth/dpop` have no `key:` and give undefined. */
function keyValue(text: string): [string, string] | undefined {
  const m = /^([\w-]+):(?:\s+(.*))?$/.exec(text);
  return m ? [m[1]!, m[2] ?? ""] : undefined;
}

/** A plain or quoted YAML scalar, without a trailing comment. */
function scalar(text: string): string {
  const quoted = /^(["'])(.*)\1$/.exec(text.trim());
  return quoted ? quoted[2]! : text.replace(/\s+#.*$/, "").trim();
}

// ------------------------------------------------------------------- server

/** Host and port of an http(s) URL (the port defaults by scheme). */
export function endpointOf(url: string): { host: string; port: number } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConformanceError(`--url ${url}: not a URL (e.g. http://127.0.0.1:3000/mcp)`, 2);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new ConformanceError(`--url ${url}: the suite speaks http or https only`, 2);
  }
  const port = parsed.port ? Number(parsed.port) : parsed.protocol === "https:" ? 443 : 80;
  return { host: parsed.hostname.replace(/^\[(.*)\]$/, "$1"), port };
}

/** Whether something accepts TCP connections at host:port (within `timeoutMs`). */
export function portOpen(host: string, port: number, timeoutMs = 2000): Promise<boolean> {
  return new Promise((done) => {
    const socket = createConnection({ host, port });
    const finish = (open: boolean) => {
      socket.destroy();
      done(open);
    };
    socket.setTimeout(timeoutMs, () => finish(false));
    socket.once("connect", () => finish(true));
    socket.once("error", () => finish(false));
  });
}

/** A server started with --start. */
export interface StartedServer {
  pid: number;
  log: string;
  /** Stops the server's whole process group: TERM, then KILL after a grace period. */
  stop(): Promise<void>;
  /** Sends KILL to the group at once; for exit paths that cannot wait. */
  killNow(): void;
}

/**
 * Starts `command` (sh -c) in its own process group, with its output in `log`, and resolves once
 * the URL's port accepts connections. Rejects, after stopping the group, if the command exits
 * first, the port stays closed for `timeoutMs`, or `signal` aborts.
 */
export async function startServer(
  command: string,
  url: string,
  options: { log: string; timeoutMs: number; signal?: AbortSignal },
): Promise<StartedServer> {
  const { host, port } = endpointOf(url);
  const fd = openSync(options.log, "w");
  // detached makes the shell a process-group leader, so stopping the group also reaches whatever
  // it spawned (npx → tsx → node), which killing the shell alone would leave running.
  const child = spawn(command, { shell: true, detached: true, stdio: ["ignore", fd, fd] });
  closeSync(fd);
  child.unref();
  if (child.pid === undefined) {
    await once(child, "error").catch(() => undefined);
    throw new ConformanceError(`--start: could not run ${command}`, 2);
  }
  const server = processGroup(child.pid, options.log);
  try {
    await waitForPort(host, port, child, options);
  } catch (error) {
    await server.stop();
    throw error;
  }
  return server;
}

/** Polls the port until it opens; fails fast when the server process has already exited. */
async function waitForPort(
  host: string,
  port: number,
  child: ChildProcess,
  options: { log: string; timeoutMs: number; signal?: AbortSignal },
): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    options.signal?.throwIfAborted();
    if (await portOpen(host, port, 500)) return;
    if (child.exitCode !== null || child.signalCode !== null) {
      const status = child.exitCode ?? child.signalCode;
      throw new ConformanceError(
        `--start: the server exited (${status}) before ${host}:${port} opened; its log ends:\n${tail(options.log)}`,
        2,
      );
    }
    if (Date.now() > deadline) {
      throw new ConformanceError(
        `--start: ${host}:${port} not open after ${options.timeoutMs} ms; the server log ends:\n${tail(options.log)}`,
        2,
      );
    }
    await sleep(250);
  }
}

/** Stop handles for the process group led by `pid`. */
function processGroup(pid: number, log: string): StartedServer {
  const signalGroup = (signal: NodeJS.Signals | 0): boolean => {
    try {
      process.kill(-pid, signal);
      return true;
    } catch {
      return false; // ESRCH: no process of the group is left
    }
  };
  return {
    pid,
    log,
    async stop() {
      if (!signalGroup("SIGTERM")) return;
      for (let i = 0; i < 50 && signalGroup(0); i++) await sleep(100);
      signalGroup("SIGKILL");
    },
    killNow: () => void signalGroup("SIGKILL"),
  };
}

// -------------------------------------------------------------------- suite

/** What one suite run needs. */
export interface RunOptions {
  suite: Suite;
  node: SuiteNode;
  url: string;
  /** Results folder; the suite writes `server-<scenario>-<timestamp>/checks.json` there. */
  out: string;
  requirements: RequirementSet;
  /** Run this one scenario (at the set's wire revision) instead of the whole set. */
  scenario?: string;
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** The result of a suite run. */
export interface RunResult {
  /** The suite's exit code, or the signal that ended it. */
  exit: number | string;
  /** The suite's combined stdout and stderr. */
  log: string;
  elapsedMs: number;
}

/**
 * The suite CLI's arguments. The suite refuses `--requirements` with `--scenario`, so one
 * scenario runs with `--spec-version` (the same wire the set would use) and, when the set lists
 * it, `--force`, as a whole-set run does for its scenarios.
 */
export function suiteArguments(
  options: Pick<RunOptions, "url" | "out" | "requirements" | "scenario" | "timeoutMs">,
): string[] {
  const { url, out, requirements, scenario, timeoutMs } = options;
  const args = ["server", "--url", url, "-o", out];
  if (scenario === undefined) args.push("--requirements", requirements.revision);
  else {
    args.push("--scenario", scenario, "--spec-version", requirements.revision);
    if (scenarioNames(requirements).includes(scenario)) args.push("--force");
  }
  if (timeoutMs !== undefined) args.push("--timeout", String(timeoutMs));
  return args;
}

/** Runs the suite with its output in `<out>/runner.log`. */
export async function runSuite(options: RunOptions): Promise<RunResult> {
  const log = join(options.out, "runner.log");
  const started = Date.now();
  const args = [options.suite.entry, ...suiteArguments(options)];
  const exit = await runToFile(options.node.path, args, { log, signal: options.signal });
  return { exit, log, elapsedMs: Date.now() - started };
}

/** Runs a command with stdout and stderr written to `log`; resolves to its exit code or signal. */
async function runToFile(
  command: string,
  args: string[],
  options: { log: string; cwd?: string; signal?: AbortSignal },
): Promise<number | string> {
  const fd = openSync(options.log, "w");
  try {
    const child = spawn(command, args, {
      cwd: options.cwd,
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

// ---------------------------------------------------------------- summarise

/** One check as the suite writes it in checks.json (fields the summary uses). */
export interface Check {
  id: string;
  status: string;
  description?: string;
  errorMessage?: string;
}

/** One scenario's tally. */
export interface ScenarioRow {
  name: string;
  scored: boolean;
  /** Why an unscored scenario is not counted (the set's reason). */
  reason?: string;
  /** Whether a checks.json was found. */
  ran: boolean;
  passed: number;
  failed: number;
  /** WARNING checks; counted neither as passed nor as failed (nor are INFO and SKIPPED). */
  warnings: number;
  failures: Array<{ id: string; message: string }>;
}

/** The score of a results folder against a requirement set. */
export interface Summary {
  requirements: string;
  /** Checks passed in scored scenarios. */
  passed: number;
  /** Checks failed in scored scenarios, plus one per scored scenario without results. */
  failed: number;
  warnings: number;
  /** True iff nothing scored failed and every scored scenario produced results. */
  ok: boolean;
  scenarios: ScenarioRow[];
}

/**
 * Scores the results in `out` against `requirements`: only the set's `server` scenarios count
 * (SUCCESS = passed, FAILURE = failed); its not_scored ones, and any other results found, are
 * tallied but not counted. With `scenario`, only that scenario is expected.
 */
export function summarise(out: string, requirements: RequirementSet, scenario?: string): Summary {
  const results = readResults(out);
  const started = startedScenarios(out);
  const reasons = new Map(requirements.notScored.map((e) => [e.scenario, e.reason]));
  const expected = scenario === undefined ? scenarioNames(requirements) : [scenario];
  const names = [...new Set([...expected, ...results.keys()])];
  const scenarios = names.map((name) => {
    const scored = requirements.server.includes(name) && expected.includes(name);
    const reason = scored
      ? undefined
      : (reasons.get(name) ?? `not in the ${requirements.revision} set`);
    return tally(name, scored, reason, results.get(name), started.has(name));
  });
  const scored = scenarios.filter((r) => r.scored);
  const sum = (key: "passed" | "failed" | "warnings") => scored.reduce((n, r) => n + r[key], 0);
  const failed = sum("failed");
  return {
    requirements: requirements.revision,
    passed: sum("passed"),
    failed,
    warnings: sum("warnings"),
    ok: failed === 0,
    scenarios,
  };
}

/** Every server scenario a whole-set run executes, scored ones first (the suite's order). */
function scenarioNames(requirements: RequirementSet): string[] {
  return [...requirements.server, ...requirements.notScored.map((e) => e.scenario)];
}

/** One row; a scored scenario without results counts as one failed check. */
function tally(
  name: string,
  scored: boolean,
  reason: string | undefined,
  checks: Check[] | undefined,
  started: boolean,
): ScenarioRow {
  const row: ScenarioRow = {
    name,
    scored,
    ...(reason ? { reason } : {}),
    ran: checks !== undefined,
    passed: 0,
    failed: 0,
    warnings: 0,
    failures: [],
  };
  if (checks === undefined) {
    if (scored) row.failed = 1;
    const message = started
      ? "the scenario started but wrote no checks.json (see runner.log)"
      : "the scenario did not run (see runner.log)";
    row.failures.push({ id: "(no results)", message });
    return row;
  }
  for (const check of checks) {
    if (check.status === "SUCCESS") row.passed++;
    else if (check.status === "WARNING") row.warnings++;
    else if (check.status === "FAILURE") {
      row.failed++;
      row.failures.push({ id: check.id, message: check.errorMessage ?? check.description ?? "" });
    }
  }
  return row;
}

/**
 * The checks of each scenario in `out`, from its newest `server-<scenario>-<timestamp>/checks.json`.
 * An unreadable file becomes one failed check, so that it cannot pass silently.
 */
export function readResults(out: string): Map<string, Check[]> {
  const results = new Map<string, Check[]>();
  // Timestamps are ISO with ":" and "." replaced by "-", so sorting the names sorts by time.
  for (const entry of readdirSync(out).sort()) {
    const m = /^server-(.+)-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/.exec(entry);
    const file = join(out, entry, "checks.json");
    if (!m || !existsSync(file)) continue;
    try {
      const checks: unknown = JSON.parse(readFileSync(file, "utf8"));
      if (!Array.isArray(checks)) throw new Error("not a JSON array");
      if (!checks.every(isCheck)) throw new Error("a check without a string id and status");
      results.set(m[1]!, checks);
    } catch (error) {
      results.set(m[1]!, [
        {
          id: "checks.json",
          status: "FAILURE",
          errorMessage: `${file} is unreadable: ${(error as Error).message}`,
        },
      ]);
    }
  }
  return results;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A check as checks.json holds it: the fields the tally reads must be there. */
function isCheck(value: unknown): value is Check {
  return isRecord(value) && typeof value.id === "string" && typeof value.status === "string";
}

/** Scenarios the suite's log says it started (to tell "crashed" from "never ran"). */
function startedScenarios(out: string): Set<string> {
  const log = join(out, "runner.log");
  if (!existsSync(log)) return new Set();
  const text = readFileSync(log, "utf8");
  return new Set(
    [...text.matchAll(/^Running client scenario '([^']+)' against server/gm)].map((m) => m[1]!),
  );
}

// ------------------------------------------------------------------- report

/** A summary with the facts of the run it came from (what --json prints and summary.json holds). */
export interface Report extends Summary {
  suite: string;
  url: string;
  node: string;
  out: string;
  scenario?: string;
  runnerExit: number | string;
  elapsedMs: number;
}

/** The text summary; its last line is `conformance: N passed, M failed`. */
export function formatReport(report: Report): string[] {
  const width = Math.max(...report.scenarios.map((r) => r.name.length));
  const scored = report.scenarios.filter((r) => r.scored);
  const unscored = report.scenarios.filter((r) => !r.scored);
  const details = report.scenario !== undefined; // one scenario asked for: show its failures even if unscored
  const lines = [
    `MCP server conformance: ${SUITE_PACKAGE}@${report.suite}, requirements ${report.requirements}${report.scenario ? `, scenario ${report.scenario}` : ""}`,
    `url: ${report.url}   node: ${report.node}   results: ${report.out}`,
    "",
    `Scored (required by ${report.requirements}):`,
    ...scored.flatMap((r) => formatRow(r, width, true)),
  ];
  if (scored.length === 0) lines.push("  (none)");
  if (unscored.length > 0) {
    lines.push(
      "",
      "Not scored (run and shown only):",
      ...unscored.flatMap((r) => formatRow(r, width, details)),
    );
  }
  const scoredFailed = scored.filter((r) => r.failed > 0).length;
  lines.push(
    "",
    `scenarios: ${scored.length - scoredFailed}/${scored.length} scored passed; not scored: ${unscored.filter((r) => r.ran).length} run, ${unscored.filter((r) => r.failed > 0).length} failing`,
    `warnings in scored scenarios: ${report.warnings}; suite exit: ${report.runnerExit}; ${(report.elapsedMs / 1000).toFixed(1)} s`,
  );
  if (report.runnerExit !== 0 && report.failed === 0 && !details) {
    lines.push(
      `note: the suite exited with ${report.runnerExit} although no scored check failed; see ${join(report.out, "runner.log")}`,
    );
  }
  lines.push(`conformance: ${report.passed} passed, ${report.failed} failed`);
  return lines;
}

/** `  PASS name  n passed, m failed` and, when asked, one line per failing check. */
function formatRow(row: ScenarioRow, width: number, withFailures: boolean): string[] {
  const failing = row.failed > 0 || (!row.scored && !row.ran);
  const label = row.scored ? (failing ? "FAIL" : "PASS") : failing ? "fail" : "pass";
  const counts = row.ran
    ? `${row.passed} passed, ${row.failed} failed${row.warnings ? `, ${row.warnings} warning${row.warnings === 1 ? "" : "s"}` : ""}`
    : `no results${row.scored ? " (1 failed)" : ""}`;
  const lines = [
    `  ${label} ${row.name.padEnd(width)}  ${counts}${row.reason ? `  [${row.reason}]` : ""}`,
  ];
  if (withFailures)
    lines.push(...row.failures.map((f) => `       - ${f.id}: ${oneLine(f.message)}`));
  return lines;
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 300 ? `${flat.slice(0, 299)}…` : flat;
}

// --------------------------------------------------------------------- main

/** Parsed command line. */
interface Options {
  requirements: string;
  url: string;
  start?: string;
  startTimeoutMs: number;
  scenario?: string;
  out?: string;
  timeoutMs?: number;
  json: boolean;
}

const USAGE = `usage: conformance [--requirements 2026-07-28|2025-11-25] --url URL [--start "CMD"] [--start-timeout MS]
                   [--scenario NAME] [--out DIR] [--timeout MS] [--json]`;

/** Parses the command line; undefined means --help. */
export function parseOptions(argv: string[]): Options | undefined {
  const values = rawOptions(argv);
  if (values.help) return undefined;
  const requirements = values.requirements ?? DEFAULT_REQUIREMENTS;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(requirements))
    throw new ConformanceError(
      `--requirements ${requirements}: expected a revision such as ${DEFAULT_REQUIREMENTS}`,
      2,
    );
  if (!values.url)
    throw new ConformanceError(
      `--url is required (with --start: where the started server listens)\n${USAGE}`,
      2,
    );
  endpointOf(values.url);
  return {
    requirements,
    url: values.url,
    start: values.start,
    startTimeoutMs: milliseconds(values["start-timeout"], "--start-timeout") ?? 60_000,
    scenario: values.scenario,
    out: values.out,
    timeoutMs: milliseconds(values.timeout, "--timeout"),
    json: values.json ?? false,
  };
}

function rawOptions(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        requirements: { type: "string" },
        url: { type: "string" },
        start: { type: "string" },
        "start-timeout": { type: "string" },
        scenario: { type: "string" },
        out: { type: "string" },
        timeout: { type: "string" },
        json: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    }).values;
  } catch (error) {
    throw new ConformanceError(`${(error as Error).message}\n${USAGE}`, 2);
  }
}

function milliseconds(text: string | undefined, flag: string): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1)
    throw new ConformanceError(`${flag} ${text}: expected a positive number of milliseconds`, 2);
  return n;
}

/** Refuses a non-empty --out: leftovers of an earlier run would be scored as this run's. */
function checkOutFolder(out: string | undefined): void {
  if (out !== undefined && existsSync(out) && readdirSync(out).length > 0) {
    throw new ConformanceError(`--out ${out} is not empty; give a new or empty folder`, 2);
  }
}

/** The results folder: --out (created when missing), else a fresh temporary folder. */
function resultsFolder(out: string | undefined, revision: string): string {
  if (out === undefined) return mkdtempSync(join(tmpdir(), `mcp-gen-conformance-${revision}-`));
  mkdirSync(out, { recursive: true });
  return resolve(out);
}

/**
 * Refuses a --scenario outside the requirement set: the suite would skip or reject it, and a
 * run that scores nothing must not look like a pass.
 */
function checkScenario(scenario: string | undefined, requirements: RequirementSet): void {
  const known = scenarioNames(requirements);
  if (scenario === undefined || known.includes(scenario)) return;
  throw new ConformanceError(
    `--scenario ${scenario} is not a server scenario of the ${requirements.revision} set; choose from ${known.join(", ")}`,
    2,
  );
}

/**
 * Refuses to run against a dead URL (the suite would report vacuous passes there) and, with
 * --start, against a port someone else already holds (it would score that server instead).
 */
async function checkPort(options: Options): Promise<void> {
  const { host, port } = endpointOf(options.url);
  const open = await portOpen(host, port);
  if (options.start && open) {
    throw new ConformanceError(
      `${host}:${port} is already in use; refusing to start a second server (stop the old one, or drop --start to test it)`,
      2,
    );
  }
  if (!options.start && !open) {
    throw new ConformanceError(
      `nothing accepts connections at ${host}:${port}; start the server first, or use --start`,
      2,
    );
  }
}

/** The whole run: install, (start), run, stop, summarise, print. Resolves to the exit code. */
export async function main(
  argv: string[],
  context: { signal?: AbortSignal; onServer?: (server: StartedServer | undefined) => void } = {},
): Promise<number> {
  const { signal, onServer } = context;
  const options = parseOptions(argv);
  if (!options) {
    console.log(
      readFileSync(fileURLToPath(import.meta.url), "utf8")
        .split("*/")[0]!
        .replace(/^\/\*\*\n|^ \* ?/gm, ""),
    );
    return 0;
  }
  checkOutFolder(options.out);
  await checkPort(options);
  const cache = cacheDir();
  const suite = await ensureSuite(cache, signal);
  const requirements = loadRequirementSet(suite, options.requirements);
  checkScenario(options.scenario, requirements);
  const node = await nodeForSuite(cache, signal);
  const out = resultsFolder(options.out, options.requirements);
  let server: StartedServer | undefined;
  let run: RunResult;
  try {
    if (options.start) {
      note(`starting: ${options.start}  (log: ${join(out, "server.log")})`);
      server = await startServer(options.start, options.url, {
        log: join(out, "server.log"),
        timeoutMs: options.startTimeoutMs,
        signal,
      });
      onServer?.(server);
    }
    note(
      `running ${SUITE_PACKAGE}@${suite.version} on Node ${node.version} (${node.source})  (log: ${join(out, "runner.log")})`,
    );
    run = await runSuite({
      suite,
      node,
      url: options.url,
      out,
      requirements,
      scenario: options.scenario,
      timeoutMs: options.timeoutMs,
      signal,
    });
  } finally {
    await server?.stop();
    onServer?.(undefined);
  }
  signal?.throwIfAborted();
  const summary = summarise(out, requirements, options.scenario);
  const report: Report = {
    suite: suite.version,
    url: options.url,
    node: node.version,
    out,
    ...(options.scenario ? { scenario: options.scenario } : {}),
    runnerExit: run.exit,
    elapsedMs: run.elapsedMs,
    ...summary,
  };
  writeFileSync(join(out, "summary.json"), `${JSON.stringify(report, null, 2)}\n`);
  console.log(options.json ? JSON.stringify(report, null, 2) : formatReport(report).join("\n"));
  removeTemporaryResults(out, options.out, report.ok);
  return report.ok ? 0 : 1;
}

/**
 * A passing run's results in a temporary folder are removed, so that CI and repeated runs leave
 * nothing behind; a failing run keeps them for its logs, and --out always keeps them.
 */
function removeTemporaryResults(out: string, requested: string | undefined, ok: boolean): void {
  if (requested !== undefined || !ok) return;
  rmSync(out, { recursive: true, force: true });
  note(`all checks passed; results removed (keep them with --out <dir>)`);
}

function note(message: string): void {
  console.error(`conformance: ${message}`);
}

function tail(file: string, lines = 20): string {
  try {
    const text = readFileSync(file, "utf8").trimEnd();
    return text ? text.split("\n").slice(-lines).join("\n") : "(empty)";
  } catch {
    return "(no log)";
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, ms));
}

/**
 * Runs main with Ctrl-C / SIGTERM handling: a first signal aborts the run (the started server is
 * stopped on the way out), a second kills the server group at once. Every failure still ends with
 * the `conformance:` line, so that a CI step reading the last line never mistakes it for a pass.
 */
async function cli(): Promise<number> {
  const abort = new AbortController();
  let server: StartedServer | undefined;
  let firstSignalAt = 0;
  const onSignal = (name: NodeJS.Signals) => {
    if (!abort.signal.aborted) {
      firstSignalAt = Date.now();
      note(`${name}: stopping`);
      abort.abort();
      return;
    }
    // Ctrl-C reaches this process twice under `npx tsx` (the terminal's and the one tsx relays):
    // only a later repeat means "stop now".
    if (Date.now() - firstSignalAt < 1000) return;
    server?.killNow();
    console.log("conformance: 0 passed, 1 failed");
    process.exit(130);
  };
  const signals: NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];
  for (const name of signals) process.on(name, onSignal);
  process.on("exit", () => server?.killNow());
  const json = process.argv.includes("--json");
  try {
    return await main(process.argv.slice(2), {
      signal: abort.signal,
      onServer: (s) => (server = s),
    });
  } catch (error) {
    const interrupted = abort.signal.aborted;
    const known = error instanceof ConformanceError;
    const message = interrupted
      ? "interrupted"
      : known
        ? error.message
        : `internal error: ${(error as Error).stack ?? String(error)}`;
    note(message);
    console.log(
      json
        ? JSON.stringify({ ok: false, error: message, passed: 0, failed: 1 }, null, 2)
        : "conformance: 0 passed, 1 failed",
    );
    return interrupted ? 130 : known ? error.exitCode : 3;
  } finally {
    for (const name of signals) process.off(name, onSignal);
  }
}

/** Whether this file is the program (`tsx scripts/conformance.ts`), not imported by a test. */
function invokedDirectly(): boolean {
  try {
    const argv1 = process.argv[1];
    return (
      argv1 !== undefined && realpathSync(argv1) === realpathSync(fileURLToPath(import.meta.url))
    );
  } catch {
    return false; // argv[1] is not a file (e.g. node -e)
  }
}

if (invokedDirectly()) process.exitCode = await cli();
