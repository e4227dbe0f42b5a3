/**
 * The typed error builders of merged extensions, in error-codes.gen.ts:
 * one object per extension with error codes (`jobsErrors` for an
 * extension named `jobs`), one builder per code (`jobNotFound`), each
 * returning an ExtensionError to throw from a handler. Its data is typed
 * by the error definition the manifest names for the code (`definition`),
 * `unknown` without one. The runtime answers a request whose handler threw
 * one with its code, message and data: generated code does not import the
 * runtime, so the error carries the mark the runtime looks for
 * (`Symbol.for("mcp-gen.json-rpc-error")`) instead of a runtime class.
 *
 * Before → after, for JOB_NOT_FOUND (-31001) of `jobs`:
 *   `new McpError(-31001, "Job not found", { jobId })`
 *   → `jobsErrors.jobNotFound({ jobId })`
 */
import type { ErrorCodeNode, McpModel, MergedExtension } from "../model/types.js";
import {
  EXTENSION_ERROR_CLASS,
  extensionErrorGroups,
  extensionErrorsName,
} from "../model/output-names.js";
import { jsDoc, lowerFirst } from "./names.js";
import { stringLiteral as literal } from "./ts-print.js";

const CLASS = `${jsDoc(
  "An error of an extension's code, to throw from a handler: the mcp-gen runtime answers the request with its code, message and data (it recognizes the error by the registered symbol `mcp-gen.json-rpc-error`).",
)}export class ${EXTENSION_ERROR_CLASS}<D = unknown> extends Error {
  readonly code: number;
  readonly data: D | undefined;

  constructor(code: number, message: string, data?: D) {
    super(message);
    this.name = "${EXTENSION_ERROR_CLASS}";
    this.code = code;
    this.data = data;
    Object.defineProperty(this, Symbol.for("mcp-gen.json-rpc-error"), { value: true });
  }

  /** The JSON-RPC error object. */
  toJSON(): { code: number; message: string; data?: D } {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}`;

/** The sections of error-codes.gen.ts for extension errors (none without extension codes). */
export function emitExtensionErrors(model: McpModel): string[] {
  const groups = extensionErrorGroups(model);
  if (groups.length === 0) return [];
  return [CLASS, ...groups.map(({ extension, codes }) => group(extension, codes))];
}

function group(extension: MergedExtension, codes: readonly ErrorCodeNode[]): string {
  const doc = jsDoc(
    `Errors of the ${extension.id} extension, to throw from a handler: \`throw ${extensionErrorsName(extension)}.${lowerFirst(codes[0]!.name)}(...)\`.`,
  );
  const members = codes.map(member).join("\n");
  return `${doc}export const ${extensionErrorsName(extension)} = {\n${members}\n} as const;`;
}

/** The type of a code's `data`, from its error definition, and whether the builder requires it. */
function dataOf(code: ErrorCodeNode): { type: string; required: boolean } {
  const def = code.definition;
  if (!def || def.data === "absent") return { type: "unknown", required: false };
  const type = def.form === "response" ? `T.${def.name}["error"]["data"]` : `T.${def.name}["data"]`;
  return { type, required: def.data === "required" };
}

function member(code: ErrorCodeNode): string {
  const { type, required } = dataOf(code);
  const message = literal(defaultMessage(code.name));
  const doc = jsDoc(`Code ${code.code}: ${code.doc ?? code.constant}`)
    .split("\n")
    .map((l) => (l === "" ? l : `  ${l}`))
    .join("\n");
  return `${doc}  ${lowerFirst(code.name)}(
    data${required ? "" : "?"}: ${type},
    message: string = ${message},
  ): ${EXTENSION_ERROR_CLASS}<${type}> {
    return new ${EXTENSION_ERROR_CLASS}(${code.code}, message, data);
  },`;
}

/** \`JobNotFound\` → \`Job not found\`. */
function defaultMessage(name: string): string {
  const words = name.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
