/**
 * Keyword-aware traversal of JSON Schema documents. Only values that are
 * schemas are visited, so data (`const`, `enum`, `default`) and the names
 * in `properties` are never mistaken for keywords.
 */
import {
  escapePointerSegment,
  isJsonObject,
  type JsonObject,
  type JsonValue,
} from "./json-value.js";

const SINGLE = [
  "additionalProperties",
  "additionalItems",
  "contains",
  "not",
  "if",
  "then",
  "else",
  "propertyNames",
  "unevaluatedProperties",
  "unevaluatedItems",
];
const LIST = ["allOf", "anyOf", "oneOf", "prefixItems"];
const MAP = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"];

/** Calls `visit` on `schema` and every subschema in it, depth first, with JSON pointers. */
export function forEachSchema(
  schema: JsonValue,
  pointer: string,
  visit: (node: JsonObject, pointer: string) => void,
): void {
  if (!isJsonObject(schema)) return;
  visit(schema, pointer);
  for (const [key, child, childPointer] of subschemaEntries(schema, pointer)) {
    void key;
    forEachSchema(child, childPointer, visit);
  }
}

/**
 * Rebuilds `schema` bottom-up: subschemas first, then `rewrite` on the node
 * with its rebuilt children. Returns new objects; never mutates the input.
 */
export function mapSchema(
  schema: JsonValue,
  rewrite: (node: JsonObject, pointer: string) => JsonValue,
  pointer = "",
): JsonValue {
  if (!isJsonObject(schema)) return schema;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) {
    const mapped = mapKeyword(key, value, rewrite, `${pointer}/${escapePointerSegment(key)}`);
    // Assigned, `__proto__` would set the prototype: a property of that name (in a tool's schema) stays an own property.
    if (key === "__proto__")
      Object.defineProperty(out, key, {
        value: mapped,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    else out[key] = mapped;
  }
  return rewrite(out, pointer);
}

function mapKeyword(
  key: string,
  value: JsonValue,
  rewrite: (node: JsonObject, pointer: string) => JsonValue,
  pointer: string,
): JsonValue {
  if (SINGLE.includes(key) || (key === "items" && !Array.isArray(value)))
    return mapSchema(value, rewrite, pointer);
  if ((LIST.includes(key) || key === "items") && Array.isArray(value))
    return value.map((v, i) => mapSchema(v, rewrite, `${pointer}/${i}`));
  if ((MAP.includes(key) || key === "dependencies") && isJsonObject(value)) {
    // fromEntries defines own properties: assigned, a property named __proto__ would set the prototype and vanish.
    return Object.fromEntries(
      Object.entries(value).map(([name, v]) => [
        name,
        // draft-07 `dependencies` mixes schemas with arrays of property names.
        Array.isArray(v) ? v : mapSchema(v, rewrite, `${pointer}/${escapePointerSegment(name)}`),
      ]),
    );
  }
  return value;
}

/** The direct subschemas of a node: `[keyword, subschema, pointer]`. */
export function subschemaEntries(
  schema: JsonObject,
  pointer: string,
): Array<[string, JsonValue, string]> {
  const out: Array<[string, JsonValue, string]> = [];
  for (const [key, value] of Object.entries(schema)) {
    const here = `${pointer}/${escapePointerSegment(key)}`;
    if (SINGLE.includes(key) || (key === "items" && !Array.isArray(value)))
      out.push([key, value, here]);
    else if ((LIST.includes(key) || key === "items") && Array.isArray(value))
      value.forEach((v, i) => out.push([key, v, `${here}/${i}`]));
    else if ((MAP.includes(key) || key === "dependencies") && isJsonObject(value)) {
      for (const [name, v] of Object.entries(value))
        if (!Array.isArray(v)) out.push([key, v, `${here}/${escapePointerSegment(name)}`]);
    }
  }
  return out;
}
