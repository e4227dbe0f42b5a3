/**
 * Where each emitted module lives in the output folder, and how modules
 * import each other. Kept apart from the emitters so that naming a module
 * never loads its backend (ajv).
 */

/** One exported type per definition. */
export const TYPES_FILE = "types.gen.ts";
/** ajv standalone code. */
export const COMPILED_VALIDATORS_FILE = "ajv-validators.gen.ts";
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

/** The Standard Schema support module's specifier. */
export const STANDARD_SCHEMA_MODULE = moduleSpecifier(STANDARD_SCHEMA_SUPPORT_FILE);
