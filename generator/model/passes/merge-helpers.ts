/**
 * What the merge's steps share: comparing schemas by structure, and editing
 * a declaration's two views (the type's and the validator's) together.
 */
import { cloneJson, type JsonObject, type JsonValue } from "../../load/json.js";
import { mapSchema } from "../../shared/schema-walk.js";
import { DEFS_PREFIX } from "../build-declarations.js";
import type { Declaration } from "../types.js";

const ANNOTATIONS = new Set([
  "description",
  "title",
  "$comment",
  "examples",
  "$schema",
  "deprecated",
]);

/** A schema without annotations, for structural comparison. */
export function structure(schema: JsonValue): JsonValue {
  return typeof schema === "object" && schema !== null
    ? mapSchema(schema, (node) =>
        Object.fromEntries(Object.entries(node).filter(([k]) => !ANNOTATIONS.has(k))),
      )
    : schema;
}

/** A `$ref` to a definition. */
export const ref = (name: string): JsonObject => ({ $ref: `${DEFS_PREFIX}${name}` });

/** Applies `edit` to both views of a declaration's schema (copies; inputs untouched). */
export function editSchemas(
  decl: Declaration,
  edit: (schema: JsonObject) => JsonObject | string,
): Declaration | string {
  const views = [decl.schema, decl.validatorSchema].map((s) =>
    typeof s === "object" ? edit(cloneJson(s)) : "it is a boolean schema",
  );
  const failure = views.find((v): v is string => typeof v === "string");
  return (
    failure ?? { ...decl, schema: views[0] as JsonObject, validatorSchema: views[1] as JsonObject }
  );
}
