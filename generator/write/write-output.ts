/**
 * The write stage: puts emitted files in place, or compares them with what
 * is there (`--check`).
 *
 * Nothing is half-written, and the output folder never goes away:
 * 1. everything is refused before anything is written when the folder
 *    holds files mcp-gen did not write (unless forced), or when the folder,
 *    a file in it or its parent is read-only;
 * 2. every new file is written in a staging folder beside the output
 *    (`<out>.mcp-gen-tmp-<pid>-<random>`), so the old output stays as it is
 *    until the new one is complete;
 * 3. the staging folder is renamed into place when there is no output yet;
 *    otherwise each changed file is renamed over its old version (an
 *    atomic replace; unchanged files are left alone, modification time
 *    included), and files no longer emitted are removed last.
 *
 * A rename replaces one file at a time: POSIX has no call that swaps two
 * non-empty folders, and renaming the old folder away first would leave no
 * folder at all between two renames. So a kill during step 3 leaves every
 * file whole, each in its old or its new version, and the folder in
 * place; SIGINT, SIGTERM and SIGHUP wait until the write is done, so only
 * SIGKILL (or a crash) can stop it there. The next run finishes the job and
 * removes the staging folders that interrupted runs left.
 */
import {
  accessSync,
  closeSync,
  constants,
  existsSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  rmdirSync,
  statSync,
  unlinkSync,
  writeFileSync,
  type Stats,
} from "node:fs";
import { randomBytes } from "node:crypto";
import { basename, dirname, isAbsolute, join, normalize, relative, resolve, sep } from "node:path";
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

/** The marks of the temporary names a write uses beside the output folder. */
const STAGING = ".mcp-gen-tmp-";
/** Left by writes of earlier mcp-gen versions, which renamed the old folder away. */
const OLD = ".mcp-gen-old-";
const LOCK = ".mcp-gen-lock";
/** Signals that would stop a write halfway; they wait until it is done. */
const DEFERRED_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

/**
 * Writes `files` into `outDir`, replacing its previous contents (see the
 * module comment for what a kill leaves). Returns notes, e.g. for the
 * temporary folders of an interrupted run it removed.
 */
export function writeOutput(
  outDir: string,
  files: readonly EmittedFile[],
  options: WriteOptions = {},
): Diagnostic[] {
  const target = resolve(outDir);
  const notes = removeLeftovers(target, outDir);
  assertCanWrite(outDir, files, options);
  const release = lock(target, outDir);
  try {
    deferSignalsDuring(() => replace(target, outDir, files));
  } finally {
    release();
  }
  return notes;
}

/**
 * Every refusal {@link writeOutput} would make, without writing anything:
 * emitted paths that leave the folder, a folder mcp-gen does not own
 * (unless forced), anything read-only. Lets a caller writing several
 * folders refuse them all before it writes the first.
 */
export function assertCanWrite(
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
  assertWritable(target, outDir, files);
}

function replace(target: string, shown: string, files: readonly EmittedFile[]): void {
  const staging = `${target}${STAGING}${process.pid}-${randomBytes(4).toString("hex")}`;
  try {
    mkdirSync(dirname(target), { recursive: true });
    if (!existsSync(target)) {
      stage(staging, files);
      renameSync(staging, target);
    } else if (!statSync(target).isDirectory()) {
      stage(staging, files);
      replaceFile(target, staging);
    } else {
      // Files whose bytes are already right stay as they are (and keep their modification time).
      const changed = files.filter((f) => !hasContents(join(target, f.path), f.contents));
      stage(staging, changed);
      swapFiles(staging, target, changed, files);
    }
  } catch (error) {
    throw asWriteError(error, shown);
  } finally {
    // rmSync throws (ENOTDIR) when the path runs through a file, even with force.
    if (existsSync(staging)) rmSync(staging, { recursive: true, force: true });
  }
}

/** Writes `files` under `staging` (created even when there are none). */
function stage(staging: string, files: readonly EmittedFile[]): void {
  mkdirSync(staging, { recursive: true });
  for (const file of files) {
    const path = join(staging, file.path);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, file.contents);
  }
}

function hasContents(path: string, contents: string): boolean {
  return existsSync(path) && statSync(path).isFile() && readFileSync(path, "utf8") === contents;
}

/** A forced write over a file where the folder should be: the file is set aside, then removed. */
function replaceFile(target: string, staging: string): void {
  const aside = `${target}${OLD}${process.pid}-${randomBytes(4).toString("hex")}`;
  renameSync(target, aside);
  renameSync(staging, target);
  unlinkSync(aside);
}

/**
 * Renames each staged (changed) file over its old version, then removes
 * what is no longer emitted at all.
 */
function swapFiles(
  staging: string,
  target: string,
  changed: readonly EmittedFile[],
  all: readonly EmittedFile[],
): void {
  for (const path of changed.map((f) => normalize(f.path)).sort()) {
    const destination = join(target, path);
    clearWay(target, destination);
    mkdirSync(dirname(destination), { recursive: true });
    renameSync(join(staging, path), destination);
  }
  const emitted = new Set(all.map((f) => normalize(f.path)));
  for (const path of listFiles(target)) if (!emitted.has(path)) unlinkSync(join(target, path));
  removeEmptyFolders(target);
}

/**
 * Makes room for a file at `destination`: a folder in its place, or a file
 * where one of its parent folders should be, goes (both are the old
 * output's, which the checks before the write found mcp-gen's or forced).
 */
function clearWay(target: string, destination: string): void {
  // Outermost first, and never through a symbolic link: a link in the output is removed, not
  // followed, so nothing outside the output folder is written over or deleted.
  const ancestors: string[] = [];
  for (let dir = dirname(destination); dir !== target; dir = dirname(dir)) ancestors.unshift(dir);
  for (const dir of ancestors) {
    const entry = lstatOrUndefined(dir);
    if (entry && !entry.isDirectory()) unlinkSync(dir);
  }
  const entry = lstatOrUndefined(destination);
  if (entry?.isSymbolicLink()) unlinkSync(destination);
  else if (entry?.isDirectory()) rmSync(destination, { recursive: true, force: true });
}

/** What is at `path` itself (a link, not what it points to), or undefined when nothing is. */
function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

/** Removes folders left empty under `dir` (not `dir` itself). */
function removeEmptyFolders(dir: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const path = join(dir, entry.name);
    removeEmptyFolders(path);
    if (readdirSync(path).length === 0) rmdirSync(path);
  }
}

/**
 * Runs `work` (synchronous) with SIGINT, SIGTERM and SIGHUP caught, then
 * delivers the first that came: a Ctrl-C during a write stops the process
 * right after the write, not inside it. Node runs a signal's handlers in
 * the poll phase of the event loop; the handler stays until one whole turn
 * of the loop (two setImmediate hops) has passed, so a signal that came
 * during `work` is seen, not dropped.
 */
function deferSignalsDuring(work: () => void): void {
  const received: NodeJS.Signals[] = [];
  const hold = (signal: NodeJS.Signals) => received.push(signal);
  for (const signal of DEFERRED_SIGNALS) process.on(signal, hold);
  try {
    work();
  } finally {
    setImmediate(() =>
      setImmediate(() => {
        for (const signal of DEFERRED_SIGNALS) process.off(signal, hold);
        const first = received[0];
        // Deliver it as it would have been delivered, unless someone else handles it.
        if (first && process.listenerCount(first) === 0) process.kill(process.pid, first);
      }),
    );
  }
}

/**
 * Takes `<out>.mcp-gen-lock` so that two runs never write one folder at
 * once; a lock whose process is gone is taken over. Returns the release.
 */
function lock(target: string, shown: string): () => void {
  const path = `${target}${LOCK}`;
  try {
    mkdirSync(dirname(target), { recursive: true });
  } catch (error) {
    throw asWriteError(error, shown);
  }
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(path, `${process.pid}\n`, { flag: "wx" });
      return () => rmSync(path, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw asWriteError(error, shown);
      const owner = Number.parseInt(readText(path), 10);
      if (attempt > 0 || isRunning(owner))
        throw new McpGenError([
          diagnostic(
            "MCPG506",
            { dir: shown, pid: Number.isFinite(owner) ? owner : 0 },
            { file: shown },
          ),
        ]);
      rmSync(path, { force: true });
    }
  }
}

function readText(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}

/** True when a process with this id runs (and is not this one, which never holds a lock it is asking for). */
function isRunning(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Removes what interrupted writes of this folder left beside it: staging
 * folders (and the set-aside folders of earlier versions) whose process is
 * gone. Those of a run still going are left alone.
 */
function removeLeftovers(target: string, shown: string): Diagnostic[] {
  const parent = dirname(target);
  if (!existsSync(parent) || !statSync(parent).isDirectory()) return [];
  const prefix = basename(target);
  const notes: Diagnostic[] = [];
  for (const name of readdirSync(parent)) {
    if (!name.startsWith(prefix)) continue;
    const rest = name.slice(prefix.length);
    const match = /^\.mcp-gen-(?:tmp|old)-(\d+)-[0-9a-z]+$/.exec(rest);
    if (!match || isRunning(Number(match[1]))) continue;
    try {
      rmSync(join(parent, name), { recursive: true, force: true });
    } catch {
      // Best effort: a folder that cannot be removed is left for a later run; the write checks say why.
      continue;
    }
    notes.push(diagnostic("MCPG507", { path: join(dirname(shown), name) }, { file: shown }));
  }
  return notes;
}

/** A file system refusal (no permission, a file where a folder should be) is the user's to fix, not a bug. */
function asWriteError(error: unknown, shown: string): unknown {
  if (error instanceof McpGenError) return error;
  const code = (error as NodeJS.ErrnoException).code;
  if (!(error instanceof Error) || typeof code !== "string") return error;
  return new McpGenError([
    diagnostic("MCPG504", { dir: shown, reason: error.message }, { file: shown }),
  ]);
}

/**
 * Refuses, before anything is written, a target that is read-only: the
 * output folder, a file the write would replace or remove, a folder it
 * would write into, or (for the staging folder) the nearest existing
 * parent. Read-only means without write permission for this process or
 * with no write bit at all (which root, who may write anyway, is told too).
 */
function assertWritable(target: string, shown: string, files: readonly EmittedFile[]): void {
  const readOnly: string[] = [];
  const check = (path: string) => {
    if (!isWritable(path)) readOnly.push(path);
  };
  check(nearestExisting(dirname(target)));
  if (existsSync(target)) {
    check(target);
    if (statSync(target).isDirectory()) {
      const emitted = new Set(files.map((f) => normalize(f.path)));
      for (const path of listFiles(target)) {
        check(join(target, path));
        if (!emitted.has(path)) check(dirname(join(target, path)));
      }
      for (const path of emitted) {
        const folder = nearestExisting(dirname(join(target, path)));
        if (folder.startsWith(target)) check(folder);
      }
    }
  }
  const unique = [...new Set(readOnly)];
  if (unique.length > 0)
    throw new McpGenError([
      diagnostic(
        "MCPG505",
        { dir: shown, paths: unique.map((p) => relative(process.cwd(), p) || ".") },
        { file: shown },
      ),
    ]);
}

function isWritable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
  } catch {
    return false;
  }
  return (statSync(path).mode & 0o222) !== 0;
}

function nearestExisting(path: string): string {
  let dir = path;
  while (!existsSync(dir) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

/** Compares `files` with `outDir`: files that differ, are missing, or are there but no longer emitted. */
export function checkOutput(outDir: string, files: readonly EmittedFile[]): StaleFile[] {
  const target = resolve(outDir);
  const expected = new Map(files.map((f) => [normalize(f.path), f.contents]));
  const out: StaleFile[] = [];
  for (const [path, contents] of expected) {
    const full = join(target, path);
    if (!existsSync(full) || !statSync(full).isFile()) out.push({ path, state: "missing" });
    else if (readFileSync(full, "utf8") !== contents) out.push({ path, state: "stale" });
  }
  for (const path of listFiles(target)) if (!expected.has(path)) out.push({ path, state: "extra" });
  return out.sort((a, b) => (a.path < b.path ? -1 : 1));
}

/** Diagnostics for a failed check, one per file, naming the command to run. */
export function staleFileDiagnostics(
  outDir: string,
  stale: readonly StaleFile[],
  fix?: string,
): Diagnostic[] {
  return stale.map((s) => {
    const d = diagnostic(
      "MCPG503",
      { file: join(outDir, s.path), state: s.state },
      { file: join(outDir, s.path) },
    );
    return fix ? { ...d, fix } : d;
  });
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
export function assertOwned(target: string, shown: string): void {
  if (!existsSync(target)) return;
  if (!statSync(target).isDirectory())
    throw new McpGenError([
      diagnostic("MCPG501", { dir: shown, foreign: ["(it is a file)"] }, { file: shown }),
    ]);
  const foreign = listFiles(target).filter((p) => !startsWithBanner(join(target, p)));
  if (foreign.length > 0)
    throw new McpGenError([diagnostic("MCPG501", { dir: shown, foreign }, { file: shown })]);
}

/** Whether the file at `path` begins with mcp-gen's banner (read from its first 256 bytes). */
export function startsWithBanner(path: string): boolean {
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
