/**
 * The load stage: the only place that reads inputs from disk. It resolves
 * `--spec`, parses schema.json (errors carry line:column), reads schema.ts
 * through ts-morph (or its facts from the cache, schema-ts-cache.ts), and picks up the registry and the patch overlay.
 *
 * A revision is identified by its content, never by the folder it was
 * read from: a folder whose files are a known revision's pinned bytes is
 * that revision, and any other folder is named by its schema.ts's
 * LATEST_PROTOCOL_VERSION (or, without one, by the folder).
 */
import { collectProblems, McpGenError, type Diagnostic } from "../diagnostics.js";
import { readOverlay } from "./patches.js";
import { loadExtensions } from "./extensions.js";
import { readRegistry, type Registry } from "./registry.js";
import {
  defaultSchemaSources,
  resolveSpec,
  type ResolvedSpec,
  type SchemaSources,
} from "./resolve-spec.js";
import { parseSchemaJson } from "./schema-json.js";
import { readSchemaTsCached } from "./schema-ts-cache.js";
import type { SchemaTsFacts, SourceSet } from "./types.js";

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
  const schemaTs = tsFile
    ? await collectProblems(problems, () => readSchemaTsCached(tsFile, sources.cacheDir))
    : undefined;
  const patches = readOverlay();
  // Extensions need the revision's schema: one derived from TypeScript resolves the names it uses there.
  const extensions =
    schema && options.extensions && options.extensions.length > 0
      ? await collectProblems(problems, () =>
          loadExtensions(
            options.extensions!,
            sources,
            { schema, ...(resolved.schemaTs ? { schemaTs: resolved.schemaTs } : {}) },
            patches,
          ),
        )
      : [];
  if (!schema || problems.length > 0) throw new McpGenError(problems);
  return {
    ...identify(resolved, schemaTs, registry),
    schema,
    ...(schemaTs ? { schemaTs } : {}),
    registry,
    patches,
    extensions: extensions ?? [],
  };
}

/**
 * Which revision the files are: a known one when they are its pinned bytes
 * (schema.json and schema.ts both), else the protocol version schema.ts
 * declares, else the folder's name.
 */
function identify(
  resolved: ResolvedSpec,
  schemaTs: SchemaTsFacts | undefined,
  registry: Registry,
): { revision: string; known: boolean } {
  if (resolved.known) return { revision: resolved.revision, known: true };
  const pinned = Object.entries(registry.revisions).find(
    ([, entry]) =>
      entry.files["schema.json"].sha256 === resolved.schemaJson.sha256 &&
      entry.files["schema.ts"].sha256 === resolved.schemaTs?.sha256,
  );
  if (pinned) return { revision: pinned[0], known: true };
  const declared = schemaTs?.constants.LATEST_PROTOCOL_VERSION?.value;
  return { revision: typeof declared === "string" ? declared : resolved.revision, known: false };
}

export { definitionsOf, parseSchemaJson } from "./schema-json.js";
