/**
 * The one list of what tells the two JSON Schema dialects apart
 * (shared/json-schema-dialects.ts), as the stages that use it see it: the
 * ajv engine a validator is compiled with (compile-validators.ts) and the
 * Standard JSON Schema targets a schema is offered as
 * (json-schema-targets.ts).
 */
import { describe, expect, it } from "vitest";
import { dialectOf } from "../../generator/check/check-tools.js";
import { jsonSchemaTargets } from "../../generator/emit/json-schema-targets.js";
import type { JsonValue } from "../../generator/load/json.js";
import {
  DIALECT_URIS,
  ONLY_2020_12,
  ONLY_DRAFT_07,
  uses2020Keywords,
  usesDialectKeyword,
} from "../../generator/shared/json-schema-dialects.js";

const nested = (keyword: string, value: JsonValue): JsonValue => ({
  type: "object",
  properties: { inner: { anyOf: [{ [keyword]: value }] } },
});

describe("the keywords of one dialect only", () => {
  it.each(ONLY_2020_12.map((k) => [k]))(
    "%s, nested anywhere, makes a schema 2020-12's alone",
    (keyword) => {
      const schema = nested(keyword, keyword.startsWith("$") ? "#a" : {});
      expect(uses2020Keywords(schema)).toBe(true);
      expect(jsonSchemaTargets("2020-12", [schema])).toEqual(["draft-2020-12"]);
    },
  );

  it.each(ONLY_DRAFT_07.map((k) => [k]))("%s makes a schema draft-07's alone", (keyword) => {
    const schema = nested(keyword, {});
    expect(uses2020Keywords(schema)).toBe(false);
    expect(usesDialectKeyword(schema)).toBe(true);
    expect(jsonSchemaTargets("draft-07", [schema])).toEqual(["draft-07"]);
  });

  it("items as an array is read differently by the two", () => {
    const schema = nested("items", [{ type: "string" }]);
    expect(uses2020Keywords(schema)).toBe(false);
    expect(jsonSchemaTargets("2020-12", [schema])).toEqual(["draft-2020-12"]);
  });

  it("$recursiveRef and $recursiveAnchor (2019-09's) mean the same in both: nothing", () => {
    for (const keyword of ["$recursiveRef", "$recursiveAnchor"]) {
      const schema = nested(keyword, keyword === "$recursiveRef" ? "#" : true);
      expect(uses2020Keywords(schema)).toBe(false);
      expect(jsonSchemaTargets("2020-12", [schema])).toEqual(["draft-2020-12", "draft-07"]);
    }
  });

  it("a keyword's name as data (a property name, an enum value) is not the keyword", () => {
    const schema: JsonValue = {
      type: "object",
      properties: { prefixItems: { enum: ["dependencies"] } },
      required: ["prefixItems"],
    };
    expect(usesDialectKeyword(schema)).toBe(false);
    expect(jsonSchemaTargets("draft-07", [schema])).toEqual(["draft-07", "draft-2020-12"]);
  });
});

it("a tool schema's $schema names a dialect by the URIs a revision's schema may use", () => {
  for (const [uri, dialect] of Object.entries(DIALECT_URIS))
    expect(dialectOf({ $schema: uri, type: "object" })).toBe(dialect);
  expect(dialectOf({ type: "object" })).toBe("2020-12");
  expect(dialectOf({ $schema: "https://json-schema.org/draft/2019-09/schema" })).toBe(undefined);
});
