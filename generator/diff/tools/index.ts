/**
 * `mcp-gen diff --tools <old> <new>` as a library: load both sides (each a
 * tools file, a tools/list snapshot or a live server), compare them, and
 * classify each change; `formatToolDiff` gives the text, `failsGate` the
 * answer to `--fail-on`. The JSON form is described by
 * schema/tool-diff.schema.json.
 */
import { collectProblems, McpGenError, type Diagnostic } from "../../diagnostics.js";
import { compareTools, type ToolChange } from "./compare.js";
import { loadToolSide, type ToolSide, type ToolSourceKind } from "./load.js";

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

/** Loads both sides and compares them; the problems of both sides are thrown together. */
export async function diffToolSources(from: string, to: string): Promise<ToolDiff> {
  const problems: Diagnostic[] = [];
  const before = await collectProblems(problems, () => loadToolSide(from));
  const after = await collectProblems(problems, () => loadToolSide(to));
  if (!before || !after) throw new McpGenError(problems);
  return diffToolSides(before, after);
}

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

export {
  compareTools,
  compareTool,
  type Party,
  type ToolChange,
  type ToolChangeKind,
} from "./compare.js";
export { loadToolSide, sourceKindOf, type ToolSide, type ToolSourceKind } from "./load.js";
export { subsumes, type Rooted, type Verdict } from "./subsume.js";
export { formatToolDiff } from "./format.js";
