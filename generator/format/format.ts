/**
 * The format stage: prettier with mcp-gen's own pinned options, so output
 * does not depend on whatever prettier config surrounds the output folder.
 */
import * as prettier from "prettier";
import type { EmittedFile } from "../emit/file.js";

/** The options every generated TypeScript file is formatted with. */
export const PRETTIER_OPTIONS: prettier.Options = {
  parser: "typescript",
  printWidth: 100,
  tabWidth: 2,
  useTabs: false,
  semi: true,
  singleQuote: false,
  trailingComma: "all",
  bracketSpacing: true,
  arrowParens: "always",
  endOfLine: "lf",
};

/** Formats every TypeScript file; other files pass through. */
export async function formatFiles(files: readonly EmittedFile[]): Promise<EmittedFile[]> {
  return Promise.all(files.map(async (f) => (f.path.endsWith(".ts") ? { path: f.path, contents: await prettier.format(f.contents, PRETTIER_OPTIONS) } : f)));
}
