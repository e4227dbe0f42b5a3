/**
 * emitIndex: the module users import; re-exports every other module.
 */
import type { McpModel } from "../model/types.js";
import { TsFileBuilder, type EmittedFile } from "./file.js";
import { list } from "./layout.js";
import { INDEX_FILE, SUPPORT_FILE, moduleSpecifier } from "./paths.js";

/** Emits `index.ts` (laid out as prettier would, see layout.ts), re-exporting `modules` (paths of the other emitted TypeScript files). */
export function emitIndex(
  _model: McpModel,
  modules: readonly string[],
  bannerText: string,
): EmittedFile {
  const file = new TsFileBuilder(INDEX_FILE);
  file.add(modules.map((m) => `export * from ${JSON.stringify(moduleSpecifier(m))};`).join("\n"));
  file.add(
    list(
      0,
      "export type ",
      "{",
      ["JsonRpcErrorObject", "ParseResult", "ValidationError", "ValidationResult"],
      "}",
      ` from ${JSON.stringify(moduleSpecifier(SUPPORT_FILE))};`,
      true,
    ),
  );
  return file.build(bannerText);
}
