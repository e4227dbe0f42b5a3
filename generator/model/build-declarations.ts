/**
 * Declarations: one per schema.json definition, in schema.json order, with
 * schema.ts's doc text, deprecations and literal unions attached, and every
 * `$ref` normalized to `#/$defs/<Name>` so later stages never care whether
 * the revision said `definitions` or `$defs`.
 */
import {
  escapePointerSegment,
  isJsonObject,
  type JsonObject,
  type JsonValue,
} from "../load/json.js";
import { definitionsOf } from "../load/schema-json.js";
import { mapSchema } from "../shared/schema-walk.js";
import type { SourceSet } from "../load/types.js";
import type { Declaration, JsonSchema, LiteralMembers } from "./types.js";

/** The one reference form the model uses. */
export const DEFS_PREFIX = "#/$defs/";

/** `#/$defs/Name` → `Name`; undefined for anything else. */
export function refName(ref: JsonValue | undefined): string | undefined {
  return typeof ref === "string" && ref.startsWith(DEFS_PREFIX)
    ? decodeURIComponent(ref.slice(DEFS_PREFIX.length))
    : undefined;
}

/** Builds the declarations of a source set. */
export function buildDeclarations(sources: Pick<SourceSet, "schema" | "schemaTs">): Declaration[] {
  const { schema } = sources;
  const fromPrefix = `#/${schema.definitionsKey}/`;
  return Object.entries(definitionsOf(schema)).map(([name, raw]) => {
    const normalized = normalizeRefs(raw, fromPrefix) as JsonSchema;
    const ts = sources.schemaTs?.declarations[name];
    const description =
      isJsonObject(raw) && typeof raw.description === "string" ? raw.description : ts?.description;
    const literalMembers = literalMembersOf(name, raw, sources);
    const deprecatedMembers = Object.fromEntries(
      Object.entries(ts?.members ?? {}).flatMap(([member, doc]) =>
        doc.deprecated !== undefined ? [[member, doc.deprecated]] : [],
      ),
    );
    return {
      kind: "declaration",
      name,
      schema: normalized,
      validatorSchema: normalized,
      ...(description ? { doc: description } : {}),
      ...(ts?.deprecated !== undefined ? { deprecated: ts.deprecated } : {}),
      deprecatedMembers,
      ...(literalMembers ? { literalMembers } : {}),
      openType:
        ts?.indexSignature === true ||
        (isJsonObject(raw) &&
          raw.additionalProperties !== undefined &&
          raw.additionalProperties !== false),
      origin: {
        file: schema.file.name,
        pointer: `/${schema.definitionsKey}/${escapePointerSegment(name)}`,
      },
    } satisfies Declaration;
  });
}

function normalizeRefs(schema: JsonValue, fromPrefix: string): JsonValue {
  if (fromPrefix === DEFS_PREFIX) return schema;
  return mapSchema(schema, (node) =>
    typeof node.$ref === "string" && node.$ref.startsWith(fromPrefix)
      ? { ...node, $ref: DEFS_PREFIX + node.$ref.slice(fromPrefix.length) }
      : node,
  );
}

/**
 * schema.ts sometimes knows the values of a string that schema.json only
 * types as `string` (`ResultType = "complete" | "input_required" | string`).
 */
function literalMembersOf(
  name: string,
  raw: JsonValue,
  sources: Pick<SourceSet, "schemaTs">,
): LiteralMembers | undefined {
  const union = sources.schemaTs?.unions[name];
  if (!union || !isJsonObject(raw) || raw.type !== "string" || "enum" in raw || "const" in raw)
    return undefined;
  const values: string[] = [];
  let open = false;
  for (const member of union.members) {
    if (member.kind === "literal" && typeof member.value === "string") values.push(member.value);
    else if (member.kind === "keyword" && member.name === "string") open = true;
    else return undefined;
  }
  return values.length > 0 ? { values, open } : undefined;
}

/** The declaration named `name`, or undefined. */
export function findDeclaration(
  declarations: readonly Declaration[],
  name: string,
): Declaration | undefined {
  return declarations.find((d) => d.name === name);
}

/** The object form of a declaration's schema (boolean schemas yield an empty object). */
export function objectSchema(schema: JsonSchema): JsonObject {
  return typeof schema === "object" ? schema : {};
}
