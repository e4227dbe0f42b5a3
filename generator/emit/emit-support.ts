/**
 * emitSupport: copies the revision-independent support modules
 * (generator/emit/static/support.ts and standard-schema.ts, real
 * type-checked TypeScript) into the output, under a banner, so generated
 * folders depend on nothing else; and reads the static fragments other
 * emitters copy (static/tools/).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { packageRoot } from "../load/package-root.js";
import type { EmittedFile } from "./file.js";
import { STANDARD_SCHEMA_SUPPORT_FILE, SUPPORT_FILE } from "../model/output-names.js";

const staticSources = new Map<string, string>();

/** A static source shipped with mcp-gen (read once; it is part of mcp-gen, not an input). */
function staticSource(file: string): string {
  let source = staticSources.get(file);
  if (source === undefined) {
    source = readFileSync(join(packageRoot(), "generator", "emit", "static", file), "utf8");
    staticSources.set(file, source);
  }
  return source;
}

/** The line of a static fragment (static/tools/) after which its code begins. */
const COPIED_FROM_HERE = "// mcp-gen copies this file from here on.\n";

/**
 * The fixed code of a generated module that a static fragment holds: what
 * follows its marker line, without the last line break. What precedes the
 * marker stands in for the rest of the module, so the code is type-checked.
 */
export function staticFragment(file: string): string {
  const source = staticSource(file);
  const at = source.indexOf(COPIED_FROM_HERE);
  if (at < 0)
    throw new Error(`generator/emit/static/${file} has no line "${COPIED_FROM_HERE.trim()}"`);
  return source.slice(at + COPIED_FROM_HERE.length).replace(/\n$/, "");
}

/** The static support source shipped with mcp-gen. */
export function staticSupportSource(): string {
  return staticSource("support.ts");
}

/** Emits `support.gen.ts`. */
export function emitSupport(bannerText: string): EmittedFile {
  return { path: SUPPORT_FILE, contents: `${bannerText}\n${staticSupportSource()}` };
}

/** The Standard Schema code (static/standard-schema.ts), for a module that carries it inside itself. */
export function standardSchemaSource(): string {
  return staticSource("standard-schema.ts");
}

/** Emits `standard-schema.gen.ts`, the Standard Schema code over the generated validators. */
export function emitStandardSchemaSupport(bannerText: string): EmittedFile {
  return {
    path: STANDARD_SCHEMA_SUPPORT_FILE,
    contents: `${bannerText}\n${staticSource("standard-schema.ts")}`,
  };
}
