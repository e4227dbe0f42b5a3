/**
 * Whether two JSON Schemas mean the same, for `mcp-gen diff`: annotations
 * (descriptions, titles, examples) do not count, `required` and `enum` are
 * sets, and a `$ref` to a definition of the same name on both sides is the
 * same (that definition's own changes are reported on it). A `$ref` facing
 * an inline schema, or refs to differently named definitions, are compared
 * by what they point to.
 */
import type { JsonValue } from "../load/json.js";
import type { JsonSchema } from "../model/types.js";

/** The definitions of both models, by name. */
export interface SchemaContext {
  readonly from: ReadonlyMap<string, JsonSchema>;
  readonly to: ReadonlyMap<string, JsonSchema>;
}

/** Keywords that describe a schema without constraining values. */
const ANNOTATIONS = new Set([
  "description",
  "title",
  "$comment",
  "examples",
  "markdownDescription",
  "deprecated",
  "$schema",
  "$id",
]);
/** Keywords whose array value is a set. */
const SETS = new Set(["required", "enum", "type"]);
/** How many refs deep a comparison follows before it calls the schemas different. */
const MAX_DEPTH = 8;

/** Keywords that allow anything when their value is `{}` or `true`, as when they are absent. */
const PERMISSIVE_BY_DEFAULT = new Set([
  "additionalProperties",
  "unevaluatedProperties",
  "items",
  "unevaluatedItems",
]);

/**
 * The schema without annotation keywords, at every level, and without
 * keywords that say what their absence says (`additionalProperties: {}`).
 */
export function stripAnnotations(schema: JsonValue): JsonValue {
  if (Array.isArray(schema)) return schema.map(stripAnnotations);
  if (typeof schema !== "object" || schema === null) return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(
        ([k, v]) => !ANNOTATIONS.has(k) && !(PERMISSIVE_BY_DEFAULT.has(k) && allowsAnything(v)),
      )
      .map(([k, v]) => [k, k === "properties" ? stripProperties(v) : stripAnnotations(v)]),
  );
}

function allowsAnything(schema: JsonValue): boolean {
  return (
    schema === true ||
    (typeof schema === "object" &&
      schema !== null &&
      !Array.isArray(schema) &&
      Object.keys(schema).length === 0)
  );
}

/** `properties` maps names to schemas: a property called `description` is not an annotation. */
function stripProperties(properties: JsonValue): JsonValue {
  if (typeof properties !== "object" || properties === null || Array.isArray(properties))
    return properties;
  return Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, stripAnnotations(v)]));
}

/** The definition names every `$ref` in a schema points to (local refs only). */
export function refsOf(schema: JsonValue): string[] {
  const out = new Set<string>();
  const walk = (node: JsonValue) => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (typeof node === "object" && node !== null)
      for (const [key, value] of Object.entries(node)) {
        if (key === "$ref" && typeof value === "string") {
          const name = refName(value);
          if (name !== undefined) out.add(name);
        } else walk(value);
      }
  };
  walk(schema);
  return [...out];
}

/** `#/$defs/Name` or `#/definitions/Name` → `Name`. */
function refName(ref: string): string | undefined {
  const match = /^#\/(?:\$defs|definitions)\/([^/]+)$/.exec(ref);
  return match ? decodeURIComponent(match[1]!.replace(/~1/g, "/").replace(/~0/g, "~")) : undefined;
}

/** True when `before` (from the old model) and `after` (from the new) accept the same values. */
export function compareSchemas(
  before: JsonValue,
  after: JsonValue,
  context: SchemaContext,
  depth = 0,
): boolean {
  const a = stripAnnotations(before);
  const b = stripAnnotations(after);
  const refA = onlyRef(a);
  const refB = onlyRef(b);
  if (refA !== undefined && refA === refB) return true;
  if (depth < MAX_DEPTH && (refA !== undefined || refB !== undefined)) {
    const left = refA !== undefined ? context.from.get(refA) : a;
    const right = refB !== undefined ? context.to.get(refB) : b;
    if (left === undefined || right === undefined) return false;
    return compareSchemas(left, right, context, depth + 1);
  }
  return sameValue(a, b, context, depth);
}

/** The definition a schema is nothing but a reference to. */
function onlyRef(schema: JsonValue): string | undefined {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return undefined;
  const keys = Object.keys(schema);
  const ref = schema.$ref;
  return keys.length === 1 && typeof ref === "string" ? refName(ref) : undefined;
}

function sameValue(a: JsonValue, b: JsonValue, context: SchemaContext, depth: number): boolean {
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => compareSchemas(item, b[i]!, context, depth));
  }
  if (typeof a !== "object" || a === null || typeof b !== "object" || b === null) return a === b;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => {
    if (!(key in b)) return false;
    const [x, y] = [a[key]!, b[key]!];
    if (key === "$ref" && typeof x === "string" && typeof y === "string")
      return refName(x) !== undefined && refName(x) === refName(y);
    if (SETS.has(key) && Array.isArray(x) && Array.isArray(y)) return sameSet(x, y);
    if (
      key === "properties" ||
      key === "$defs" ||
      key === "definitions" ||
      key === "patternProperties"
    )
      return sameMap(x, y, context, depth);
    return compareSchemas(x, y, context, depth);
  });
}

function sameSet(a: readonly JsonValue[], b: readonly JsonValue[]): boolean {
  const left = new Set(a.map((v) => JSON.stringify(v)));
  const right = new Set(b.map((v) => JSON.stringify(v)));
  return left.size === right.size && [...left].every((v) => right.has(v));
}

/** Objects whose keys are names, not keywords: compared key by key. */
function sameMap(a: JsonValue, b: JsonValue, context: SchemaContext, depth: number): boolean {
  if (typeof a !== "object" || a === null || Array.isArray(a))
    return sameValue(a, b, context, depth);
  if (typeof b !== "object" || b === null || Array.isArray(b)) return false;
  const keys = Object.keys(a);
  return (
    keys.length === Object.keys(b).length &&
    keys.every((k) => k in b && compareSchemas(a[k]!, b[k]!, context, depth))
  );
}
