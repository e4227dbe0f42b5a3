/**
 * emitSupport: copies the revision-independent support module
 * (generator/emit/static/support.ts, real type-checked TypeScript) into the
 * output, under a banner, so generated folders depend on nothing else.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { packageRoot } from "../load/package-root.js";
import type { EmittedFile } from "./file.js";
import { SUPPORT_FILE } from "../model/output-names.js";

let supportSource: string | undefined;

/** The static support source shipped with mcp-gen (read once; it is part of mcp-gen, not an input). */
export function staticSupportSource(): string {
  supportSource ??= readFileSync(
    join(packageRoot(), "generator", "emit", "static", "support.ts"),
    "utf8",
  );
  return supportSource;
}

/** Emits `support.gen.ts`. */
export function emitSupport(bannerText: string): EmittedFile {
  return { path: SUPPORT_FILE, contents: `${bannerText}\n${staticSupportSource()}` };
}
