/**
 * Sample values of a JSON Schema, for the counterexample search
 * (counterexample.ts): a bounded, deterministic list of values the schema
 * probably accepts, plus values on the edges the other schema draws (its
 * bounds, lengths, enum values, formats, patterns and property names,
 * gathered as hints). Nothing here decides acceptance; the search checks
 * every candidate with ajv.
 *
 * Before → after, for `{ "type": "string", "maxLength": 3 }` with a hint
 * `minLength: 1` from the other side: `"xxx"`, `""`, `"x"`, `"xx"`,
 * `"xxxx"`, `"a"`, ...
 */
import { isJsonObject, type JsonObject, type JsonValue } from "../../load/json.js";
import { forEachSchema } from "../../shared/schema-walk.js";

/** What two schemas mention, that values on their edges are made of. */
export interface Hints {
  readonly numbers: readonly number[];
  readonly lengths: readonly number[];
  readonly strings: readonly string[];
  readonly formats: readonly string[];
  readonly names: readonly string[];
  /** Whole values the schemas name: enum and const values, defaults, examples. */
  readonly values: readonly JsonValue[];
}

/** How many samples a schema gives at each depth: wide at the top, narrow below. */
const WIDTH = [96, 24, 10, 6, 4, 3, 2, 2] as const;
/** How deep samples are built; deeper parts are the first sample of their kind, or nothing. */
const MAX_DEPTH = WIDTH.length - 1;
/** The longest string or array the samples hold: a bound of a million is not tried by building it. */
const MAX_LENGTH = 4096;

/** Hints from every subschema of `schemas`. */
export function gatherHints(schemas: readonly JsonValue[]): Hints {
  const numbers = new Set<number>();
  const lengths = new Set<number>();
  const strings = new Set<string>();
  const formats = new Set<string>();
  const names = new Set<string>();
  const values: JsonValue[] = [];
  const addValue = (v: JsonValue) => {
    values.push(v);
    if (typeof v === "string") strings.add(v);
    if (typeof v === "number") numbers.add(v);
  };
  for (const schema of schemas)
    forEachSchema(schema, "", (node) => {
      for (const key of ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"])
        if (typeof node[key] === "number")
          for (const d of [0, -1, 1, -0.5, 0.5]) numbers.add(node[key] + d);
      if (typeof node.multipleOf === "number")
        for (const f of [1, 2, 0.5]) numbers.add(node.multipleOf * f);
      for (const key of LENGTH_KEYWORDS)
        if (typeof node[key] === "number")
          for (const d of [-1, 0, 1]) if (node[key] + d >= 0) lengths.add(node[key] + d);
      if (Array.isArray(node.enum)) node.enum.forEach(addValue);
      if (node.const !== undefined) addValue(node.const);
      if (node.default !== undefined) addValue(node.default);
      if (Array.isArray(node.examples)) node.examples.forEach(addValue);
      if (typeof node.format === "string") formats.add(node.format);
      if (typeof node.pattern === "string")
        patternStrings(node.pattern).forEach((s) => strings.add(s));
      if (isJsonObject(node.properties)) Object.keys(node.properties).forEach((n) => names.add(n));
      if (Array.isArray(node.required))
        node.required.forEach((n) => typeof n === "string" && names.add(n));
    });
  return {
    numbers: [...numbers].filter(Number.isFinite),
    lengths: [...lengths].filter((n) => n <= MAX_LENGTH),
    strings: [...strings],
    formats: [...formats],
    names: [...names],
    values: values.slice(0, 64),
  };
}

const LENGTH_KEYWORDS = [
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
  "minProperties",
  "maxProperties",
];

/**
 * Sample values of `schema` within the document `root`: its own likely
 * valid value first, then values on the edges the hints draw. At most
 * WIDTH[depth] values, in a fixed order.
 */
export function samplesOf(schema: JsonValue, context: SampleContext, depth = 0): JsonValue[] {
  if (depth > MAX_DEPTH) return [];
  return unique(sampleNode(schema, context, depth)).slice(0, WIDTH[depth]);
}

/** What sampling needs besides the schema: its document, the hints, and a check of a subschema. */
export interface SampleContext {
  readonly root: JsonValue;
  readonly hints: Hints;
  /** Whether a subschema of the document accepts a value (false when it cannot tell). */
  readonly accepts: (schema: JsonValue, value: JsonValue) => boolean;
}

function sampleNode(schema: JsonValue, context: SampleContext, depth: number): JsonValue[] {
  const { root, hints } = context;
  if (schema === false) return [];
  if (schema === true || !isJsonObject(schema)) return anyValues(hints);
  if (typeof schema.$ref === "string") {
    const target = lookupRef(root, schema.$ref);
    const { $ref: _r, ...rest } = schema;
    return target === undefined
      ? anyValues(hints)
      : sampleNode(merge(rest, target), context, depth + 1);
  }
  if (Object.hasOwn(schema, "const")) return [schema.const!];
  if (Array.isArray(schema.enum)) return [...schema.enum];
  for (const key of ["anyOf", "oneOf"] as const)
    if (Array.isArray(schema[key])) {
      const { [key]: branches, ...rest } = schema;
      return interleave(
        (branches as JsonValue[]).map((b) => samplesOf(merge(rest, b), context, depth)),
      );
    }
  if (Array.isArray(schema.allOf)) {
    const { allOf, ...rest } = schema;
    return sampleNode(
      allOf.reduce<JsonObject>((a, p) => merge(a, p), rest),
      context,
      depth,
    );
  }
  const types = typesOf(schema);
  return interleave(types.map((t) => typeSamples(schema, t, context, depth)));
}

type TypeName = "array" | "boolean" | "integer" | "null" | "number" | "object" | "string";

/** The types a schema allows: its `type`, else what its keywords suggest, else every type. */
function typesOf(schema: JsonObject): TypeName[] {
  if (typeof schema.type === "string") return [schema.type as TypeName];
  if (Array.isArray(schema.type))
    return schema.type.filter((t): t is TypeName => typeof t === "string");
  const suggested: TypeName[] = [];
  if (["properties", "required", "additionalProperties"].some((k) => k in schema))
    suggested.push("object");
  if (["items", "prefixItems", "minItems", "maxItems"].some((k) => k in schema))
    suggested.push("array");
  if (["minLength", "maxLength", "pattern", "format"].some((k) => k in schema))
    suggested.push("string");
  if (["minimum", "maximum", "multipleOf"].some((k) => k in schema)) suggested.push("number");
  return suggested.length > 0
    ? suggested
    : ["string", "number", "object", "array", "boolean", "null", "integer"];
}

function typeSamples(
  schema: JsonObject,
  type: TypeName,
  context: SampleContext,
  depth: number,
): JsonValue[] {
  const { hints } = context;
  switch (type) {
    case "null":
      return [null];
    case "boolean":
      return [true, false];
    case "integer":
      return numberSamples(schema, hints).filter(Number.isInteger);
    case "number":
      return numberSamples(schema, hints);
    case "string":
      return stringSamples(schema, hints);
    case "array":
      return arraySamples(schema, context, depth);
    case "object":
      return objectSamples(schema, context, depth);
  }
}

function numberSamples(schema: JsonObject, hints: Hints): number[] {
  const own: number[] = [];
  const low = num(schema.minimum) ?? (num(schema.exclusiveMinimum) ?? NaN) + 1;
  const high = num(schema.maximum) ?? (num(schema.exclusiveMaximum) ?? NaN) - 1;
  if (Number.isFinite(low)) own.push(low);
  if (Number.isFinite(high)) own.push(high);
  const step = num(schema.multipleOf);
  if (step !== undefined)
    own.push(step, step * 2, Number.isFinite(low) ? Math.ceil(low / step) * step : 0);
  return [...own, 0, 1, -1, 0.5, 2, 10, 100, -100, 1.5, 1_000_000, ...hints.numbers];
}

function num(v: JsonValue | undefined): number | undefined {
  return typeof v === "number" && Number.isFinite(v) ? v : undefined;
}

/** A valid-looking value of each format mcp-gen's validators check. */
const FORMAT_EXAMPLES: Readonly<Record<string, string>> = {
  "date-time": "2024-01-02T03:04:05Z",
  date: "2024-01-02",
  time: "03:04:05Z",
  duration: "P1D",
  email: "a@example.com",
  "idn-email": "a@example.com",
  hostname: "example.com",
  "idn-hostname": "example.com",
  ipv4: "192.0.2.1",
  ipv6: "2001:db8::1",
  uri: "https://example.com/a",
  "uri-reference": "/a",
  iri: "https://example.com/a",
  "iri-reference": "/a",
  "uri-template": "https://example.com/{a}",
  url: "https://example.com/a",
  uuid: "123e4567-e89b-12d3-a456-426614174000",
  "json-pointer": "/a",
  "relative-json-pointer": "0/a",
  regex: "a+",
  byte: "YQ==",
  int32: "1",
  int64: "1",
  float: "1.5",
  double: "1.5",
  password: "secret",
  binary: "a",
};

function stringSamples(schema: JsonObject, hints: Hints): string[] {
  const min = num(schema.minLength) ?? 0;
  const own: string[] = [];
  if (typeof schema.format === "string" && FORMAT_EXAMPLES[schema.format])
    own.push(FORMAT_EXAMPLES[schema.format]!);
  if (typeof schema.pattern === "string") own.push(...patternStrings(schema.pattern));
  own.push("x".repeat(Math.min(Math.max(min, 1), MAX_LENGTH)));
  for (const n of [num(schema.minLength), num(schema.maxLength)])
    if (n !== undefined && n <= MAX_LENGTH) own.push("x".repeat(n));
  return [
    ...own,
    "",
    "a",
    ...hints.strings,
    ...hints.formats.map((f) => FORMAT_EXAMPLES[f]).filter((s): s is string => s !== undefined),
    ...hints.lengths.map((n) => "x".repeat(n)),
    "A",
    "0",
    " ",
    "a b",
    "-",
    "not a format: ~",
  ];
}

function arraySamples(schema: JsonObject, context: SampleContext, depth: number): JsonValue[] {
  const { hints } = context;
  const prefix = Array.isArray(schema.prefixItems)
    ? schema.prefixItems
    : Array.isArray(schema.items)
      ? schema.items
      : [];
  const rest = Array.isArray(schema.items)
    ? (schema.additionalItems ?? true)
    : (schema.items ?? true);
  const items = samplesOf(rest, context, depth + 1);
  const tuple = prefix.map((p) => samplesOf(p, context, depth + 1)[0] ?? null);
  const first = items[0] ?? null;
  const min = num(schema.minItems) ?? 0;
  const filled = (n: number) => [
    ...tuple,
    ...Array.from({ length: Math.max(n - tuple.length, 0) }, () => first),
  ];
  const out: JsonValue[] = [filled(Math.max(min, 1)), filled(min), []];
  for (const item of items.slice(1)) out.push([...tuple, item]);
  if (items.length > 1) out.push([...tuple, items[0]!, items[1]!]);
  out.push([...tuple, first, first]);
  for (const n of [num(schema.maxItems), ...hints.lengths])
    if (n !== undefined && n <= 64) out.push(filled(n));
  return out;
}

/**
 * Objects: a base with each required property's first sample, then the
 * base changed one property at a time (each other sample of a property,
 * each optional property added, each required one left out, a property
 * the schema does not name added).
 */
function objectSamples(schema: JsonObject, context: SampleContext, depth: number): JsonValue[] {
  const { hints } = context;
  const properties = isJsonObject(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required)
    ? schema.required.filter((n): n is string => typeof n === "string")
    : [];
  const schemaOf = (name: string): JsonValue =>
    Object.hasOwn(properties, name) ? properties[name]! : (schema.additionalProperties ?? true);
  const sampled = new Map<string, JsonValue[]>();
  const samplesFor = (name: string) => {
    let s = sampled.get(name);
    if (!s) sampled.set(name, (s = samplesOf(schemaOf(name), context, depth + 1)));
    return s;
  };
  const base: JsonObject = {};
  // The base holds, for each required property, its first sample that the property's schema accepts.
  for (const name of required) {
    const samples = samplesFor(name);
    const first = samples.find((v) => context.accepts(schemaOf(name), v)) ?? samples[0];
    if (first !== undefined) define(base, name, first);
  }
  const out: JsonValue[] = [base];
  const variant = (name: string, value: JsonValue | undefined) => {
    const copy = { ...base };
    if (value === undefined) delete copy[name];
    else define(copy, name, value);
    out.push(copy);
  };
  for (const name of required) for (const v of samplesFor(name).slice(1)) variant(name, v);
  for (const name of Object.keys(properties).filter((n) => !required.includes(n)))
    for (const v of samplesFor(name)) variant(name, v);
  for (const name of required) variant(name, undefined);
  const extra = samplesOf(schema.additionalProperties ?? true, context, depth + 1);
  for (const name of [...hints.names.filter((n) => !Object.hasOwn(properties, n)), "extra"])
    if (extra[0] !== undefined) variant(name, extra[0]);
  return out;
}

/** Sets an own property, even one named `__proto__`. */
function define(target: JsonObject, name: string, value: JsonValue): void {
  Object.defineProperty(target, name, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

/** Values of every kind, for a schema that allows anything. */
function anyValues(hints: Hints): JsonValue[] {
  return [null, "", 0, true, {}, [], "a", 1.5, -1, false, ...hints.values];
}

/**
 * Strings a pattern's characters make: each character or range end it
 * names, two of them together, three of the first. Not a regex engine:
 * these are candidates, and ajv judges them.
 */
export function patternStrings(pattern: string): string[] {
  const chars: string[] = [];
  const classes: Readonly<Record<string, string[]>> = {
    d: ["0", "5", "9"],
    w: ["a", "Z", "_", "0"],
    s: [" "],
    D: ["a"],
    W: ["-"],
    S: ["a"],
  };
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === "\\" && i + 1 < pattern.length) {
      const next = pattern[++i]!;
      chars.push(...(classes[next] ?? [next]));
    } else if (pattern[i + 1] === "-" && i + 2 < pattern.length && pattern[i + 2] !== "]") {
      const [from, to] = [c.charCodeAt(0), pattern.charCodeAt(i + 2)];
      chars.push(c, String.fromCharCode(Math.floor((from + to) / 2)), pattern[i + 2]!);
      i += 2;
    } else if (!"^$[]()|?*+{}.,".includes(c) && !/[0-9]/.test(c)) chars.push(c);
    else if (/[0-9]/.test(c) && pattern[i - 1] !== "{" && pattern[i - 1] !== ",") chars.push(c);
  }
  const distinct = [...new Set(chars)];
  // Quantifier counts ({3}, {3,4}): the first character that many times.
  const counts = [...pattern.matchAll(/\{(\d+)(?:,(\d*))?\}/g)].flatMap((m) =>
    [m[1], m[2]].filter((n): n is string => n !== undefined && n !== "").map(Number),
  );
  const literal = pattern.replace(/^\^|\$$/g, "");
  const out = [...distinct];
  if (distinct.length > 1) out.push(distinct[0]! + distinct[1]!);
  if (distinct.length > 0) out.push(distinct[0]!.repeat(3), distinct.join(""));
  // Each count and one past it: a bound written in a pattern is a length limit like maxLength.
  for (const n of counts.flatMap((c) => [c, c + 1]))
    if (distinct.length > 0 && n <= MAX_LENGTH) out.push(distinct[0]!.repeat(n));
  if (/^[A-Za-z0-9_ -]*$/.test(literal)) out.push(literal);
  return out.slice(0, 32);
}

/** `a` and `b` as one schema: `properties` and `required` joined, the rest of `b` over `a`'s. */
function merge(a: JsonObject, b: JsonValue): JsonObject {
  if (!isJsonObject(b)) return b === false ? { not: {} } : a;
  const out: JsonObject = { ...a, ...b };
  if (isJsonObject(a.properties) && isJsonObject(b.properties))
    out.properties = { ...a.properties, ...b.properties };
  if (Array.isArray(a.required) && Array.isArray(b.required))
    out.required = [...new Set([...a.required, ...b.required].map(String))];
  return out;
}

/** `#`, `#/$defs/Name` or another local JSON pointer, within `root`. */
export function lookupRef(root: JsonValue, ref: string): JsonValue | undefined {
  if (!ref.startsWith("#")) return undefined;
  const segments = ref
    .slice(1)
    .split("/")
    .slice(1)
    .map((s) => decodeURIComponent(s).replace(/~1/g, "/").replace(/~0/g, "~"));
  let node: JsonValue | undefined = root;
  for (const segment of segments) {
    if (Array.isArray(node)) node = node[Number(segment)];
    else if (isJsonObject(node)) node = Object.hasOwn(node, segment) ? node[segment] : undefined;
    else return undefined;
  }
  return node;
}

/** Lists taken in turn: the first of each, then the second of each, ... */
function interleave(lists: readonly JsonValue[][]): JsonValue[] {
  const out: JsonValue[] = [];
  const longest = Math.max(0, ...lists.map((l) => l.length));
  for (let i = 0; i < longest; i++)
    for (const list of lists) if (i < list.length) out.push(list[i]!);
  return out;
}

/** The values without repeats (by their JSON text), first occurrence kept. */
function unique(values: readonly JsonValue[]): JsonValue[] {
  const seen = new Set<string>();
  return values.filter((v) => {
    const key = JSON.stringify(v);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
