/**
 * Finds the schema files of a `--spec` argument: a known revision name or a
 * folder. A revision resolves, in order, from MCP_GEN_SCHEMA_DIR, the user
 * cache, and a download from its canonical upstream URL; every file of a
 * known revision must match the sha256 pinned in schema/revisions.json
 * wherever it came from.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, renameSync, statSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { diagnostic, McpGenError } from "../diagnostics.js";
import { archiveMember } from "./archive-member.js";
import { LIMITS } from "./limits.js";
import { checkInsideFolder, readBoundedFile } from "./read-file.js";
import { knownRevisions, type PinnedFile, type Registry } from "./registry.js";
import type { InputFile } from "./types.js";

/** Where schemas may come from; {@link defaultSchemaSources} reads it from the environment. */
export interface SchemaSources {
  /** A folder of `<revision>/schema.json` folders (MCP_GEN_SCHEMA_DIR). */
  readonly schemaDir?: string;
  /** mcp-gen's cache folder; downloaded schemas live in `<cacheDir>/schemas/<revision>/`. */
  readonly cacheDir: string;
  /** Set false to forbid network access (tests, air-gapped CI). */
  readonly allowDownload: boolean;
  /** The fetch to download with; injectable for tests. */
  readonly fetch?: typeof fetch;
  /**
   * False: compile every validator instead of taking compiled code from the
   * cache folder (--check does, so what it compares with is this run's own
   * compilation, never what a file in the cache says).
   */
  readonly compiledCodeCache?: false;
}

/** `sources` for a --check: the same, with compiled code never taken from the cache. */
export function checkingSources(sources: SchemaSources = defaultSchemaSources()): SchemaSources {
  return { ...sources, compiledCodeCache: false };
}

/** The files of a resolved spec. */
export interface ResolvedSpec {
  readonly revision: string;
  readonly known: boolean;
  readonly schemaJson: InputFile;
  readonly schemaTs?: InputFile;
}

const REVISION_NAME = /^\d{4}-\d{2}-\d{2}$/;
/** Where a problem with a revision name is: the argument that named it. */
const SPEC_ARGUMENT = { file: "--spec" };

/** Schema sources from MCP_GEN_SCHEMA_DIR, MCP_GEN_CACHE_DIR / XDG_CACHE_HOME and MCP_GEN_OFFLINE. */
export function defaultSchemaSources(env: NodeJS.ProcessEnv = process.env): SchemaSources {
  const cacheDir =
    env.MCP_GEN_CACHE_DIR ?? join(env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "mcp-gen");
  return {
    ...(env.MCP_GEN_SCHEMA_DIR ? { schemaDir: env.MCP_GEN_SCHEMA_DIR } : {}),
    cacheDir,
    allowDownload: env.MCP_GEN_OFFLINE !== "1",
  };
}

/** sha256 of bytes, as lowercase hex. */
export function sha256(bytes: string | Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** Resolves `--spec`: a revision name (e.g. `2026-07-28`) or a folder with schema.json. */
export async function resolveSpec(
  spec: string,
  registry: Registry,
  sources: SchemaSources,
): Promise<ResolvedSpec> {
  if (REVISION_NAME.test(spec) && !isDirectory(spec)) {
    if (!registry.revisions[spec])
      throw new McpGenError([
        diagnostic(
          "MCPG101",
          { revision: spec, known: knownRevisions(registry), ...suggestionFor(spec, registry) },
          SPEC_ARGUMENT,
        ),
      ]);
    return resolveRevision(spec, registry, sources);
  }
  // A name that is no folder but is one typo away from a known revision is that revision misspelled.
  const suggestion = isDirectory(spec) ? {} : suggestionFor(spec, registry);
  if (suggestion.suggestion !== undefined)
    throw new McpGenError([
      diagnostic(
        "MCPG101",
        { revision: spec, known: knownRevisions(registry), ...suggestion },
        SPEC_ARGUMENT,
      ),
    ]);
  return resolveFolder(spec);
}

/** How many edits a misspelled revision may be from a known one and still be taken for it. */
const MAX_TYPO_DISTANCE = 2;

/** The known revision nearest to `spec` when it is within a typo or two, and the only one that near. */
function suggestionFor(spec: string, registry: Registry): { suggestion?: string } {
  const ranked = knownRevisions(registry)
    .map((revision) => ({ revision, distance: editDistance(spec, revision) }))
    .filter((r) => r.distance <= MAX_TYPO_DISTANCE)
    .sort((a, b) => a.distance - b.distance);
  const [best, next] = ranked;
  if (!best || (next && next.distance === best.distance)) return {};
  return { suggestion: best.revision };
}

/** Levenshtein distance: insertions, deletions and substitutions of one character. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++)
      current[j] = Math.min(
        previous[j]! + 1,
        current[j - 1]! + 1,
        previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    previous = current;
  }
  return previous[b.length]!;
}

function isDirectory(path: string): boolean {
  return existsSync(path) && statSync(path).isDirectory();
}

function resolveFolder(dir: string): ResolvedSpec {
  const jsonPath = join(dir, "schema.json");
  if (!existsSync(jsonPath)) throw new McpGenError([diagnostic("MCPG104", { dir }, { file: dir })]);
  const label = basename(resolve(dir));
  const tsPath = join(dir, "schema.ts");
  checkInsideFolder(jsonPath, dir, `${label}/schema.json`);
  if (existsSync(tsPath)) checkInsideFolder(tsPath, dir, `${label}/schema.ts`);
  return {
    revision: label,
    known: false,
    schemaJson: readInput(jsonPath, `${label}/schema.json`),
    ...(existsSync(tsPath) ? { schemaTs: readInput(tsPath, `${label}/schema.ts`) } : {}),
  };
}

/**
 * Reads a file as an input, with its sha256: a regular file (MCPG214
 * otherwise), read no further than the size limit (MCPG211).
 */
export function readInput(path: string, name: string): InputFile {
  const bytes = readBoundedFile(path, name);
  return { name, path, sha256: sha256(bytes), text: bytes.toString("utf8") };
}

/**
 * Files that are pinned together and live in one folder: a revision's
 * schema.json and schema.ts (`2026-07-28/`), or a known extension's files
 * (`extensions/tasks/`). The folder is looked up under MCP_GEN_SCHEMA_DIR
 * and the cache, and downloaded into the cache when missing.
 */
export interface PinnedSet {
  /** The folder below MCP_GEN_SCHEMA_DIR and the cache's `schemas/`, and the prefix of display names. */
  readonly folder: string;
  /** File name → where it comes from and the bytes it must have. */
  readonly files: Readonly<Record<string, PinnedFile>>;
}

/** A revision's pinned set: its schema.json and schema.ts. */
export function revisionSet(revision: string, registry: Registry): PinnedSet {
  return { folder: revision, files: registry.revisions[revision]!.files };
}

/** A revision's example messages (`<revision>/examples/<Definition>/<name>.json`), when upstream ships any. */
export function examplesSet(revision: string, registry: Registry): PinnedSet | undefined {
  const examples = registry.revisions[revision]?.examples;
  return examples && Object.keys(examples).length > 0
    ? { folder: `${revision}/examples`, files: examples }
    : undefined;
}

/**
 * Finds a pinned set (MCP_GEN_SCHEMA_DIR, then the cache, then a download
 * into the cache) and reads it, verifying every file. Returns the files,
 * or what was tried when the set is nowhere to be had.
 */
export async function findPinnedSet(
  set: PinnedSet,
  sources: SchemaSources,
): Promise<{ files: Record<string, InputFile> } | { tried: string[] }> {
  const names = Object.keys(set.files);
  const tried: string[] = [];
  const folders = [
    ...(sources.schemaDir
      ? [{ dir: join(sources.schemaDir, set.folder), what: "MCP_GEN_SCHEMA_DIR" }]
      : []),
    { dir: cacheFolder(sources, set.folder), what: "cache" },
  ];
  for (const { dir, what } of folders) {
    const missing = names.filter((f) => !existsSync(join(dir, f)));
    if (missing.length === 0) return { files: readPinned(set, dir) };
    tried.push(
      `${what} ${dir} (${missing.length === names.length ? "not there" : `no ${missing.join(", ")}`})`,
    );
  }
  if (!sources.allowDownload)
    return { tried: [...tried, "download (disabled by MCP_GEN_OFFLINE=1)"] };
  try {
    await downloadPinnedSet(set, sources);
  } catch (error) {
    if (!(error instanceof McpGenError)) throw error;
    return { tried: [...tried, ...error.diagnostics.map((d) => `download (${d.message})`)] };
  }
  return { files: readPinned(set, cacheFolder(sources, set.folder)) };
}

async function resolveRevision(
  revision: string,
  registry: Registry,
  sources: SchemaSources,
): Promise<ResolvedSpec> {
  const found = await findPinnedSet(revisionSet(revision, registry), sources);
  if ("tried" in found)
    throw new McpGenError([diagnostic("MCPG102", { revision, tried: found.tried }, SPEC_ARGUMENT)]);
  return {
    revision,
    known: true,
    schemaJson: found.files["schema.json"]!,
    schemaTs: found.files["schema.ts"]!,
  };
}

function cacheFolder(sources: SchemaSources, folder: string): string {
  return join(sources.cacheDir, "schemas", folder);
}

function readPinned(set: PinnedSet, dir: string): Record<string, InputFile> {
  return Object.fromEntries(
    Object.entries(set.files).map(([name, pinned]) => {
      const input = readInput(join(dir, name), `${set.folder}/${name}`);
      if (input.sha256 !== pinned.sha256) {
        throw new McpGenError([
          diagnostic(
            "MCPG103",
            { file: input.path, expected: pinned.sha256, actual: input.sha256 },
            { file: input.path },
          ),
        ]);
      }
      return [name, input];
    }),
  );
}

/**
 * Downloads a known revision's files into the cache (its schemas and, when
 * upstream ships them, its example messages), verifying each against its
 * pinned sha256 before anything is written. Returns the revision's cache
 * folder. Refuses when downloads are disabled; reports every file that
 * failed.
 */
export async function pullRevision(
  revision: string,
  registry: Registry,
  sources: SchemaSources,
): Promise<string> {
  if (!registry.revisions[revision])
    throw new McpGenError([diagnostic("MCPG101", { revision, known: knownRevisions(registry) })]);
  if (!sources.allowDownload) throw new McpGenError([diagnostic("MCPG106", { revision })]);
  const examples = examplesSet(revision, registry);
  return downloadPinnedSets(
    [revisionSet(revision, registry), ...(examples ? [examples] : [])],
    sources,
  ).then(([dir]) => dir!);
}

/** How many downloads run at once. */
const DOWNLOADS_AT_ONCE = 8;

/** Downloads every file of a set into the cache, all verified before any is written. */
export async function downloadPinnedSet(set: PinnedSet, sources: SchemaSources): Promise<string> {
  return (await downloadPinnedSets([set], sources))[0]!;
}

/**
 * Downloads every file of several sets into the cache, at most
 * {@link DOWNLOADS_AT_ONCE} at a time; nothing is written unless every
 * file arrived with its pinned sha256. Returns each set's cache folder.
 */
export async function downloadPinnedSets(
  sets: readonly PinnedSet[],
  sources: SchemaSources,
): Promise<string[]> {
  const doFetch = sources.fetch ?? fetch;
  const wanted = sets.flatMap((set) =>
    Object.entries(set.files).map(([name, pinned]) => ({ set, name, pinned })),
  );
  // Two members of one archive (MCP Apps' schema.json and spec.types.d.ts) download it once.
  const bodies = new Map<string, Promise<Uint8Array>>();
  const body = (url: string) => {
    if (!bodies.has(url)) bodies.set(url, fetchBounded(doFetch, url));
    return bodies.get(url)!;
  };
  const settled = await mapAtMost(DOWNLOADS_AT_ONCE, wanted, (w) => download(body, w.pinned));
  // download() turns every failure into an McpGenError.
  const problems = settled.flatMap((r) =>
    r.status === "rejected" ? (r.reason as McpGenError).diagnostics : [],
  );
  if (problems.length > 0) throw new McpGenError(problems);
  wanted.forEach((w, i) => {
    const path = join(cacheFolder(sources, w.set.folder), w.name);
    mkdirSync(dirname(path), { recursive: true });
    writeAtomically(path, (settled[i] as PromiseFulfilledResult<Uint8Array>).value);
  });
  return sets.map((set) => cacheFolder(sources, set.folder));
}

/** `Promise.allSettled` over `items`, with at most `limit` calls of `each` pending at once. */
async function mapAtMost<T, R>(
  limit: number,
  items: readonly T[],
  each: (item: T) => Promise<R>,
): Promise<Array<PromiseSettledResult<R>>> {
  const results = new Array<PromiseSettledResult<R>>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      try {
        results[i] = { status: "fulfilled", value: await each(items[i]!) };
      } catch (reason) {
        results[i] = { status: "rejected", reason };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** How long one download may take, all of it. */
const DOWNLOAD_TIMEOUT_MS = 30_000;

/** The body at `url`, read as a stream and refused past {@link LIMITS.fileBytes}. */
async function fetchBounded(doFetch: typeof fetch, url: string): Promise<Uint8Array> {
  const response = await doFetch(url, { signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS) });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  if (!response.body) return new Uint8Array(await response.arrayBuffer());
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > LIMITS.fileBytes) {
      await response.body.cancel().catch(() => undefined);
      throw new Error(`the body is larger than ${LIMITS.fileBytes} bytes`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

async function download(
  body: (url: string) => Promise<Uint8Array>,
  file: PinnedFile,
): Promise<Uint8Array> {
  let bytes: Uint8Array;
  try {
    const fetched = await body(file.url);
    bytes = file.archive ? await archiveMember(fetched, file.archive) : fetched;
  } catch (error) {
    throw new McpGenError([
      diagnostic("MCPG105", { url: file.url, reason: (error as Error).message }),
    ]);
  }
  const actual = sha256(bytes);
  if (actual !== file.sha256)
    throw new McpGenError([
      diagnostic("MCPG103", { file: file.url, expected: file.sha256, actual }),
    ]);
  return bytes;
}

function writeAtomically(path: string, bytes: Uint8Array): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, bytes);
  renameSync(tmp, path);
}
