/**
 * `mcp-gen diff` as a library: load both sides (each a revision name or a
 * folder, with the same extensions), compare their models.
 */
import { collectProblems, McpGenError, type Diagnostic } from "../diagnostics.js";
import { loadModelOrCommitted } from "../index.js";
import type { SchemaSources } from "../load/resolve-spec.js";
import { diffModels, type ModelDiff } from "./diff.js";

/** Options of {@link diffRevisions}. */
export interface DiffOptions {
  /** Extensions merged into both sides (known names, folders, manifest files). */
  readonly extensions?: readonly string[];
  readonly sources?: SchemaSources;
}

/** What {@link diffRevisions} returns. */
export interface DiffResult {
  readonly diff: ModelDiff;
  /** Notes and warnings of loading both sides. */
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * Compares `from` and `to`. Throws one McpGenError with the problems of
 * both sides when either cannot be loaded.
 */
export async function diffRevisions(
  from: string,
  to: string,
  options: DiffOptions = {},
): Promise<DiffResult> {
  const problems: Diagnostic[] = [];
  const load = async (spec: string) => {
    const side: Diagnostic[] = [];
    const loaded = await collectProblems(side, () =>
      loadModelOrCommitted({
        spec,
        extensions: options.extensions ?? [],
        ...(options.sources ? { sources: options.sources } : {}),
      }),
    );
    problems.push(...labelled(side, spec));
    return loaded && { ...loaded, diagnostics: labelled(loaded.diagnostics, spec) };
  };
  const before = await load(from);
  const after = await load(to);
  if (!before || !after) throw new McpGenError(problems);
  return {
    diff: diffModels(before.model, after.model, from, to),
    diagnostics: [...before.diagnostics, ...after.diagnostics],
  };
}

/** Diagnostics of loading one side, placed at that side (`2026-07-28: ...`) rather than at the --spec of generate. */
function labelled(diagnostics: readonly Diagnostic[], spec: string): Diagnostic[] {
  return diagnostics.map((d) =>
    d.location?.file === "--spec" ? { ...d, location: { ...d.location, file: spec } } : d,
  );
}

export {
  diffModels,
  type Change,
  type ChangeCategory,
  type DiffSide,
  type ModelDiff,
  type Side,
} from "./diff.js";
export { formatDiff } from "./format-diff.js";
export {
  canonicalJson,
  diffToolSources,
  diffToolSides,
  failingChanges,
  fingerprintToolSource,
  findCounterexample,
  formatToolDiff,
  listFingerprints,
  loadToolSide,
  subsumes,
  suggestBump,
  toolContract,
  toolFingerprint,
  CONTRACT_FIELDS,
  FAIL_ON,
  TOOL_DIFF_FORMAT,
  type ChangeClass,
  type CompareOptions,
  type Counterexample,
  type FailOn,
  type Party,
  type ToolChange,
  type ToolChangeKind,
  type ToolDiff,
  type ToolDiffSide,
  type ToolFingerprints,
  type ToolSide,
  type Verdict,
  type VersionBump,
} from "./tools/index.js";
