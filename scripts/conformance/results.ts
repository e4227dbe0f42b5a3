/**
 * Scoring a results folder: the suite writes one `checks.json` per scenario it ran
 * (`server-<scenario>-<timestamp>/` for a server, `<scenario>-<timestamp>/` for a client, where an
 * `auth/` scenario is a folder deeper); here each scenario's checks are tallied against the
 * requirement set.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { scenarioNames, type Leg, type RequirementSet } from "./requirements.js";

/** One check as the suite writes it in checks.json (fields the summary uses). */
export interface Check {
  id: string;
  status: string;
  description?: string;
  errorMessage?: string;
}

/** How a scenario counts. */
export type Standing = "scored" | "deferred" | "unscored";

/** One scenario's tally. */
export interface ScenarioRow {
  name: string;
  /** Scored: counted; deferred: scored by the set, counted apart (--defer); unscored: shown only. */
  standing: Standing;
  /** Why a scenario is not counted (the set's reason, or "deferred"). */
  reason?: string;
  /** Whether a checks.json was found. */
  ran: boolean;
  passed: number;
  failed: number;
  /** WARNING checks. A client scenario fails on one (the suite's client mode does); they are in `failed` too. */
  warnings: number;
  failures: Array<{ id: string; message: string }>;
}

/** The score of a results folder against a requirement set. */
export interface Summary {
  requirements: string;
  leg: Leg;
  /** Checks passed in scored scenarios. */
  passed: number;
  /** Checks failed in scored scenarios, plus one per scored scenario without results. */
  failed: number;
  warnings: number;
  /** The same counts over the deferred scenarios. */
  deferred: { scenarios: number; passed: number; failed: number };
  /** True iff nothing scored failed. */
  ok: boolean;
  scenarios: ScenarioRow[];
}

/** What to expect of a results folder. */
export interface SummaryOptions {
  /** Only this scenario was asked for. */
  scenario?: string;
  /** Scenarios of the set counted apart and never failing the run (their work is not done yet). */
  defer?: RegExp;
  /** Unscored scenarios of the set counted all the same (an extension the server implements). */
  score?: RegExp;
}

/**
 * Scores the results in `out`: the set's scenarios of `leg` count (SUCCESS passed; FAILURE failed;
 * WARNING failed for a client, shown for a server); its not_scored ones, and any other results
 * found, are tallied but not counted.
 */
export function summarise(
  out: string,
  requirements: RequirementSet,
  leg: Leg,
  options: SummaryOptions = {},
): Summary {
  const results = readResults(out, leg);
  const started = startedScenarios(out);
  const reasons = new Map(
    requirements.notScored.filter((e) => e.leg === leg).map((e) => [e.scenario, e.reason]),
  );
  const expected =
    options.scenario === undefined ? scenarioNames(requirements, leg) : [options.scenario];
  const names = [...new Set([...expected, ...results.keys()])];
  const scenarios = names.map((name) => {
    const required =
      (requirements[leg].includes(name) ||
        (options.score?.test(name) === true && reasons.has(name))) &&
      expected.includes(name);
    const standing: Standing = !required
      ? "unscored"
      : options.defer?.test(name)
        ? "deferred"
        : "scored";
    const reason =
      standing === "scored"
        ? undefined
        : standing === "deferred"
          ? "deferred"
          : (reasons.get(name) ?? `not in the ${requirements.revision} set`);
    return tally(name, standing, reason, results.get(name), started.has(name), leg === "client");
  });
  const total = (standing: Standing, key: "passed" | "failed" | "warnings") =>
    scenarios.filter((r) => r.standing === standing).reduce((n, r) => n + r[key], 0);
  const failed = total("scored", "failed");
  return {
    requirements: requirements.revision,
    leg,
    passed: total("scored", "passed"),
    failed,
    warnings: total("scored", "warnings"),
    deferred: {
      scenarios: scenarios.filter((r) => r.standing === "deferred").length,
      passed: total("deferred", "passed"),
      failed: total("deferred", "failed"),
    },
    ok: failed === 0,
    scenarios,
  };
}

/** One row; a counted scenario without results is one failed check. */
function tally(
  name: string,
  standing: Standing,
  reason: string | undefined,
  checks: Check[] | undefined,
  started: boolean,
  warningFails: boolean,
): ScenarioRow {
  const row: ScenarioRow = {
    name,
    standing,
    ...(reason ? { reason } : {}),
    ran: checks !== undefined,
    passed: 0,
    failed: 0,
    warnings: 0,
    failures: [],
  };
  if (checks === undefined) {
    if (standing !== "unscored") row.failed = 1;
    const message = started
      ? "the scenario started but wrote no checks.json (see runner.log)"
      : "the scenario did not run (see runner.log)";
    row.failures.push({ id: "(no results)", message });
    return row;
  }
  for (const check of checks) {
    if (check.status === "SUCCESS") row.passed++;
    if (check.status === "WARNING") row.warnings++;
    if (check.status === "FAILURE" || (check.status === "WARNING" && warningFails)) {
      row.failed++;
      row.failures.push({ id: check.id, message: check.errorMessage ?? check.description ?? "" });
    }
  }
  return row;
}

/**
 * The checks of each scenario in `out`, from its newest checks.json. An unreadable file becomes
 * one failed check, so that it cannot pass silently.
 */
export function readResults(out: string, leg: Leg = "server"): Map<string, Check[]> {
  const results = new Map<string, Check[]>();
  // Timestamps are ISO with ":" and "." replaced by "-", so sorting the paths sorts by time.
  for (const folder of foldersWithChecks(out).sort()) {
    const m = /^(.+)-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/.exec(relative(out, folder));
    if (!m) continue;
    const name = leg === "server" ? /^server-(.+)$/.exec(m[1]!)?.[1] : m[1];
    if (name === undefined) continue;
    const file = join(folder, "checks.json");
    try {
      const checks: unknown = JSON.parse(readFileSync(file, "utf8"));
      if (!Array.isArray(checks)) throw new Error("not a JSON array");
      if (!checks.every(isCheck)) throw new Error("a check without a string id and status");
      results.set(name, checks);
    } catch (error) {
      results.set(name, [
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

/** Every folder under `dir` (two levels at most: `auth/<scenario>-<stamp>`) that holds a checks.json. */
function foldersWithChecks(dir: string, depth = 2): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const folder = join(dir, entry.name);
    if (existsSync(join(folder, "checks.json"))) found.push(folder);
    else if (depth > 1) found.push(...foldersWithChecks(folder, depth - 1));
  }
  return found;
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
  const server = /^Running client scenario '([^']+)' against server/gm;
  const client = /^Starting scenario: (\S+)/gm;
  return new Set([...text.matchAll(server), ...text.matchAll(client)].map((m) => m[1]!));
}
