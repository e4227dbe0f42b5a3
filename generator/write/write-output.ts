/**
 * The write stage: puts emitted files in place all at once, or compares
 * them with what is there (`--check`). Nothing is half-written: files go to
 * a temporary sibling folder that is renamed over the output folder.
 */
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  openSync,
  readSync,
  closeSync,
} from "node:fs";
import { dirname, isAbsolute, join, normalize, relative, resolve, sep } from "node:path";
import { diagnostic, McpGenError, type Diagnostic } from "../diagnostics.js";
import { BANNER_MARK, type EmittedFile } from "../emit/file.js";

/** Options of {@link writeOutput}. */
export interface WriteOptions {
  /** Replace the folder even if it holds files mcp-gen did not write (or, with `requireEmpty`, any files). */
  readonly force?: boolean;
  /** Refuse a folder that holds anything at all, not just foreign files (new projects). */
  readonly requireEmpty?: boolean;
}

/** One difference found by {@link checkOutput}. */
export interface StaleFile {
  readonly path: string;
  readonly state: "stale" | "missing" | "extra";
}

/** Writes `files` into `outDir`, replacing its previous contents atomically. */
export function writeOutput(
  outDir: string,
  files: readonly EmittedFile[],
  options: WriteOptions = {},
): void {
  files.forEach((f) => assertInside(f.path));
  const target = resolve(outDir);
  if (!options.force) {
    if (options.requireEmpty) assertEmpty(target, outDir);
    else assertOwned(target, outDir);
  }
  const suffix = `${process.pid}-${Date.now().toString(36)}`;
  const staging = `${target}.mcp-gen-tmp-${suffix}`;
  try {
    mkdirSync(dirname(target), { recursive: true });
    for (const file of files) {
      const path = join(staging, file.path);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, file.contents);
    }
    swapIn(staging, target, `${target}.mcp-gen-old-${suffix}`);
  } catch (error) {
    // rmSync throws (ENOTDIR) when the path runs through a file, even with force.
    if (existsSync(staging)) rmSync(staging, { recursive: true, force: true });
    throw asWriteError(error, outDir);
  }
}

/** A file system refusal (no permission, a file where a folder should be) is the user's to fix, not a bug. */
function asWriteError(error: unknown, shown: string): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  if (!(error instanceof Error) || typeof code !== "string") return error;
  return new McpGenError([
    diagnostic("MCPG504", { dir: shown, reason: error.message }, { file: shown }),
  ]);
}

function swapIn(staging: string, target: string, old: string): void {
  const hadTarget = existsSync(target);
  if (hadTarget) renameSync(target, old);
  try {
    renameSync(staging, target);
  } catch (error) {
    if (hadTarget) renameSync(old, target);
    throw error;
  }
  if (hadTarget) rmSync(old, { recursive: true, force: true });
}

/** Compares `files` with `outDir`: files that differ, are missing, or are there but no longer emitted. */
export function checkOutput(outDir: string, files: readonly EmittedFile[]): StaleFile[] {
  const target = resolve(outDir);
  const expected = new Map(files.map((f) => [normalize(f.path), f.contents]));
  const out: StaleFile[] = [];
  for (const [path, contents] of expected) {
    const full = join(target, path);
    if (!existsSync(full)) out.push({ path, state: "missing" });
    else if (readFileSync(full, "utf8") !== contents) out.push({ path, state: "stale" });
  }
  for (const path of listFiles(target)) if (!expected.has(path)) out.push({ path, state: "extra" });
  return out.sort((a, b) => (a.path < b.path ? -1 : 1));
}

/** Diagnostics for a failed check, one per file, naming the command to run. */
export function staleFileDiagnostics(outDir: string, stale: readonly StaleFile[]): Diagnostic[] {
  return stale.map((s) =>
    diagnostic(
      "MCPG503",
      { file: join(outDir, s.path), state: s.state },
      { file: join(outDir, s.path) },
    ),
  );
}

function assertInside(path: string): void {
  const normalized = normalize(path);
  if (
    isAbsolute(path) ||
    normalized === ".." ||
    normalized.startsWith(`..${sep}`) ||
    normalized.includes(`${sep}..${sep}`)
  ) {
    throw new McpGenError([diagnostic("MCPG502", { path })]);
  }
}

/** Refuses a folder that holds anything. */
function assertEmpty(target: string, shown: string): void {
  if (!existsSync(target)) return;
  if (!statSync(target).isDirectory())
    throw new McpGenError([
      diagnostic("MCPG707", { dir: shown, reason: "it is a file" }, { file: shown }),
    ]);
  if (readdirSync(target).length > 0)
    throw new McpGenError([
      diagnostic("MCPG707", { dir: shown, reason: "the folder is not empty" }, { file: shown }),
    ]);
}

/** Refuses a folder holding anything that does not start with mcp-gen's banner. */
function assertOwned(target: string, shown: string): void {
  if (!existsSync(target)) return;
  if (!statSync(target).isDirectory())
    throw new McpGenError([
      diagnostic("MCPG501", { dir: shown, foreign: ["(it is a file)"] }, { file: shown }),
    ]);
  const foreign = listFiles(target).filter((p) => !startsWithBanner(join(target, p)));
  if (foreign.length > 0)
    throw new McpGenError([diagnostic("MCPG501", { dir: shown, foreign }, { file: shown })]);
}

function startsWithBanner(path: string): boolean {
  const fd = openSync(path, "r");
  try {
    const buffer = Buffer.alloc(256);
    const read = readSync(fd, buffer, 0, buffer.length, 0);
    return buffer.subarray(0, read).toString("utf8").includes(BANNER_MARK);
  } finally {
    closeSync(fd);
  }
}

/** Every file under `dir`, as relative paths (none when `dir` is not a folder). */
export function listFiles(dir: string): string[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return [];
  const out: string[] = [];
  const walk = (current: string) => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const full = join(current, entry.name);
      if (entry.isDirectory()) walk(full);
      else out.push(relative(dir, full));
    }
  };
  walk(dir);
  return out.sort();
}
