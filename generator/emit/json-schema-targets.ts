/**
 * Which Standard JSON Schema targets a generated schema can be given as
 * (generator/emit/static/standard-schema.ts serves them): its own dialect,
 * and the other dialect mcp-gen reads when the schema uses no keyword that
 * means something in one of the two only. Such a schema means the same in
 * both, so only its `$schema` changes.
 */
import type { JsonObject, JsonValue } from "../load/json.js";
import { forEachSchema } from "../shared/schema-walk.js";

/** A Standard JSON Schema target name. */
export type JsonSchemaTargetName = "draft-2020-12" | "draft-07";

const TARGET_OF: Readonly<Record<"2020-12" | "draft-07", JsonSchemaTargetName>> = {
  "2020-12": "draft-2020-12",
  "draft-07": "draft-07",
};

/** Keywords draft-07 does not have, or (`items`) reads differently. */
const ONLY_2020 = [
  "prefixItems",
  "unevaluatedProperties",
  "unevaluatedItems",
  "dependentSchemas",
  "dependentRequired",
  "$dynamicRef",
  "$dynamicAnchor",
  "$recursiveRef",
  "$recursiveAnchor",
  "$anchor",
  "minContains",
  "maxContains",
];

/** Keywords 2020-12 dropped, or (`items` as an array) reads differently. */
const ONLY_DRAFT_07 = ["additionalItems", "dependencies"];

/** The targets `schemas`, all of `dialect`, can be given as: its own first. */
export function jsonSchemaTargets(
  dialect: "2020-12" | "draft-07",
  schemas: readonly JsonValue[],
): JsonSchemaTargetName[] {
  const own = TARGET_OF[dialect];
  const other = own === "draft-07" ? "draft-2020-12" : "draft-07";
  return schemas.some(usesDialectKeyword) ? [own] : [own, other];
}

function usesDialectKeyword(schema: JsonValue): boolean {
  let found = false;
  forEachSchema(schema, "", (node: JsonObject) => {
    if (
      Array.isArray(node.items) ||
      ONLY_2020.some((k) => Object.hasOwn(node, k)) ||
      ONLY_DRAFT_07.some((k) => Object.hasOwn(node, k))
    )
      found = true;
  });
  return found;
}
