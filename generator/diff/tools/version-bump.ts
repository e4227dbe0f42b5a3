/**
 * The version bump a tool diff suggests for the server that publishes the
 * tools, read as semantic versioning from its clients' side: the clients
 * are who a server's version speaks to.
 *
 * | Changes                                                               | Bump  |
 * | --------------------------------------------------------------------- | ----- |
 * | any that breaks clients, or may (not decided)                         | major |
 * | else any that changes the contract (a tool added, an argument widened, | minor |
 * | an output narrowed, an optional argument, an annotation)              |       |
 * | else only titles, descriptions, icons or `_meta`                      | patch |
 * | none                                                                  | none  |
 *
 * A change that breaks only servers (a tool added) is a feature for
 * clients, so minor: a server implementing the old list is behind, which
 * matters to a contract several servers implement, and `--fail-on
 * breaking-for-servers` gates that.
 */
import type { ToolChange } from "./tool-change.js";

/** A suggested bump and why. */
export interface VersionBump {
  readonly level: "major" | "minor" | "patch" | "none";
  /** What decided it, for the report: the count of the changes that did. */
  readonly reason: string;
}

/** Fields whose change describes a tool without changing how it is called. */
const DESCRIPTIVE_FIELDS = new Set(["icons", "_meta"]);

/** The bump `changes` suggest. */
export function suggestBump(changes: readonly ToolChange[]): VersionBump {
  const clients = changes.filter(
    (c) => c.breaking.includes("clients") || c.possiblyBreaking.includes("clients"),
  );
  if (clients.length > 0)
    return { level: "major", reason: `${counted(clients.length, "break")} clients, or may` };
  const contract = changes.filter(
    (c) =>
      c.class !== "documentation" &&
      !(c.kind === "other-changed" && DESCRIPTIVE_FIELDS.has(c.detail ?? "")),
  );
  if (contract.length > 0)
    return {
      level: "minor",
      reason: `${counted(contract.length, "change")} the contract without breaking clients`,
    };
  if (changes.length > 0)
    return {
      level: "patch",
      reason: `${counted(changes.length, "change")} only what describes the tools`,
    };
  return { level: "none", reason: "nothing changed" };
}

/** `1 change breaks`, `3 changes break`. */
function counted(n: number, verb: string): string {
  return n === 1 ? `1 change ${verb}s` : `${n} changes ${verb}`;
}
