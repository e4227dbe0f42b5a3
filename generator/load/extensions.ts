/**
 * Loads `--extension` arguments. An argument is a known extension (its
 * name or identifier: `tasks`, `io.modelcontextprotocol/tasks`, whose
 * manifest is mcp-gen's own data in schema/extensions/), a folder holding
 * `mcp-extension.json`, or a manifest file. Manifests are validated against
 * schema/extension-manifest.schema.json; pinned files are found like
 * revisions are (MCP_GEN_SCHEMA_DIR/extensions/<name>/, the cache, a
 * verified download), plain paths are read relative to the manifest.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { Ajv2020, ErrorObject, SchemaObject } from "ajv/dist/2020.js";
import {
  collectProblems,
  diagnostic,
  mapReportingAll,
  McpGenError,
  type Diagnostic,
} from "../diagnostics.js";
import { escapePointerSegment, parseJsonText } from "./json.js";
import { deriveSchema, type DerivationBase } from "./derive-schema.js";
import { readOverlay, type PatchFile } from "./patches.js";
import { applySourcePatches } from "./source-patches.js";
import { parseSchemaJson } from "./schema-json.js";
import { isPage } from "./typescript-source.js";
import { packageRoot } from "./package-root.js";
import { checkInsideFolder, readBoundedFile } from "./read-file.js";
import { readSchemaTsCached } from "./schema-ts-cache.js";
import {
  downloadPinnedSet,
  findPinnedSet,
  readInput,
  type PinnedSet,
  type SchemaSources,
} from "./resolve-spec.js";
import type { ExtensionManifest, ExtensionSource, InputFile, ManifestFile } from "./types.js";

/** The manifest file name inside an extension folder. */
export const MANIFEST_FILE = "mcp-extension.json";

/** A known extension: its manifest as shipped with mcp-gen. */
export interface KnownExtension {
  readonly manifest: ExtensionManifest;
  readonly file: string;
}

let known: KnownExtension[] | undefined;

/** The extensions mcp-gen knows (schema/extensions/*.json), by file name order. */
export function knownExtensions(): readonly KnownExtension[] {
  if (known) return known;
  const dir = join(packageRoot(), "schema", "extensions");
  known = readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => ({
      file: `schema/extensions/${f}`,
      manifest: JSON.parse(readFileSync(join(dir, f), "utf8")) as ExtensionManifest,
    }));
  return known;
}

/** The pinned files of a known extension, as a set found and downloaded together. */
export function extensionSet(manifest: ExtensionManifest): PinnedSet {
  const files = [manifest.schema, manifest.schemaTs].filter(
    (f): f is Exclude<ManifestFile, string> => f !== undefined && typeof f !== "string",
  );
  return {
    folder: `extensions/${manifest.name}`,
    files: Object.fromEntries(
      files.map((f) => [
        f.path,
        { url: f.url, sha256: f.sha256, ...(f.archive ? { archive: f.archive } : {}) },
      ]),
    ),
  };
}

/** Downloads a known extension's files into the cache, verified; returns the cache folder. */
export async function pullExtension(name: string, sources: SchemaSources): Promise<string> {
  const found = knownExtensions().find((k) => k.manifest.name === name || k.manifest.id === name);
  if (!found)
    throw new McpGenError([
      diagnostic("MCPG602", { ref: name, known: knownExtensions().map((k) => k.manifest.name) }),
    ]);
  if (!sources.allowDownload)
    throw new McpGenError([diagnostic("MCPG106", { revision: found.manifest.name })]);
  return downloadPinnedSet(extensionSet(found.manifest), sources);
}

/**
 * Loads every `--extension` argument, reporting all problems together.
 * `base` is the revision they extend: a schema derived from TypeScript
 * resolves the names it does not declare there.
 */
export async function loadExtensions(
  refs: readonly string[],
  sources: SchemaSources,
  base?: DerivationBase,
  overlay: readonly PatchFile[] = readOverlay(),
): Promise<ExtensionSource[]> {
  return mapReportingAll(refs, (ref) => loadExtension(ref, sources, base, overlay));
}

async function loadExtension(
  ref: string,
  sources: SchemaSources,
  base: DerivationBase | undefined,
  overlay: readonly PatchFile[],
): Promise<ExtensionSource> {
  const found = findManifest(ref);
  return readExtension(
    found.manifest,
    found.manifestFile,
    found.known ? undefined : dirname(found.manifestFile),
    { sources, base, overlay },
  );
}

/** An `--extension` argument's manifest, checked: a known extension's, or the one in a folder or file. */
export interface FoundManifest {
  readonly manifest: ExtensionManifest;
  readonly manifestFile: string;
  /** True for an extension mcp-gen ships a manifest for (its files are pinned and downloadable). */
  readonly known: boolean;
}

/** Finds and checks the manifest an `--extension` argument names (a known name or id, a folder, a manifest file). */
export function findManifest(ref: string): FoundManifest {
  const knownOne = knownExtensions().find((k) => k.manifest.name === ref || k.manifest.id === ref);
  if (knownOne) return { manifest: knownOne.manifest, manifestFile: knownOne.file, known: true };
  const isFolder = existsSync(ref) && statSync(ref).isDirectory();
  const manifestPath = isFolder ? join(ref, MANIFEST_FILE) : ref;
  if (!existsSync(manifestPath)) {
    const names = knownExtensions().map((k) => k.manifest.name);
    throw new McpGenError([diagnostic("MCPG602", { ref, known: names }, { file: "--extension" })]);
  }
  if (isFolder) checkInsideFolder(manifestPath, ref);
  const manifest = parseJsonText(readBoundedFile(manifestPath).toString("utf8"), manifestPath);
  const problems = manifestProblems(manifest, manifestPath);
  if (problems.length > 0) throw new McpGenError(problems);
  return {
    manifest: manifest as unknown as ExtensionManifest,
    manifestFile: manifestPath,
    known: false,
  };
}

let validateManifest: ReturnType<Ajv2020["compile"]> | undefined;

/** Schema violations of a manifest, each at its JSON pointer. */
export function manifestProblems(manifest: unknown, file: string): Diagnostic[] {
  if (!validateManifest) {
    const schema = JSON.parse(
      readFileSync(join(packageRoot(), "schema", "extension-manifest.schema.json"), "utf8"),
    ) as SchemaObject;
    // Required on first use: generation without extensions never needs the 2020-12 engine.
    const { Ajv2020: Engine } = createRequire(import.meta.url)(
      "ajv/dist/2020.js",
    ) as typeof import("ajv/dist/2020.js");
    validateManifest = new Engine({ allErrors: true, strict: false }).compile(schema);
  }
  if (validateManifest(manifest)) return [];
  return withoutBranchMismatches(validateManifest.errors ?? [])
    .filter((e) => e.keyword !== "if")
    .map((e) => {
      const pointer =
        e.keyword === "additionalProperties"
          ? `${e.instancePath}/${escapePointerSegment(String(e.params.additionalProperty))}`
          : e.instancePath;
      return diagnostic("MCPG601", { reason: reasonOf(e) }, { file, pointer });
    });
}

function reasonOf(e: ErrorObject): string {
  if (e.keyword === "additionalProperties") return "is not a manifest field";
  if (e.keyword === "enum")
    return `must be one of ${(e.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`;
  return e.message ?? e.keyword;
}

/**
 * ajv says why each branch of a oneOf fails. A branch of another type says
 * nothing about the value, so its line is dropped; when every branch is of
 * another type, the oneOf's own line names the types allowed.
 *
 *   before: /schema must be string; /schema must be object; /schema must match exactly one schema in oneOf
 *   after:  /schema must be string or object
 */
function withoutBranchMismatches(errors: readonly ErrorObject[]): ErrorObject[] {
  const oneOfs = errors.filter((e) => e.keyword === "oneOf");
  const inBranch = (e: ErrorObject, o: ErrorObject) =>
    e !== o &&
    e.schemaPath.startsWith(`${o.schemaPath}/`) &&
    (e.instancePath === o.instancePath || e.instancePath.startsWith(`${o.instancePath}/`));
  const mismatch = (e: ErrorObject, o: ErrorObject) =>
    e.keyword === "type" && e.instancePath === o.instancePath;
  return errors.flatMap((e) => {
    if (e.keyword !== "oneOf")
      return oneOfs.some((o) => inBranch(e, o) && mismatch(e, o)) ? [] : [e];
    const branches = errors.filter((b) => inBranch(b, e));
    return branches.every((b) => mismatch(b, e))
      ? [{ ...e, message: `must be ${branches.map((b) => String(b.params.type)).join(" or ")}` }]
      : [];
  });
}

/** What reading an extension needs besides its manifest. */
interface ReadContext {
  readonly sources: SchemaSources;
  readonly base: DerivationBase | undefined;
  readonly overlay: readonly PatchFile[];
}

async function readExtension(
  manifest: ExtensionManifest,
  manifestFile: string,
  baseDir: string | undefined,
  { sources, base, overlay }: ReadContext,
): Promise<ExtensionSource> {
  const files = await extensionFiles(manifest, manifestFile, baseDir, sources);
  if (!files.schema) {
    if (!base)
      throw new McpGenError([
        diagnostic(
          "MCPG622",
          { name: manifest.name, reason: "no base revision was given to resolve its names in" },
          { file: manifestFile },
        ),
      ]);
    const derived = deriveSchema(manifest.name, files.schemaTs!, base, sources.cacheDir);
    return { manifest, manifestFile, schema: derived.source, derived: true, notes: derived.notes };
  }
  // Both files are read before giving up, so their problems are reported together.
  const problems: Diagnostic[] = [];
  const parsed = await collectProblems(problems, () => parseSchemaJson(files.schema!));
  const schemaTs =
    files.schemaTs && !isPage(files.schemaTs)
      ? await collectProblems(problems, () => readSchemaTsCached(files.schemaTs!, sources.cacheDir))
      : undefined;
  if (!parsed || problems.length > 0) throw new McpGenError(problems);
  const repaired = applySourcePatches(parsed, overlay);
  return {
    manifest,
    manifestFile,
    schema: repaired.source,
    ...(schemaTs ? { schemaTs } : {}),
    ...(repaired.applied.length > 0 ? { sourcePatches: repaired.applied } : {}),
  };
}

/** The extension's schema files, read and (when pinned) verified. */
async function extensionFiles(
  manifest: ExtensionManifest,
  manifestFile: string,
  baseDir: string | undefined,
  sources: SchemaSources,
): Promise<{ schema?: InputFile; schemaTs?: InputFile }> {
  const set = extensionSet(manifest);
  const folder = set.folder;
  const found =
    Object.keys(set.files).length > 0 ? await findPinnedSet(set, sources) : { files: {} };
  if ("tried" in found)
    throw new McpGenError([
      diagnostic("MCPG603", { name: manifest.name, tried: found.tried }, { file: manifestFile }),
    ]);
  const read = (ref: ManifestFile): InputFile => {
    if (typeof ref !== "string") return found.files[ref.path]!;
    const home = baseDir ?? dirname(manifestFile);
    const path = join(home, ref);
    if (!existsSync(path))
      throw new McpGenError([
        diagnostic("MCPG604", { name: manifest.name, path }, { file: manifestFile }),
      ]);
    checkInsideFolder(path, home, manifestFile);
    return readInput(path, `${folder}/${ref}`);
  };
  return {
    ...(manifest.schema ? { schema: read(manifest.schema) } : {}),
    ...(manifest.schemaTs ? { schemaTs: read(manifest.schemaTs) } : {}),
  };
}
