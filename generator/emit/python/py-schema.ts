/**
 * JSON Schema algebra the Python emitter needs before it can map a schema
 * to pydantic: annotations dropped, `allOf` merged into one schema and
 * `anyOf` distributed over the keywords beside it, where that keeps the
 * meaning exactly:
 *
 *   allOf: [{$ref: Result}, {properties: {resultType: {const: "task"}}}]
 *   → {type: "object", properties: {_meta: …, resultType: {type: "string", const: "task"}}, …}
 *
 * A merge that cannot be proven exact returns undefined, and the caller
 * keeps the keywords for a check at run time instead.
 */
import { isJsonObject, type JsonObject, type JsonValue } from "../../load/json.js";
import { refName } from "../../model/build-declarations.js";

/** Keywords that never change what a schema accepts (format too: it is not asserted, as in the TypeScript validators). */
const ANNOTATIONS = new Set([
  "description",
  "title",
  "$comment",
  "examples",
  "deprecated",
  "readOnly",
  "writeOnly",
  "default",
  "$schema",
  "$id",
  "format",
  "contentMediaType",
  "contentEncoding",
]);

/** Resolves a definition's validator schema by name. */
export type Resolve = (name: string) => JsonValue | undefined;

/** The schema without annotations at its top level (and without `x-` keywords, which are ours or a vendor's notes). */
export function stripped(schema: JsonValue): JsonValue {
  if (!isJsonObject(schema)) return schema;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(schema))
    if (!ANNOTATIONS.has(key) && !key.startsWith("x-")) out[key] = value;
  return out;
}

/** True for a schema that accepts every value (`true`, `{}`, only annotations). */
export function acceptsAll(schema: JsonValue | undefined): boolean {
  if (schema === undefined || schema === true) return true;
  return isJsonObject(schema) && Object.keys(stripped(schema) as JsonObject).length === 0;
}

/** True for a schema that accepts nothing (`false`, `{not: {}}`). */
export function acceptsNothing(schema: JsonValue | undefined): boolean {
  if (schema === false) return true;
  if (!isJsonObject(schema)) return false;
  const s = stripped(schema) as JsonObject;
  return Object.keys(s).length === 1 && "not" in s && acceptsAll(s.not);
}

/** A schema's `$ref` target when the schema is that reference alone (annotations aside). */
export function onlyRef(schema: JsonValue): string | undefined {
  if (!isJsonObject(schema)) return undefined;
  const s = stripped(schema) as JsonObject;
  return Object.keys(s).length === 1 ? refName(s.$ref) : undefined;
}

/** `{$ref, …siblings}` as `{allOf: [{$ref}, {…siblings}]}`, which is what 2020-12 means by it. */
export function refWithSiblings(schema: JsonObject): JsonObject | undefined {
  if (typeof schema.$ref !== "string" || Object.keys(schema).length === 1) return undefined;
  const { $ref, ...rest } = schema;
  return { allOf: [{ $ref }, rest] };
}

/**
 * The schemas of `allOf` (and any siblings) merged into one, references
 * resolved through `resolve`; undefined when some keyword would not merge
 * exactly. An `anyOf` among them is distributed:
 * allOf(A, anyOf(B, C)) = anyOf(allOf(A, B), allOf(A, C)).
 */
export function mergeAllOf(schema: JsonObject, resolve: Resolve): JsonValue | undefined {
  const { allOf, ...rest } = stripped(schema) as JsonObject;
  const members = [...(Array.isArray(allOf) ? allOf : []), rest];
  let merged: JsonValue = true;
  for (const member of members) {
    const next = merge(merged, member, resolve, 0);
    if (next === undefined) return undefined;
    merged = next;
  }
  return merged;
}

const MAX_DEPTH = 16;

/** Two schemas as one that accepts exactly what both accept, or undefined. */
export function merge(
  a: JsonValue,
  b: JsonValue,
  resolve: Resolve,
  depth: number,
): JsonValue | undefined {
  if (depth > MAX_DEPTH) return undefined;
  if (acceptsAll(a)) return expand(b, resolve, depth);
  if (acceptsAll(b)) return expand(a, resolve, depth);
  if (acceptsNothing(a) || acceptsNothing(b)) return false;
  const left = expand(a, resolve, depth);
  const right = expand(b, resolve, depth);
  if (!isJsonObject(left) || !isJsonObject(right)) return undefined;
  for (const [one, other] of [
    [left, right],
    [right, left],
  ] as const) {
    if (Array.isArray(one.anyOf)) {
      const { anyOf, ...base } = one;
      const branches = anyOf.map((branch) =>
        merge(merge(base, branch, resolve, depth + 1) ?? false, other, resolve, depth + 1),
      );
      if (branches.some((x) => x === undefined)) return undefined;
      return { anyOf: branches as JsonValue[] };
    }
  }
  return mergeKeywords(left, right, resolve, depth);
}

/** A schema with its references and `allOf` resolved at the top level (not below). */
function expand(schema: JsonValue, resolve: Resolve, depth: number): JsonValue | undefined {
  if (!isJsonObject(schema)) return schema;
  const s = stripped(schema) as JsonObject;
  const ref = refName(s.$ref);
  if (ref !== undefined) {
    const target = resolve(ref);
    if (target === undefined) return undefined;
    const { $ref: _ref, ...siblings } = s;
    return merge(target, siblings, resolve, depth + 1);
  }
  if (Array.isArray(s.allOf)) return mergeAllOf(s, resolve);
  return s;
}

const OBJECT_KEYWORDS = new Set([
  "properties",
  "required",
  "additionalProperties",
  "propertyNames",
]);
const TIGHTER_MAX = new Set([
  "maximum",
  "exclusiveMaximum",
  "maxItems",
  "maxLength",
  "maxProperties",
]);
const TIGHTER_MIN = new Set([
  "minimum",
  "exclusiveMinimum",
  "minItems",
  "minLength",
  "minProperties",
]);

function mergeKeywords(
  a: JsonObject,
  b: JsonObject,
  resolve: Resolve,
  depth: number,
): JsonValue | undefined {
  const out: JsonObject = {};
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  if ([...keys].some((k) => OBJECT_KEYWORDS.has(k))) {
    const object = mergeObjects(a, b, resolve, depth);
    if (object === undefined) return undefined;
    Object.assign(out, object);
  }
  for (const key of keys) {
    if (OBJECT_KEYWORDS.has(key)) continue;
    const x = a[key];
    const y = b[key];
    if (x === undefined || y === undefined) {
      out[key] = (x ?? y)!;
      continue;
    }
    const both = mergeKeyword(key, x, y, resolve, depth);
    if (both === undefined) return undefined;
    if (both === false) return false;
    out[key] = both;
  }
  return out;
}

function mergeKeyword(
  key: string,
  x: JsonValue,
  y: JsonValue,
  resolve: Resolve,
  depth: number,
): JsonValue | undefined {
  if (JSON.stringify(x) === JSON.stringify(y)) return x;
  if (key === "type") return mergeTypes(x, y);
  if (key === "const") return false;
  if (key === "enum" && Array.isArray(x) && Array.isArray(y)) {
    const common = x.filter((v) => y.some((w) => JSON.stringify(v) === JSON.stringify(w)));
    return common.length === 0 ? false : common;
  }
  if (typeof x === "number" && typeof y === "number") {
    if (TIGHTER_MAX.has(key)) return Math.min(x, y);
    if (TIGHTER_MIN.has(key)) return Math.max(x, y);
  }
  if (key === "items" && !Array.isArray(x) && !Array.isArray(y))
    return merge(x, y, resolve, depth + 1);
  return undefined;
}

function mergeTypes(x: JsonValue, y: JsonValue): JsonValue {
  const list = (t: JsonValue) => (Array.isArray(t) ? (t as string[]) : [t as string]);
  const left = list(x);
  const right = list(y);
  const common = new Set<string>();
  for (const t of left)
    for (const u of right) {
      if (t === u) common.add(t);
      else if ((t === "integer" && u === "number") || (t === "number" && u === "integer"))
        common.add("integer");
    }
  if (common.size === 0) return false;
  const types = [...common];
  return types.length === 1 ? types[0]! : types;
}

/**
 * properties, required, additionalProperties and propertyNames of both:
 * a property either side names is checked by both sides' schemas for it
 * (the other side's additionalProperties when it does not name it).
 */
function mergeObjects(
  a: JsonObject,
  b: JsonObject,
  resolve: Resolve,
  depth: number,
): JsonObject | undefined {
  if (a.patternProperties !== undefined || b.patternProperties !== undefined) return undefined;
  const propsA = isJsonObject(a.properties) ? a.properties : {};
  const propsB = isJsonObject(b.properties) ? b.properties : {};
  const extraA = a.additionalProperties ?? true;
  const extraB = b.additionalProperties ?? true;
  const properties: JsonObject = {};
  for (const name of new Set([...Object.keys(propsA), ...Object.keys(propsB)])) {
    const merged = merge(propsA[name] ?? extraA, propsB[name] ?? extraB, resolve, depth + 1);
    if (merged === undefined) return undefined;
    properties[name] = merged;
  }
  const additional = merge(extraA, extraB, resolve, depth + 1);
  if (additional === undefined) return undefined;
  const required = [
    ...new Set([
      ...(Array.isArray(a.required) ? a.required : []),
      ...(Array.isArray(b.required) ? b.required : []),
    ]),
  ];
  const names = [a.propertyNames, b.propertyNames].filter(
    (n) => n !== undefined && !trivialPropertyNames(n),
  );
  if (names.length > 1) return undefined;
  return {
    ...(Object.keys(properties).length > 0 ? { properties } : {}),
    ...(required.length > 0 ? { required } : {}),
    ...(acceptsAll(additional) ? {} : { additionalProperties: additional }),
    ...(names.length === 1 ? { propertyNames: names[0]! } : {}),
  };
}

/** `propertyNames: {type: "string"}` holds for every object: JSON's names are strings. */
export function trivialPropertyNames(schema: JsonValue): boolean {
  if (acceptsAll(schema)) return true;
  const s = isJsonObject(schema) ? (stripped(schema) as JsonObject) : undefined;
  return s !== undefined && Object.keys(s).length === 1 && s.type === "string";
}
