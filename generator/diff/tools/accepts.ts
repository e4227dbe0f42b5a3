/**
 * Whether a schema accepts a value, for the tool diff: each schema is
 * compiled with the ajv the tool validators use (check/ajv.ts: the
 * schema's own dialect, formats checked, own properties only), so a value
 * the diff calls accepted is one a generated tool validator accepts.
 */
import type { Ajv } from "ajv";
import { createAjv, toolAjvChoices } from "../../shared/ajv.js";
import { dialectOf } from "../../check/check-tools.js";
import { isJsonObject, type JsonObject, type JsonValue } from "../../load/json.js";

/** A schema together with the document its local `$ref`s point into. */
export interface Rooted {
  readonly schema: JsonValue;
  readonly root: JsonValue;
}

/** A compiled check: true when the value is valid. */
export type ValueCheck = (value: JsonValue) => boolean;

/** How many compiled checks are kept; a diff of thousands of tools must not hold them all. */
const MAX_CACHED = 512;

const ajvs: Partial<Record<"2020-12" | "draft-07", Ajv>> = {};
const cache = new Map<string, ValueCheck | null>();

/**
 * The check of `r.schema` inside its document `r.root`, or undefined when
 * ajv cannot compile it (the diff then says it could not decide).
 */
export function checkerOf(r: Rooted): ValueCheck | undefined {
  const dialect = (isJsonObject(r.root) ? dialectOf(r.root) : undefined) ?? "2020-12";
  const document = documentOf(r);
  const key = `${dialect}\0${JSON.stringify(document)}`;
  const kept = cache.get(key);
  if (kept !== undefined) return kept ?? undefined;
  const compiled = compile(document, dialect);
  if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value!);
  cache.set(key, compiled ?? null);
  return compiled;
}

/**
 * The schema as one document: the root itself when the schema is the
 * root (its `$ref: "#"` then means itself), else the schema beside the
 * root's definitions, which its local `$ref`s name.
 */
function documentOf(r: Rooted): JsonValue {
  if (r.schema === r.root) return withoutIdentity(r.schema);
  const root = isJsonObject(r.root) ? r.root : {};
  const wrapper: JsonObject = { allOf: [r.schema] };
  for (const key of ["$defs", "definitions"] as const)
    if (root[key] !== undefined) wrapper[key] = root[key];
  return wrapper;
}

/** `$schema` picks the ajv, and `$id` would register the schema under a name another may share. */
function withoutIdentity(schema: JsonValue): JsonValue {
  if (!isJsonObject(schema)) return schema;
  const { $schema: _s, $id: _i, ...rest } = schema;
  return rest;
}

function compile(document: JsonValue, dialect: "2020-12" | "draft-07"): ValueCheck | undefined {
  const ajv = (ajvs[dialect] ??= createAjv({
    ...toolAjvChoices(dialect),
    allErrors: false,
    compileOnly: true,
  }));
  try {
    const validate = ajv.compile(document as JsonObject | boolean);
    // The compiled function stays usable; ajv's own cache of the schema would only grow.
    if (typeof document === "object") ajv.removeSchema(document as JsonObject);
    return (value) => validate(value) === true;
  } catch {
    // A failed compilation may leave half-added state behind: the next one gets a fresh ajv.
    ajvs[dialect] = undefined;
    return undefined;
  }
}
