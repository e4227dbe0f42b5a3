/**
 * JSON values and JSON pointers: the types every stage passes around and
 * the few helpers on them. Reading JSON text, within the input limits, is
 * load/json.ts's.
 */

/** Any JSON value. */
export type JsonValue = string | number | boolean | null | JsonValue[] | JsonObject;
/** A JSON object. */
export interface JsonObject {
  [key: string]: JsonValue;
}

/** True for plain JSON objects (not arrays, not null). */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * A JSON value as a message shows it: a string as it is, anything else as
 * JSON, and a missing value as `undefined`.
 */
export function jsonText(value: JsonValue | undefined): string {
  if (typeof value === "string") return value;
  return value === undefined ? "undefined" : JSON.stringify(value);
}

/** Escapes one JSON pointer segment (RFC 6901). */
export function escapePointerSegment(segment: string): string {
  return segment.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** Splits a JSON pointer into unescaped segments. */
export function parsePointer(pointer: string): string[] {
  if (pointer === "") return [];
  if (!pointer.startsWith("/")) throw new Error(`JSON pointer must start with "/": ${pointer}`);
  return pointer
    .slice(1)
    .split("/")
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/** Structural equality of two JSON values (key order ignored). */
export function jsonEqual(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === b) return true;
  if (Array.isArray(a))
    return Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  if (isJsonObject(a) && isJsonObject(b)) {
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    return ka.every((k) => k in b && jsonEqual(a[k], b[k]));
  }
  return false;
}

/** A deep copy, so later stages can rewrite without touching their input. */
export function cloneJson<T extends JsonValue>(value: T): T {
  return structuredClone(value);
}
