/**
 * JSON Schema subsumption for the tool-contract diff: does every value one
 * schema accepts also pass another? The answer is three-valued. "yes" and
 * "no" are only given when they follow from the keywords; anything this
 * module cannot decide (two different regular expressions, `not`,
 * `if`/`then`, a union that only several branches together might cover) is
 * "unknown" with the reason, so a caller never mistakes it for safe.
 *
 * Covered: `$ref` (local, into `$defs`/`definitions`), `allOf`, `anyOf`,
 * `oneOf`, `type` (integer within number), `enum`/`const` (checked value by
 * value with ajv, which is exact), formats, numeric bounds and
 * `multipleOf`, string lengths and `pattern`, array `items` and sizes,
 * object `properties`, `required`, `additionalProperties` and sizes.
 */
import { isJsonObject, jsonEqual, type JsonObject, type JsonValue } from "../../load/json.js";
import { stripAnnotations } from "../compare-schemas.js";
import { checkerOf, type Rooted } from "./accepts.js";
import { lookupRef } from "./samples.js";

export type { Rooted } from "./accepts.js";

/**
 * The answer to "does `sup` accept every value `sub` accepts?". The reason
 * of a "no" names the values `sub` accepts and `sup` refuses ("numbers
 * above 50"); that of an "unknown" says what could not be decided.
 */
export type Verdict =
  | { readonly result: "yes" }
  | { readonly result: "no"; readonly reason: string }
  | { readonly result: "unknown"; readonly reason: string };

const YES: Verdict = { result: "yes" };
const no = (reason: string): Verdict => ({ result: "no", reason });
const unknown = (reason: string): Verdict => ({ result: "unknown", reason });

/** How many `$ref`s deep subsumption follows before it gives up (recursive schemas). */
const MAX_REF_DEPTH = 16;

/** Keywords this module understands; any other constraining keyword must be equal on both sides. */
const HANDLED = new Set([
  "$ref",
  "$defs",
  "definitions",
  "allOf",
  "anyOf",
  "oneOf",
  "type",
  "enum",
  "const",
  "format",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minLength",
  "maxLength",
  "pattern",
  "items",
  "minItems",
  "maxItems",
  "uniqueItems",
  "properties",
  "required",
  "additionalProperties",
  "minProperties",
  "maxProperties",
  "default",
  "readOnly",
  "writeOnly",
  "contentMediaType",
  "contentEncoding",
]);

type TypeName = "array" | "boolean" | "integer" | "null" | "number" | "object" | "string";

/** Whether every value `sub` accepts is accepted by `sup`. */
export function subsumes(sup: Rooted, sub: Rooted, depth = 0): Verdict {
  if (depth > MAX_REF_DEPTH)
    return unknown("the schemas refer to themselves too deeply to compare");
  const a = resolve(sup, depth);
  const b = resolve(sub, depth);
  if (a === undefined || b === undefined)
    return unknown("a $ref points to something that is not a local definition");
  if (a.depth !== depth || b.depth !== depth)
    return subsumes(a.rooted, b.rooted, Math.max(a.depth, b.depth));
  const A = stripAnnotations(a.rooted.schema);
  const B = stripAnnotations(b.rooted.schema);
  if (acceptsAll(A)) return YES;
  if (B === false) return YES;
  if (jsonEqual(A, B) && jsonEqual(a.rooted.root, b.rooted.root)) return YES;
  if (acceptsAll(B)) return no("values of any kind");
  if (A === false) return no("any value");
  if (!isJsonObject(A) || !isJsonObject(B)) return unknown("a schema is not an object");
  const supR = { schema: A, root: a.rooted.root };
  const subR = { schema: B, root: b.rooted.root };
  const finite = finiteValues(B);
  if (finite !== undefined) return valuesAccepted(finite, subR, supR);
  return subsumesObject(supR, subR, depth);
}

/** A schema that is only a `$ref`, followed to what it points to (unchanged when it is more, or points nowhere). */
export function followRef(r: Rooted): Rooted {
  return resolve(r, 0)?.rooted ?? r;
}

interface Resolved {
  readonly rooted: Rooted;
  readonly depth: number;
}

/** Follows a schema that is only a `$ref` to what it points to (each hop counts towards the depth). */
function resolve(r: Rooted, depth: number): Resolved | undefined {
  let current = r.schema;
  let hops = depth;
  while (isJsonObject(current) && typeof current.$ref === "string") {
    const others = Object.keys(stripAnnotations(current) as JsonObject).filter(
      (k) => k !== "$ref" && !DEFINITIONS.has(k),
    );
    if (others.length > 0) return { rooted: { schema: current, root: r.root }, depth: hops };
    const target = lookupRef(r.root, current.$ref);
    if (target === undefined) return undefined;
    current = target;
    if (++hops > depth + MAX_REF_DEPTH) break;
  }
  return { rooted: { schema: current, root: r.root }, depth: hops };
}

/** Keywords that hold definitions for `$ref`s and constrain nothing themselves. */
const DEFINITIONS = new Set(["$defs", "definitions"]);

function acceptsAll(schema: JsonValue): boolean {
  return (
    schema === true ||
    (isJsonObject(schema) && Object.keys(schema).every((k) => DEFINITIONS.has(k)))
  );
}

/** The values of a schema that can only hold a few: its `const`, its `enum`, or a null/boolean type. */
function finiteValues(schema: JsonObject): JsonValue[] | undefined {
  if (Object.hasOwn(schema, "const")) return [schema.const!];
  if (Array.isArray(schema.enum)) return schema.enum;
  const types = typesOf(schema);
  if (types.length > 0 && types.every((t) => t === "null" || t === "boolean"))
    return types.flatMap((t): JsonValue[] => (t === "null" ? [null] : [true, false]));
  return undefined;
}

/** A finite set of values: each one `sub` itself accepts must pass `sup` (checked by ajv). */
function valuesAccepted(values: readonly JsonValue[], sub: Rooted, sup: Rooted): Verdict {
  const subCheck = checkerOf(sub);
  const supCheck = checkerOf(sup);
  if (!subCheck || !supCheck) return unknown("a schema could not be compiled to check its values");
  for (const value of values)
    if (subCheck(value) && !supCheck(value)) return no(`the value ${JSON.stringify(value)}`);
  return YES;
}

/** The types a schema allows, or [] when it does not say (any type). */
function typesOf(schema: JsonObject): TypeName[] {
  const type = schema.type;
  if (typeof type === "string") return [type as TypeName];
  if (Array.isArray(type)) return type.filter((t): t is TypeName => typeof t === "string");
  return [];
}

/** The general case: two object schemas, neither with a finite set of values. */
function subsumesObject(sup: Rooted, sub: Rooted, depth: number): Verdict {
  const A = sup.schema as JsonObject;
  const B = sub.schema as JsonObject;
  // A union on the narrower side: every branch (with the rest of its schema) must pass.
  for (const key of ["anyOf", "oneOf"] as const)
    if (Array.isArray(B[key])) {
      const rest = without(B, key);
      const branches = B[key].map((branch) =>
        subsumes(sup, { schema: { allOf: [rest, branch] }, root: sub.root }, depth),
      );
      const whole = acceptsAll(rest)
        ? undefined
        : subsumes(sup, { schema: rest, root: sub.root }, depth);
      if (whole?.result === "yes") return YES;
      return combineAll(branches);
    }
  if (Array.isArray(B.allOf)) return subsumesAllOfSub(sup, sub, B, depth);
  const verdicts: Verdict[] = [];
  // An intersection on the wider side: the narrower must pass every part.
  if (Array.isArray(A.allOf)) {
    for (const part of A.allOf)
      verdicts.push(subsumes({ schema: part, root: sup.root }, sub, depth));
    const rest = without(A, "allOf");
    if (!acceptsAll(rest)) verdicts.push(subsumes({ schema: rest, root: sup.root }, sub, depth));
    return combineAll(verdicts);
  }
  for (const key of ["anyOf", "oneOf"] as const)
    if (Array.isArray(A[key])) return subsumesUnionSup(sup, sub, A, key, depth);
  if (typeof A.$ref === "string") {
    const target = lookupRef(sup.root, A.$ref);
    if (target === undefined) return unknown(`the $ref ${A.$ref} is not a local definition`);
    return combineAll([
      subsumes({ schema: target, root: sup.root }, sub, depth + 1),
      subsumes({ schema: without(A, "$ref"), root: sup.root }, sub, depth),
    ]);
  }
  if (typeof B.$ref === "string") {
    const target = lookupRef(sub.root, B.$ref);
    if (target === undefined) return unknown(`the $ref ${B.$ref} is not a local definition`);
    const viaRef = subsumes(sup, { schema: target, root: sub.root }, depth + 1);
    if (viaRef.result === "yes") return YES;
    const viaRest = subsumes(sup, { schema: without(B, "$ref"), root: sub.root }, depth);
    return viaRest.result === "yes"
      ? YES
      : undecided(viaRef, "the $ref's target and the schema beside it together");
  }
  return combineAll([
    ...unhandledKeywords(A, B),
    ...typeVerdicts(A, B),
    ...[formatVerdict(A, B)],
    ...numberVerdicts(A, B),
    ...stringVerdicts(A, B),
    ...arrayVerdicts(sup, sub, depth),
    ...objectVerdicts(sup, sub, depth),
  ]);
}

/** The narrower side is an intersection: one part passing is enough; otherwise undecided. */
function subsumesAllOfSub(sup: Rooted, sub: Rooted, B: JsonObject, depth: number): Verdict {
  const parts = [...(B.allOf as JsonValue[]), without(B, "allOf")].filter((p) => !acceptsAll(p));
  if (parts.length === 1) return subsumes(sup, { schema: parts[0]!, root: sub.root }, depth);
  const merged = mergeParts(parts);
  if (merged !== undefined) return subsumes(sup, { schema: merged, root: sub.root }, depth);
  const verdicts = parts.map((part) => subsumes(sup, { schema: part, root: sub.root }, depth));
  if (verdicts.some((v) => v.result === "yes")) return YES;
  const first = verdicts.find((v) => v.result !== "yes");
  return undecided(first, "the parts of an allOf together");
}

/**
 * The parts of an allOf as one schema, when that is exact: each keyword in
 * one part only (or equal wherever it appears), `required` joined, and
 * `properties` joined where no property is named twice differently.
 */
function mergeParts(parts: readonly JsonValue[]): JsonObject | undefined {
  const merged: JsonObject = {};
  for (const part of parts) {
    if (!isJsonObject(part) || part.allOf !== undefined || part.$ref !== undefined)
      return undefined;
    for (const [key, value] of Object.entries(part)) {
      const existing = merged[key];
      if (existing === undefined || jsonEqual(existing, value)) merged[key] = value;
      else if (key === "required" && Array.isArray(existing) && Array.isArray(value))
        merged[key] = [...new Set([...existing, ...value].map((v) => JSON.stringify(v)))].map(
          (v) => JSON.parse(v) as JsonValue,
        );
      else if (key === "properties" && isJsonObject(existing) && isJsonObject(value)) {
        const clash = Object.keys(value).some(
          (k) => Object.hasOwn(existing, k) && !jsonEqual(existing[k], value[k]),
        );
        if (clash) return undefined;
        merged[key] = { ...existing, ...value };
      } else return undefined;
    }
  }
  // additionalProperties in one part refuses the properties another part names: not a plain merge.
  if (merged.additionalProperties !== undefined && parts.length > 1) return undefined;
  return merged;
}

/** The wider side is a union: one branch accepting everything is enough. */
function subsumesUnionSup(
  sup: Rooted,
  sub: Rooted,
  A: JsonObject,
  key: "anyOf" | "oneOf",
  depth: number,
): Verdict {
  const rest = without(A, key);
  const restVerdict = acceptsAll(rest)
    ? YES
    : subsumes({ schema: rest, root: sup.root }, sub, depth);
  if (restVerdict.result === "no") return restVerdict;
  const branches = (A[key] as JsonValue[]).map((branch) =>
    subsumes({ schema: branch, root: sup.root }, sub, depth),
  );
  const covering = branches.filter((v) => v.result === "yes").length;
  if (covering === 0) {
    if (branches.every((v) => v.result === "no") && disjointTypes(A[key] as JsonValue[], sub))
      return no(
        `${(branches[0] as { reason: string }).reason} (no branch of the ${key} takes them)`,
      );
    return unknown(`no single branch of the ${key} accepts every value; several together might`);
  }
  // oneOf also needs exactly one branch to match: two covering branches reject what both accept.
  if (key === "oneOf" && covering > 1)
    return unknown("more than one branch of the oneOf accepts the same values");
  if (key === "oneOf" && branches.some((v) => v.result === "unknown"))
    return unknown("another branch of the oneOf might accept the same values, which oneOf rejects");
  return restVerdict;
}

/** True when no branch of a union allows any type the narrower schema allows. */
function disjointTypes(branches: readonly JsonValue[], sub: Rooted): boolean {
  const subTypes = isJsonObject(sub.schema) ? expand(typesOf(sub.schema)) : [];
  if (subTypes.length === 0) return false;
  return branches.every((branch) => {
    if (!isJsonObject(branch) || branch.$ref !== undefined) return false;
    const types = expand(typesOf(branch));
    return types.length > 0 && !subTypes.some((t) => types.includes(t));
  });
}

/** A type list with integer counted inside number. */
function expand(types: readonly TypeName[]): TypeName[] {
  return types.includes("number") && !types.includes("integer")
    ? [...types, "integer"]
    : [...types];
}

function without(schema: JsonObject, key: string): JsonObject {
  const { [key]: _dropped, ...rest } = schema;
  return rest;
}

/** All must hold: any "no" decides; otherwise any "unknown" does. */
function combineAll(verdicts: readonly Verdict[]): Verdict {
  return (
    verdicts.find((v) => v.result === "no") ?? verdicts.find((v) => v.result === "unknown") ?? YES
  );
}

/** A proof that did not go through: unknown, keeping the first reason found. */
function undecided(first: Verdict | undefined, what: string): Verdict {
  const reason = first && first.result !== "yes" ? first.reason : "";
  return unknown(`only ${what} might keep it accepted${reason ? ` (${reason})` : ""}`);
}

/** Keywords this module does not reason about: equal on both sides, or only on the narrower side, is fine. */
function unhandledKeywords(A: JsonObject, B: JsonObject): Verdict[] {
  return Object.keys(A)
    .filter((k) => !HANDLED.has(k) && !jsonEqual(A[k], B[k]))
    .map((k) => unknown(`the keyword ${k} is not compared by the diff`));
}

function typeVerdicts(A: JsonObject, B: JsonObject): Verdict[] {
  const wide = expand(typesOf(A));
  if (wide.length === 0) return [];
  const narrow = typesOf(B);
  if (narrow.length === 0) return [no(`values of types other than ${wide.join(", ")}`)];
  const lost = narrow.filter((t) => !wide.includes(t));
  return lost.length ? [no(`values of type ${lost.join(", ")}`)] : [];
}

/** Whether the narrower side can hold a value of `type` at all. */
function allows(schema: JsonObject, type: TypeName): boolean {
  const types = expand(typesOf(schema));
  return types.length === 0 || types.includes(type);
}

function formatVerdict(A: JsonObject, B: JsonObject): Verdict {
  if (typeof A.format !== "string" || A.format === B.format) return YES;
  if (!allows(B, "string")) return YES;
  if (B.format === undefined) return no(`strings not of the format ${A.format}`);
  return unknown(
    `the formats ${JSON.stringify(B.format)} and ${JSON.stringify(A.format)} are not compared`,
  );
}

/** A bound of B must lie within A's; a bound only A has is a new limit. */
function numberVerdicts(A: JsonObject, B: JsonObject): Verdict[] {
  if (!allows(B, "number") && !allows(B, "integer")) return [];
  const out: Verdict[] = [];
  const lowA = lowerBound(A);
  const lowB = lowerBound(B);
  if (
    lowA &&
    (!lowB ||
      lowB.value < lowA.value ||
      (lowB.value === lowA.value && lowA.exclusive && !lowB.exclusive))
  )
    out.push(no(`numbers ${lowA.exclusive ? "at or below" : "below"} ${lowA.value}`));
  const highA = upperBound(A);
  const highB = upperBound(B);
  if (
    highA &&
    (!highB ||
      highB.value > highA.value ||
      (highB.value === highA.value && highA.exclusive && !highB.exclusive))
  )
    out.push(no(`numbers ${highA.exclusive ? "at or above" : "above"} ${highA.value}`));
  if (typeof A.multipleOf === "number") {
    const m = typeof B.multipleOf === "number" ? B.multipleOf / A.multipleOf : NaN;
    if (!Number.isInteger(m)) out.push(no(`numbers that are not multiples of ${A.multipleOf}`));
  }
  return out;
}

interface Bound {
  readonly value: number;
  readonly exclusive: boolean;
}

function lowerBound(s: JsonObject): Bound | undefined {
  const min = typeof s.minimum === "number" ? s.minimum : undefined;
  const ex = typeof s.exclusiveMinimum === "number" ? s.exclusiveMinimum : undefined;
  if (ex !== undefined && (min === undefined || ex >= min)) return { value: ex, exclusive: true };
  return min !== undefined ? { value: min, exclusive: false } : undefined;
}

function upperBound(s: JsonObject): Bound | undefined {
  const max = typeof s.maximum === "number" ? s.maximum : undefined;
  const ex = typeof s.exclusiveMaximum === "number" ? s.exclusiveMaximum : undefined;
  if (ex !== undefined && (max === undefined || ex <= max)) return { value: ex, exclusive: true };
  return max !== undefined ? { value: max, exclusive: false } : undefined;
}

function stringVerdicts(A: JsonObject, B: JsonObject): Verdict[] {
  if (!allows(B, "string")) return [];
  const out = [...sizeVerdicts(A, B, "minLength", "maxLength", ["strings", "characters"])];
  if (typeof A.pattern === "string" && A.pattern !== B.pattern)
    out.push(
      B.pattern === undefined
        ? no(`strings that do not match ${A.pattern}`)
        : unknown(
            `the patterns ${JSON.stringify(B.pattern)} and ${JSON.stringify(A.pattern)} are not compared (regular expressions)`,
          ),
    );
  return out;
}

/** minX/maxX pairs: A's minimum must not exceed B's, A's maximum not fall below B's. */
function sizeVerdicts(
  A: JsonObject,
  B: JsonObject,
  minKey: string,
  maxKey: string,
  what: readonly [noun: string, unit: string],
): Verdict[] {
  const [noun, unit] = what;
  const out: Verdict[] = [];
  const minA = typeof A[minKey] === "number" ? A[minKey] : 0;
  const minB = typeof B[minKey] === "number" ? B[minKey] : 0;
  if (minA > minB) out.push(no(`${noun} of fewer than ${minA} ${unit}`));
  if (typeof A[maxKey] === "number") {
    const maxB = typeof B[maxKey] === "number" ? B[maxKey] : Infinity;
    if (maxB > A[maxKey]) out.push(no(`${noun} of more than ${A[maxKey]} ${unit}`));
  }
  return out;
}

function arrayVerdicts(sup: Rooted, sub: Rooted, depth: number): Verdict[] {
  const A = sup.schema as JsonObject;
  const B = sub.schema as JsonObject;
  if (!allows(B, "array")) return [];
  const out = sizeVerdicts(A, B, "minItems", "maxItems", ["arrays", "items"]);
  if (A.uniqueItems === true && B.uniqueItems !== true) out.push(no("arrays with repeated items"));
  if (A.items !== undefined && (Array.isArray(A.items) || Array.isArray(B.items))) {
    if (!jsonEqual(A.items, B.items)) out.push(unknown("tuple items are not compared"));
  } else if (A.items !== undefined) {
    const v = subsumes(
      { schema: A.items, root: sup.root },
      { schema: B.items ?? true, root: sub.root },
      depth,
    );
    if (v.result !== "yes") out.push(suffix(v, " (as array items)"));
  }
  return out;
}

function objectVerdicts(sup: Rooted, sub: Rooted, depth: number): Verdict[] {
  const A = sup.schema as JsonObject;
  const B = sub.schema as JsonObject;
  if (!allows(B, "object")) return [];
  const out = sizeVerdicts(A, B, "minProperties", "maxProperties", ["objects", "properties"]);
  const requiredA = stringsOf(A.required);
  const requiredB = stringsOf(B.required);
  for (const name of requiredA)
    if (!requiredB.includes(name) && propertySchema(B, name) !== false)
      out.push(no(`objects without ${name}`));
  const propsA = isJsonObject(A.properties) ? A.properties : {};
  const propsB = isJsonObject(B.properties) ? B.properties : {};
  for (const name of new Set([...Object.keys(propsA), ...Object.keys(propsB)]).values()) {
    const v = subsumes(
      { schema: propertySchema(A, name), root: sup.root },
      { schema: propertySchema(B, name), root: sub.root },
      depth,
    );
    if (v.result !== "yes") out.push(suffix(v, ` (as property ${name})`));
  }
  if (A.additionalProperties !== undefined) {
    const v = subsumes(
      { schema: A.additionalProperties, root: sup.root },
      { schema: B.additionalProperties ?? true, root: sub.root },
      depth,
    );
    if (v.result !== "yes") out.push(suffix(v, " (as properties the schema does not name)"));
  }
  return out;
}

/** The schema a property named `name` must match: its own, else additionalProperties, else anything. */
export function propertySchema(schema: JsonObject, name: string): JsonValue {
  if (isJsonObject(schema.properties) && Object.hasOwn(schema.properties, name))
    return schema.properties[name]!;
  return schema.additionalProperties ?? true;
}

function stringsOf(value: JsonValue | undefined): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

function suffix(v: Verdict, text: string): Verdict {
  return v.result === "yes" ? v : { result: v.result, reason: `${v.reason}${text}` };
}
