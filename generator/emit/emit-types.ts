/**
 * emitTypes: one exported TypeScript type per declaration, in model order,
 * translated from its schema by ts-type.ts and laid out by ts-print.ts
 * (as json-schema-to-typescript and prettier would write it; the tests
 * hold both as the reference).
 *
 * Each declaration is prepared first:
 *   {"$ref": "#/$defs/Role", "description": "…"} → {"tsType": "Role", "description": "…"}
 * so the referenced type is named instead of inlined; `title` and
 * `$schema` are dropped for the same reason. Objects without
 * `additionalProperties` get no index signature, while an explicit
 * `additionalProperties: {}` keeps one, as schema.ts has it.
 */
import { isJsonObject, parsePointer, type JsonObject, type JsonValue } from "../load/json.js";
import { mapSchema } from "../shared/schema-walk.js";
import { refName } from "../model/build-declarations.js";
import type { Declaration, McpModel } from "../model/types.js";
import { TsFileBuilder, type EmittedFile } from "./file.js";
import { literal } from "./names.js";
import { TYPES_FILE } from "../model/output-names.js";
import { printDeclaration } from "./ts-print.js";
import { declarationOf } from "./ts-type.js";

/** Emits `types.gen.ts`. */
export function emitTypes(model: McpModel, bannerText: string): EmittedFile {
  const file = new TsFileBuilder(TYPES_FILE);
  const core = model.sources[0]?.name;
  for (const decl of model.declarations)
    file.add(printDeclaration(declarationOf(decl.name, backendSchema(decl, core))));
  return file.build(bannerText);
}

/** The declaration's schema, prepared (the form json-schema-to-typescript also reads, for the tests). */
export function backendSchema(decl: Declaration, coreFile?: string): JsonObject {
  const root = typeof decl.schema === "object" ? decl.schema : {};
  // schema.ts's index signature (often inherited: `CallToolResult extends Result`) has no schema.json keyword of its own.
  const open =
    decl.openType && root.type === "object" && root.additionalProperties === undefined
      ? { ...root, additionalProperties: {} }
      : root;
  const prepared = prepareSchema(open, refName);
  const withMembers = decl.literalMembers
    ? {
        description: prepared.description ?? "",
        tsType: literalUnion(decl.literalMembers.values, decl.literalMembers.open),
      }
    : prepared;
  return {
    ...markDeprecatedMembers(withMembers, decl.deprecatedMembers),
    description: docText(decl, coreFile),
  };
}

/** Keywords that say what type a schema describes; a schema with none of them is `unknown`. */
const SHAPE_KEYWORDS = [
  "type",
  "properties",
  "items",
  "anyOf",
  "allOf",
  "oneOf",
  "enum",
  "const",
  "$ref",
  "additionalProperties",
  "tsType",
  "not",
  "patternProperties",
];

/**
 * A schema with every node prepared for ts-type.ts (see prepareNode);
 * `typeOfRef` names the type a `$ref` stands for (undefined: leave the
 * node as it is).
 */
export function prepareSchema(
  schema: JsonObject,
  typeOfRef: (ref: string) => string | undefined,
): JsonObject {
  return mapSchema(schema, (node) => prepareNode(node, typeOfRef)) as JsonObject;
}

/**
 * Rewrites one schema node into what the backend should see, following the
 * conventions schema.json is generated with from schema.ts:
 *   {"$ref": "#/$defs/Role"}                                → Role (by name)
 *   {"description": "…"}                                    → unknown
 *   {"type": "object"} / {"type": "object", "properties": {}, "additionalProperties": true} → object
 *   {"not": {}}                                             → never
 */
function prepareNode(node: JsonObject, typeOfRef: (ref: string) => string | undefined): JsonValue {
  // A `tsType` of the input is dropped: only this function writes one, so nothing a schema holds becomes code.
  const {
    title: _title,
    $schema: _schema,
    $id: _id,
    $comment: _comment,
    tsType: _foreign,
    ...rest
  } = node;
  const description: JsonObject =
    typeof rest.description === "string" ? { description: rest.description } : {};
  const target = typeof rest.$ref === "string" ? typeOfRef(rest.$ref) : undefined;
  if (target !== undefined) return { ...description, tsType: target };
  // {"not": {}} accepts nothing (zod writes `never` so, e.g. Record<string, never>); its `{}` was already rewritten to unknown.
  if (
    Object.keys(rest)
      .filter((k) => k !== "description")
      .join() === "not" &&
    isJsonObject(rest.not) &&
    rest.not.tsType === "unknown"
  )
    return { ...description, tsType: "never" };
  if (!SHAPE_KEYWORDS.some((k) => k in rest)) return { ...description, tsType: "unknown" };
  if (isBareObject(rest)) return { ...description, tsType: "object" };
  return rest;
}

function isBareObject(node: JsonObject): boolean {
  const keys = Object.keys(node).filter((k) => k !== "description");
  const emptyProperties =
    !("properties" in node) ||
    (isJsonObject(node.properties) && Object.keys(node.properties).length === 0);
  const openOrAbsent = !("additionalProperties" in node) || node.additionalProperties === true;
  return (
    node.type === "object" &&
    emptyProperties &&
    openOrAbsent &&
    keys.every((k) => ["type", "properties", "additionalProperties"].includes(k))
  );
}

/**
 * `"complete" | "input_required" | string` keeps its literals for editors
 * with `(string & {})`, which is mutually assignable with `string`.
 */
function literalUnion(values: readonly string[], open: boolean): string {
  return [...values.map((v) => literal(v)), ...(open ? ["(string & {})"] : [])].join(" | ");
}

/** Adds `@deprecated` to members by property path (`mood`, `params/mood`, pointer-escaped). */
function markDeprecatedMembers(
  schema: JsonObject,
  deprecated: Readonly<Record<string, string>>,
): JsonObject {
  let out = schema;
  for (const [path, note] of Object.entries(deprecated))
    out = markAt(out, parsePointer(`/${path}`), note);
  return out;
}

function markAt(schema: JsonObject, path: readonly string[], note: string): JsonObject {
  const [head, ...rest] = path;
  const properties = schema.properties;
  if (head === undefined || !isJsonObject(properties) || !isJsonObject(properties[head]))
    return schema;
  const prop = properties[head];
  const described = typeof prop.description === "string" ? prop.description : "";
  const next =
    rest.length > 0
      ? markAt(prop, rest, note)
      : {
          ...prop,
          description: described ? `${described}\n\n@deprecated ${note}` : `@deprecated ${note}`,
        };
  return { ...schema, properties: { ...properties, [head]: next } };
}

/**
 * The declaration's doc, where it comes from, and its deprecation. A
 * definition of the revision itself is from `schema.json`, whichever
 * folder that was read from, so the same revision gives the same text.
 */
function docText(decl: Declaration, coreFile: string | undefined): string {
  const file = decl.origin.file === coreFile ? "schema.json" : decl.origin.file;
  const parts = [
    decl.doc,
    `From ${file}#${decl.origin.pointer ?? ""}`,
    decl.deprecated !== undefined ? `@deprecated ${decl.deprecated}` : undefined,
  ];
  return parts.filter((p): p is string => p !== undefined && p !== "").join("\n\n");
}
