/**
 * emitErrorCodes: `ErrorCode` (a const object and its union type),
 * `ERROR_CODES` (metadata per code), the range rules, and a typed builder
 * per error definition of this revision.
 */
import type { ErrorCodeNode, McpModel } from "../model/types.js";
import { TsFileBuilder, type EmittedFile } from "./file.js";
import { emitExtensionErrors } from "./emit-extension-errors.js";
import { group, hardline, indent, line, type Doc } from "./doc.js";
import { builderName, jsDoc } from "./names.js";
import { ERROR_CODES_FILE, TYPES_FILE, moduleSpecifier } from "../model/output-names.js";
import {
  objectLiteral,
  parameterList,
  printCode,
  stringLiteral as literal,
  tableLiteral,
  type TableValue,
} from "./ts-print.js";

/** JSON-RPC 2.0's standard messages, used as the builders' default messages. */
const STANDARD_MESSAGES: Readonly<Record<number, string>> = {
  [-32700]: "Parse error",
  [-32600]: "Invalid Request",
  [-32601]: "Method not found",
  [-32602]: "Invalid params",
  [-32603]: "Internal error",
};

const RANGES = `${jsDoc(
  "Whether `code` is in -32020..-32099, the part of JSON-RPC's server-error range that MCP reserves for codes its specification defines. Implementations must not define codes here.",
)}export function isSpecReservedCode(code: number): boolean {
  return Number.isInteger(code) && code <= -32020 && code >= -32099;
}

${jsDoc("Whether `code` is in -32000..-32019, which MCP leaves to implementations; receivers must not give such codes meaning across implementations.")}export function isImplementationDefinedCode(code: number): boolean {
  return Number.isInteger(code) && code <= -32000 && code >= -32019;
}`;

const INFO_TYPE = `${jsDoc(
  "What ERROR_CODES records of a code. `policy`: `json-rpc` (JSON-RPC 2.0 standard), `spec` (defined by this revision), `legacy` (defined only by earlier revisions: accept it from older peers, never send it), `extension` (defined by an extension merged into this output).",
)}export interface ErrorCodeInfo {
  readonly name: string;
  readonly code: number;
  readonly policy: "json-rpc" | "spec" | "legacy" | "extension";
  /** True for legacy codes: only to be accepted from peers of earlier revisions. */
  readonly receiveOnly: boolean;
  /** Known revisions that define the code. */
  readonly revisions: readonly string[];
  /** The error definition that carries the code in this revision. */
  readonly definition?: string;
  readonly doc?: string;
}`;

/** Emits `error-codes.gen.ts`. */
export function emitErrorCodes(model: McpModel, bannerText: string): EmittedFile {
  const file = new TsFileBuilder(ERROR_CODES_FILE);
  const codes = model.errorCodes;
  file.add(
    `${jsDoc("Every error code this revision defines or must still accept, by name.")}export const ErrorCode = ${printCode(
      objectLiteral(
        codes.map((c) => [c.name, String(c.code), memberDoc(c)] as const),
        true,
      ),
    )} as const;`,
  );
  file.add(
    `${jsDoc("An error code this revision defines or must still accept.")}export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];`,
  );
  file.add(INFO_TYPE);
  file.add(
    `${jsDoc("Metadata of every error code, by code.")}export const ERROR_CODES: { readonly [code: number]: ErrorCodeInfo } = ${printCode(tableLiteral(codes.map(infoEntry)))};`,
  );
  file.add(RANGES);
  const builders = codes.filter((c) => c.definition && c.policy !== "legacy");
  if (builders.length > 0) file.importNamespace(moduleSpecifier(TYPES_FILE), "T", true);
  for (const code of builders) file.add(builder(code));
  for (const section of emitExtensionErrors(model)) file.add(section);
  return file.build(bannerText);
}

/** The JSDoc of an ErrorCode member: the code's doc, and a deprecation for a legacy code. */
function memberDoc(code: ErrorCodeNode): string {
  return jsDoc(
    code.doc,
    code.policy === "legacy"
      ? `@deprecated Legacy (${code.revisions.join(", ")}): accept it from older peers, never send it.`
      : undefined,
  );
}

function infoEntry(code: ErrorCodeNode): readonly [string, TableValue] {
  const fields: Array<readonly [string, TableValue]> = [
    ["name", literal(code.name)],
    ["code", String(code.code)],
    ["policy", literal(code.policy)],
    ["receiveOnly", String(code.policy === "legacy")],
    ["revisions", { array: code.revisions.map(literal) }],
    ...(code.definition ? [["definition", literal(code.definition.name)] as const] : []),
    ...(code.doc ? [["doc", literal(code.doc)] as const] : []),
  ];
  return [`[${code.code}]`, { object: fields }];
}

function defaultMessage(code: ErrorCodeNode): string {
  const words = code.name
    .replace(/Error$/, "")
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase();
  return STANDARD_MESSAGES[code.code] ?? words.charAt(0).toUpperCase() + words.slice(1);
}

function builder(code: ErrorCodeNode): string {
  const def = code.definition!;
  const errorType = def.form === "response" ? `T.${def.name}["error"]` : `T.${def.name}`;
  const message = `message: string = ${literal(defaultMessage(code))}`;
  const doc = jsDoc(
    `Builds the \`error\` member of a ${def.name} (code ${code.code}), ready to send.`,
  );
  const params =
    def.data === "required"
      ? [`data: ${errorType}["data"]`, message]
      : [message, def.data === "optional" ? `data?: ${errorType}["data"]` : "data?: unknown"];
  const withData = `{ code: ${code.code}, message, data }`;
  const result: Doc =
    def.data === "required"
      ? withData
      : group([
          "data === undefined",
          indent([line, `? { code: ${code.code}, message }`, line, `: ${withData}`]),
        ]);
  const body = printCode([
    `export function ${builderName(code)}`,
    parameterList(params),
    `: ${errorType} {`,
    indent([hardline, "return ", result, ";"]),
    hardline,
    "}",
  ]);
  return `${doc}${body}`;
}
