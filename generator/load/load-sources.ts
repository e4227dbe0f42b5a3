/**
 * The load stage: the only place that reads inputs from disk. It resolves
 * `--spec`, parses schema.json (errors carry line:column), reads schema.ts
 * through ts-morph, and picks up the registry and the patch overlay.
 */
import { diagnostic, McpGenError, type Diagnostic } from "../diagnostics.js";
import { isJsonObject, parseJsonText, type JsonObject } from "./json.js";
import { readPatchFile } from "./patches.js";
import { readSchemaTs } from "./read-schema-ts.js";
import { readRegistry, type Registry } from "./registry.js";
import { defaultSchemaSources, resolveSpec, type SchemaSources } from "./resolve-spec.js";
import type { Dialect, InputFile, JsonSchemaSource, SourceSet } from "./types.js";

/** Options of the load stage. */
export interface LoadOptions {
  /** A revision name or a folder holding schema.json (and optionally schema.ts). */
  readonly spec: string;
  /** Where revisions come from; defaults to the environment (MCP_GEN_SCHEMA_DIR, cache, download). */
  readonly sources?: SchemaSources;
  /** Ignore schema.ts even when present (to see what schema.json alone yields). */
  readonly withoutSchemaTs?: boolean;
}

/** Reads every input of a run into a {@link SourceSet}. */
export async function loadSources(options: LoadOptions): Promise<SourceSet> {
  const registry = readRegistry();
  const resolved = await resolveSpec(options.spec, registry, options.sources ?? defaultSchemaSources());
  // Read both files before giving up, so a broken schema.json and a broken schema.ts are reported together.
  const problems: Diagnostic[] = [];
  const schema = collectProblems(problems, () => parseSchemaJson(resolved.schemaJson));
  const tsFile = options.withoutSchemaTs ? undefined : resolved.schemaTs;
  const schemaTs = tsFile ? collectProblems(problems, () => readSchemaTs(tsFile)) : undefined;
  if (!schema || problems.length > 0) throw new McpGenError(problems);
  const patchFile = resolved.known ? readPatchFile(resolved.revision) : undefined;
  return {
    revision: resolved.revision,
    known: resolved.known,
    schema,
    ...(schemaTs ? { schemaTs } : {}),
    registry,
    patches: patchFile ? [patchFile] : [],
  };
}

function collectProblems<T>(problems: Diagnostic[], read: () => T): T | undefined {
  try {
    return read();
  } catch (error) {
    if (!(error instanceof McpGenError)) throw error;
    problems.push(...error.diagnostics);
    return undefined;
  }
}

/** Dialect URIs mcp-gen accepts, mapped to the dialect they name. */
export const DIALECT_URIS: Readonly<Record<string, Dialect>> = {
  "http://json-schema.org/draft-07/schema#": "draft-07",
  "http://json-schema.org/draft-07/schema": "draft-07",
  "https://json-schema.org/draft-07/schema#": "draft-07",
  "https://json-schema.org/draft-07/schema": "draft-07",
  "https://json-schema.org/draft/2020-12/schema": "2020-12",
  "https://json-schema.org/draft/2020-12/schema#": "2020-12",
};

/**
 * Parses schema.json. The dialect comes from `$schema`; without one, a
 * `$defs` document is read as 2020-12 and a `definitions` one as draft-07.
 * An unsupported `$schema` is left for the check stage to report with the
 * others.
 */
export function parseSchemaJson(file: InputFile): JsonSchemaSource {
  const value = parseJsonText(file.text, file.name);
  if (!isJsonObject(value)) {
    throw new McpGenError([diagnostic("MCPG208", { found: Array.isArray(value) ? "an array" : typeof value }, { file: file.name, pointer: "" })]);
  }
  const definitionsKey = isJsonObject(value.$defs) ? "$defs" : isJsonObject(value.definitions) ? "definitions" : undefined;
  if (!definitionsKey) throw new McpGenError([diagnostic("MCPG208", { found: "neither $defs nor definitions" }, { file: file.name, pointer: "" })]);
  const declared = typeof value.$schema === "string" ? DIALECT_URIS[value.$schema] : undefined;
  return { file, dialect: declared ?? (definitionsKey === "$defs" ? "2020-12" : "draft-07"), definitionsKey, document: value };
}

/** The definitions object of a schema document. */
export function definitionsOf(source: JsonSchemaSource): JsonObject {
  return source.document[source.definitionsKey] as JsonObject;
}

export type { Registry };
