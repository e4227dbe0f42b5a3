/**
 * Writing a scaffolded project: the generated folders through the write
 * stage (writeOutput, with its ownership checks), the user's own files
 * only where none exist yet.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { diagnostic, McpGenError } from "../diagnostics.js";
import type { EmittedFile } from "../emit/file.js";
import {
  assertCanWrite,
  assertOwned,
  checkOutput,
  writeOutput,
  type StaleFile,
} from "./write-output.js";

/** The folders of a project that hold only files mcp-gen generates (each starts with its banner). */
export const GENERATED_DIRS = ["src/generated", "src/mcp-gen/runtime"] as const;

/** The files of one generated folder, their paths relative to it. */
export interface GeneratedGroup {
  readonly sub: (typeof GENERATED_DIRS)[number];
  readonly files: EmittedFile[];
}

function isGenerated(path: string): boolean {
  return GENERATED_DIRS.some((dir) => path.startsWith(`${dir}/`));
}

/** A project's generated files, grouped by the generated folder they go in. */
export function generatedGroups(files: readonly EmittedFile[]): GeneratedGroup[] {
  return GENERATED_DIRS.map((sub) => ({
    sub,
    files: files
      .filter((f) => f.path.startsWith(`${sub}/`))
      .map((f) => ({ ...f, path: f.path.slice(sub.length + 1) })),
  }));
}

/**
 * What differs between a project's generated folders and `groups`: each
 * file that is stale, missing or extra, its path relative to the project.
 */
export function checkGeneratedFolders(
  projectDir: string,
  groups: readonly GeneratedGroup[],
): StaleFile[] {
  return groups.flatMap((g) =>
    checkOutput(join(projectDir, g.sub), g.files).map((s) => ({
      ...s,
      path: `${g.sub}/${s.path}`,
    })),
  );
}

/**
 * Writes a project's generated folders, each through the write stage
 * (writeOutput). Every folder is checked before any is written, so a
 * folder that holds a file mcp-gen did not write (MCPG501) leaves all of
 * them as they were; with `force`, such files are replaced.
 */
export function writeGeneratedFolders(
  projectDir: string,
  groups: readonly GeneratedGroup[],
  options: { readonly force?: boolean } = {},
): void {
  for (const g of groups) assertCanWrite(join(projectDir, g.sub), g.files, options);
  for (const g of groups) writeOutput(join(projectDir, g.sub), g.files, options);
}

/**
 * Writes a project. A new or empty folder gets every file at once. An
 * existing folder is refused unless `force`; with it, the generated folders
 * are rewritten (they must hold only mcp-gen's files), the user's files
 * that are missing are added, and every other file is left exactly as it
 * is. A user's file that would be overwritten with different contents is
 * never overwritten: the run is refused, naming every such file, before
 * anything is written. Returns how many files were written.
 */
export function writeProject(dir: string, files: readonly EmittedFile[], force = false): number {
  const target = resolve(dir);
  if (!force || !existsSync(target) || !statSync(target).isDirectory()) {
    writeOutput(dir, files, { requireEmpty: true });
    return files.length;
  }
  const own = files.filter((f) => !isGenerated(f.path));
  const conflicts = own
    .filter((f) => {
      const path = join(target, f.path);
      return (
        existsSync(path) && (!statSync(path).isFile() || readFileSync(path, "utf8") !== f.contents)
      );
    })
    .map((f) => f.path);
  if (conflicts.length > 0)
    throw new McpGenError([diagnostic("MCPG711", { dir, files: conflicts }, { file: dir })]);
  const groups = generatedGroups(files);
  // Foreign files in a generated folder are refused (MCPG501) before anything is written.
  for (const group of groups) assertOwned(join(target, group.sub), join(dir, group.sub));
  const missing = own.filter((file) => !existsSync(join(target, file.path)));
  for (const file of missing) writeNewFile(target, file);
  for (const group of groups) writeOutput(join(target, group.sub), group.files);
  return missing.length + groups.reduce((n, g) => n + g.files.length, 0);
}

/** Writes a file that does not exist yet: to a temporary sibling first, then renamed into place. */
export function writeNewFile(root: string, file: EmittedFile): void {
  const path = join(root, file.path);
  mkdirSync(dirname(path), { recursive: true });
  writeWhole(path, file.contents);
}

/**
 * Writes `contents` to `path`, in place of what is there: to a temporary
 * sibling first, then renamed over it, so the file is never half-written.
 */
export function writeWhole(path: string, contents: string): void {
  const temporary = `${path}.mcp-gen-tmp-${process.pid}`;
  writeFileSync(temporary, contents, { flag: "wx" });
  renameSync(temporary, path);
}
