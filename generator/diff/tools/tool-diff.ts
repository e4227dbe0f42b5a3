/**
 * A tool diff as data: the sides, the summary and the classified changes
 * (the object `--json` prints, described by schema/tool-diff.schema.json),
 * and which changes fail a `--fail-on` gate.
 */
import { compareTools, type ToolChange } from "./compare.js";
import type { ToolSide, ToolSourceKind } from "./load.js";

/** The format number of the JSON form; bumped only when a field changes meaning or goes. */
export const TOOL_DIFF_FORMAT = 1;

/** A side as the diff reports it. */
export interface ToolDiffSide {
  readonly source: string;
  readonly kind: ToolSourceKind;
  readonly tools: number;
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
    /** Changes that break nobody for certain but that subsumption could not clear. */
    readonly possiblyBreaking: number;
  };
  readonly changes: readonly ToolChange[];
}

/** What `--fail-on` may name. */
export const FAIL_ON = ["breaking-for-clients", "breaking-for-servers", "any"] as const;
export type FailOn = (typeof FAIL_ON)[number];

/** Compares two loaded sides. */
export function diffToolSides(before: ToolSide, after: ToolSide): ToolDiff {
  const changes = compareTools(before, after);
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
    },
    changes,
  };
}

function sideOf(side: ToolSide): ToolDiffSide {
  return { source: side.source, kind: side.kind, tools: side.tools.size };
}

/**
 * The changes that fail a `--fail-on` gate: a possibly breaking change
 * counts as breaking, since nothing undecided may pass as safe.
 */
export function failingChanges(diff: ToolDiff, failOn: FailOn): ToolChange[] {
  if (failOn === "any") return [...diff.changes];
  const party = failOn === "breaking-for-clients" ? "clients" : "servers";
  return diff.changes.filter(
    (c) => c.breaking.includes(party) || c.possiblyBreaking.includes(party),
  );
}
