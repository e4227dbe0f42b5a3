/**
 * A folder for the modules of `mcp-gen types` to be compiled and run in:
 * the repository's node_modules linked in, an ES module package; and the
 * strictest settings a user's project may compile them under.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type ts from "typescript";
import { tempDir } from "./index.js";
import { linkNodeModules } from "./project.js";

/** The strictest settings a user's project may have, and no ambient types but the DOM's (fetch, URL). */
export const STRICTEST: ts.CompilerOptions = {
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  noImplicitOverride: true,
  noPropertyAccessFromIndexSignature: true,
  noImplicitReturns: true,
  noFallthroughCasesInSwitch: true,
  noUnusedLocals: true,
  noUnusedParameters: true,
  verbatimModuleSyntax: true,
  isolatedModules: true,
  skipLibCheck: true,
  lib: ["lib.es2023.d.ts", "lib.dom.d.ts"],
};

/** A new folder with `src/`, the repository's node_modules and `{"type": "module"}`. */
export function typedProject(label: string): string {
  const dir = tempDir(label);
  linkNodeModules(dir);
  writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module" }));
  mkdirSync(join(dir, "src"));
  return dir;
}
