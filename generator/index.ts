/**
 * mcp-gen's library API. `generate` is the whole pipeline, one line per
 * stage: load → check → build → passes → check the model → emit. Writing (or
 * checking) the result is the caller's choice: {@link writeOutput},
 * {@link checkOutput}. The CLI is a thin layer over these functions.
 */
import { checkExtensions } from "./check/check-extensions.js";
import { checkModel } from "./check-model/check-model.js";
import { checkSources } from "./check/check-sources.js";
import { diagnostic, McpGenError, throwIfErrors, type Diagnostic } from "./diagnostics.js";
import { committedOutput } from "./load/committed-output.js";
import { regenerateCommand as flagsCommand } from "./write/regenerate-command.js";
import { emitFiles, type EmittedFile } from "./emit/index.js";
import { emitPythonFiles } from "./emit/python/index.js";
import { compiledCodeCacheIn } from "./load/code-cache.js";
import { loadSources, type LoadOptions } from "./load/load-sources.js";
import { defaultSchemaSources } from "./load/resolve-spec.js";
import type { SourceSet } from "./load/types.js";
import { packageVersion } from "./load/package-root.js";
import { byPath } from "./shared/emitted-file.js";
import { buildModel } from "./model/build.js";
import { committedModel } from "./model/committed-model.js";
import { runPasses } from "./model/passes/index.js";
import type { McpModel } from "./model/types.js";

/** Options of {@link generate}. */
export interface GenerateOptions extends LoadOptions {
  /** The output folder; banners' regenerate command gives paths relative to it. */
  readonly out: string;
  /** The command shown in banners; defaults to this run's flags, with paths relative to `out` (see write/regenerate-command.ts). */
  readonly regenerateCommand?: string;
  /** Put mcp-gen's version in banners (default true; goldens turn it off). */
  readonly stampVersion?: boolean;
  /** The language to write: TypeScript modules (the default), or a Python package (pydantic models). */
  readonly target?: OutputTarget;
}

/** The languages `generate` writes. */
export const OUTPUT_TARGETS = ["typescript", "python"] as const;
/** One of {@link OUTPUT_TARGETS}. */
export type OutputTarget = (typeof OUTPUT_TARGETS)[number];

/** What {@link generate} returns. */
export interface GenerateResult {
  /** The files, paths relative to the output folder, sorted. */
  readonly files: readonly EmittedFile[];
  readonly model: McpModel;
  /** Warnings and notes, including which patches were applied. */
  readonly diagnostics: readonly Diagnostic[];
}

/** What {@link loadModel} returns. */
export interface ModelResult {
  readonly model: McpModel;
  /** Warnings and notes, including which patches were applied. */
  readonly diagnostics: readonly Diagnostic[];
}

/** The checked model of a revision (load → check → build → passes → check the model), without emitting. */
export async function loadModel(options: LoadOptions): Promise<ModelResult> {
  const sources = await loadSources(options);
  const checked = throwIfErrors([...checkSources(sources), ...checkExtensions(sources)]);
  const built = buildModel(sources);
  const model = withPasses(built.model, sources);
  throwIfErrors(checkModel(model));
  return { model, diagnostics: [...checked, ...built.diagnostics, ...overlayNotes(model)] };
}

/**
 * {@link loadModel}, except that when a known revision's schemas cannot be
 * had (offline, nothing cached), the model is mcp-gen's committed one for
 * that revision and its known extensions (generated/models/), with a note
 * (MCPG109) saying so: what `diff` and `upgrade` compare, offline.
 */
export async function loadModelOrCommitted(options: LoadOptions): Promise<ModelResult> {
  try {
    return await loadModel(options);
  } catch (error) {
    if (!unavailable(error)) throw error;
    const committed = committedModel(options.spec, options.extensions ?? []);
    if (!committed) throw error;
    const reason = error.diagnostics.map((d) => d.message).join("; ");
    return {
      model: committed.model,
      diagnostics: [
        diagnostic(
          "MCPG109",
          { revision: options.spec, file: committed.folder, reason },
          { file: "--spec" },
        ),
      ],
    };
  }
}

/**
 * Whether an error says only that a revision's or an extension's schemas
 * could not be had: not cached and downloads disabled (MCPG102, MCPG603),
 * or the download failed (MCPG105: no network). A download that arrived
 * with the wrong sha256 is no such case: that stays an error.
 */
function unavailable(error: unknown): error is McpGenError {
  return (
    error instanceof McpGenError &&
    error.diagnostics.length > 0 &&
    error.diagnostics.every((d) => ["MCPG102", "MCPG105", "MCPG603"].includes(d.code))
  );
}

/** Generates every file for a revision, in memory. Throws McpGenError with all input problems. */
export async function generate(options: GenerateOptions): Promise<GenerateResult> {
  const { model, diagnostics } = await loadModel(options);
  const sources = options.sources ?? defaultSchemaSources();
  const cache =
    sources.compiledCodeCache === false ? undefined : compiledCodeCacheIn(sources.cacheDir);
  const banner = bannerOptions(options, model);
  const files = byPath(
    options.target === "python" ? emitPythonFiles(model, banner) : emitFiles(model, banner, cache),
  );
  return { files, model, diagnostics };
}

function withPasses(built: McpModel, sources: SourceSet): McpModel {
  return runPasses(built, {
    patches: sources.patches,
    definitionsKey: sources.schema.definitionsKey,
    extensions: sources.extensions,
  });
}

/** The command banners name: the caller's, or this run's flags, written so they do not depend on the working directory. */
function regenerateCommand(options: GenerateOptions): string {
  return (
    options.regenerateCommand ??
    flagsCommand(options.spec, options.extensions ?? [], options.out, options.target)
  );
}

function bannerOptions(options: GenerateOptions, model: McpModel) {
  return {
    regenerate: regenerateCommand(options),
    options: { extensions: model.extensions.map((e) => e.id).join(", ") || "none" },
    ...(options.stampVersion === false ? {} : { toolVersion: packageVersion() }),
  };
}

/** What {@link generateFiles} returns: {@link generate}'s result, or mcp-gen's committed files, which come without a model. */
export type FilesResult =
  | GenerateResult
  | {
      readonly files: readonly EmittedFile[];
      readonly model?: undefined;
      readonly diagnostics: readonly Diagnostic[];
    };

/**
 * {@link generate}, except that when a known revision's schemas cannot be
 * had (offline, nothing cached), the files are mcp-gen's committed output
 * for that revision and its known extensions (generated/), with this run's
 * regenerate command in the banners and a note (MCPG107) saying so. They
 * are the files generation would write: the schemas are pinned by sha256.
 */
export async function generateFiles(options: GenerateOptions): Promise<FilesResult> {
  try {
    return await generate(options);
  } catch (error) {
    // generated/ holds TypeScript; a Python package is generated from the schemas or not at all.
    const committed =
      unavailable(error) &&
      options.target !== "python" &&
      committedOutput(options.spec, options.extensions ?? [], regenerateCommand(options));
    if (!committed) throw error;
    const reason = error.diagnostics.map((d) => d.message).join("; ");
    return {
      files: committed.files,
      diagnostics: [
        diagnostic(
          "MCPG107",
          { revision: options.spec, folder: committed.folder, reason },
          { file: "--spec" },
        ),
      ],
    };
  }
}

/**
 * What the overlay and the rules did. A known revision gets a note per
 * patch applied or superseded; an unknown one gets one note naming every
 * rule and patch it was generated with.
 */
function overlayNotes(model: McpModel): Diagnostic[] {
  if (!model.known)
    return [
      diagnostic(
        "MCPG305",
        {
          revision: model.revision,
          rules: model.appliedRules,
          patches: model.appliedPatches.map((p) => p.id),
          superseded: model.supersededPatches.map((p) => p.id),
        },
        { file: model.sources[0]?.name ?? "schema.json" },
      ),
      ...(model.inferences ?? []).map((inference) =>
        diagnostic(
          "MCPG306",
          { revision: model.revision, inference },
          { file: model.sources[0]?.name ?? "schema.json" },
        ),
      ),
    ];
  return [
    ...model.appliedPatches.map((p) =>
      diagnostic("MCPG303", { patch: p.id, why: p.why }, { file: p.file }),
    ),
    ...model.supersededPatches.map((p) =>
      diagnostic(
        "MCPG304",
        { patch: p.id, expected: p.expected, actual: p.actual },
        { file: model.sources[0]?.name ?? "schema.json", pointer: p.pointer },
      ),
    ),
  ];
}

export {
  checkOutput,
  staleFileDiagnostics,
  writeOutput,
  type StaleFile,
  type WriteOptions,
} from "./write/write-output.js";
export { McpGenError, formatDiagnostic, type Diagnostic } from "./diagnostics.js";
export {
  checkingSources,
  pullRevision,
  defaultSchemaSources,
  type SchemaSources,
} from "./load/resolve-spec.js";
export { readRegistry, knownRevisions } from "./load/registry.js";
export type { EmittedFile } from "./emit/file.js";
export type { McpModel } from "./model/types.js";
