/**
 * The JSON Schema dialects mcp-gen reads, and how to tell them apart: the
 * `$schema` URIs that name each, and the keywords only one of them has. One
 * list per fact, for every stage: loading a revision's schema, checking a
 * tool's, choosing the ajv engine that compiles a validator, and the
 * Standard JSON Schema targets a generated schema is offered as.
 */
import { isJsonObject, type JsonObject, type JsonValue } from "./json-value.js";
import { forEachSchema } from "./schema-walk.js";

/** The JSON Schema dialects mcp-gen reads. */
export type Dialect = "draft-07" | "2020-12";

/** The `$schema` URIs mcp-gen accepts, mapped to the dialect they name. */
export const DIALECT_URIS: Readonly<Record<string, Dialect>> = {
  "http://json-schema.org/draft-07/schema#": "draft-07",
  "http://json-schema.org/draft-07/schema": "draft-07",
  "https://json-schema.org/draft-07/schema#": "draft-07",
  "https://json-schema.org/draft-07/schema": "draft-07",
  "https://json-schema.org/draft/2020-12/schema": "2020-12",
  "https://json-schema.org/draft/2020-12/schema#": "2020-12",
};

/**
 * Keywords 2020-12 defines and draft-07 does not. `items` is read
 * differently too (an array of schemas is draft-07's tuple, 2020-12's
 * `prefixItems`), which {@link usesDialectKeyword} looks at by its value.
 *
 * `$recursiveRef` and `$recursiveAnchor` are not here: they are
 * 2019-09's, which 2020-12 replaced with `$dynamicRef` and
 * `$dynamicAnchor`. Neither dialect mcp-gen reads defines them, so a schema
 * using them means the same in both (they are unknown keywords, which
 * validate nothing), and the draft-07 engine, which ignores them, validates
 * it as the spec says.
 */
export const ONLY_2020_12: readonly string[] = [
  "prefixItems",
  "unevaluatedProperties",
  "unevaluatedItems",
  "dependentSchemas",
  "dependentRequired",
  "$dynamicRef",
  "$dynamicAnchor",
  "$anchor",
  "minContains",
  "maxContains",
];

/** Keywords draft-07 defines and 2020-12 dropped (`additionalItems`, `dependencies`). */
export const ONLY_DRAFT_07: readonly string[] = ["additionalItems", "dependencies"];

/** Whether a schema uses a keyword only 2020-12 has: only an engine of that dialect validates it. */
export function uses2020Keywords(schema: JsonValue): boolean {
  return anySchema(schema, (node) => ONLY_2020_12.some((k) => Object.hasOwn(node, k)));
}

/**
 * Whether a schema uses a keyword that means something in one of the two
 * dialects only (either's own keywords, or `items` as an array): a schema
 * that uses none means the same in both.
 */
export function usesDialectKeyword(schema: JsonValue): boolean {
  return anySchema(
    schema,
    (node) =>
      Array.isArray(node.items) ||
      ONLY_2020_12.some((k) => Object.hasOwn(node, k)) ||
      ONLY_DRAFT_07.some((k) => Object.hasOwn(node, k)),
  );
}

function anySchema(schema: JsonValue, test: (node: JsonObject) => boolean): boolean {
  if (!isJsonObject(schema)) return false;
  let found = false;
  forEachSchema(schema, "", (node) => {
    if (!found && test(node)) found = true;
  });
  return found;
}
