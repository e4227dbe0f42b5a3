/**
 * `mcp-gen diff --tools <old> <new>` and `mcp-gen tools fingerprint` as a
 * library: load a side (a tools file, a `tools/list` snapshot or a live
 * server) and check it as a tool list, compare two, and classify each
 * change; `formatToolDiff` gives the text, `failingChanges` the changes a
 * `--fail-on` gate fails on. The JSON form is described by
 * schema/tool-diff.schema.json.
 */
import { collectProblems, McpGenError, type Diagnostic } from "../../diagnostics.js";
import type { CompareOptions } from "./compare.js";
import { listFingerprints } from "./fingerprint.js";
import { loadToolSide, type ToolSourceKind } from "./load.js";
import { diffToolSides, type ToolDiff } from "./tool-diff.js";

/**
 * Loads and checks both sides and compares them; the problems of both
 * sides are thrown together (McpGenError).
 */
export async function diffToolSources(
  from: string,
  to: string,
  options: CompareOptions = {},
): Promise<ToolDiff> {
  const problems: Diagnostic[] = [];
  const before = await collectProblems(problems, () => loadToolSide(from));
  const after = await collectProblems(problems, () => loadToolSide(to));
  if (!before || !after) throw new McpGenError(problems);
  return diffToolSides(before, after, options);
}

/** What `mcp-gen tools fingerprint --json` prints. */
export interface ToolFingerprints {
  readonly format: 1;
  readonly source: string;
  readonly kind: ToolSourceKind;
  /** The fingerprint of the list: of the object of each tool's name and fingerprint. */
  readonly fingerprint: string;
  /** Each tool's contract fingerprint by name, in the list's order. */
  readonly tools: Readonly<Record<string, string>>;
}

/** Loads and checks a tool list and gives the fingerprint of each tool's contract (fingerprint.ts). */
export async function fingerprintToolSource(source: string): Promise<ToolFingerprints> {
  const side = await loadToolSide(source, { option: "tools fingerprint" });
  const { tools, list } = listFingerprints(side.tools);
  return { format: 1, source, kind: side.kind, fingerprint: list, tools };
}

export {
  compareTools,
  compareTool,
  type ChangeClass,
  type CompareOptions,
  type Counterexample,
  type Party,
  type ToolChange,
  type ToolChangeKind,
} from "./compare.js";
export {
  loadToolSide,
  sourceKindOf,
  toolSideFromList,
  type LoadOptions,
  type ToolSide,
  type ToolSourceKind,
} from "./load.js";
export { subsumes, type Rooted, type Verdict } from "./subsume.js";
export { findCounterexample } from "./counterexample.js";
export {
  canonicalJson,
  CONTRACT_FIELDS,
  listFingerprints,
  toolContract,
  toolFingerprint,
} from "./fingerprint.js";
export { formatToolDiff } from "./format.js";
export { suggestBump, type VersionBump } from "./version-bump.js";
export {
  diffToolSides,
  failingChanges,
  FAIL_ON,
  TOOL_DIFF_FORMAT,
  type FailOn,
  type ToolDiff,
  type ToolDiffSide,
} from "./tool-diff.js";
