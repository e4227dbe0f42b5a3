/**
 * A tool diff as data: the sides with their fingerprints, the summary,
 * the classified changes and the version bump they suggest (the object
 * `--json` prints, described by schema/tool-diff.schema.json), and which
 * changes fail a `--fail-on` gate.
 */
import { compareTools, type CompareOptions, type ToolChange } from "./compare.js";
import type { FailOn } from "./fail-on.js";
import { listFingerprints } from "./fingerprint.js";
import type { ToolSide, ToolSourceKind } from "./load.js";
import { suggestBump, type VersionBump } from "./version-bump.js";

/** The format number of the JSON form; bumped only when a field changes meaning or goes. */
export const TOOL_DIFF_FORMAT = 1;

/** A side as the diff reports it. */
export interface ToolDiffSide {
  readonly source: string;
  readonly kind: ToolSourceKind;
  readonly tools: number;
  /** The fingerprint of the side's list of tool contracts (fingerprint.ts). */
  readonly fingerprint: string;
  /** Each tool's contract fingerprint, by name, in the side's order. */
  readonly fingerprints: Readonly<Record<string, string>>;
}

/** The whole diff: stable JSON for programs. */
export interface ToolDiff {
  readonly format: typeof TOOL_DIFF_FORMAT;
  readonly from: ToolDiffSide;
  readonly to: ToolDiffSide;
  readonly summary: {
    readonly changes: number;
    readonly breakingClients: number;
    readonly breakingServers: number;
    /** Changes that break nobody for certain but that neither subsumption nor the search could clear. */
    readonly possiblyBreaking: number;
    /** Changes of titles and descriptions only (class "documentation"). */
    readonly documentation: number;
  };
  readonly suggestedBump: VersionBump;
  readonly changes: readonly ToolChange[];
}

export { FAIL_ON, type FailOn } from "./fail-on.js";

/** Compares two loaded sides. */
export function diffToolSides(
  before: ToolSide,
  after: ToolSide,
  options: CompareOptions = {},
): ToolDiff {
  const changes = compareTools(before, after, options);
  const count = (test: (c: ToolChange) => boolean) => changes.filter(test).length;
  return {
    format: TOOL_DIFF_FORMAT,
    from: sideOf(before),
    to: sideOf(after),
    summary: {
      changes: changes.length,
      breakingClients: count((c) => c.breaking.includes("clients")),
      breakingServers: count((c) => c.breaking.includes("servers")),
      possiblyBreaking: count((c) => c.possiblyBreaking.length > 0),
      documentation: count((c) => c.class === "documentation"),
    },
    suggestedBump: suggestBump(changes),
    changes,
  };
}

function sideOf(side: ToolSide): ToolDiffSide {
  const { tools, list } = listFingerprints(side.tools);
  return {
    source: side.source,
    kind: side.kind,
    tools: side.tools.size,
    fingerprint: list,
    fingerprints: tools,
  };
}

/**
 * The changes that fail a `--fail-on` gate: a possibly breaking change
 * counts as breaking, since nothing undecided may pass as safe;
 * `documentation` fails on titles and descriptions changed.
 */
export function failingChanges(diff: ToolDiff, failOn: FailOn): ToolChange[] {
  if (failOn === "any") return [...diff.changes];
  if (failOn === "documentation") return diff.changes.filter((c) => c.class === "documentation");
  const party = failOn === "breaking-for-clients" ? "clients" : "servers";
  return diff.changes.filter(
    (c) => c.breaking.includes(party) || c.possiblyBreaking.includes(party),
  );
}
