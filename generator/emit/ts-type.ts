/**
 * From a declaration's JSON Schema to a TypeScript type, with the
 * conventions of json-schema-to-typescript (whose output mcp-gen's types
 * have always had, and which test/emit/types.test.ts keeps as the
 * reference): the keywords that decide a schema's kind, an intersection
 * when a schema is of several kinds at once, interfaces for object
 * schemas, `[k: string]` index signatures widened to cover the named
 * members, JSDoc from descriptions, unions deduplicated.
 *
 * Input schemas are already prepared by emit-types.ts: references are
 * `{tsType: Name}`, `{}` is `{tsType: "unknown"}`. `patternProperties`,
 * which no MCP schema uses, reads as an open `[k: string]: unknown`.
 */
import { isJsonObject, type JsonObject, type JsonValue } from "../load/json.js";

/** A TypeScript type, as the printer (ts-print.ts) lays it out. */
export type TsType =
  | { readonly kind: "name"; readonly name: string }
  | { readonly kind: "literal"; readonly value: string | number | boolean | null }
  | { readonly kind: "union" | "intersection"; readonly members: readonly TsType[] }
  | { readonly kind: "array"; readonly element: TsType }
  | { readonly kind: "tuple"; readonly elements: readonly TsType[]; readonly rest?: TsType }
  | {
      readonly kind: "object";
      readonly members: readonly TsMember[];
      /** On one line when it fits; otherwise (json-schema-to-typescript's objects) always expanded. */
      readonly inline?: boolean;
    };

export interface TsMember {
  /** The key as written: `name`, `"io.modelcontextprotocol/x"`, or `[k: string]` for the index signature. */
  readonly key: string;
  readonly optional: boolean;
  readonly type: TsType;
  readonly doc?: string;
}

/** A top-level declaration: `export interface` for object schemas, `export type` otherwise. */
export interface TsDeclaration {
  readonly name: string;
  readonly doc?: string;
  readonly form: "interface" | "alias";
  readonly type: TsType;
}

/** The declaration of `name` for a prepared schema. */
export function declarationOf(name: string, schema: JsonObject): TsDeclaration {
  const ast = optimize(parse(normalize(schema), true));
  if (ast.kind === "INTERFACE")
    return { name, doc: ast.comment, form: "interface", type: generate(ast) };
  const commented = withItemsComment(ast);
  return { name, doc: commented.comment, form: "alias", type: generate(ast) };
}

// ---------------------------------------------------------------- normalize

/**
 * The schema with json-schema-to-typescript's normalizations: `const` as a
 * one-value `enum`, one-element `type` arrays unwrapped, `*\/` escaped in
 * descriptions, array bounds moved into the description (`@maxItems 100`),
 * objects closed unless they say otherwise.
 */
function normalize(node: JsonValue): JsonValue {
  if (!isJsonObject(node)) return node;
  const out: Record<string, JsonValue> = {};
  for (const [key, value] of Object.entries(node))
    out[key] =
      key === "properties" && isJsonObject(value)
        ? mapValues(value, normalize)
        : SUBSCHEMA_KEYS.has(key)
          ? normalizeSub(value)
          : value;
  if (out.const !== undefined) {
    out.enum = [out.const];
    delete out.const;
  }
  if (
    Array.isArray(out.enum) &&
    out.enum.includes(null) &&
    Array.isArray(out.type) &&
    out.type.includes("null")
  )
    out.type = out.type.filter((t) => t !== "null");
  if (Array.isArray(out.type) && out.type.length === 1) out.type = out.type[0]!;
  if (typeof out.description === "string")
    out.description = out.description.replace(/\*\//g, "* /");
  if (isArrayType(out)) {
    const bounds = [
      ...("minItems" in out ? [`@minItems ${JSON.stringify(out.minItems)}`] : []),
      ...("maxItems" in out ? [`@maxItems ${JSON.stringify(out.maxItems)}`] : []),
    ];
    // A description is a string in any valid schema; anything else is dropped rather than printed.
    const description = typeof out.description === "string" ? out.description : "";
    if (bounds.length > 0)
      out.description = description ? `${description}\n\n${bounds.join("\n")}` : bounds.join("\n");
    delete out.minItems;
    delete out.maxItems;
  }
  if (isObjectType(out)) {
    if (!("required" in out)) out.required = [];
    if (!("additionalProperties" in out) && out.patternProperties === undefined)
      out.additionalProperties = false;
  }
  return out;
}

const SUBSCHEMA_KEYS = new Set([
  "items",
  "additionalProperties",
  "additionalItems",
  "anyOf",
  "allOf",
  "oneOf",
  "not",
]);

function normalizeSub(value: JsonValue): JsonValue {
  return Array.isArray(value) ? value.map(normalize) : normalize(value);
}

function mapValues(object: JsonObject, f: (v: JsonValue) => JsonValue): JsonObject {
  return Object.fromEntries(Object.entries(object).map(([k, v]) => [k, f(v)]));
}

function hasType(schema: JsonObject, type: string): boolean {
  return schema.type === type || (Array.isArray(schema.type) && schema.type.includes(type));
}
function isObjectType(schema: JsonObject): boolean {
  return schema.properties !== undefined || hasType(schema, "object") || hasType(schema, "any");
}
function isArrayType(schema: JsonObject): boolean {
  return schema.items !== undefined || hasType(schema, "array") || hasType(schema, "any");
}

// ---------------------------------------------------------------- parse

/** json-schema-to-typescript's AST, as far as mcp-gen's schemas need it. */
type Ast = { comment?: string } & (
  | { kind: "ANY" | "UNKNOWN" | "BOOLEAN" | "NEVER" | "NULL" | "NUMBER" | "OBJECT" | "STRING" }
  | { kind: "CUSTOM_TYPE"; text: string }
  | { kind: "LITERAL"; value: string | number | boolean | null }
  | { kind: "UNION" | "INTERSECTION"; members: Ast[] }
  | { kind: "ARRAY"; element: Ast }
  | { kind: "TUPLE"; elements: Ast[]; rest?: Ast }
  | { kind: "INTERFACE"; params: Param[] }
);

interface Param {
  readonly key: string;
  readonly ast: Ast;
  readonly required: boolean;
  readonly index: boolean;
}

type Kind =
  | "ALL_OF"
  | "ANY"
  | "ANY_OF"
  | "BOOLEAN"
  | "NAMED_SCHEMA"
  | "NULL"
  | "NUMBER"
  | "OBJECT"
  | "ONE_OF"
  | "STRING"
  | "TYPED_ARRAY"
  | "UNION"
  | "UNNAMED_ENUM"
  | "UNNAMED_SCHEMA"
  | "UNTYPED_ARRAY";

/** The kinds a schema is, in json-schema-to-typescript's matcher order; several make an intersection. */
function kindsOf(schema: JsonObject, root: boolean): Kind[] {
  const compound = Array.isArray(schema.type) || "anyOf" in schema || "oneOf" in schema;
  const hasProperties = "properties" in schema || "patternProperties" in schema;
  const matches: Array<[Kind, boolean]> = [
    ["ALL_OF", "allOf" in schema],
    ["ANY", Object.keys(schema).length === 0 || schema.type === "any"],
    ["ANY_OF", "anyOf" in schema],
    [
      "BOOLEAN",
      !("enum" in schema) &&
        (schema.type === "boolean" || (!compound && typeof schema.default === "boolean")),
    ],
    // The root has an $id (its name), which makes an object schema a named interface.
    ["NAMED_SCHEMA", root && !Array.isArray(schema.type) && hasProperties],
    ["NULL", schema.type === "null"],
    [
      "NUMBER",
      !("enum" in schema) &&
        (schema.type === "integer" ||
          schema.type === "number" ||
          (!compound && typeof schema.default === "number")),
    ],
    [
      "OBJECT",
      schema.type === "object" &&
        !isJsonObject(schema.additionalProperties) &&
        !schema.allOf &&
        !schema.anyOf &&
        !schema.oneOf &&
        !schema.patternProperties &&
        !schema.properties &&
        !schema.required,
    ],
    ["ONE_OF", "oneOf" in schema],
    [
      "STRING",
      !("enum" in schema) &&
        (schema.type === "string" || (!compound && typeof schema.default === "string")),
    ],
    ["TYPED_ARRAY", (!schema.type || schema.type === "array") && "items" in schema],
    ["UNION", Array.isArray(schema.type)],
    [
      "UNNAMED_ENUM",
      "enum" in schema &&
        (!schema.type ||
          (typeof schema.type === "string" &&
            ["boolean", "integer", "number", "string"].includes(schema.type))),
    ],
    [
      "UNNAMED_SCHEMA",
      (schema.type === undefined || schema.type === "object") && !root && hasProperties,
    ],
    ["UNTYPED_ARRAY", schema.type === "array" && !("items" in schema)],
  ];
  const kinds = matches.filter(([, m]) => m).map(([k]) => k);
  return kinds.length > 0 ? kinds : ["UNNAMED_SCHEMA"];
}

function parse(node: JsonValue, root = false): Ast {
  if (node === true) return { kind: "UNKNOWN" };
  if (node === false) return { kind: "NEVER" };
  if (!isJsonObject(node))
    return { kind: "LITERAL", value: node as string | number | boolean | null };
  const comment = typeof node.description === "string" ? node.description : undefined;
  if (typeof node.tsType === "string")
    return {
      kind: "CUSTOM_TYPE",
      text: node.tsType,
      ...(comment !== undefined ? { comment } : {}),
    };
  const kinds = kindsOf(node, root);
  if (kinds.length === 1) return withComment(parseAs(node, kinds[0]!), comment);
  // A schema of several kinds: the intersection of its allOf members and of the schema read as each other kind.
  const { description: _d, allOf, ...rest } = node;
  const members = [
    ...(Array.isArray(allOf) ? allOf.map((m) => parse(m)) : []),
    ...kinds.filter((k) => k !== "ALL_OF").map((k) => parseAs(rest, k)),
  ];
  return withComment({ kind: "INTERSECTION", members }, comment);
}

function withComment(ast: Ast, comment: string | undefined): Ast {
  return comment === undefined ? ast : { ...ast, comment };
}

function parseAs(schema: JsonObject, kind: Kind): Ast {
  switch (kind) {
    case "ALL_OF":
      return {
        kind: "INTERSECTION",
        members: (schema.allOf as JsonValue[])
          .filter((m) => !isVacuousMember(m))
          .map((m) => parse(m)),
      };
    case "ANY":
      return { kind: "UNKNOWN" };
    case "ANY_OF":
      return { kind: "UNION", members: (schema.anyOf as JsonValue[]).map((m) => parse(m)) };
    case "ONE_OF":
      return { kind: "UNION", members: (schema.oneOf as JsonValue[]).map((m) => parse(m)) };
    case "BOOLEAN":
    case "NULL":
    case "NUMBER":
    case "OBJECT":
    case "STRING":
      return { kind };
    case "NAMED_SCHEMA":
    case "UNNAMED_SCHEMA":
      return { kind: "INTERFACE", params: parseProperties(schema) };
    case "TYPED_ARRAY":
      if (Array.isArray(schema.items)) {
        const rest =
          schema.additionalItems === true
            ? ({ kind: "UNKNOWN" } as Ast)
            : schema.additionalItems
              ? parse(schema.additionalItems)
              : undefined;
        return {
          kind: "TUPLE",
          elements: schema.items.map((i) => parse(i)),
          ...(rest ? { rest } : {}),
        };
      }
      return { kind: "ARRAY", element: parse(schema.items!) };
    case "UNTYPED_ARRAY":
      return { kind: "ARRAY", element: { kind: "UNKNOWN" } };
    case "UNION": {
      const { $id: _i, description: _d, title: _t, ...rest } = schema;
      return {
        kind: "UNION",
        members: (schema.type as string[]).map((type) => parse({ ...rest, type })),
      };
    }
    case "UNNAMED_ENUM":
      return {
        kind: "UNION",
        members: (schema.enum as JsonValue[]).map((v) => ({
          kind: "LITERAL",
          value: v as string | number | boolean | null,
        })),
      };
  }
}

/** An allOf member with no keyword json-schema-to-typescript knows, which would only add `{[k: string]: unknown}`. */
function isVacuousMember(member: JsonValue): boolean {
  const known = [
    "$id",
    "additionalProperties",
    "allOf",
    "anyOf",
    "const",
    "default",
    "enum",
    "extends",
    "items",
    "oneOf",
    "patternProperties",
    "properties",
    "required",
    "tsEnumNames",
    "tsType",
    "type",
  ];
  return (
    isJsonObject(member) &&
    Object.keys(member).every((k) => !known.includes(k)) &&
    member.description === undefined
  );
}

function parseProperties(schema: JsonObject): Param[] {
  const required = Array.isArray(schema.required) ? schema.required : [];
  const properties = isJsonObject(schema.properties) ? schema.properties : {};
  const params: Param[] = Object.entries(properties).map(([key, value]) => ({
    key,
    ast: parse(value),
    required: required.includes(key),
    index: false,
  }));
  if (schema.additionalProperties === false) return params;
  const index: Ast =
    schema.additionalProperties === true || schema.additionalProperties === undefined
      ? { kind: "UNKNOWN" }
      : parse(schema.additionalProperties);
  return [...params, { key: "[k: string]", ast: index, required: true, index: true }];
}

// ---------------------------------------------------------------- optimize

/** Unions and intersections simplified as json-schema-to-typescript does: unknown absorbs, duplicates go. */
function optimize(ast: Ast): Ast {
  switch (ast.kind) {
    case "ARRAY":
      return { ...ast, element: optimize(ast.element) };
    case "INTERFACE":
      return { ...ast, params: ast.params.map((p) => ({ ...p, ast: optimize(p.ast) })) };
    case "UNION":
    case "INTERSECTION": {
      let members = ast.members.map(optimize);
      if (ast.kind === "INTERSECTION") {
        const constrained = members.filter((m) => m.kind !== "ANY" && m.kind !== "UNKNOWN");
        if (constrained.length > 0 && constrained.length < members.length) members = constrained;
      }
      if (members.some((m) => m.kind === "ANY")) return { kind: "ANY" };
      if (members.some((m) => m.kind === "UNKNOWN")) return { kind: "UNKNOWN" };
      return { ...ast, members: uniqueBy(members, (m) => typeKey(generate(m))) };
    }
    default:
      return ast;
  }
}

// ---------------------------------------------------------------- generate

/** The TypeScript keyword of each AST kind that is one. */
const KEYWORD_OF = {
  ANY: "any",
  UNKNOWN: "unknown",
  BOOLEAN: "boolean",
  NEVER: "never",
  NULL: "null",
  NUMBER: "number",
  OBJECT: "object",
  STRING: "string",
} as const;

function generate(ast: Ast): TsType {
  switch (ast.kind) {
    case "ANY":
    case "UNKNOWN":
    case "BOOLEAN":
    case "NEVER":
    case "NULL":
    case "NUMBER":
    case "OBJECT":
    case "STRING":
      return name(KEYWORD_OF[ast.kind]);
    case "CUSTOM_TYPE":
      return customType(ast.text);
    case "LITERAL":
      return { kind: "literal", value: ast.value };
    case "ARRAY":
      return { kind: "array", element: generate(ast.element) };
    case "TUPLE":
      return {
        kind: "tuple",
        elements: ast.elements.map(generate),
        ...(ast.rest ? { rest: generate(ast.rest) } : {}),
      };
    case "UNION":
    case "INTERSECTION":
      if (ast.members.length === 0)
        return ast.kind === "UNION"
          ? name("never")
          : {
              kind: "object",
              members: [{ key: "[k: string]", optional: false, type: name("unknown") }],
            };
      return ast.members.length === 1
        ? generate(ast.members[0]!)
        : {
            kind: ast.kind === "UNION" ? "union" : "intersection",
            members: ast.members.map(generate),
          };
    case "INTERFACE":
      return { kind: "object", members: ast.params.map((p) => member(p, ast.params)) };
  }
}

function name(text: string): TsType {
  return { kind: "name", name: text };
}

function member(param: Param, siblings: readonly Param[]): TsMember {
  const commented = withItemsComment(param.ast);
  const type = param.index
    ? (indexSignatureType(param, siblings) ?? generate(param.ast))
    : generate(param.ast);
  return {
    key: param.index ? param.key : escapeKey(param.key),
    optional: !param.required,
    type,
    ...(commented.comment ? { doc: commented.comment } : {}),
  };
}

function escapeKey(key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key);
}

/**
 * An array's item description, which has no line of its own in `T[]`,
 * joins the description of what holds the array as `Items: …`.
 */
function withItemsComment(ast: Ast): Ast {
  const items =
    ast.kind === "ARRAY"
      ? [ast.element]
      : ast.kind === "TUPLE"
        ? [...ast.elements, ...(ast.rest ? [ast.rest] : [])]
        : undefined;
  if (!items) return ast;
  const comments = new Set(
    items.map((i) => (i.kind === "ARRAY" || i.kind === "TUPLE" ? undefined : i.comment)),
  );
  const [comment] = comments;
  if (comments.size !== 1 || !comment || /(^|\s)@\w/.test(comment)) return ast;
  const note = `Items: ${comment}`;
  return { ...ast, comment: ast.comment ? `${ast.comment}\n\n${note}` : note };
}

/**
 * TypeScript requires every named member to be assignable to the index
 * signature (TS2411), so a signature narrower than `unknown` is widened
 * to the union of its own type and the members' (with `undefined` when a
 * member is optional). Undefined when no widening is needed.
 */
function indexSignatureType(index: Param, params: readonly Param[]): TsType | undefined {
  if (isTop(index.ast)) return undefined;
  const members: Ast[] = [];
  const add = (ast: Ast): void => {
    if (ast.kind === "UNION") return ast.members.forEach(add);
    if (ast.kind === "CUSTOM_TYPE" && ast.text.includes("|") && /^[\w$.\s|]+$/.test(ast.text)) {
      for (const part of ast.text.split("|"))
        if (part.trim()) members.push({ kind: "CUSTOM_TYPE", text: part.trim() });
      return;
    }
    members.push(ast);
  };
  add(index.ast);
  let needsUndefined = false;
  for (const sibling of params) {
    if (sibling === index || sibling.index) continue;
    if (isAny(sibling.ast)) continue;
    if (!sibling.required) needsUndefined = true;
    if (sibling.ast.kind === "NEVER") continue;
    add(sibling.ast);
  }
  if (members.some(isAny)) return name("any");
  if (members.some(isTop)) return name("unknown");
  if (members.length === 0 || (members.length === 1 && !needsUndefined)) return undefined;
  const types = uniqueBy(members.map(generate), typeKey);
  if (needsUndefined && !types.some((t) => typeKey(t) === "undefined"))
    types.push(name("undefined"));
  return { kind: "union", members: types };
}

function isTop(ast: Ast): boolean {
  return (
    ast.kind === "UNKNOWN" ||
    (ast.kind === "CUSTOM_TYPE" && ast.text.trim() === "unknown") ||
    isAny(ast)
  );
}

function isAny(ast: Ast): boolean {
  return ast.kind === "ANY" || (ast.kind === "CUSTOM_TYPE" && ast.text.trim() === "any");
}

/** The first of each group of items with the same key, in order. */
function uniqueBy<T>(items: readonly T[], key: (item: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const k = key(item);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/**
 * A `tsType` as emit-types.ts writes them: a name, or a union of string
 * literals, names and `(string & {})` (an open set of strings that keeps
 * its literals for editors).
 */
function customType(text: string): TsType {
  const parts = text.split(" | ").map((part): TsType => {
    if (part === "(string & {})")
      return { kind: "intersection", members: [name("string"), { kind: "object", members: [] }] };
    if (/^"(?:[^"\\]|\\.)*"$/.test(part))
      return { kind: "literal", value: JSON.parse(part) as string };
    if (/^[A-Za-z_$][\w$.]*$/.test(part)) return name(part);
    throw new Error(`mcp-gen cannot print the TypeScript type ${JSON.stringify(text)}`);
  });
  return parts.length === 1 ? parts[0]! : { kind: "union", members: parts };
}

/** A type's text on one line: what json-schema-to-typescript compares to deduplicate union members. */
function typeKey(type: TsType): string {
  switch (type.kind) {
    case "name":
      return type.name;
    case "literal":
      return JSON.stringify(type.value);
    case "union":
    case "intersection":
      return `(${type.members.map(typeKey).join(type.kind === "union" ? " | " : " & ")})`;
    case "array":
      return `${typeKey(type.element)}[]`;
    case "tuple":
      return `[${[...type.elements.map(typeKey), ...(type.rest ? [`...${typeKey(type.rest)}[]`] : [])].join(", ")}]`;
    case "object":
      return `{${type.members.map((m) => `${m.doc ? `/*${m.doc}*/` : ""}${m.key}${m.optional ? "?" : ""}: ${typeKey(m.type)}`).join("; ")}}`;
  }
}
