/**
 * mcp-gen's library API. `generate` is the whole pipeline, one line per
 * stage: load → check → build → passes → emit → format. Writing (or
 * checking) the result is the caller's choice: {@link writeOutput},
 * {@link checkOutput}. The CLI is a thin layer over these functions.
 */
import { checkExtensions } from "./check/check-extensions.js";
import { checkSources } from "./check/check-sources.js";
import { diagnostic, throwIfErrors, type Diagnostic } from "./diagnostics.js";
import { emitFiles, type EmittedFile } from "./emit/index.js";
import { formatFiles, warmUpFormatter } from "./format/format.js";
import { loadSources, type LoadOptions } from "./load/load-sources.js";
import { packageVersion } from "./load/package-root.js";
import { buildModel } from "./model/build.js";
import { runPasses } from "./model/passes/index.js";
import type { McpModel } from "./model/types.js";

/** Options of {@link generate}. */
export interface GenerateOptions extends LoadOptions {
  /** The output folder as the user named it; only shown in banners' regenerate command. */
  readonly out: string;
  /** The command shown in banners; defaults to `mcp-gen generate --spec <spec> --out <out>`. */
  readonly regenerateCommand?: string;
  /** Put mcp-gen's version in banners (default true; goldens turn it off). */
  readonly stampVersion?: boolean;
}

/** What {@link generate} returns. */
export interface GenerateResult {
  /** Formatted files, paths relative to the output folder, sorted. */
  readonly files: readonly EmittedFile[];
  readonly model: McpModel;
  /** Warnings and notes, including which patches were applied. */
  readonly diagnostics: readonly Diagnostic[];
}

/** Generates every file for a revision, in memory. Throws McpGenError with all input problems. */
export async function generate(options: GenerateOptions): Promise<GenerateResult> {
  // Prettier warms up while schema.ts is read on the helper thread.
  const [sources] = await Promise.all([loadSources(options), warmUpFormatter()]);
  const checked = throwIfErrors([...checkSources(sources), ...checkExtensions(sources)]);
  const built = buildModel(sources);
  const model = runPasses(built.model, { patches: sources.patches, definitionsKey: sources.schema.definitionsKey, extensions: sources.extensions });
  const files = byPath(await formatFiles(emitFiles(model, bannerOptions(options, model))));
  return { files, model, diagnostics: [...checked, ...built.diagnostics, ...appliedPatchNotes(model)] };
}

function byPath(files: EmittedFile[]): EmittedFile[] {
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function bannerOptions(options: GenerateOptions, model: McpModel) {
  const extensionFlags = (options.extensions ?? []).map((e) => ` --extension ${e}`).join("");
  return {
    regenerate: options.regenerateCommand ?? `mcp-gen generate --spec ${options.spec}${extensionFlags} --out ${options.out}`,
    options: { extensions: model.extensions.map((e) => e.id).join(", ") || "none" },
    ...(options.stampVersion === false ? {} : { toolVersion: packageVersion() }),
  };
}

function appliedPatchNotes(model: McpModel): Diagnostic[] {
  return model.appliedPatches.map((p) => diagnostic("MCPG303", { patch: p.id, why: p.why }, { file: p.file }));
}

export { checkOutput, staleFileDiagnostics, writeOutput, type StaleFile, type WriteOptions } from "./write/write-output.js";
export { McpGenError, formatDiagnostic, type Diagnostic } from "./diagnostics.js";
export { pullRevision, defaultSchemaSources, type SchemaSources } from "./load/resolve-spec.js";
export { readRegistry, knownRevisions } from "./load/registry.js";
export type { EmittedFile } from "./emit/file.js";
export type { McpModel } from "./model/types.js";
