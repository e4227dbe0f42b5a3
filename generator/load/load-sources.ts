/**
 * The load stage: the only place that reads inputs from disk. It resolves
 * `--spec`, parses schema.json (errors carry line:column), reads schema.ts
 * through ts-morph, and picks up the registry and the patch overlay.
 */
import { collectProblems, McpGenError, type Diagnostic } from "../diagnostics.js";
import { readPatchFile } from "./patches.js";
import { loadExtensions } from "./extensions.js";
import { readRegistry } from "./registry.js";
import { defaultSchemaSources, resolveSpec, type SchemaSources } from "./resolve-spec.js";
import { parseSchemaJson } from "./schema-json.js";
import { readSchemaTs } from "./read-schema-ts.js";
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

/**
 * Reads every input of a run into a {@link SourceSet}. Every file is read
 * before giving up, so a broken schema.json, a broken schema.ts and a
 * broken extension are reported together.
 */
export async function loadSources(options: LoadOptions): Promise<SourceSet> {
  const registry = readRegistry();
  const sources = options.sources ?? defaultSchemaSources();
  const resolved = await resolveSpec(options.spec, registry, sources);
  const problems: Diagnostic[] = [];
  const schema = await collectProblems(problems, () => parseSchemaJson(resolved.schemaJson));
  const tsFile = options.withoutSchemaTs ? undefined : resolved.schemaTs;
  const schemaTs = tsFile ? await collectProblems(problems, () => readSchemaTs(tsFile)) : undefined;
  const patchFile = resolved.known ? readPatchFile(resolved.revision) : undefined;
  const extensions =
    options.extensions && options.extensions.length > 0
      ? await collectProblems(problems, () => loadExtensions(options.extensions!, sources))
      : [];
  if (!schema || problems.length > 0) throw new McpGenError(problems);
  return {
    revision: resolved.revision,
    known: resolved.known,
    schema,
    ...(schemaTs ? { schemaTs } : {}),
    registry,
    patches: patchFile ? [patchFile] : [],
    extensions: extensions ?? [],
  };
}

export { DIALECT_URIS, definitionsOf, parseSchemaJson } from "./schema-json.js";
