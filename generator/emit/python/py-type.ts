/**
 * From a definition's validator schema to Python types: the pydantic
 * models, aliases and field types of models.py, as data the emitter
 * prints. Each keyword maps to what pydantic checks exactly:
 *
 *   {type: "object", properties, required}  → a WireModel class (inline objects get a class named after their place)
 *   additionalProperties: false / schema    → extra="forbid" / typed extras
 *   {type: "integer", minimum: 0}           → Annotated[JsonInt, Field(ge=0)]
 *   {const: "x"} / {enum: [...]}            → Literal["x", ...]
 *   anyOf of objects tagged by a const      → a union discriminated on the tag
 *   optional, not nullable                  → Omittable[T] = None
 *
 * What pydantic cannot say (propertyNames beyond "string", patternProperties,
 * if/then/else, not, oneOf, an anyOf of bare `required` lists…) is kept as
 * a JSON Schema fragment that support code checks before pydantic does
 * (SchemaCheck), so the model accepts exactly what the schema accepts.
 */
import { isJsonObject, type JsonObject, type JsonValue } from "../../load/json.js";
import { refName } from "../../model/build-declarations.js";
import type { Declaration } from "../../model/types.js";
import { className, fieldName, pascal } from "./py-names.js";
import {
  acceptsAll,
  acceptsNothing,
  mergeAllOf,
  onlyRef,
  refWithSiblings,
  stripped,
  trivialPropertyNames,
  type Resolve,
} from "./py-schema.js";

/** A Python type as models.py writes it. */
export type PyType =
  | { readonly kind: "ref"; readonly name: string }
  | {
      readonly kind:
        "str" | "int" | "float" | "bool" | "none" | "any" | "json" | "never" | "object";
    }
  | { readonly kind: "literal"; readonly values: ReadonlyArray<string | number | boolean | null> }
  | { readonly kind: "list"; readonly item: PyType }
  | { readonly kind: "dict"; readonly value: PyType }
  | { readonly kind: "union"; readonly members: readonly PyType[]; readonly discriminator?: string }
  | {
      readonly kind: "constrained";
      readonly base: PyType;
      readonly constraints: Readonly<Record<string, number>>;
    }
  | { readonly kind: "checked"; readonly base: PyType; readonly schema: JsonObject };

/** One attribute of a model. */
export interface PyField {
  readonly name: string;
  /** The property's name on the wire, when it differs from `name`. */
  readonly alias?: string;
  readonly type: PyType;
  readonly required: boolean;
  readonly doc?: string;
}

/** A pydantic model class. */
export interface PyModel {
  readonly name: string;
  readonly doc?: string;
  readonly fields: readonly PyField[];
  /** Properties not named: allowed (any value), forbidden, or checked by a type. */
  readonly extra: "allow" | "forbid" | PyType;
  /** Keywords pydantic cannot say, checked on the object before the fields are. */
  readonly check?: JsonObject;
}

/** A definition that is no class: `Name = <type>`. */
export interface PyAlias {
  readonly name: string;
  readonly doc?: string;
  readonly type: PyType;
}

/** What models.py declares, in order: the classes (the definitions' and their inline objects') and the aliases. */
export interface PyDeclarations {
  readonly models: PyModel[];
  readonly aliases: PyAlias[];
  /** Properties some union is discriminated on. */
  readonly discriminators: Set<string>;
}

/** Thrown for a schema the emitter cannot write exactly; the caller turns it into a diagnostic. */
export class InexpressibleSchema extends Error {
  constructor(
    readonly definition: string,
    readonly keyword: string,
  ) {
    super(`${definition}: ${keyword}`);
  }
}

/** Keywords SchemaCheck (the support code) can check at run time. */
const CHECKABLE = new Set([
  "type",
  "const",
  "enum",
  "$ref",
  "properties",
  "additionalProperties",
  "patternProperties",
  "required",
  "propertyNames",
  "dependentRequired",
  "minProperties",
  "maxProperties",
  "items",
  "prefixItems",
  "additionalItems",
  "uniqueItems",
  "contains",
  "minContains",
  "maxContains",
  "minItems",
  "maxItems",
  "pattern",
  "minLength",
  "maxLength",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "anyOf",
  "oneOf",
  "allOf",
  "not",
  "if",
  "then",
  "else",
]);

/** Builds the Python declarations of every definition, in model order. */
export function pythonDeclarations(declarations: readonly Declaration[]): PyDeclarations {
  const byName = new Map(declarations.map((d) => [d.name, d]));
  const resolve: Resolve = (name) => byName.get(name)?.validatorSchema;
  const taken = new Set(declarations.map((d) => className(d.name)));
  const out: PyDeclarations = { models: [], aliases: [], discriminators: new Set() };
  const isModel = (name: string) => out.models.some((m) => m.name === name);
  for (const decl of declarations) {
    const mapper = new Mapper(decl.name, resolve, taken, out, byName);
    const schema = decl.validatorSchema;
    const name = className(decl.name);
    const object = mapper.asObject(schema);
    if (object) out.models.push(mapper.model(name, object, decl.doc));
    else
      out.aliases.push({
        name,
        type: mapper.type(schema, name),
        ...(decl.doc ? { doc: decl.doc } : {}),
      });
  }
  void isModel;
  return out;
}

/** Maps the schemas of one definition. */
class Mapper {
  constructor(
    private readonly definition: string,
    private readonly resolve: Resolve,
    private readonly taken: Set<string>,
    private readonly out: PyDeclarations,
    private readonly declarations: ReadonlyMap<string, Declaration>,
  ) {}

  /** The object schema a model is made of, when `schema` is one (after merging allOf). */
  asObject(schema: JsonValue): JsonObject | undefined {
    const s = this.normalized(schema);
    if (!isJsonObject(s) || s.type !== "object") return undefined;
    const keys = Object.keys(s);
    if (
      keys.some(
        (k) =>
          ![
            "type",
            "properties",
            "required",
            "additionalProperties",
            "propertyNames",
            "anyOf",
            "oneOf",
            "not",
            "if",
            "then",
            "else",
            "patternProperties",
            "minProperties",
            "maxProperties",
            "dependentRequired",
          ].includes(k),
      )
    )
      return undefined;
    // An object of named properties, or one whose residue cannot be a dict type.
    if (isJsonObject(s.properties) && Object.keys(s.properties).length > 0) return s;
    if (Array.isArray(s.required) && s.required.length > 0) return s;
    return undefined;
  }

  /** `schema` with top-level `$ref` siblings and `allOf` merged, annotations dropped. */
  normalized(schema: JsonValue): JsonValue {
    if (!isJsonObject(schema)) return schema;
    let s = stripped(schema) as JsonObject;
    const withRef = refWithSiblings(s);
    if (withRef) s = withRef;
    if (Array.isArray(s.allOf)) {
      const merged = mergeAllOf(s, this.resolve);
      if (merged !== undefined) return isJsonObject(merged) ? stripped(merged) : merged;
    }
    return s;
  }

  /** The model of an object schema. */
  model(name: string, schema: JsonObject, doc?: string): PyModel {
    const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
    const properties = isJsonObject(schema.properties) ? schema.properties : {};
    const used = new Set<string>();
    const fields: PyField[] = [];
    for (const wire of new Set([...Object.keys(properties), ...required])) {
      const property = properties[wire] ?? schema.additionalProperties ?? true;
      const field = fieldName(wire, used);
      used.add(field);
      const description = isJsonObject(properties[wire]) ? properties[wire].description : undefined;
      fields.push({
        name: field,
        ...(field !== wire ? { alias: wire } : {}),
        type: this.type(property, `${name}${pascal(wire)}`),
        required: required.has(wire),
        ...(typeof description === "string" ? { doc: description } : {}),
      });
    }
    const extra = this.extra(schema.additionalProperties, `${name}Value`);
    const check = residue(schema, this.definition);
    const model: PyModel = {
      name,
      fields,
      extra,
      ...(doc ? { doc } : {}),
      ...(check ? { check } : {}),
    };
    return model;
  }

  private extra(additional: JsonValue | undefined, hint: string): PyModel["extra"] {
    if (acceptsAll(additional)) return "allow";
    if (acceptsNothing(additional)) return "forbid";
    return this.type(additional!, hint);
  }

  /** The type of a schema; an inline object becomes a model named `hint`. */
  type(schema: JsonValue, hint: string): PyType {
    if (schema === true) return { kind: "any" };
    if (schema === false) return { kind: "never" };
    if (!isJsonObject(schema)) return this.checked({ kind: "any" }, { const: schema });
    const ref = onlyRef(schema);
    if (ref !== undefined) return this.reference(ref);
    const s = this.normalized(schema);
    if (!isJsonObject(s)) return this.type(s, hint);
    if (Object.keys(s).length === 0) return { kind: "any" };
    if (acceptsNothing(s)) return { kind: "never" };
    if (Array.isArray(s.allOf) || (typeof s.$ref === "string" && Object.keys(s).length > 1))
      return this.checked({ kind: "any" }, s);
    if (Array.isArray(s.anyOf)) return this.union(s, hint);
    if ("const" in s) return this.literal([s.const!], s);
    if (Array.isArray(s.enum)) return this.literal(s.enum, s);
    if (Array.isArray(s.type)) return this.typeUnion(s, hint);
    switch (s.type) {
      case "string":
        return this.scalar({ kind: "str" }, s, ["minLength", "maxLength", "pattern"]);
      case "integer":
        return this.scalar({ kind: "int" }, s, NUMBER_KEYWORDS);
      case "number":
        return this.scalar({ kind: "float" }, s, NUMBER_KEYWORDS);
      case "boolean":
        return this.scalar({ kind: "bool" }, s, []);
      case "null":
        return this.scalar({ kind: "none" }, s, []);
      case "array":
        return this.array(s, hint);
      case "object":
        return this.object(s, hint);
      case undefined:
        return this.untyped(s, hint);
      default:
        throw new InexpressibleSchema(this.definition, `type ${JSON.stringify(s.type)}`);
    }
  }

  private reference(name: string): PyType {
    const target = this.declarations.get(name);
    if (target && isAnyJsonValue(target.validatorSchema, name)) return { kind: "json" };
    return { kind: "ref", name: className(name) };
  }

  /** A scalar type with the keywords pydantic checks for it as Field constraints; the rest checked. */
  private scalar(base: PyType, s: JsonObject, own: readonly string[]): PyType {
    const constraints: Record<string, number> = {};
    const rest: JsonObject = {};
    for (const [key, value] of Object.entries(s)) {
      if (key === "type") continue;
      const field = FIELD_CONSTRAINTS[key];
      if (own.includes(key) && field && typeof value === "number") constraints[field] = value;
      else rest[key] = value;
    }
    const typed =
      Object.keys(constraints).length > 0
        ? ({ kind: "constrained", base, constraints } as const)
        : base;
    return Object.keys(rest).length > 0 ? this.checked(typed, { ...rest, type: s.type! }) : typed;
  }

  private literal(values: readonly JsonValue[], s: JsonObject): PyType {
    const plain = values.every(
      (v) => v === null || ["string", "boolean"].includes(typeof v) || Number.isInteger(v),
    );
    const others = Object.keys(s).filter((k) => k !== "const" && k !== "enum" && k !== "type");
    const fitsType = s.type === undefined || values.every((v) => jsonType(v, s.type!));
    if (!plain || others.length > 0 || !fitsType) return this.checked({ kind: "any" }, s);
    return { kind: "literal", values: values as ReadonlyArray<string | number | boolean | null> };
  }

  private array(s: JsonObject, hint: string): PyType {
    const { type: _t, items, minItems, maxItems, ...rest } = s;
    if (Array.isArray(items) || Object.keys(rest).length > 0)
      return this.checked({ kind: "list", item: { kind: "any" } }, s);
    const item = items === undefined ? ({ kind: "any" } as const) : this.type(items, `${hint}Item`);
    const list: PyType = { kind: "list", item };
    const constraints: Record<string, number> = {};
    if (typeof minItems === "number") constraints.min_length = minItems;
    if (typeof maxItems === "number") constraints.max_length = maxItems;
    return Object.keys(constraints).length > 0
      ? { kind: "constrained", base: list, constraints }
      : list;
  }

  /** An object: a model when it names properties, else a dict of its additional properties. */
  private object(s: JsonObject, hint: string): PyType {
    if (this.asObject(s)) return this.inlineModel(s, hint);
    const { type: _t, properties: _p, additionalProperties, propertyNames, ...rest } = s;
    const names: JsonObject =
      propertyNames === undefined || trivialPropertyNames(propertyNames) ? {} : { propertyNames };
    const dict: PyType = acceptsAll(additionalProperties)
      ? { kind: "object" }
      : acceptsNothing(additionalProperties)
        ? { kind: "dict", value: { kind: "never" } }
        : { kind: "dict", value: this.type(additionalProperties!, `${hint}Value`) };
    const residual = { ...rest, ...names };
    return Object.keys(residual).length > 0
      ? this.checked(dict, { type: "object", ...residual })
      : dict;
  }

  private inlineModel(s: JsonObject, hint: string): PyType {
    let name = className(hint);
    for (let n = 2; this.taken.has(name); n++) name = `${className(hint)}${n}`;
    this.taken.add(name);
    this.out.models.push(this.model(name, s));
    return { kind: "ref", name };
  }

  /** A schema without `type`: object keywords hold only for objects, so other values pass them. */
  private untyped(s: JsonObject, hint: string): PyType {
    const objectOnly = Object.keys(s).every((k) => OBJECT_KEYWORDS.has(k));
    if (!objectOnly) return this.checked({ kind: "any" }, s);
    const object = this.object({ ...s, type: "object" }, hint);
    return { kind: "union", members: [object, ...NON_OBJECT] };
  }

  private typeUnion(s: JsonObject, hint: string): PyType {
    const { type, ...rest } = s;
    const members = (type as string[]).map((t) =>
      this.type({ ...onlyOf(rest, t), type: t }, `${hint}${pascal(t)}`),
    );
    const foreign = Object.keys(rest).filter(
      (k) => !(type as string[]).some((t) => TYPE_KEYWORDS[t]?.includes(k)),
    );
    const union: PyType = { kind: "union", members };
    return foreign.length > 0 ? this.checked(union, s) : union;
  }

  private union(s: JsonObject, hint: string): PyType {
    const { anyOf, ...rest } = s;
    const branches = anyOf as JsonValue[];
    if (Object.keys(rest).length > 0) {
      // Keywords beside anyOf hold for every branch: distribute them, or check them.
      const merged = mergeAllOf({ allOf: [rest, { anyOf: branches }] }, this.resolve);
      if (isJsonObject(merged) && Array.isArray(merged.anyOf) && Object.keys(merged).length === 1)
        return this.union(merged, hint);
      return this.checked({ kind: "any" }, s);
    }
    const members = branches.map((b, i) => this.type(b, `${hint}${i + 1}`));
    const tag = discriminator(branches, this.resolve);
    if (tag && members.every((m) => m.kind === "ref")) {
      this.out.discriminators.add(tag);
      return { kind: "union", members, discriminator: tag };
    }
    return { kind: "union", members };
  }

  /** `base`, checked at run time against `schema` (which must be checkable, else generation stops). */
  private checked(base: PyType, schema: JsonObject): PyType {
    const unknown = unknownKeywords(schema);
    if (unknown.length > 0) throw new InexpressibleSchema(this.definition, unknown.join(", "));
    return { kind: "checked", base, schema: refsByName(schema) };
  }
}

const NUMBER_KEYWORDS = [
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
];
const FIELD_CONSTRAINTS: Readonly<Record<string, string>> = {
  minimum: "ge",
  maximum: "le",
  exclusiveMinimum: "gt",
  exclusiveMaximum: "lt",
  multipleOf: "multiple_of",
  minLength: "min_length",
  maxLength: "max_length",
};
const OBJECT_KEYWORDS = new Set([
  "properties",
  "required",
  "additionalProperties",
  "propertyNames",
  "patternProperties",
  "minProperties",
  "maxProperties",
]);
const TYPE_KEYWORDS: Readonly<Record<string, readonly string[]>> = {
  object: [...OBJECT_KEYWORDS],
  array: ["items", "minItems", "maxItems", "uniqueItems", "contains"],
  string: ["minLength", "maxLength", "pattern"],
  number: NUMBER_KEYWORDS,
  integer: NUMBER_KEYWORDS,
  boolean: [],
  null: [],
};
/** Every JSON value that is no object. */
const NON_OBJECT: readonly PyType[] = [
  { kind: "list", item: { kind: "any" } },
  { kind: "str" },
  { kind: "int" },
  { kind: "float" },
  { kind: "bool" },
  { kind: "none" },
];

function onlyOf(rest: JsonObject, type: string): JsonObject {
  const own = TYPE_KEYWORDS[type] ?? [];
  return Object.fromEntries(Object.entries(rest).filter(([k]) => own.includes(k)));
}

function jsonType(value: JsonValue, type: JsonValue): boolean {
  const types = Array.isArray(type) ? type : [type];
  const actual =
    value === null
      ? "null"
      : Array.isArray(value)
        ? "array"
        : typeof value === "object"
          ? "object"
          : typeof value;
  return types.some(
    (t) =>
      t === actual ||
      (t === "integer" && Number.isInteger(value)) ||
      (t === "number" && actual === "number"),
  );
}

/** Keywords of an object schema that models cannot say, as the fragment SchemaCheck evaluates. */
function residue(schema: JsonObject, definition: string): JsonObject | undefined {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) {
    if (["type", "properties", "required", "additionalProperties"].includes(key)) continue;
    if (key === "propertyNames" && trivialPropertyNames(value)) continue;
    out[key] = value;
  }
  if (Object.keys(out).length === 0) return undefined;
  const unknown = unknownKeywords(out);
  if (unknown.length > 0) throw new InexpressibleSchema(definition, unknown.join(", "));
  return refsByName(out);
}

/** Keywords in `schema` or below that SchemaCheck does not know. */
function unknownKeywords(schema: JsonValue): string[] {
  const found = new Set<string>();
  const walk = (node: JsonValue, keywordsHere: boolean): void => {
    if (Array.isArray(node)) return node.forEach((n) => walk(n, true));
    if (!isJsonObject(node)) return;
    for (const [key, value] of Object.entries(stripped(node) as JsonObject)) {
      if (keywordsHere && !CHECKABLE.has(key)) found.add(key);
      if (key === "properties" || key === "patternProperties" || key === "dependentRequired")
        Object.values(value as JsonObject).forEach((v) => walk(v, key !== "dependentRequired"));
      else if (!["const", "enum", "required", "type", "$ref"].includes(key)) walk(value, true);
    }
  };
  walk(schema, true);
  return [...found].sort();
}

/** The fragment with `$ref: "#/$defs/X"` as `$ref: "X"` and annotations dropped, for SchemaCheck. */
function refsByName(schema: JsonValue): JsonObject {
  const rewrite = (node: JsonValue, keywordsHere: boolean): JsonValue => {
    if (Array.isArray(node)) return node.map((n) => rewrite(n, keywordsHere));
    if (!isJsonObject(node)) return node;
    const out: JsonObject = {};
    for (const [key, value] of Object.entries(
      keywordsHere ? (stripped(node) as JsonObject) : node,
    )) {
      if (!keywordsHere) out[key] = rewrite(value, true);
      else if (key === "$ref") out[key] = className(refName(value) ?? JSON.stringify(value));
      else if (["const", "enum", "required", "dependentRequired"].includes(key)) out[key] = value;
      else if (key === "properties" || key === "patternProperties")
        out[key] = rewrite(value, false);
      else out[key] = rewrite(value, true);
    }
    return out;
  };
  return rewrite(schema, true) as JsonObject;
}

/**
 * The property every branch requires with a distinct string constant
 * (`type`, `method`, `status`), when all branches are object schemas that
 * pin one: pydantic then checks only the branch the tag names.
 */
function discriminator(branches: readonly JsonValue[], resolve: Resolve): string | undefined {
  const resolved = branches.map((b) => {
    const ref = onlyRef(b);
    const schema = ref !== undefined ? resolve(ref) : b;
    return isJsonObject(schema) ? (stripped(schema) as JsonObject) : undefined;
  });
  if (resolved.some((b) => !b || b.type !== "object" || !isJsonObject(b.properties)))
    return undefined;
  const candidates = Object.keys(resolved[0]!.properties as JsonObject).sort();
  for (const tag of candidates) {
    const seen = new Set<string>();
    const ok = resolved.every((b) => {
      const values = tagValues(b!, tag);
      if (!values || values.some((v) => seen.has(v))) return false;
      values.forEach((v) => seen.add(v));
      return true;
    });
    if (ok) return tag;
  }
  return undefined;
}

function tagValues(branch: JsonObject, tag: string): string[] | undefined {
  if (!Array.isArray(branch.required) || !branch.required.includes(tag)) return undefined;
  const property = (branch.properties as JsonObject)[tag];
  if (!isJsonObject(property)) return undefined;
  const p = stripped(property) as JsonObject;
  const extra = Object.keys(p).filter((k) => !["type", "const", "enum"].includes(k));
  if (extra.length > 0 || (p.type !== undefined && p.type !== "string")) return undefined;
  if (typeof p.const === "string") return [p.const];
  if (Array.isArray(p.enum) && p.enum.length > 0 && p.enum.every((v) => typeof v === "string"))
    return p.enum;
  return undefined;
}

/**
 * A definition that accepts any JSON value: its type names all six JSON
 * types, and its arrays and objects hold the definition itself (2026-07-28's
 * JSONValue, once patched). It is written as pydantic's JsonValue.
 */
export function isAnyJsonValue(schema: JsonValue, name: string): boolean {
  if (!isJsonObject(schema) || !Array.isArray(schema.anyOf)) return false;
  const self = (v: JsonValue | undefined) => refName(isJsonObject(v) ? v.$ref : undefined) === name;
  const types = new Set<string>();
  for (const branch of schema.anyOf) {
    if (!isJsonObject(branch)) return false;
    const b = stripped(branch) as JsonObject;
    const ref = refName(b.$ref);
    if (ref !== undefined) {
      types.add(`ref:${ref}`);
      continue;
    }
    const list = Array.isArray(b.type) ? (b.type as string[]) : [b.type as string];
    if (b.type === "array" && !self(b.items)) return false;
    if (Object.keys(b).some((k) => k !== "type" && k !== "items")) return false;
    list.forEach((t) => types.add(t));
  }
  const objectRef = [...types].find((t) => t.startsWith("ref:"));
  return (
    objectRef !== undefined &&
    ["array", "string", "number", "boolean", "null"].every((t) => types.has(t)) &&
    types.size === 6
  );
}
