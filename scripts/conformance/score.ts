/**
 * Runs the official MCP conformance suite (@modelcontextprotocol/conformance, pinned) against a
 * server or a client and scores it against one revision's requirement set. The last line printed
 * is always `conformance: N passed, M failed`, counting the checks of the scenarios the revision
 * requires.
 *
 * Usage:
 *   npm run conformance:suite -- --url http://127.0.0.1:3000/mcp
 *   npm run conformance:suite -- --start "node server.js" --url http://127.0.0.1:3000/mcp
 *   npm run conformance:suite -- --command "exec node dist/conformance.js"
 *
 * Options:
 *   --requirements REV  requirement set and wire revision: 2026-07-28 (default) or 2025-11-25
 *   --url URL           test the server at URL (with --start: where the started server listens)
 *   --start CMD         start the server with CMD (sh -c, own process group), wait until the URL's
 *                       port accepts connections, stop the whole group afterwards
 *   --start-timeout MS  how long to wait for the started server's port (default 60000)
 *   --command CMD       test a client: the suite runs CMD through a shell with a mock server's URL
 *                       appended and MCP_CONFORMANCE_SCENARIO set. Start it with `exec` and run
 *                       built JavaScript: every scenario starts at once. Its mock servers listen
 *                       on 127.0.0.1 only.
 *   --defer REGEX       required scenarios whose names match are run and counted apart, and do
 *                       not fail the run (work not done yet, such as ^auth/)
 *   --score REGEX       unscored scenarios of the set whose names match are counted all the same
 *                       (such as ^tasks- for a server that implements the Tasks extension)
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
 *
 * The parts live in scripts/conformance/: suite.ts (installs), requirements.ts (the sets),
 * server-process.ts (--start), run.ts (one suite run), results.ts (scoring), report.ts.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { formatReport, type Report } from "./report.js";
import {
  loadRequirementSet,
  scenarioNames,
  type Leg,
  type RequirementSet,
} from "./requirements.js";
import { summarise } from "./results.js";
import { runSuite, type RunResult } from "./run.js";
import { endpointOf, portOpen, startServer, type StartedServer } from "./server-process.js";
import {
  cacheDir,
  ConformanceError,
  DEFAULT_REQUIREMENTS,
  ensureSuite,
  nodeForSuite,
  note,
  SUITE_PACKAGE,
} from "./suite.js";

export { formatReport, type Report } from "./report.js";
export { parseRequirementSet, type RequirementSet } from "./requirements.js";
export { readResults, summarise, type Check, type Summary } from "./results.js";
export { suiteArguments } from "./run.js";
export { endpointOf } from "./server-process.js";
export { ConformanceError } from "./suite.js";

/** Parsed command line. */
interface Options {
  requirements: string;
  leg: Leg;
  /** The server's URL or the client's command. */
  target: string;
  start?: string;
  startTimeoutMs: number;
  defer?: RegExp;
  score?: RegExp;
  scenario?: string;
  out?: string;
  timeoutMs?: number;
  json: boolean;
}

const USAGE = `usage: conformance [--requirements 2026-07-28|2025-11-25] (--url URL [--start "CMD"] [--start-timeout MS] | --command "CMD")
                   [--defer REGEX] [--score REGEX] [--scenario NAME] [--out DIR] [--timeout MS] [--json]`;

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
  if ((values.url === undefined) === (values.command === undefined))
    throw new ConformanceError(
      `give either --url (a server to test; with --start: where it listens) or --command (a client to test)\n${USAGE}`,
      2,
    );
  if (values.command !== undefined && values.start !== undefined)
    throw new ConformanceError(`--start is for a server (--url), not with --command\n${USAGE}`, 2);
  if (values.url !== undefined) endpointOf(values.url);
  return {
    requirements,
    leg: values.url !== undefined ? "server" : "client",
    target: values.url ?? values.command!,
    start: values.start,
    startTimeoutMs: milliseconds(values["start-timeout"], "--start-timeout") ?? 60_000,
    defer: values.defer === undefined ? undefined : pattern(values.defer, "--defer"),
    score: values.score === undefined ? undefined : pattern(values.score, "--score"),
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
        command: { type: "string" },
        defer: { type: "string" },
        score: { type: "string" },
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

function pattern(text: string, flag: string): RegExp {
  try {
    return new RegExp(text);
  } catch (error) {
    throw new ConformanceError(`${flag} ${text}: ${(error as Error).message}`, 2);
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
function checkScenario(scenario: string | undefined, requirements: RequirementSet, leg: Leg): void {
  const known = scenarioNames(requirements, leg);
  if (scenario === undefined || known.includes(scenario)) return;
  throw new ConformanceError(
    `--scenario ${scenario} is not a ${leg} scenario of the ${requirements.revision} set; choose from ${known.join(", ")}`,
    2,
  );
}

/**
 * Refuses to run against a dead URL (the suite would report vacuous passes there) and, with
 * --start, against a port someone else already holds (it would score that server instead).
 */
async function checkPort(options: Options): Promise<void> {
  if (options.leg !== "server") return;
  const { host, port } = endpointOf(options.target);
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
  checkScenario(options.scenario, requirements, options.leg);
  const node = await nodeForSuite(cache, signal);
  const out = resultsFolder(options.out, options.requirements);
  let server: StartedServer | undefined;
  let run: RunResult;
  try {
    if (options.start) {
      note(`starting: ${options.start}  (log: ${join(out, "server.log")})`);
      server = await startServer(options.start, options.target, {
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
      leg: options.leg,
      target: options.target,
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
  const summary = summarise(out, requirements, options.leg, {
    scenario: options.scenario,
    defer: options.defer,
    score: options.score,
  });
  const report: Report = {
    suite: suite.version,
    target: options.target,
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

/**
 * Runs main with Ctrl-C / SIGTERM handling: a first signal aborts the run (the started server is
 * stopped on the way out), a second kills the server group at once. Every failure still ends with
 * the `conformance:` line, so that a CI step reading the last line never mistakes it for a pass.
 */
export async function cli(): Promise<number> {
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
