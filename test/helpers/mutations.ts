/**
 * Mutations of a JSON value for differential tests of validators: each
 * node removed (object members) or replaced by one of a few values of every
 * JSON type and some MCP shapes, recursively to a bounded depth.
 */
import { isJsonObject, type JsonValue } from "../../generator/load/json.js";

/** What a node is replaced by: one value of each JSON type, and shapes validators branch on. */
export const REPLACEMENTS: readonly JsonValue[] = [
  null,
  42,
  1.5,
  "x",
  true,
  [],
  {},
  [{}],
  { type: "text" },
  { type: "image", data: "", mimeType: "image/png" },
  { method: "roots/list" },
];

/** The value with the node at each path removed or replaced by each of REPLACEMENTS. */
export function* mutations(value: JsonValue, depth = 0): Generator<JsonValue> {
  if (depth > 6) return;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      for (const r of REPLACEMENTS) yield value.map((v, j) => (j === i ? r : v));
      for (const m of mutations(value[i]!, depth + 1)) yield value.map((v, j) => (j === i ? m : v));
    }
  } else if (isJsonObject(value)) {
    for (const key of Object.keys(value)) {
      const { [key]: _removed, ...rest } = value;
      yield rest;
      for (const r of REPLACEMENTS) yield { ...value, [key]: r };
      for (const m of mutations(value[key]!, depth + 1)) yield { ...value, [key]: m };
    }
  }
}
