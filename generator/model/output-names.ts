/**
 * The names of what the emit stage writes: each module's file in the
 * output folder and how modules import each other, and the identifiers
 * generated modules export for a definition or an error code. They live
 * here, before the emitters, because the model check (check-model/)
 * refuses a model whose names would collide: it may not import emit/, and
 * naming a module must never load its backend (ajv).
 */

import type { ErrorCodeNode, McpModel, MergedExtension } from "./types.js";

/** One exported type per definition. */
export const TYPES_FILE = "types.gen.ts";
/**
 * ajv standalone code, as JavaScript with a declaration file beside it
 * (`declarationsFile`): tsc reads the declarations and never ajv's code,
 * whose functions can be too large for it to infer types from (a
 * propertyNames of 76 constants makes a 160 KB function that overflows
 * tsc's stack).
 */
export const COMPILED_VALIDATORS_FILE = "ajv-validators.gen.js";
/** ajv standalone code that lists a rejected message's problems (JavaScript with declarations, as above). */
export const PROBLEM_VALIDATORS_FILE = "ajv-problems.gen.js";

/** The declaration file tsc reads for a generated JavaScript module (`x.gen.d.ts` for `x.gen.js`). */
export function declarationsFile(path: string): string {
  return path.replace(/\.js$/, ".d.ts");
}
/** The typed API over the compiled validators. */
export const VALIDATE_API_FILE = "validators.gen.ts";
/** parseMessage / parseResponse. */
export const MESSAGES_FILE = "messages.gen.ts";
/** resultType set, per-method result unions, resultTypeOf. */
export const RESULT_TYPES_FILE = "result-types.gen.ts";
/** ErrorCode, ERROR_CODES, builders. */
export const ERROR_CODES_FILE = "error-codes.gen.ts";
/** METHODS, NOTIFICATIONS, type maps, METHOD_AVAILABILITY. */
export const METHODS_FILE = "methods.gen.ts";
/** PROTOCOL_VERSION and the `_meta` key rules. */
export const PROTOCOL_FILE = "protocol.gen.ts";
/** The copied revision-independent support code. */
export const SUPPORT_FILE = "support.gen.ts";
/** Every definition as a Standard Schema, with its JSON Schema. */
export const STANDARD_SCHEMAS_FILE = "standard-schemas.gen.ts";
/** The copied revision-independent Standard Schema code. */
export const STANDARD_SCHEMA_SUPPORT_FILE = "standard-schema.gen.ts";
/** The module users import. */
export const INDEX_FILE = "index.ts";

/** `types.gen.ts` → `./types.gen.js`: the specifier another emitted module imports it by. */
export function moduleSpecifier(path: string): string {
  return `./${path.replace(/\.ts$/, ".js")}`;
}

/** The support module's specifier. */
export const SUPPORT_MODULE = moduleSpecifier(SUPPORT_FILE);

const RESERVED = new Set(
  "break case catch class const continue debugger default delete do else enum export extends false finally for function if import in instanceof new null return super switch this throw true try typeof var void while with as implements interface let package private protected public static yield await".split(
    " ",
  ),
);

/** True when `name` can be used as a TypeScript identifier as is. */
export function isIdentifier(name: string): boolean {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) && !RESERVED.has(name);
}

/** A safe identifier for `name`: invalid characters become `_`, reserved words get a trailing `_`. */
export function safeIdentifier(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9_$]/g, "_").replace(/^([0-9])/, "_$1");
  return RESERVED.has(cleaned) ? `${cleaned}_` : cleaned;
}

/** `unsupported_protocol_version` / `UnsupportedProtocolVersion` → `unsupportedProtocolVersion`. */
export function lowerFirst(name: string): string {
  return name.charAt(0).toLowerCase() + name.slice(1);
}

/** The exported name of a definition's compiled validator. */
export function validatorName(definition: string): string {
  return `validate${safeIdentifier(definition)}`;
}

/** The exported name of a definition's type guard. */
export function guardName(definition: string): string {
  return `is${safeIdentifier(definition)}`;
}

/** The name of a request's result union: `CallToolRequest` → `CallToolRequestResult`. */
export function resultUnionName(request: { readonly definition: string }): string {
  return `${request.definition}Result`;
}

/** An error code's builder: `UnsupportedProtocolVersion` → `unsupportedProtocolVersionError`. */
export function builderName(code: { readonly name: string }): string {
  return lowerFirst(code.name.endsWith("Error") ? code.name : `${code.name}Error`);
}

/** The Standard Schema support module's specifier. */
export const STANDARD_SCHEMA_MODULE = moduleSpecifier(STANDARD_SCHEMA_SUPPORT_FILE);

/** The class every builder returns, emitted once when some extension has error codes. */
export const EXTENSION_ERROR_CLASS = "ExtensionError";

/** \`jobs\` → \`jobsErrors\`, \`my-ext\` → \`myExtErrors\`: the object holding an extension's builders. */
export function extensionErrorsName(extension: { readonly name: string }): string {
  const camel = extension.name.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
  return `${camel}Errors`;
}

/** Each merged extension that defines error codes, with its codes. */
export function extensionErrorGroups(
  model: McpModel,
): Array<{ extension: MergedExtension; codes: ErrorCodeNode[] }> {
  return model.extensions
    .map((extension) => ({
      extension,
      codes: model.errorCodes.filter(
        (c) => c.policy === "extension" && c.origin.file === extension.manifestFile,
      ),
    }))
    .filter((group) => group.codes.length > 0);
}
