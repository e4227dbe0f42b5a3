/**
 * Entries of mcp-gen's cache folder: JSON files that only speed a run up.
 * Reading one never fails a run (an entry that is missing, too large or
 * does not parse reads as none), and writing one never half-writes (a
 * temporary name, then a rename) nor fails a run (a read-only or full
 * cache folder costs only the next run's time).
 */
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

/** The parsed entry at `path`, or undefined when there is none that can be read. */
export function readCacheEntry(path: string, maxBytes: number): unknown {
  try {
    if (statSync(path).size > maxBytes) return undefined;
    return JSON.parse(readFileSync(path, "utf8")) as unknown;
  } catch {
    return undefined;
  }
}

/** Writes `value` as the entry at `path`, whole or not at all; true when it was written. */
export function writeCacheEntry(path: string, value: unknown): boolean {
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    // Never writable by group or others, whatever the umask: an entry is read only when no one else could write it.
    mkdirSync(dirname(path), { recursive: true, mode: 0o755 });
    writeFileSync(temporary, JSON.stringify(value), { mode: 0o644 });
    renameSync(temporary, path);
    return true;
  } catch {
    return false;
  }
}
