/**
 * Finds the schema files of a `--spec` argument: a known revision name or a
 * folder. A revision resolves, in order, from MCP_GEN_SCHEMA_DIR, the user
 * cache, and a download from its canonical upstream URL; every file of a
 * known revision must match the sha256 pinned in schema/revisions.json
 * wherever it came from.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { basename, join, resolve } from "node:path";
import { diagnostic, McpGenError } from "../diagnostics.js";
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
const FILES = ["schema.json", "schema.ts"] as const;

/** Schema sources from MCP_GEN_SCHEMA_DIR, MCP_GEN_CACHE_DIR / XDG_CACHE_HOME and MCP_GEN_OFFLINE. */
export function defaultSchemaSources(env: NodeJS.ProcessEnv = process.env): SchemaSources {
  const cacheDir = env.MCP_GEN_CACHE_DIR ?? join(env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "mcp-gen");
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
export async function resolveSpec(spec: string, registry: Registry, sources: SchemaSources): Promise<ResolvedSpec> {
  if (REVISION_NAME.test(spec) && !isDirectory(spec)) {
    if (!registry.revisions[spec]) throw new McpGenError([diagnostic("MCPG101", { revision: spec, known: knownRevisions(registry) }, SPEC_ARGUMENT)]);
    return resolveRevision(spec, registry, sources);
  }
  return resolveFolder(spec);
}

function isDirectory(path: string): boolean {
  return existsSync(path) && statSync(path).isDirectory();
}

function resolveFolder(dir: string): ResolvedSpec {
  const jsonPath = join(dir, "schema.json");
  if (!existsSync(jsonPath)) throw new McpGenError([diagnostic("MCPG104", { dir }, { file: dir })]);
  const label = basename(resolve(dir));
  const tsPath = join(dir, "schema.ts");
  return {
    revision: label,
    known: false,
    schemaJson: readInput(jsonPath, `${label}/schema.json`),
    ...(existsSync(tsPath) ? { schemaTs: readInput(tsPath, `${label}/schema.ts`) } : {}),
  };
}

function readInput(path: string, name: string): InputFile {
  const bytes = readFileSync(path);
  return { name, path, sha256: sha256(bytes), text: bytes.toString("utf8") };
}

async function resolveRevision(revision: string, registry: Registry, sources: SchemaSources): Promise<ResolvedSpec> {
  const pinned = registry.revisions[revision]!.files;
  const tried: string[] = [];
  const folders = [
    ...(sources.schemaDir ? [{ dir: join(sources.schemaDir, revision), what: "MCP_GEN_SCHEMA_DIR" }] : []),
    { dir: cacheFolder(sources, revision), what: "cache" },
  ];
  for (const { dir, what } of folders) {
    const missing = FILES.filter((f) => !existsSync(join(dir, f)));
    if (missing.length === 0) return readPinned(revision, dir, pinned);
    tried.push(`${what} ${dir} (${missing.length === FILES.length ? "not there" : `no ${missing.join(", ")}`})`);
  }
  if (!sources.allowDownload) {
    tried.push("download (disabled by MCP_GEN_OFFLINE=1)");
    throw new McpGenError([diagnostic("MCPG102", { revision, tried }, SPEC_ARGUMENT)]);
  }
  try {
    await pullRevision(revision, registry, sources);
  } catch (error) {
    if (!(error instanceof McpGenError)) throw error;
    tried.push(...error.diagnostics.map((d) => `download (${d.message})`));
    throw new McpGenError([diagnostic("MCPG102", { revision, tried }, SPEC_ARGUMENT)]);
  }
  return readPinned(revision, cacheFolder(sources, revision), pinned);
}

function cacheFolder(sources: SchemaSources, revision: string): string {
  return join(sources.cacheDir, "schemas", revision);
}

function readPinned(revision: string, dir: string, pinned: Record<(typeof FILES)[number], PinnedFile>): ResolvedSpec {
  const [schemaJson, schemaTs] = FILES.map((f) => {
    const input = readInput(join(dir, f), `${revision}/${f}`);
    if (input.sha256 !== pinned[f].sha256) {
      throw new McpGenError([
        diagnostic("MCPG103", { file: input.path, expected: pinned[f].sha256, actual: input.sha256 }, { file: input.path }),
      ]);
    }
    return input;
  });
  return { revision, known: true, schemaJson: schemaJson!, schemaTs: schemaTs! };
}

/**
 * Downloads a known revision's files into the cache, verifying each against
 * its pinned sha256 before anything is written. Returns the cache folder.
 * Refuses when downloads are disabled; reports every file that failed.
 */
export async function pullRevision(revision: string, registry: Registry, sources: SchemaSources): Promise<string> {
  const entry = registry.revisions[revision];
  if (!entry) throw new McpGenError([diagnostic("MCPG101", { revision, known: knownRevisions(registry) })]);
  if (!sources.allowDownload) throw new McpGenError([diagnostic("MCPG106", { revision })]);
  const doFetch = sources.fetch ?? fetch;
  const settled = await Promise.allSettled(FILES.map((f) => download(doFetch, entry.files[f])));
  // download() turns every failure into an McpGenError.
  const problems = settled.flatMap((r) => (r.status === "rejected" ? (r.reason as McpGenError).diagnostics : []));
  if (problems.length > 0) throw new McpGenError(problems);
  const bodies = settled.map((r) => (r as PromiseFulfilledResult<Uint8Array>).value);
  const dir = cacheFolder(sources, revision);
  mkdirSync(dir, { recursive: true });
  FILES.forEach((f, i) => writeAtomically(join(dir, f), bodies[i]!));
  return dir;
}

async function download(doFetch: typeof fetch, file: PinnedFile): Promise<Uint8Array> {
  let bytes: Uint8Array;
  try {
    const response = await doFetch(file.url, { signal: AbortSignal.timeout(30_000) });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    bytes = new Uint8Array(await response.arrayBuffer());
  } catch (error) {
    throw new McpGenError([diagnostic("MCPG105", { url: file.url, reason: (error as Error).message })]);
  }
  const actual = sha256(bytes);
  if (actual !== file.sha256) throw new McpGenError([diagnostic("MCPG103", { file: file.url, expected: file.sha256, actual })]);
  return bytes;
}

function writeAtomically(path: string, bytes: Uint8Array): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, bytes);
  renameSync(tmp, path);
}
