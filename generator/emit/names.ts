/**
 * Identifier and literal helpers shared by the emitters, so name safety is
 * decided in one place. The names a generated module exports are in
 * model/output-names.ts (the model check uses them too) and re-exported here.
 */
export {
  builderName,
  guardName,
  isIdentifier,
  lowerFirst,
  resultUnionName,
  safeIdentifier,
  validatorName,
} from "../model/output-names.js";

/**
 * A property key: bare when it is an identifier, quoted otherwise
 * (`"tools/call"`). `__proto__` is computed (`["__proto__"]`): bare or
 * quoted in an object literal it would set the object's prototype instead
 * of a property.
 */
export function propertyKey(name: string): string {
  if (name === "__proto__") return '["__proto__"]';
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : jsonString(name);
}

/** A TypeScript/JSON string literal. */
export function literal(value: string | number | boolean): string {
  return typeof value === "string" ? jsonString(value) : JSON.stringify(value);
}

/**
 * A string as JSON, with the characters JSON.stringify leaves as they are
 * but which are control characters (DEL, U+0080 to U+009F) or line
 * separators (U+2028, U+2029) written as `\uXXXX` too: generated code holds
 * them as visible escapes, never as the bytes.
 */
export function jsonString(value: string): string {
  return JSON.stringify(value).replace(
    /[\u007f-\u009f\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
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

/**
 * Text with its control characters written as `\uXXXX` escapes: what a
 * schema or a server wrote (a NUL, an ESC that recolours a terminal)
 * reaches generated code's comments as visible text, never as the bytes.
 * Tab, line feed and carriage return are kept (comments lay out with them).
 */
export function escapeControls(text: string): string {
  return text.replace(
    // eslint-disable-next-line no-control-regex -- control characters are what this finds
    /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** A JSDoc block from text (undefined or empty text gives no block). */
export function jsDoc(...paragraphs: Array<string | undefined>): string {
  const text = paragraphs.filter((p): p is string => p !== undefined && p !== "").join("\n\n");
  if (text === "") return "";
  // Trailing spaces trimmed, as prettier reprints JSDoc lines.
  const lines = escapeControls(text)
    .replace(/[\u2028\u2029]/g, "\n")
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
