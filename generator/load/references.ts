/**
 * How a settings file names a revision and an extension (mcp-gen.json's
 * targets and a project's settings): a known name stays a name, anything
 * else is a path relative to the file's folder. Every command that reads
 * such a file resolves its references here.
 */
import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { knownExtensions } from "./extensions.js";

/** Digits and dashes only: a revision name, perhaps misspelled. */
const DATE_LIKE = /^[\d-]+$/;

/**
 * A revision name stays a name unless a folder of that name sits beside the
 * file; anything else is a folder. A word of digits and dashes that is no
 * folder (`2025-11-5`) stays as written too: it is a misspelled revision,
 * and resolving it as a name lets the error suggest the revision meant
 * instead of reporting a folder without schema.json.
 */
export function resolveSpecReference(spec: string, dir: string): string {
  const folder = resolve(dir, spec);
  const isFolder = existsSync(folder) && statSync(folder).isDirectory();
  return DATE_LIKE.test(spec) && !isFolder ? spec : folder;
}

/** A known extension's name or id stays as written; anything else is a path relative to the file. */
export function resolveExtensionReference(ref: string, dir: string): string {
  const known = knownExtensions().some((k) => k.manifest.name === ref || k.manifest.id === ref);
  return known ? ref : resolve(dir, ref);
}
