/**
 * The format stage: prettier with mcp-gen's own pinned options, so output
 * does not depend on whatever prettier config surrounds the output folder.
 */
import type { Options } from "prettier";
import type { EmittedFile } from "../emit/file.js";

/** prettier, loaded only when a file needs it: generation emits every module formatted already. */
const loadPrettier = () => import("prettier");

/**
 * The options every generated TypeScript file is formatted with. The
 * babel-ts parser loads and parses faster than prettier's default
 * typescript parser and prints the same code for everything mcp-gen emits;
 * the safety tests check each generated file with the typescript parser,
 * which is what a user's `prettier --check` picks for `.ts` files.
 */
export const PRETTIER_OPTIONS: Options = {
  parser: "babel-ts",
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

/**
 * A file whose emitter already lays it out as prettier would: every
 * generated module (mcp-gen's own modules through emit/layout.ts, the
 * types through emit/ts-print.ts, the copied support module kept
 * formatted in the repository, ajv's machine code marked
 * `prettier-ignore`). Formatting it again would change
 * nothing, and the safety tests check that this stays true.
 */
export interface PreformattedFile extends EmittedFile {
  readonly preformatted: true;
}

/** Marks a file as already formatted. */
export function preformatted(file: EmittedFile): PreformattedFile {
  return { ...file, preformatted: true };
}

/**
 * Formats every TypeScript file that is not already formatted; other files
 * pass through. Files still being emitted are taken as they come, so one
 * that is late holds up nobody. Returns them in the order given.
 */
export async function formatFiles(
  files: ReadonlyArray<EmittedFile | Promise<EmittedFile>>,
): Promise<EmittedFile[]> {
  return Promise.all(
    files.map(async (pending) => {
      const f = await pending;
      if ("preformatted" in f || !f.path.endsWith(".ts"))
        return { path: f.path, contents: f.contents };
      return {
        path: f.path,
        contents: await (await loadPrettier()).format(f.contents, PRETTIER_OPTIONS),
      };
    }),
  );
}

/** Whether prettier, with mcp-gen's options and the given parser, leaves `file` as it is. */
export async function isFormatted(
  file: EmittedFile,
  parser: "typescript" | "babel-ts" = "typescript",
): Promise<boolean> {
  return (await loadPrettier()).check(file.contents, { ...PRETTIER_OPTIONS, parser });
}
