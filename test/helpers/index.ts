/**
 * Shared test helpers: where things are, and one way to run the generator.
 */
import { createHash } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";
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

/**
 * Imports `path` of the scaffolded project in `project`, typed as the
 * scaffold writes that module.
 *
 * The project's TypeScript is transpiled here, file by file as vite would,
 * into a folder named by the hash of what it holds and under a
 * `node_modules` folder, so Node loads it natively. Through vite, every
 * project had its 90k lines (mostly generated validators, the same in every
 * project) transformed and source-mapped again, since vite's cache is keyed
 * by path; here a file's JavaScript is made once per worker, keyed by its
 * text. A project changed since the last import gets a new folder, so a
 * test that edits and imports again sees the edit.
 */
export function importFromProject<T>(project: string, path: string): Promise<T> {
  // A file the project built itself (dist/*.js) is loaded where it lies.
  if (!path.endsWith(".ts")) return import(pathToFileURL(join(project, path)).href) as Promise<T>;
  const folder = transpiledProject(project);
  return import(pathToFileURL(join(folder, path.replace(/\.ts$/, ".js"))).href) as Promise<T>;
}

const transpiledByText = new Map<string, string>();

/** The project's files under `<project>/.test-js/<hash>/node_modules/project/`, .ts as .js. */
function transpiledProject(project: string): string {
  const files = readdirSync(project, { recursive: true, encoding: "utf8" })
    .filter((f) => !/^(node_modules|\.test-js|dist)([\\/]|$)/.test(f))
    .filter((f) => statSync(join(project, f)).isFile())
    .sort();
  const outputs = files.map((file) => {
    const text = readFileSync(join(project, file), "utf8");
    if (!file.endsWith(".ts") || file.endsWith(".d.ts")) return { file, text };
    const key = createHash("sha256")
      .update(file.replace(/.*[\\/]/, ""))
      .update("\0")
      .update(text)
      .digest("hex");
    let js = transpiledByText.get(key);
    if (js === undefined) {
      js = ts.transpileModule(text, { fileName: file, compilerOptions: TRANSPILE }).outputText;
      transpiledByText.set(key, js);
    }
    return { file: file.replace(/\.ts$/, ".js"), text: js };
  });
  const hash = createHash("sha256");
  for (const { file, text } of outputs) hash.update(file).update("\0").update(text).update("\0");
  const root = join(
    project,
    ".test-js",
    hash.digest("hex").slice(0, 16),
    "node_modules",
    "project",
  );
  if (!existsSync(root))
    for (const { file, text } of outputs) {
      mkdirSync(dirname(join(root, file)), { recursive: true });
      writeFileSync(join(root, file), text);
    }
  return root;
}

/** What vite's esbuild does to a project's file: types gone, ES modules kept, one file at a time. */
const TRANSPILE: ts.CompilerOptions = {
  module: ts.ModuleKind.ESNext,
  target: ts.ScriptTarget.ES2022,
  verbatimModuleSyntax: false,
  isolatedModules: true,
  useDefineForClassFields: true,
};
