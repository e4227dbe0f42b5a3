/**
 * The load stage: the only place that reads inputs from disk. It resolves
 * `--spec`, parses schema.json (errors carry line:column), reads schema.ts
 * through ts-morph, and picks up the registry and the patch overlay.
 */
import { collectProblems, McpGenError, type Diagnostic } from "../diagnostics.js";
import { readPatchFile } from "./patches.js";
import { loadExtensionsInStages } from "./extensions.js";
import { readRegistry } from "./registry.js";
import { defaultSchemaSources, resolveSpec, type SchemaSources } from "./resolve-spec.js";
import { parseSchemaJson } from "./schema-json.js";
import { runTask } from "../threads/helper-thread.js";
import type { SourceSet } from "./types.js";

/** Options of the load stage. */
export interface LoadOptions {
  /** A revision name or a folder holding schema.json (and optionally schema.ts). */
  readonly spec: string;
  /** Where revisions come from; defaults to the environment (MCP_GEN_SCHEMA_DIR, cache, download). */
  readonly sources?: SchemaSources;
  /** Ignore schema.ts even when present (to see what schema.json alone yields). */
  readonly withoutSchemaTs?: boolean;
  /** `--extension` arguments: known extension names or ids, folders with mcp-extension.json, or manifest files. */
  readonly extensions?: readonly string[];
}

/** Reads every input of a run into a {@link SourceSet}. */
export async function loadSources(options: LoadOptions): Promise<SourceSet> {
  return (await loadSourcesInStages(options)).complete;
}

/** The inputs of a run in two stages (see {@link loadSourcesInStages}). */
export interface StagedSources {
  /**
   * Everything but schema.ts facts (of the revision and of extensions), as
   * soon as the schema.json files are read; undefined when they fail to
   * read (`complete` then reports why).
   */
  readonly early: SourceSet | undefined;
  /** Every input, once the helper thread has read schema.ts; rejects with all input problems. */
  readonly complete: Promise<SourceSet>;
}

/**
 * Reads the inputs of a run in two stages, so that work that needs only
 * schema.json can run while schema.ts is still being read on the helper
 * thread.
 */
export async function loadSourcesInStages(options: LoadOptions): Promise<StagedSources> {
  const registry = readRegistry();
  const sources = options.sources ?? defaultSchemaSources();
  const resolved = await resolveSpec(options.spec, registry, sources);
  // schema.ts is read on the helper thread (when there is one) while this thread parses schema.json.
  const tsFile = options.withoutSchemaTs ? undefined : resolved.schemaTs;
  const readingTs = tsFile ? runTask("readSchemaTs", tsFile) : undefined;
  // Awaited in the second stage; this only keeps a failure from going unobserved until then.
  readingTs?.catch(() => undefined);
  // Read both files before giving up, so a broken schema.json and a broken schema.ts are reported together.
  const problems: Diagnostic[] = [];
  const schema = await collectProblems(problems, () => parseSchemaJson(resolved.schemaJson));
  const patchFile = resolved.known ? readPatchFile(resolved.revision) : undefined;
  const extensions =
    schema && options.extensions && options.extensions.length > 0
      ? await collectProblems(problems, () => loadExtensionsInStages(options.extensions!, sources))
      : undefined;
  const base = schema && {
    revision: resolved.revision,
    known: resolved.known,
    schema,
    registry,
    patches: patchFile ? [patchFile] : [],
  };
  const early =
    base && problems.length === 0 ? { ...base, extensions: extensions?.early ?? [] } : undefined;
  const complete = (async (): Promise<SourceSet> => {
    const schemaTs = readingTs ? await collectProblems(problems, () => readingTs) : undefined;
    const withTs = extensions ? await collectProblems(problems, () => extensions.complete) : [];
    if (!base || problems.length > 0) throw new McpGenError(problems);
    return { ...base, ...(schemaTs ? { schemaTs } : {}), extensions: withTs ?? [] };
  })();
  // Awaited by the caller, after the first stage's work; this only keeps a failure from going unobserved until then.
  complete.catch(() => undefined);
  return { early, complete };
}

export { DIALECT_URIS, definitionsOf, parseSchemaJson } from "./schema-json.js";
