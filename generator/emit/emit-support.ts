/**
 * emitSupport: copies the revision-independent support modules
 * (generator/emit/static/support.ts and standard-schema.ts, real
 * type-checked TypeScript) into the output, under a banner, so generated
 * folders depend on nothing else.
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

/** The static support source shipped with mcp-gen. */
export function staticSupportSource(): string {
  return staticSource("support.ts");
}

/** Emits `support.gen.ts`. */
export function emitSupport(bannerText: string): EmittedFile {
  return { path: SUPPORT_FILE, contents: `${bannerText}\n${staticSupportSource()}` };
}

/** Emits `standard-schema.gen.ts`, the Standard Schema code over the generated validators. */
export function emitStandardSchemaSupport(bannerText: string): EmittedFile {
  return {
    path: STANDARD_SCHEMA_SUPPORT_FILE,
    contents: `${bannerText}\n${staticSource("standard-schema.ts")}`,
  };
}
