/**
 * Shared test helpers: where things are, and one way to run the generator.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { generate, type GenerateResult } from "../../generator/index.js";
import type { SchemaSources } from "../../generator/load/resolve-spec.js";

/** The repository root. */
export const ROOT = resolve(import.meta.dirname, "..", "..");
/** The upstream files, verified (test/global-setup.ts finds them; test/setup.ts sets MCP_GEN_SCHEMA_DIR). */
export const SCHEMA_DIR = process.env.MCP_GEN_SCHEMA_DIR!;
/**
 * The spec's draft states between two revisions, one folder each (named by
 * date and upstream commit, holding schema.json and schema.ts as upstream
 * published them): beside the upstream files, else in ../shared.
 */
export const DRAFTS_DIR = [
  join(SCHEMA_DIR ?? "", "drafts"),
  resolve(ROOT, "..", "shared", "mcp-schema", "drafts"),
].find((dir) => existsSync(dir));

/** Every known revision, oldest first. */
export const REVISIONS = [
  "2024-11-05",
  "2025-03-26",
  "2025-06-18",
  "2025-11-25",
  "2026-07-28",
] as const;

/** Schema sources for tests: the upstream folder, a private cache, never the network. */
export function testSources(): SchemaSources {
  return { schemaDir: SCHEMA_DIR, cacheDir: process.env.MCP_GEN_CACHE_DIR!, allowDownload: false };
}

const made = new Set<string>();

/** A new empty folder under the test file's temporary folder, removed after the file. */
export function tempDir(label: string): string {
  const dir = mkdtempSync(join(tmpdir(), `mcp-gen-${label}-`));
  made.add(dir);
  return dir;
}

/**
 * Removes every folder tempDir() made. test/setup.ts calls it after each
 * test file's own hooks: a worker runs several files with this module
 * loaded once, so the cleanup belongs to the file, not to the import.
 */
export function removeTempDirs(): void {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
  made.clear();
}

const cache = new Map<string, Promise<GenerateResult>>();

/** Generates a revision (or fixture folder) once per worker, as goldens see it: no version stamp. */
export function generated(spec: string, out = `generated/${spec}`): Promise<GenerateResult> {
  const key = `${spec}|${out}`;
  if (!cache.has(key))
    cache.set(key, generate({ spec, out, sources: testSources(), stampVersion: false }));
  return cache.get(key)!;
}

/** The examples of a definition: `[file name, parsed JSON]`. */
export function examples(): Array<{ definition: string; file: string; value: unknown }> {
  const dir = join(SCHEMA_DIR, "2026-07-28", "examples");
  return readdirSync(dir)
    .sort()
    .flatMap((definition) =>
      readdirSync(join(dir, definition))
        .filter((f) => f.endsWith(".json"))
        .sort()
        .map((file) => ({
          definition,
          file,
          value: JSON.parse(readFileSync(join(dir, definition, file), "utf8")) as unknown,
        })),
    );
}

/** The URL a fake `fetch` was called with, whichever form the caller passed it in. */
export function urlOf(input: string | URL | Request): string {
  if (typeof input === "string") return input;
  return input instanceof URL ? input.href : input.url;
}

/** The runtime a scaffolded project holds in src/mcp-gen/runtime/: a copy of templates/runtime/. */
export type ProjectRuntime = typeof import("../../templates/runtime/index.js");

/** src/server.ts of a scaffolded project. */
export interface ProjectServer {
  readonly createServer: () => InstanceType<ProjectRuntime["McpServer"]>;
}

/** Imports `path` of the scaffolded project in `project`, typed as the scaffold writes that module. */
export function importFromProject<T>(project: string, path: string): Promise<T> {
  return import(pathToFileURL(join(project, path)).href) as Promise<T>;
}
