/**
 * One run of the suite: against a server (`server --url`) or a client (`client --command`), for a
 * whole requirement set or one scenario of it, with its output in `<out>/runner.log`.
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { scenarioNames, type Leg, type RequirementSet } from "./requirements.js";
import { runToFile, type Suite, type SuiteNode } from "./suite.js";

/** The preload that keeps the suite's mock servers on 127.0.0.1 (client runs). */
export const LOOPBACK = fileURLToPath(new URL("loopback.mjs", import.meta.url));

/** What one suite run needs. */
export interface RunOptions {
  suite: Suite;
  node: SuiteNode;
  leg: Leg;
  /** The server's URL (server leg) or the command that starts the client (client leg). */
  target: string;
  /** Results folder. */
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
  options: Pick<RunOptions, "leg" | "target" | "out" | "requirements" | "scenario" | "timeoutMs">,
): string[] {
  const { leg, target, out, requirements, scenario, timeoutMs } = options;
  const args = [leg, leg === "server" ? "--url" : "--command", target, "-o", out];
  if (scenario === undefined) args.push("--requirements", requirements.revision);
  else {
    args.push("--scenario", scenario, "--spec-version", requirements.revision);
    if (scenarioNames(requirements, leg).includes(scenario)) args.push("--force");
  }
  if (timeoutMs !== undefined) args.push("--timeout", String(timeoutMs));
  return args;
}

/**
 * Runs the suite. A client run loads {@link LOOPBACK} into the suite (its mock servers would
 * otherwise listen on every interface) and the client command runs through a shell, as the
 * suite does it.
 */
export async function runSuite(options: RunOptions): Promise<RunResult> {
  const log = join(options.out, "runner.log");
  const started = Date.now();
  const args = [options.suite.entry, ...suiteArguments(options)];
  const env =
    options.leg === "client"
      ? { ...process.env, NODE_OPTIONS: `--import ${JSON.stringify(LOOPBACK)}` }
      : process.env;
  const exit = await runToFile(options.node.path, args, { log, env, signal: options.signal });
  return { exit, log, elapsedMs: Date.now() - started };
}
