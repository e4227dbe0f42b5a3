/**
 * Compiled validator code kept in mcp-gen's cache folder, under
 * `<cacheDir>/compiled/<key>.json`: ajv's standalone code for a set of
 * schemas (emit/compile-validators.ts makes the key, a sha256 of all the
 * code depends on). A regenerate whose schemas did not change, or a tools
 * module of which only some parts changed, skips compiling them again.
 *
 * An entry holds the code, its sha256 and the key it was written under;
 * one whose hash or key does not match (edited, damaged, renamed) is
 * ignored and replaced. The code is copied into generated files, so an
 * entry is trusted only as far as its folder is: a file or folder that
 * belongs to another user, or that another user may write (group or world
 * writable), is never read, since anyone who could write it could plant
 * code under any key (keys are computed from public inputs). And
 * `--check` takes nothing from the cache (SchemaSources.compiledCodeCache):
 * what it compares with is always its own compilation. The folder keeps the
 * {@link MAX_ENTRIES} entries used last: a read touches its entry, a write
 * removes the ones used longest ago, so `mcp-gen dev` saving a tools file
 * all day does not fill the disk.
 */
import { createHash } from "node:crypto";
import { readdirSync, rmSync, statSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { readCacheEntry, writeCacheEntry } from "./cache-entry.js";
import { isJsonObject } from "./json.js";

/** Compiled code kept between runs, by a key that names everything the code depends on. */
export interface CompiledCodeCache {
  /** The code kept under `key`, if any. */
  get(key: string): string | undefined;
  set(key: string, code: string): void;
}

/** Entries kept: under 1 MiB each for a revision's validators (0.6 MiB for 2026-07-28), less for most tools modules. */
export const MAX_ENTRIES = 64;

/** The largest entry read back: a module of the largest tools files stays well under it. */
const MAX_ENTRY_BYTES = 256 * 1024 * 1024;

/** A key, and the name of its entry. */
const KEY = /^[0-9a-f]{64}$/;
const ENTRY_NAME = /^[0-9a-f]{64}\.json$/;

/** The cache of compiled code in `cacheDir`. */
export function compiledCodeCacheIn(cacheDir: string): CompiledCodeCache {
  const folder = join(cacheDir, "compiled");
  const pathOf = (key: string) => {
    if (!KEY.test(key)) throw new Error(`not a compiled-code key: ${key}`);
    return join(folder, `${key}.json`);
  };
  return {
    get(key) {
      const path = pathOf(key);
      if (!onlyOurs(folder) || !onlyOurs(path)) return undefined;
      const entry = readCacheEntry(path, MAX_ENTRY_BYTES);
      if (!isJsonObject(entry) || typeof entry.code !== "string") return undefined;
      if (entry.key !== key || entry.sha256 !== sha256(entry.code)) return undefined;
      touch(path);
      return entry.code;
    },
    set(key, code) {
      if (writeCacheEntry(pathOf(key), { key, sha256: sha256(code), code })) prune(folder);
    },
  };
}

/**
 * Whether a cache file or folder can have been written by this user alone:
 * it belongs to this user and neither its group nor others may write it.
 * Where there are no POSIX owners (Windows), the user's profile guards it.
 */
function onlyOurs(path: string): boolean {
  if (typeof process.getuid !== "function") return true;
  try {
    const stats = statSync(path);
    return stats.uid === process.getuid() && (stats.mode & 0o022) === 0;
  } catch {
    return false;
  }
}

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** Marks an entry as just used, for {@link prune}. */
function touch(path: string): void {
  try {
    const now = new Date();
    utimesSync(path, now, now);
  } catch {
    // Read-only cache folder: the entry may be removed a little early.
  }
}

/** Removes the entries used longest ago beyond {@link MAX_ENTRIES}. Only entries: other files are left alone. */
function prune(folder: string): void {
  try {
    const entries = readdirSync(folder)
      .filter((name) => ENTRY_NAME.test(name))
      .map((name) => ({ path: join(folder, name), used: statSync(join(folder, name)).mtimeMs }))
      .sort((a, b) => b.used - a.used);
    for (const { path } of entries.slice(MAX_ENTRIES)) rmSync(path, { force: true });
  } catch {
    // Another run pruning at the same time, or an unreadable folder: the next write tries again.
  }
}
