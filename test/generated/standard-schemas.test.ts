/**
 * Every definition of every revision module as a Standard Schema V1 with
 * Standard JSON Schema (generated/<rev>/standard-schemas.gen.ts): the
 * shape the standard asks for, `validate` agreeing with the generated
 * validator, issues with their paths, and a JSON Schema that accepts and
 * rejects exactly what the validator does (compiled here with ajv, for both
 * targets). The types are assignable to those of `@standard-schema/spec`.
 */
import type { StandardJSONSchemaV1, StandardSchemaV1 } from "@standard-schema/spec";
import { join } from "node:path";
import { Ajv } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, expectTypeOf, it } from "vitest";
import * as mcp from "../../generated/2026-07-28/index.js";
import { issuePath } from "../../generator/emit/static/standard-schema.js";
import { examples, REVISIONS, ROOT } from "../helpers/index.js";

type Revision = typeof mcp;
const revisions = await Promise.all(
  [...REVISIONS, "2026-07-28+tasks"].map(
    async (r) =>
      [r, (await import(/* @vite-ignore */ join(ROOT, "generated", r, "index.ts"))) as Revision] as const,
  ),
);

/** Values that are the example with one property removed or replaced by a value of another type. */
function mutations(value: unknown): unknown[] {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return [42, null];
  return Object.keys(value).flatMap((key) => {
    const { [key]: removed, ...rest } = value as Record<string, unknown>;
    return [rest, { ...rest, [key]: typeof removed === "string" ? 42 : "text" }];
  });
}

describe("STANDARD_SCHEMAS", () => {
  it.each(revisions)("%s: one per definition, as the standard declares it", (_, module) => {
    const names = Object.keys(module.VALIDATORS);
    expect(Object.keys(module.STANDARD_SCHEMAS)).toEqual(names);
    expect(Object.keys(module.JSON_SCHEMAS)).toEqual(names);
    for (const name of names) {
      const standard = module.STANDARD_SCHEMAS[name as mcp.DefinitionName]["~standard"];
      expect(standard.version).toBe(1);
      expect(standard.vendor).toBe("mcp-gen");
      expect(typeof standard.validate).toBe("function");
      expect(typeof standard.jsonSchema.input).toBe("function");
      expect(typeof standard.jsonSchema.output).toBe("function");
    }
  });

  it("validate answers the value itself when valid, the validator's errors as issues when not", () => {
    const tool = { name: "x", inputSchema: { type: "object" } };
    const valid = mcp.STANDARD_SCHEMAS.Tool["~standard"].validate(tool);
    expect(valid.issues).toBeUndefined();
    expect("value" in valid && valid.value).toBe(tool);
    const result = { resultType: "complete", content: [{ type: "text", text: 3 }] };
    const verdict = mcp.validate("CallToolResult", result);
    expect(verdict.ok).toBe(false);
    expect(mcp.STANDARD_SCHEMAS.CallToolResult["~standard"].validate(result)).toEqual({
      issues: verdict.ok
        ? []
        : verdict.errors.map((e) => ({ message: e.message, path: issuePath(result, e.path) })),
    });
    expect(mcp.STANDARD_SCHEMAS.CallToolResult["~standard"].validate(42)).toEqual({
      issues: [{ message: "must be object", path: [] }],
    });
  });

  it("issue paths: keys unescaped, array indices as numbers", () => {
    const value = { "a/b": [{ "~x": 1 }], list: { "0": true } };
    expect(issuePath(value, "")).toEqual([]);
    expect(issuePath(value, "/a~1b/0/~0x")).toEqual(["a/b", 0, "~x"]);
    expect(issuePath(value, "/list/0")).toEqual(["list", "0"]);
    expect(issuePath(value, "/missing/3")).toEqual(["missing", "3"]);
  });
});

describe("~standard.jsonSchema", () => {
  const all = examples();
  const engines = {
    "draft-2020-12": new Ajv2020({ strict: false }),
    "draft-07": new Ajv({ strict: false }),
  } as const;

  it.each(Object.keys(engines) as Array<keyof typeof engines>)(
    "%s: the document accepts and rejects what the validator does (spec examples and mutations)",
    (target) => {
      let compared = 0;
      for (const { definition, value } of all) {
        const name = definition as mcp.DefinitionName;
        const document = mcp.STANDARD_SCHEMAS[name]["~standard"].jsonSchema.input({ target });
        const check = engines[target].compile(document);
        for (const candidate of [value, ...mutations(value)]) {
          expect(check(candidate), `${definition}: ${JSON.stringify(candidate)}`).toBe(
            mcp.validate(name, candidate).ok,
          );
          compared++;
        }
      }
      expect(compared).toBeGreaterThan(500);
    },
  );

  it("is one document: $schema of the target, the definitions reached under $defs or definitions", () => {
    const standard = mcp.STANDARD_SCHEMAS.CallToolResult["~standard"];
    const modern = standard.jsonSchema.output({ target: "draft-2020-12" });
    expect(modern.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    expect(Object.keys(modern.$defs as object)).toContain("ContentBlock");
    expect(Object.keys(modern.$defs as object)).not.toContain("CallToolRequest");
    expect(standard.jsonSchema.input({ target: "draft-2020-12" })).toBe(modern);
    const draft07 = standard.jsonSchema.input({ target: "draft-07" });
    expect(draft07.$schema).toBe("http://json-schema.org/draft-07/schema#");
    expect(draft07.$defs).toBeUndefined();
    expect(JSON.stringify(draft07)).not.toContain("#/$defs/");
    expect((draft07.properties as Record<string, unknown>).content).toEqual({
      type: "array",
      items: { $ref: "#/definitions/ContentBlock" },
    });
  });

  it("refuses a target it cannot give, naming the ones it can", () => {
    expect(() =>
      mcp.STANDARD_SCHEMAS.Tool["~standard"].jsonSchema.input({ target: "openapi-3.0" }),
    ).toThrow(
      'mcp-gen: definition Tool has no JSON Schema for target "openapi-3.0"; it can be given as "draft-2020-12" or "draft-07"',
    );
  });
});

describe("types", () => {
  it("are those of @standard-schema/spec: StandardSchemaV1 and StandardJSONSchemaV1 of the definition's type", () => {
    type Schema = (typeof mcp.STANDARD_SCHEMAS)["CallToolRequest"];
    expectTypeOf<Schema>().toExtend<StandardSchemaV1<mcp.CallToolRequest>>();
    expectTypeOf<Schema>().toExtend<StandardJSONSchemaV1<mcp.CallToolRequest>>();
    expectTypeOf<StandardSchemaV1.InferOutput<Schema>>().toEqualTypeOf<mcp.CallToolRequest>();
    expectTypeOf<StandardSchemaV1.InferInput<Schema>>().toEqualTypeOf<mcp.CallToolRequest>();
    expectTypeOf<StandardSchemaV1.InferOutput<Schema>>().not.toEqualTypeOf<mcp.CallToolResult>();
  });
});
