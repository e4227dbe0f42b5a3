/**
 * The generated 2026-07-28 validators against the spec's own examples:
 * every example validates against the definition its folder names, and
 * mutated copies are rejected at the path that was mutated.
 */
import { describe, expect, it } from "vitest";
import * as mcp from "../../generated/2026-07-28/index.js";
import { isJsonObject, type JsonObject } from "../../generator/load/json.js";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { examples, generated, ROOT } from "../helpers/index.js";

const all = examples();
const defects = (
  JSON.parse(readFileSync(join(ROOT, "test", "fixtures", "example-defects.json"), "utf8")) as {
    defects: Array<{ example: string; why: string; rejectedAt: string[] }>;
  }
).defects;
const isDefect = (e: { definition: string; file: string }) =>
  defects.some((d) => d.example === `${e.definition}/${e.file}`);
const model = (await generated("2026-07-28")).model;
const schemas = new Map(model.declarations.map((d) => [d.name, d.validatorSchema]));

/** The object schema of a definition, following a top-level `$ref` (EmptyResult → Result). */
function objectSchema(definition: string): JsonObject | undefined {
  let schema = schemas.get(definition);
  for (let i = 0; i < 3 && isJsonObject(schema) && typeof schema.$ref === "string"; i++)
    schema = schemas.get(schema.$ref.replace("#/$defs/", ""));
  return isJsonObject(schema) && isJsonObject(schema.properties) ? schema : undefined;
}

function rejectedAt(definition: string, value: unknown, path: string): void {
  const result = mcp.validate(definition as mcp.DefinitionName, value);
  expect(result.ok, `${definition} should reject the mutation at ${path}`).toBe(false);
  if (!result.ok) expect(result.errors.map((e) => e.path)).toContain(path);
}

describe("spec examples", () => {
  it("has all 129 examples", () => {
    expect(all).toHaveLength(129);
  });

  it.each(all.filter((e) => !isDefect(e)).map((e) => [`${e.definition}/${e.file}`, e] as const))(
    "%s validates",
    (_name, e) => {
      expect(mcp.validate(e.definition as mcp.DefinitionName, e.value)).toEqual({ ok: true });
    },
  );

  it.each(defects.map((d) => [d.example, d] as const))(
    "%s contradicts the schema and is rejected",
    (_name, d) => {
      const e = all.find((x) => `${x.definition}/${x.file}` === d.example)!;
      expect(
        e,
        `${d.example} is listed in example-defects.json but no longer exists upstream`,
      ).toBeDefined();
      const result = mcp.validate(e.definition as mcp.DefinitionName, e.value);
      expect(result.ok).toBe(false);
      if (!result.ok)
        for (const path of d.rejectedAt) expect(result.errors.map((x) => x.path)).toContain(path);
    },
  );
});

describe("mutated examples are rejected at the mutated path", () => {
  const objects = all.filter(
    (e) => !isDefect(e) && isJsonObject(e.value) && objectSchema(e.definition),
  );

  it.each(objects.map((e) => [`${e.definition}/${e.file}`, e] as const))(
    "%s: each required field removed",
    (_name, e) => {
      const schema = objectSchema(e.definition)!;
      const required = (Array.isArray(schema.required) ? schema.required : []) as string[];
      for (const field of required) {
        const { [field]: _removed, ...rest } = e.value as JsonObject;
        rejectedAt(e.definition, rest, `/${field}`);
      }
    },
  );

  it.each(objects.map((e) => [`${e.definition}/${e.file}`, e] as const))(
    "%s: each const changed, each string given a number",
    (_name, e) => {
      const schema = objectSchema(e.definition)!;
      const value = e.value as JsonObject;
      for (const [field, property] of Object.entries(schema.properties as JsonObject)) {
        if (!(field in value) || !isJsonObject(property)) continue;
        if ("const" in property)
          rejectedAt(e.definition, { ...value, [field]: "not-the-const" }, `/${field}`);
        if (property.type === "string")
          rejectedAt(e.definition, { ...value, [field]: 42 }, `/${field}`);
      }
    },
  );

  it("a CallToolResult without content is rejected at /content", () => {
    const result = all.find((e) => e.definition === "CallToolResult")!.value as JsonObject;
    const { content: _content, ...rest } = result;
    rejectedAt("CallToolResult", rest, "/content");
  });

  it("a CallToolResultResponse whose result is neither a CallToolResult nor an InputRequiredResult is rejected", () => {
    const response = { jsonrpc: "2.0", id: 1, result: { resultType: "complete" } };
    expect(mcp.validate("CallToolResultResponse", response).ok).toBe(false);
    expect(
      mcp.validate("CallToolResultResponse", { ...response, result: { resultType: "anything" } })
        .ok,
    ).toBe(false);
  });

  it("an InputRequiredResult needs inputRequests or requestState", () => {
    expect(mcp.validate("InputRequiredResult", { resultType: "input_required" }).ok).toBe(false);
    expect(
      mcp.validate("InputRequiredResult", { resultType: "input_required", requestState: "opaque" }),
    ).toEqual({ ok: true });
  });

  it("JSONValue accepts fractional numbers and null, as schema.ts says", () => {
    expect(mcp.isJSONValue(1.5)).toBe(true);
    expect(mcp.isJSONValue(null)).toBe(true);
    expect(mcp.isJSONValue({ a: [1.5, null, "x", true] })).toBe(true);
  });
});
