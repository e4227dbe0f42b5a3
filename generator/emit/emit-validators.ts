/**
 * emitValidators: ajv standalone code for every declaration, compiled at
 * generation time so nothing compiles schemas at run time.
 *
 * Each declaration becomes its own ajv schema with `$id` = its name and
 * `$ref: "#/$defs/X"` rewritten to `$ref: "X"`, so ajv compiles every
 * definition exactly once and references call it (instead of compiling a
 * copy per use site). Annotations are stripped: they change nothing a
 * validator does and would otherwise be embedded in the code.
 *
 * The ajv compilation itself is in compile-validators.ts.
 */
import type { CompiledCodeCache } from "../load/code-cache.js";
import { isJsonObject, type JsonObject, type JsonValue } from "../load/json.js";
import { mapSchema } from "../shared/schema-walk.js";
import { refName } from "../model/build-declarations.js";
import type { Declaration, McpModel } from "../model/types.js";
import {
  KEYWORD_HELPERS,
  PROBLEM_HELPERS,
  protoPropertiesAsPatterns,
  withProblemLimits,
} from "./ajv-setup.js";
import {
  AJV_RUNTIME_HELPERS,
  AJV_RUNTIME_REQUIRE,
  compileValidators,
  type ValidatorSources,
} from "./compile-validators.js";
import { TsFileBuilder, type EmittedFile } from "./file.js";
import { JSON_VALUE_KEYWORD, validatorName } from "./names.js";
import {
  COMPILED_VALIDATORS_FILE,
  declarationsFile,
  PROBLEM_VALIDATORS_FILE,
  SUPPORT_MODULE,
} from "../model/output-names.js";

/** Keywords no validator checks: stripped before ajv compiles a schema. */
export const ANNOTATIONS: ReadonlySet<string> = new Set([
  "description",
  "title",
  "$comment",
  "examples",
  "deprecated",
  "readOnly",
  "writeOnly",
  "default",
  "$schema",
  "format",
]);

const ANY_JSON_TYPE = ["array", "boolean", "null", "number", "object", "string"];

/**
 * Emits `ajv-validators.gen.js`: ajv standalone code for every
 * declaration, as ajv writes it, after the imports of the support
 * functions it calls and the `require` its runtime helpers are loaded by;
 * and `ajv-validators.gen.d.ts`, which types each export as a
 * CompiledValidator, so tsc never infers a type from ajv's code.
 */
export function emitValidators(
  model: McpModel,
  bannerText: string,
  cache?: CompiledCodeCache,
): EmittedFile[] {
  const sources = validatorSources(model);
  const code = compileValidators(sources, {}, cache);
  return [
    javaScriptModule(COMPILED_VALIDATORS_FILE, code, KEYWORD_HELPERS, bannerText),
    validatorDeclarations(COMPILED_VALIDATORS_FILE, Object.keys(sources.exports), bannerText),
  ];
}

/** ajv's code as a JavaScript module: the support functions it calls imported, the `require` its runtime helpers are loaded by. */
function javaScriptModule(
  path: string,
  code: string,
  helpers: readonly string[],
  bannerText: string,
): EmittedFile {
  // Deno reads a JavaScript module's types from the file this names; tsc and Node go by the file name.
  return new TsFileBuilder(path)
    .header(`// @ts-self-types="./${declarationsFile(path)}"`)
    .importValues(SUPPORT_MODULE, ...helpers, ...AJV_RUNTIME_HELPERS)
    .add(AJV_RUNTIME_REQUIRE)
    .add(code)
    .build(bannerText);
}

/** The declaration file beside a validator module: every export a compiled validator, typed without reading ajv's code. */
function validatorDeclarations(
  path: string,
  exports: readonly string[],
  bannerText: string,
): EmittedFile {
  return new TsFileBuilder(declarationsFile(path))
    .importTypes(SUPPORT_MODULE, "CompiledValidator")
    .add(exports.map((name) => `export declare const ${name}: CompiledValidator;`).join("\n"))
    .build(bannerText);
}

/**
 * Emits `ajv-problems.gen.js` (and its declarations): for every request and notification, a
 * validator of the same schema that lists every problem (up to
 * PROBLEM_LIMIT) instead of stopping at the first. parseMessage runs it
 * only on a message the first validator has rejected.
 */
export function emitProblemValidators(
  model: McpModel,
  bannerText: string,
  cache?: CompiledCodeCache,
): EmittedFile[] {
  const sources = validatorSources(model);
  const exports = Object.fromEntries(
    messageDefinitions(model).map((name) => [validatorName(name), name]),
  );
  const code = compileValidators(
    { schemas: sources.schemas.map((s) => withProblemLimits(s) as JsonObject), exports },
    { allErrors: true, limitProblems: true },
    cache,
  );
  return [
    javaScriptModule(
      PROBLEM_VALIDATORS_FILE,
      code,
      [...KEYWORD_HELPERS, ...PROBLEM_HELPERS],
      bannerText,
    ),
    validatorDeclarations(PROBLEM_VALIDATORS_FILE, Object.keys(exports), bannerText),
  ];
}

/** The definitions parseMessage checks requests and notifications against, each once, in model order. */
export function messageDefinitions(model: McpModel): string[] {
  const used = new Set([
    ...model.requests.filter((r) => r.direction !== "input-request").map((r) => r.definition),
    ...model.notifications.map((n) => n.definition),
  ]);
  return model.declarations.map((d) => d.name).filter((name) => used.has(name));
}

/** What ajv compiles for the model's declarations. */
export function validatorSources(model: McpModel): ValidatorSources {
  return {
    schemas: compiledSchemas(model),
    exports: Object.fromEntries(model.declarations.map((d) => [validatorName(d.name), d.name])),
  };
}

/** The schemas ajv compiles, one per declaration, each with its name as `$id`. */
export function compiledSchemas(model: McpModel): JsonObject[] {
  const byName = new Map(model.declarations.map((d) => [d.name, d]));
  return useJsonValueKeyword(model.declarations.map((d) => validatorSchema(d, byName)));
}

/**
 * Definitions that accept any JSON value: `type` names all six JSON types
 * and arrays and objects hold the definition itself (2026-07-28's
 * JSONValue, once the patches and mergeByType have shaped it).
 */
function jsonValueDefinitions(schemas: readonly JsonObject[]): Set<string> {
  const found = new Set<string>();
  for (const { $id, ...rest } of schemas) {
    const types = Array.isArray(rest.type) ? [...rest.type].sort() : [];
    const self = (v: JsonValue | undefined) =>
      v === undefined || (isJsonObject(v) && Object.keys(v).length === 1 && v.$ref === $id);
    const keys = Object.keys(rest).every((k) =>
      ["type", "items", "additionalProperties"].includes(k),
    );
    if (
      typeof $id === "string" &&
      keys &&
      JSON.stringify(types) === JSON.stringify(ANY_JSON_TYPE) &&
      self(rest.items) &&
      self(rest.additionalProperties)
    )
      found.add($id);
  }
  return found;
}

/**
 * Replaces every reference to an any-JSON-value definition (and its own
 * schema) by the JSON_VALUE keyword, which calls `isJsonValue`: the same
 * verdicts, without ajv's per-key path building on the success path. Only
 * a failure names a path, the path of the value that is not JSON.
 */
function useJsonValueKeyword(schemas: readonly JsonObject[]): JsonObject[] {
  const anyJson = jsonValueDefinitions(schemas);
  if (anyJson.size === 0) return [...schemas];
  const isRef = (node: JsonObject) =>
    Object.keys(node).length === 1 && typeof node.$ref === "string" && anyJson.has(node.$ref);
  return schemas.map((schema) =>
    typeof schema.$id === "string" && anyJson.has(schema.$id)
      ? { $id: schema.$id, [JSON_VALUE_KEYWORD]: true }
      : (mapSchema(schema, (node) =>
          isRef(node) ? { [JSON_VALUE_KEYWORD]: true } : node,
        ) as JsonObject),
  );
}

/** The schema ajv compiles for a declaration (`byName` resolves the `$ref`s of union branches). */
export function validatorSchema(
  decl: Declaration,
  byName: ReadonlyMap<string, Declaration>,
): JsonObject {
  const root =
    typeof decl.validatorSchema === "object"
      ? decl.validatorSchema
      : decl.validatorSchema
        ? {}
        : { not: {} };
  const resolve = (branch: JsonValue) => resolveBranch(branch, byName);
  const discriminated = mapSchema(root, (node) =>
    dispatchOnType(mergeByType(discriminateUnion(node, resolve), resolve), resolve),
  );
  const shaped = protoPropertiesAsPatterns(
    mapSchema(discriminated, stripAnnotations),
  ) as JsonObject;
  return { $id: decl.name, ...shaped };
}

/**
 * Unions of objects told apart by one required property with distinct
 * constant values become ajv's `discriminator`, which checks only the
 * branch the value names instead of trying each branch in turn:
 *
 *   anyOf: [TextContent, ImageContent, …]          (each `type: {const}` and required)
 *   → anyOf: [{type: "object", required: ["type"], discriminator: {propertyName: "type"}, oneOf: [TextContent, ImageContent, …]}]
 *
 * Equivalent by construction: a value carries one tag value, so at most one
 * branch of the group can accept it, and branches outside the group stay
 * alternatives as before.
 */
function discriminateUnion(
  node: JsonObject,
  resolve: (branch: JsonValue) => JsonObject | undefined,
): JsonObject {
  const branches = Array.isArray(node.anyOf) ? node.anyOf : undefined;
  if (!branches || branches.length < 2 || "discriminator" in node) return node;
  const best = bestTag(branches.map(resolve));
  if (!best) return node;
  const group = best.members.map((i) => branches[i]!);
  const rest = branches.filter((_, i) => !best.members.includes(i));
  const tagged: JsonObject = {
    type: "object",
    required: [best.tag],
    discriminator: { propertyName: best.tag },
    oneOf: group,
  };
  if (rest.length === 0) {
    const { anyOf: _anyOf, ...others } = node;
    return Object.keys(others).length === 0
      ? tagged
      : { ...others, allOf: [...(Array.isArray(others.allOf) ? others.allOf : []), tagged] };
  }
  return { ...node, anyOf: [tagged, ...rest] };
}

/** Keywords that constrain values of one JSON type only (and are ignored for every other type). */
const TYPE_KEYWORDS: Readonly<Record<string, readonly string[]>> = {
  object: [
    "properties",
    "required",
    "additionalProperties",
    "patternProperties",
    "propertyNames",
    "minProperties",
    "maxProperties",
  ],
  array: ["items", "additionalItems", "contains", "minItems", "maxItems", "uniqueItems"],
  string: ["minLength", "maxLength", "pattern"],
  number: ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"],
  integer: ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"],
  boolean: [],
  null: [],
};

/**
 * Unions whose branches accept disjoint JSON types and use only keywords
 * of their own types merge into one schema, checked in one pass:
 *
 *   anyOf: [JSONObject, {type: "array", items: JSONValue}, {type: ["string", "number", "boolean", "null"]}]
 *   → {type: ["object", "array", "string", "number", "boolean", "null"], additionalProperties: JSONValue, items: JSONValue}
 *
 * Equivalent because every merged keyword applies only to values of its
 * branch's type, and a value's type selects exactly one branch.
 */
function mergeByType(
  node: JsonObject,
  resolve: (branch: JsonValue) => JsonObject | undefined,
): JsonObject {
  const branches = Array.isArray(node.anyOf) ? node.anyOf : undefined;
  if (!branches || branches.length < 2) return node;
  const resolved = branches.map(resolve);
  const types: string[] = [];
  const merged: JsonObject = {};
  for (const branch of resolved) {
    const own = typesOf(branch);
    if (
      !branch ||
      !own ||
      own.some(
        (t) =>
          types.includes(t) ||
          (t === "integer" && types.includes("number")) ||
          (t === "number" && types.includes("integer")),
      )
    )
      return node;
    for (const [key, value] of Object.entries(branch)) {
      if (key === "type" || ANNOTATIONS.has(key)) continue;
      const owners = own.filter((t) => TYPE_KEYWORDS[t]?.includes(key));
      // A keyword of several types in one branch (minimum for number and integer) is fine; of no listed type, or already set, is not.
      if (owners.length === 0 || key in merged) return node;
      merged[key] = value;
    }
    types.push(...own);
  }
  const { anyOf: _anyOf, ...others } = node;
  if (Object.keys(others).some((k) => !ANNOTATIONS.has(k))) return node;
  return { ...others, type: types, ...merged };
}

/**
 * Unions whose branches accept disjoint JSON types become an if/then/else
 * chain on the type, so a value is checked against the one branch that
 * can accept it, and failed branches never build error objects:
 *
 *   JSONValue: anyOf: [JSONObject, {type: "array", …}, {type: ["string", "number", "boolean", "null"]}]
 *   → if: {type: "object"}, then: JSONObject, else: {if: {type: "array"}, then: {…}, else: {type: [primitives]}}
 *
 * Equivalent by construction: a value has one JSON type, so only the branch
 * whose types include it could accept it; a value of no listed type falls
 * through to the last branch, which rejects it as the union would.
 */
function dispatchOnType(
  node: JsonObject,
  resolve: (branch: JsonValue) => JsonObject | undefined,
): JsonObject {
  const branches = Array.isArray(node.anyOf) ? node.anyOf : undefined;
  if (!branches || branches.length < 2) return node;
  const types = branches.map((b) => typesOf(resolve(b)));
  if (types.some((t) => t === undefined)) return node;
  const seen = new Set<string>();
  for (const list of types as string[][]) {
    const normalized = list.map((t) => (t === "integer" ? "number" : t));
    if (normalized.some((t) => seen.has(t))) return node;
    normalized.forEach((t) => seen.add(t));
  }
  let chain: JsonValue = branches[branches.length - 1]!;
  for (let i = branches.length - 2; i >= 0; i--) {
    const list = types[i]!;
    chain = { if: { type: list.length === 1 ? list[0]! : list }, then: branches[i]!, else: chain };
  }
  const { anyOf: _anyOf, ...others } = node;
  return Object.keys(others).length === 0 && isJsonObject(chain)
    ? chain
    : { ...others, allOf: [...(Array.isArray(others.allOf) ? others.allOf : []), chain] };
}

/** The JSON types a branch can accept, when it says (`type`); undefined when it does not. */
function typesOf(branch: JsonObject | undefined): string[] | undefined {
  if (!branch) return undefined;
  if (typeof branch.type === "string") return [branch.type];
  if (
    Array.isArray(branch.type) &&
    branch.type.length > 0 &&
    branch.type.every((t) => typeof t === "string")
  )
    return branch.type;
  return undefined;
}

/** The property that tells apart the most branches (at least two), with the indices of those branches. */
function bestTag(
  resolved: ReadonlyArray<JsonObject | undefined>,
): { tag: string; members: number[] } | undefined {
  const candidates = new Set(
    resolved.flatMap((b) => (b && isJsonObject(b.properties) ? Object.keys(b.properties) : [])),
  );
  let best: { tag: string; members: number[] } | undefined;
  for (const tag of [...candidates].sort()) {
    const seen = new Set<string>();
    const members: number[] = [];
    resolved.forEach((branch, i) => {
      const values = tagValues(branch, tag);
      if (!values || values.some((v) => seen.has(v))) return;
      values.forEach((v) => seen.add(v));
      members.push(i);
    });
    if (members.length >= 2 && (!best || members.length > best.members.length))
      best = { tag, members };
  }
  return best;
}

/** The string values a branch requires `tag` to have, if it is an object schema that pins them. */
function tagValues(branch: JsonObject | undefined, tag: string): string[] | undefined {
  if (
    !branch ||
    branch.type !== "object" ||
    !Array.isArray(branch.required) ||
    !branch.required.includes(tag)
  )
    return undefined;
  const property = isJsonObject(branch.properties) ? branch.properties[tag] : undefined;
  if (!isJsonObject(property)) return undefined;
  if (typeof property.const === "string") return [property.const];
  if (
    Array.isArray(property.enum) &&
    property.enum.length > 0 &&
    property.enum.every((v) => typeof v === "string")
  )
    return property.enum;
  return undefined;
}

/** A union branch as a schema: inline, or the validator schema of the definition it references. */
function resolveBranch(
  branch: JsonValue,
  byName: ReadonlyMap<string, Declaration>,
): JsonObject | undefined {
  if (!isJsonObject(branch)) return undefined;
  const target = refName(branch.$ref);
  if (target === undefined) return branch;
  if (Object.keys(branch).some((k) => k !== "$ref" && !ANNOTATIONS.has(k))) return undefined;
  const schema = byName.get(target)?.validatorSchema;
  return isJsonObject(schema) ? schema : undefined;
}

function stripAnnotations(node: JsonObject): JsonValue {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    if (ANNOTATIONS.has(key)) continue;
    out[key] =
      key === "$ref" && typeof value === "string" && refName(value) !== undefined
        ? refName(value)!
        : value;
  }
  return out;
}
