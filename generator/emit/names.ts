/**
 * Identifier and literal helpers shared by the emitters, so name safety is
 * decided in one place.
 */

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

/**
 * A property key: bare when it is an identifier, quoted otherwise
 * (`"tools/call"`). `__proto__` is computed (`["__proto__"]`): bare or
 * quoted in an object literal it would set the object's prototype instead
 * of a property.
 */
export function propertyKey(name: string): string {
  if (name === "__proto__") return '["__proto__"]';
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : JSON.stringify(name);
}

/** A TypeScript/JSON string literal. */
export function literal(value: string | number | boolean): string {
  return JSON.stringify(value);
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

/**
 * The key a result branch is filed under in the generated tables: its
 * resultType; without one, "complete", or the definition's name for a
 * branch told apart by shape (its markers).
 */
export function branchKey(branch: {
  readonly definition: string;
  readonly resultType?: string;
  readonly markers?: readonly string[];
}): string {
  return branch.resultType ?? (branch.markers ? branch.definition : "complete");
}

/** The name of a request's result union: `CallToolRequest` → `CallToolRequestResult`. */
export function resultUnionName(request: { readonly definition: string }): string {
  return `${request.definition}Result`;
}

/** An error code's builder: `UnsupportedProtocolVersion` → `unsupportedProtocolVersionError`. */
export function builderName(code: { readonly name: string }): string {
  return lowerFirst(code.name.endsWith("Error") ? code.name : `${code.name}Error`);
}

/** A JSDoc block from text (undefined or empty text gives no block). */
export function jsDoc(...paragraphs: Array<string | undefined>): string {
  const text = paragraphs.filter((p): p is string => p !== undefined && p !== "").join("\n\n");
  if (text === "") return "";
  // Trailing spaces trimmed, as prettier reprints JSDoc lines.
  const lines = text
    .replace(/\*\//g, "*\\/")
    .split("\n")
    .map((l) => l.trimEnd());
  return `/**\n${lines.map((l) => (l ? ` * ${l}` : " *")).join("\n")}\n */\n`;
}

/** A single-line or multi-line readonly array literal of strings. */
export function stringArray(values: readonly string[]): string {
  return `[${values.map((v) => literal(v)).join(", ")}]`;
}

/**
 * The ajv keyword that stands for "any JSON value" (see
 * jsonValueDefinitions in emit-validators.ts; ajv-setup.ts defines it).
 */
export const JSON_VALUE_KEYWORD = "x-mcp-json-value";
