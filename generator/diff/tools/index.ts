/**
 * `mcp-gen diff --tools <old> <new>` as a library: load both sides (each a
 * tools file, a tools/list snapshot or a live server), compare them, and
 * classify each change; `formatToolDiff` gives the text, `failingChanges`
 * the changes a `--fail-on` gate fails on. The JSON form is described by
 * schema/tool-diff.schema.json.
 */
import { collectProblems, McpGenError, type Diagnostic } from "../../diagnostics.js";
import { loadToolSide } from "./load.js";
import { diffToolSides, type ToolDiff } from "./tool-diff.js";

/** Loads both sides and compares them; the problems of both sides are thrown together. */
export async function diffToolSources(from: string, to: string): Promise<ToolDiff> {
  const problems: Diagnostic[] = [];
  const before = await collectProblems(problems, () => loadToolSide(from));
  const after = await collectProblems(problems, () => loadToolSide(to));
  if (!before || !after) throw new McpGenError(problems);
  return diffToolSides(before, after);
}

export {
  compareTools,
  compareTool,
  type Party,
  type ToolChange,
  type ToolChangeKind,
} from "./compare.js";
export {
  loadToolSide,
  sourceKindOf,
  toolSideFromList,
  type ToolSide,
  type ToolSourceKind,
} from "./load.js";
export { subsumes, type Rooted, type Verdict } from "./subsume.js";
export { formatToolDiff } from "./format.js";
export {
  diffToolSides,
  failingChanges,
  FAIL_ON,
  TOOL_DIFF_FORMAT,
  type FailOn,
  type ToolDiff,
  type ToolDiffSide,
} from "./tool-diff.js";
