/**
 * JSON value types shared by every stage, and a parser whose errors say
 * where (line and column), not just what.
 */
import { diagnostic, McpGenError } from "../diagnostics.js";

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
 * Parses JSON text; on failure throws an McpGenError whose location is
 * `file:line:column` of the offending character.
 */
export function parseJsonText(text: string, file: string): JsonValue {
  try {
    return JSON.parse(text) as JsonValue;
  } catch (error) {
    const reason = (error as Error).message;
    const at = /at position (\d+)/.exec(reason);
    const offset = at ? Number(at[1]) : text.length;
    const { line, column } = lineAndColumn(text, offset);
    const short = reason.replace(/ in JSON at position \d+.*$/, "").replace(/^Unexpected end of JSON input$/, "unexpected end of input");
    throw new McpGenError([diagnostic("MCPG201", { reason: short }, { file, line, column })]);
  }
}

/** 1-based line and column of a character offset. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
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
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
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
