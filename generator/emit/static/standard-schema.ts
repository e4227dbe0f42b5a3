/**
 * Standard Schema V1 (https://standardschema.dev) over mcp-gen's generated
 * validators, with the Standard JSON Schema companion (`~standard.jsonSchema`):
 * what libraries that accept "any Standard Schema", such as the official MCP
 * SDK's `registerTool`, take. The interfaces below are declared here,
 * structurally, so generated code needs no package at compile time or at run
 * time; mcp-gen's tests check that they are assignable to the types of
 * `@standard-schema/spec`. mcp-gen copies this file verbatim into every
 * generated folder.
 */

/** A Standard JSON Schema target: the JSON Schema dialect a caller asks for. */
export type JsonSchemaTarget = "draft-2020-12" | "draft-07" | "openapi-3.0" | (string & {});

/** One problem with a value: what is wrong, and the keys leading to it from the value's root. */
export interface StandardIssue {
  readonly message: string;
  readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined;
}

/** What `~standard.validate` returns: the value itself when valid, its issues when not. */
export type StandardResult<T> =
  | { readonly value: T; readonly issues?: undefined }
  | { readonly issues: readonly StandardIssue[] };

/**
 * A generated validator as a Standard Schema V1 (`validate`, synchronous)
 * that is also a Standard JSON Schema V1 (`jsonSchema.input` and `.output`,
 * the same document: the schemas describe JSON, which no validator
 * transforms). `types` exists for type inference only, as the standard
 * declares it; at run time it is absent.
 */
export interface StandardSchema<T> {
  readonly "~standard": {
    readonly version: 1;
    readonly vendor: "mcp-gen";
    readonly validate: (
      value: unknown,
      options?: { readonly libraryOptions?: Record<string, unknown> | undefined },
    ) => StandardResult<T>;
    readonly jsonSchema: {
      readonly input: (options: { readonly target: JsonSchemaTarget }) => Record<string, unknown>;
      readonly output: (options: { readonly target: JsonSchemaTarget }) => Record<string, unknown>;
    };
    readonly types?: { readonly input: T; readonly output: T } | undefined;
  };
}

/** A generated check's verdict: the shape of `ValidationResult` in support.gen.ts. */
export type CheckResult =
  | { readonly ok: true }
  | {
      readonly ok: false;
      readonly errors: ReadonlyArray<{ readonly path: string; readonly message: string }>;
    };

/** A JSON Schema document for a target, or an error saying why there is none. */
export type JsonSchemaFor = (target: JsonSchemaTarget) => Record<string, unknown>;

/** The `$schema` URI of each target mcp-gen can give a document as. */
const DIALECT_URIS: Readonly<Record<string, string>> = {
  "draft-2020-12": "https://json-schema.org/draft/2020-12/schema",
  "draft-07": "http://json-schema.org/draft-07/schema#",
};

/**
 * A Standard Schema for values of type `T`, checked by `check` (a
 * generated validator: `validate(name, value)`, a tool's SchemaCheck) and
 * described by `jsonSchemaFor`. `validate` returns the value itself, never
 * a copy.
 */
export function standardSchema<T>(
  check: (value: unknown) => CheckResult,
  jsonSchemaFor: JsonSchemaFor,
): StandardSchema<T> {
  const converter = {
    input: jsonSchemaOption(jsonSchemaFor),
    output: jsonSchemaOption(jsonSchemaFor),
  };
  return {
    "~standard": {
      version: 1,
      vendor: "mcp-gen",
      validate: (value) => {
        const verdict = check(value);
        if (verdict.ok) return { value: value as T };
        return {
          issues: verdict.errors.map((e) => ({
            message: e.message,
            path: issuePath(value, e.path),
          })),
        };
      },
      jsonSchema: converter,
    },
  };
}

function jsonSchemaOption(
  jsonSchemaFor: JsonSchemaFor,
): (options: { readonly target: JsonSchemaTarget }) => Record<string, unknown> {
  return (options) => jsonSchemaFor(options.target);
}

/**
 * A JSON pointer into `value` as a Standard Schema path: its segments
 * unescaped, an array's index as a number (`/content/0/text` →
 * `["content", 0, "text"]`).
 */
export function issuePath(value: unknown, pointer: string): PropertyKey[] {
  if (pointer === "") return [];
  const path: PropertyKey[] = [];
  let node: unknown = value;
  for (const raw of pointer.slice(1).split("/")) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    const index = Array.isArray(node) && /^(0|[1-9][0-9]*)$/.test(key) ? Number(key) : undefined;
    path.push(index ?? key);
    node =
      node !== null && typeof node === "object" && Object.hasOwn(node, key)
        ? (node as Record<string, unknown>)[key]
        : undefined;
  }
  return path;
}

/**
 * The JSON Schema of definition `name` of a revision, as one document:
 * the definition, with every definition it reaches through `$ref` under
 * `$defs` (`definitions` for draft-07), and `$schema` naming the target.
 * `defs` holds the revision's definitions with `$ref`s of the form
 * `#/$defs/<name>`; `targets` the targets they can be given as (the
 * revision's dialect, and the other when no definition uses a keyword of
 * one dialect only). Documents are built once per target and shared: do
 * not change them.
 */
export function definitionJsonSchema(
  defs: Readonly<Record<string, unknown>>,
  name: string,
  targets: readonly string[],
): JsonSchemaFor {
  const built = new Map<string, Record<string, unknown>>();
  return (target) => {
    const cached = built.get(target);
    if (cached) return cached;
    const uri = targetUri(target, targets, `definition ${name}`);
    const defsKey = target === "draft-07" ? "definitions" : "$defs";
    const reached = reachableDefinitions(defs, name);
    const rewrite = (node: unknown) => (defsKey === "$defs" ? node : renameRefs(node, defsKey));
    const root = rewrite(defs[name]) as Record<string, unknown>;
    const document: Record<string, unknown> = { $schema: uri, ...root };
    if (reached.length > 0)
      document[defsKey] = Object.fromEntries(reached.map((n) => [n, rewrite(defs[n])]));
    built.set(target, document);
    return document;
  };
}

/**
 * A tool's inputSchema or outputSchema, for a target: the schema as
 * tools.json declares it when the target is its dialect (`dialect`), with
 * `$schema` naming the target otherwise (`targets` lists a second target
 * only when the schema uses no keyword of one dialect only).
 */
export function toolJsonSchema(
  schema: Readonly<Record<string, unknown>>,
  dialect: string,
  targets: readonly string[],
): JsonSchemaFor {
  return (target) => {
    const uri = targetUri(target, targets, "this tool schema");
    return target === dialect ? { ...schema } : { ...schema, $schema: uri };
  };
}

function targetUri(target: string, targets: readonly string[], what: string): string {
  const uri = DIALECT_URIS[target];
  if (uri === undefined || !targets.includes(target))
    throw new Error(
      `mcp-gen: ${what} has no JSON Schema for target ${JSON.stringify(target)}; it can be given as ${targets.map((t) => JSON.stringify(t)).join(" or ")}`,
    );
  return uri;
}

/** The definitions `name` reaches through `$ref` (itself only when it refers to itself), sorted. */
function reachableDefinitions(defs: Readonly<Record<string, unknown>>, name: string): string[] {
  const found = new Set<string>();
  const pending = [defs[name]];
  while (pending.length > 0) {
    for (const ref of refsIn(pending.pop())) {
      if (found.has(ref) || !Object.hasOwn(defs, ref)) continue;
      found.add(ref);
      pending.push(defs[ref]);
    }
  }
  return [...found].sort();
}

const DEFS_PREFIX = "#/$defs/";

/** The definition names the `$ref`s inside `node` point at. */
function refsIn(node: unknown): string[] {
  if (Array.isArray(node)) return node.flatMap(refsIn);
  if (node === null || typeof node !== "object") return [];
  const refs: string[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (key === "$ref" && typeof value === "string" && value.startsWith(DEFS_PREFIX))
      refs.push(decodeURIComponent(value.slice(DEFS_PREFIX.length)));
    else refs.push(...refsIn(value));
  }
  return refs;
}

/** A copy of `node` whose `#/$defs/` references point under `defsKey` instead. */
function renameRefs(node: unknown, defsKey: string): unknown {
  if (Array.isArray(node)) return node.map((n) => renameRefs(n, defsKey));
  if (node === null || typeof node !== "object") return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => [
      key,
      key === "$ref" && typeof value === "string" && value.startsWith(DEFS_PREFIX)
        ? `#/${defsKey}/${value.slice(DEFS_PREFIX.length)}`
        : renameRefs(value, defsKey),
    ]),
  );
}
