/**
 * `mcp-gen generate --watch`: run, then run again whenever an input
 * changes (a spec folder, an extension, a tools file, the configuration).
 * Changes are debounced: a burst of writes (an editor saving, a `git
 * checkout`) makes one run. A run that fails is reported and watching goes
 * on; the inputs are asked for again after every run, so editing the
 * configuration changes what is watched.
 */
import { existsSync, statSync, watch as watchPath, type FSWatcher } from "node:fs";
import { basename, dirname, isAbsolute, resolve } from "node:path";
import { resolveExtensionReference, resolveSpecReference } from "../load/references.js";
import type { Config } from "./config.js";

/** Options of {@link watchInputs}. */
export interface WatchOptions {
  /** One run; its errors go to `onError`. */
  readonly run: () => Promise<void>;
  /** The files and folders to watch, asked for after every run. */
  readonly inputs: () => readonly string[];
  /** Called with what a run threw; watching goes on. */
  readonly onError: (error: unknown) => void;
  /** Called after each run, with the paths now watched. */
  readonly onWatching?: (paths: readonly string[]) => void;
  /** Quiet time after the last change before a run starts (default 200 ms). */
  readonly debounceMs?: number;
}

/** A running watch. */
export interface WatchHandle {
  /** Stops watching; resolves when a run in progress has ended. */
  close(): Promise<void>;
}

/** Runs `options.run` now and after every change to one of `options.inputs()`. */
export function watchInputs(options: WatchOptions): WatchHandle {
  const debounceMs = options.debounceMs ?? 200;
  // Kept across runs for paths still watched: closing and reopening them would lose a change made in between.
  const watchers = new Map<string, FSWatcher[]>();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let closed = false;

  const rewatch = () => {
    const paths = [...new Set(options.inputs().map((p) => resolve(p)))].sort();
    for (const [path, list] of watchers)
      if (!paths.includes(path)) {
        list.forEach((w) => w.close());
        watchers.delete(path);
      }
    // A path that could not be watched (a folder not there yet) is tried again after every run.
    for (const path of paths)
      if (!watchers.get(path)?.length) watchers.set(path, watchOne(path, changed));
    options.onWatching?.(paths);
  };
  const start = () => {
    if (closed) return;
    if (running) {
      again = true;
      return;
    }
    running = options
      .run()
      .catch(options.onError)
      .finally(() => {
        running = undefined;
        if (closed) return;
        rewatch();
        if (again) {
          again = false;
          changed();
        }
      });
  };
  const changed = () => {
    if (closed) return;
    clearTimeout(timer);
    timer = setTimeout(start, debounceMs);
  };

  start();
  return {
    async close() {
      closed = true;
      clearTimeout(timer);
      for (const list of watchers.values()) list.forEach((w) => w.close());
      watchers.clear();
      await running;
    },
  };
}

/**
 * Watches a folder (any change inside it) or a file. A file is watched
 * through its folder, filtered by name: editors save by writing a new file
 * and renaming it over the old one, which a watch on the old file misses.
 * A path that does not exist yet is watched through its nearest folder.
 */
function watchOne(path: string, changed: () => void): FSWatcher[] {
  const isFolder = existsSync(path) && statSync(path).isDirectory();
  const folder = isFolder ? path : dirname(path);
  if (!existsSync(folder)) return [];
  const name = basename(path);
  try {
    const watcher = watchPath(folder, { persistent: true }, (_event, file) => {
      if (isFolder || file === null || file.toString() === name) changed();
    });
    watcher.on("error", () => undefined);
    return [watcher];
  } catch {
    return [];
  }
}

/**
 * What a run with flags reads that can change: a folder --spec (its
 * schema.json and schema.ts), and each extension given as a folder or a
 * manifest file (its folder, which holds the schemas it names). Known
 * revisions and extensions are pinned by sha256 and never change.
 */
export function inputsOfFlags(
  spec: string,
  extensions: readonly string[],
  base = process.cwd(),
): string[] {
  // Both resolve to an absolute path exactly when they name files rather than something known.
  const specRef = resolveSpecReference(spec, base);
  const refs = extensions.map((e) => resolveExtensionReference(e, base));
  return [
    ...(isAbsolute(specRef) ? [specRef] : []),
    ...refs.filter((ref) => isAbsolute(ref)).map(folderOf),
  ];
}

/** What a configuration's run reads that can change: its targets' inputs, and a project's tools file, revision folder and extensions. */
export function inputsOfConfig(config: Config): string[] {
  const project = config.project;
  return [
    ...config.targets.flatMap((t) => inputsOfFlags(t.spec, t.extensions, config.dir)),
    ...(project
      ? [project.tools, ...inputsOfFlags(project.revision, project.extensions, config.dir)]
      : []),
  ];
}

/** A manifest file's folder (its schemas sit beside it); a folder as it is. */
function folderOf(path: string): string {
  return existsSync(path) && statSync(path).isFile() ? dirname(path) : path;
}
