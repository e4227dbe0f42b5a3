/**
 * schema.ts facts kept in mcp-gen's cache folder. Reading schema.ts loads
 * TypeScript (through ts-morph, 12 MB of JavaScript) and walks the file:
 * about 0.6 s of a 1.5 s `generate`, spent again by every run although the
 * same bytes give the same facts. A run whose schema.ts was read before,
 * by this version of the reader, takes the facts from
 * `<cacheDir>/schema-ts/<key>.json` instead.
 *
 * The key is the file's sha256 and the reader's own fingerprint (its code
 * and ts-morph's version), so a changed reader never sees old facts. An
 * entry that cannot be read, does not parse or has the wrong shape is read
 * again from schema.ts and replaced. Failures are never kept: a schema.ts
 * that does not parse is reported on every run. An entry is written to a
 * temporary name and renamed, so a kill leaves none half written, and a
 * cache folder that cannot be written costs only the time.
 */
import { createHash } from "node:crypto";
import { join } from "node:path";
import { readCacheEntry, writeCacheEntry } from "./cache-entry.js";
import { isJsonObject } from "./json.js";
import { readSchemaTs, readerFingerprint } from "./read-schema-ts.js";
import type { InputFile, SchemaTsFacts } from "./types.js";

/** An entry larger than this is not trusted to be ours (facts of the largest schema.ts are about 0.3 MiB). */
const MAX_ENTRY_BYTES = 64 * 1024 * 1024;

/** {@link readSchemaTs}, through the cache in `cacheDir`. */
export function readSchemaTsCached(file: InputFile, cacheDir: string): SchemaTsFacts {
  const path = join(cacheDir, "schema-ts", `${entryKey(file)}.json`);
  const cached = readEntry(path);
  if (cached) return { file, ...cached };
  const facts = readSchemaTs(file);
  writeEntry(path, facts);
  return facts;
}

type Entry = Omit<SchemaTsFacts, "file">;

function entryKey(file: InputFile): string {
  return createHash("sha256")
    .update(`${file.sha256}\0${readerFingerprint()}`)
    .digest("hex")
    .slice(0, 32);
}

/** The entry at `path`, or undefined when there is none that can be trusted. */
function readEntry(path: string): Entry | undefined {
  const value = readCacheEntry(path, MAX_ENTRY_BYTES);
  return isEntry(value) ? value : undefined;
}

/** The shape of an entry, checked to the depth the model reads without guarding. */
function isEntry(value: unknown): value is Entry {
  if (!isJsonObject(value)) return false;
  const { constants, unions, declarations } = value;
  return (
    isJsonObject(constants) &&
    isJsonObject(unions) &&
    isJsonObject(declarations) &&
    Object.values(unions).every((u) => isJsonObject(u) && Array.isArray(u.members)) &&
    Object.values(declarations).every(
      (d) => isJsonObject(d) && isJsonObject(d.members) && typeof d.indexSignature === "boolean",
    )
  );
}

function writeEntry(path: string, facts: SchemaTsFacts): void {
  const { constants, unions, declarations } = facts;
  writeCacheEntry(path, { constants, unions, declarations });
}
