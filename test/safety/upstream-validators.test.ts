/**
 * The generated validators of 2026-07-28 against an oracle that owes
 * nothing to mcp-gen's loader or model: plain ajv (Ajv2020, the dialect
 * schema.json declares) on upstream schema.json exactly as published, read
 * from the upstream folder.
 *
 * mcp-gen changes what upstream publishes in two ways only: the patch
 * overlay (schema/patches/), and the resultType each result of a request
 * carries (pinned by rules over schema.ts, model/passes/pin-result-types.ts),
 * which this test states as schema.ts's ResultType doc does. So the
 * generated validators must decide as ajv does on the published file with
 * those changes applied by this test as JSON Patch operations, on every
 * spec example and its mutations; and wherever they decide otherwise than
 * ajv on the file as published, one change, named below with why it
 * changes the verdict, must account for it.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import * as mcp from "../../generated/2026-07-28/index.js";
import type { JsonValue } from "../../generator/load/json.js";
import { examples, ROOT, SCHEMA_DIR } from "../helpers/index.js";
import { mutations } from "../helpers/mutations.js";

type Json = JsonValue;
type Operation = { op: "test" | "add" | "replace" | "remove"; path: string; value?: Json };
type Patch = { id: string; operations: Operation[] };

const published = JSON.parse(
  readFileSync(join(SCHEMA_DIR, "2026-07-28", "schema.json"), "utf8"),
) as Record<string, Json>;
const overlay: Patch[] = readdirSync(join(ROOT, "schema", "patches"))
  .filter((file) => file.endsWith(".json"))
  .sort()
  .flatMap(
    (file) =>
      (
        JSON.parse(readFileSync(join(ROOT, "schema", "patches", file), "utf8")) as {
          patches: Patch[];
        }
      ).patches,
  );

/**
 * The resultType of each result a request may answer with, as schema.ts
 * documents its ResultType literals: `input_required` is the one whose doc
 * links InputRequiredResult, `complete` every other result. schema.json
 * types them all as any string. The results are those the `*ResultResponse`
 * definitions carry, except Result, the base every result extends.
 */
function resultTypePins(schema: Record<string, Json>): Patch {
  const defs = schema.$defs as Record<string, { properties?: Record<string, Json> }>;
  const results = new Set<string>();
  for (const [name, definition] of Object.entries(defs))
    if (name.endsWith("ResultResponse"))
      for (const match of JSON.stringify(definition.properties?.result ?? {}).matchAll(
        /"#\/\$defs\/(\w+)"/g,
      ))
        if (match[1] !== "Result") results.add(match[1]!);
  return {
    id: "resultType pinned",
    operations: [...results].sort().map((name) => ({
      op: "add",
      path: `/$defs/${name}/properties/resultType/const`,
      value: name === "InputRequiredResult" ? "input_required" : "complete",
    })),
  };
}

/**
 * The changes that alter the verdict on some input, and why: each differs
 * from schema.json as published where schema.ts says otherwise.
 */
const EXPLAINED: Record<string, string> = {
  // schema.json lets any string be a result's resultType; schema.ts tells the results apart by it.
  "resultType pinned": "each result of a request carries its own resultType",
  // schema.json types JSON values' primitives as string | integer | boolean: 1.5 and null are refused.
  "json-value-number-and-null": "JSONValue accepts any number and null, as schema.ts says",
  // schema.json types submitted form values as string | integer | boolean: a rating of 4.5 is refused.
  "elicit-result-content-number-with-arrays": "ElicitResult content values may be any number",
  // schema.ts requires, in prose, inputRequests or requestState; schema.json makes both optional.
  "input-required-needs-requests-or-state":
    "InputRequiredResult needs inputRequests or requestState",
};

/** RFC 6901: the tokens of a JSON pointer. */
const tokens = (pointer: string) =>
  pointer
    .split("/")
    .slice(1)
    .map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));

/** The node at `pointer`, or undefined when there is none. */
function at(root: Json, pointer: string): Json | undefined {
  let node: Json | undefined = root;
  for (const token of tokens(pointer)) {
    if (typeof node !== "object" || node === null) return undefined;
    node = (node as Record<string, Json>)[token];
  }
  return node;
}

/** `schema` with `patch` applied (RFC 6902), or undefined when one of its tests does not hold. */
function applied(schema: Json, patch: Patch): Json | undefined {
  const copy = structuredClone(schema);
  for (const operation of patch.operations) {
    if (operation.op === "test") {
      if (JSON.stringify(at(copy, operation.path)) !== JSON.stringify(operation.value))
        return undefined;
      continue;
    }
    const path = tokens(operation.path);
    const parent = at(copy, `/${path.slice(0, -1).join("/")}`.replace(/^\/$/, "")) as Record<
      string,
      Json
    >;
    const last = path[path.length - 1]!;
    if (operation.op === "remove") delete parent[last];
    else parent[last] = operation.value!;
  }
  return copy;
}

/** A validator per definition of `schema`, from plain ajv. */
function validatorsOf(schema: Json): (definition: string) => (value: unknown) => boolean {
  const ajv = new Ajv2020({ strict: false, allowUnionTypes: true, validateFormats: false });
  ajv.addSchema({ ...(schema as object), $id: "upstream" });
  const compiled = new Map<string, (value: unknown) => boolean>();
  return (definition) => {
    if (!compiled.has(definition))
      compiled.set(definition, ajv.compile({ $ref: `upstream#/$defs/${definition}` }));
    return compiled.get(definition)!;
  };
}

const applicable = [
  ...overlay.filter((patch) => applied(published, patch) !== undefined),
  resultTypePins(published),
];
const asPublished = validatorsOf(published);
const withOverlay = validatorsOf(
  applicable.reduce<Json>((schema, patch) => applied(schema, patch)!, published),
);
const withOnly = new Map(applicable.map((p) => [p.id, validatorsOf(applied(published, p)!)]));

/** Inputs, besides the spec examples, for what no example reaches: a definition and a seed value. */
const SEEDS: Array<{ definition: string; file: string; value: unknown }> = [
  { definition: "ElicitResult", file: "(seed)", value: { action: "accept", content: { n: 4 } } },
];

describe("generated validators against plain ajv on upstream schema.json", () => {
  const explainedBy = new Set<string>();
  let differences = 0;
  let inputs = 0;

  it.each([...examples(), ...SEEDS].map((e) => [`${e.definition}/${e.file}`, e] as const))(
    "%s and its mutations",
    (_name, e) => {
      const generatedValidator = mcp.VALIDATORS[e.definition as mcp.DefinitionName];
      const problems: string[] = [];
      for (const input of [e.value as Json, ...mutations(e.value as Json)]) {
        inputs++;
        const verdict = generatedValidator(input);
        const shown = JSON.stringify(input).slice(0, 160);
        if (verdict !== withOverlay(e.definition)(input))
          problems.push(
            `${shown}: generated ${verdict}, published schema with the changes above not`,
          );
        if (verdict === asPublished(e.definition)(input)) continue;
        differences++;
        const by = [...withOnly]
          .filter(([, only]) => only(e.definition)(input) === verdict)
          .map(([id]) => id);
        if (by.length === 0)
          problems.push(`${shown}: differs from upstream, no change explains it`);
        for (const id of by) explainedBy.add(id);
      }
      expect(problems).toEqual([]);
    },
  );

  it("differs from the published schema only where a change named above says so, each seen", () => {
    expect(inputs).toBeGreaterThan(10_000);
    expect(differences).toBeGreaterThan(0);
    expect([...explainedBy].sort()).toEqual(Object.keys(EXPLAINED).sort());
    // Every change made to this revision is one the test explains.
    expect(applicable.map((p) => p.id).sort()).toEqual(Object.keys(EXPLAINED).sort());
  });
});
