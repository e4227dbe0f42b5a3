/**
 * emitIndex: the module users import; re-exports every other module.
 */
import type { McpModel } from "../model/types.js";
import { TsFileBuilder, type EmittedFile } from "./file.js";
import {
  INDEX_FILE,
  STANDARD_SCHEMA_SUPPORT_FILE,
  SUPPORT_FILE,
  moduleSpecifier,
} from "../model/output-names.js";
import { namedList, printCode } from "./ts-print.js";

/** The Standard Schema types index.ts re-exports. */
export const STANDARD_SCHEMA_TYPES = [
  "JsonSchemaTarget",
  "StandardIssue",
  "StandardResult",
  "StandardSchema",
];

/** Emits `index.ts`, re-exporting `modules` (paths of the other emitted TypeScript files). */
export function emitIndex(
  _model: McpModel,
  modules: readonly string[],
  bannerText: string,
): EmittedFile {
  const file = new TsFileBuilder(INDEX_FILE);
  file.add(modules.map((m) => `export * from ${JSON.stringify(moduleSpecifier(m))};`).join("\n"));
  file.add(
    printCode([
      "export type ",
      namedList(["JsonRpcErrorObject", "ParseResult", "ValidationError", "ValidationResult"]),
      ` from ${JSON.stringify(moduleSpecifier(SUPPORT_FILE))};`,
    ]),
  );
  file.add(
    printCode([
      "export type ",
      namedList(STANDARD_SCHEMA_TYPES),
      ` from ${JSON.stringify(moduleSpecifier(STANDARD_SCHEMA_SUPPORT_FILE))};`,
    ]),
  );
  return file.build(bannerText);
}
