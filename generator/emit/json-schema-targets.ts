/**
 * Which Standard JSON Schema targets a generated schema can be given as
 * (generator/emit/static/standard-schema.ts serves them): its own dialect,
 * and the other dialect mcp-gen reads when the schema uses no keyword that
 * means something in one of the two only. Such a schema means the same in
 * both, so only its `$schema` changes.
 */
import type { JsonValue } from "../load/json.js";
import { usesDialectKeyword, type Dialect } from "../shared/json-schema-dialects.js";

/** A Standard JSON Schema target name. */
export type JsonSchemaTargetName = "draft-2020-12" | "draft-07";

const TARGET_OF: Readonly<Record<Dialect, JsonSchemaTargetName>> = {
  "2020-12": "draft-2020-12",
  "draft-07": "draft-07",
};

/** The targets `schemas`, all of `dialect`, can be given as: its own first. */
export function jsonSchemaTargets(
  dialect: Dialect,
  schemas: readonly JsonValue[],
): JsonSchemaTargetName[] {
  const own = TARGET_OF[dialect];
  const other = own === "draft-07" ? "draft-2020-12" : "draft-07";
  return schemas.some(usesDialectKeyword) ? [own] : [own, other];
}
