/**
 * A requirement set of the suite (`requirements/<revision>.yaml` in its package): which server and
 * client scenarios conformance to a revision requires, and which run but are not scored, and why.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { ConformanceError, type Suite } from "./suite.js";

/** Which side of the suite a run tests: the subcommand that runs it. */
export type Leg = "server" | "client";

/** What a revision requires. */
export interface RequirementSet {
  revision: string;
  /** Scored server scenarios, in file order. */
  server: string[];
  /** Scored client scenarios, in file order. */
  client: string[];
  /** Scenarios that run but never count, with their leg and the set's reason (extension, pending, ...). */
  notScored: Array<{ scenario: string; leg: Leg; reason: string }>;
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

/**
 * Parses a requirement set. A layout other than the expected one (`server` and `client` lists of
 * names, `not_scored` a list of `{ scenario, leg, reason }`) fails loudly rather than scoring the
 * wrong scenarios.
 */
export function parseRequirementSet(text: string, revision: string): RequirementSet {
  const where = `requirements/${revision}.yaml`;
  let document: unknown;
  try {
    document = parse(text);
  } catch (error) {
    throw new ConformanceError(`${where}: not YAML: ${(error as Error).message}`, 3);
  }
  if (!isRecord(document)) throw new ConformanceError(`${where}: not a YAML map`, 3);
  const server = names(document.server, `${where}: server`);
  if (server.length === 0)
    throw new ConformanceError(`${where}: no list of server scenarios found`, 3);
  const client = document.client === undefined ? [] : names(document.client, `${where}: client`);
  const entries = document.not_scored ?? [];
  if (!Array.isArray(entries)) throw new ConformanceError(`${where}: not_scored is not a list`, 3);
  const notScored = entries.map((entry: unknown, i) => {
    if (!isRecord(entry) || typeof entry.scenario !== "string")
      throw new ConformanceError(`${where}: not_scored entry ${i + 1} has no scenario`, 3);
    const leg = entry.leg === "client" ? "client" : "server";
    const reason = typeof entry.reason === "string" ? entry.reason : "not scored";
    return { scenario: entry.scenario, leg, reason } as const;
  });
  return { revision, server, client, notScored };
}

/** The scenarios of `leg` a whole-set run executes, scored ones first (the suite's order). */
export function scenarioNames(requirements: RequirementSet, leg: Leg): string[] {
  return [
    ...requirements[leg],
    ...requirements.notScored.filter((e) => e.leg === leg).map((e) => e.scenario),
  ];
}

function names(value: unknown, where: string): string[] {
  if (!Array.isArray(value) || !value.every((v) => typeof v === "string"))
    throw new ConformanceError(`${where} is not a list of scenario names`, 3);
  return value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
