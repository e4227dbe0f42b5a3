/**
 * JSON Schema subsumption for the tool diff: "yes" only when it follows
 * from the keywords, "no" with the values that are lost, and "unknown"
 * with a reason wherever the keywords do not decide it.
 */
import { describe, expect, it } from "vitest";
import { subsumes, type Verdict } from "../../generator/diff/index.js";
import type { JsonValue } from "../../generator/load/json.js";

/** Does `wide` accept every value `narrow` accepts (each schema its own document)? */
function judge(wide: JsonValue, narrow: JsonValue): Verdict["result"] {
  return subsumes({ schema: wide, root: wide }, { schema: narrow, root: narrow }).result;
}

const str = { type: "string" };
const int = { type: "integer" };

describe.concurrent("subsumes(wide, narrow)", () => {
  it.each<[string, JsonValue, JsonValue, Verdict["result"]]>([
    ["anything covers a string", {}, str, "yes"],
    ["a string does not cover anything", str, {}, "no"],
    ["number covers integer", { type: "number" }, int, "yes"],
    ["integer does not cover number", int, { type: "number" }, "no"],
    [
      "a wider maximum covers a narrower one",
      { ...int, maximum: 100 },
      { ...int, maximum: 50 },
      "yes",
    ],
    ["a narrower maximum does not", { ...int, maximum: 50 }, { ...int, maximum: 100 }, "no"],
    [
      "an exclusive minimum above an inclusive one",
      { ...int, exclusiveMinimum: 0 },
      { ...int, minimum: 0 },
      "no",
    ],
    [
      "multipleOf 2 covers multipleOf 4",
      { ...int, multipleOf: 2 },
      { ...int, multipleOf: 4 },
      "yes",
    ],
    ["maxLength", { ...str, maxLength: 5 }, { ...str, maxLength: 10 }, "no"],
    ["a format added", { ...str, format: "uri" }, str, "no"],
    ["a format dropped", str, { ...str, format: "uri" }, "yes"],
    ["two formats", { ...str, format: "date" }, { ...str, format: "date-time" }, "unknown"],
    ["a pattern added", { ...str, pattern: "^a" }, str, "no"],
    [
      "two patterns",
      { ...str, pattern: "^[a-z0-9]+$" },
      { ...str, pattern: "^[a-z]+$" },
      "unknown",
    ],
    ["an enum within an enum", { enum: ["a", "b", "c"] }, { enum: ["a", "b"] }, "yes"],
    ["an enum value lost", { enum: ["a", "b"] }, { enum: ["a", "c"] }, "no"],
    [
      "an enum within a pattern (checked value by value)",
      { ...str, pattern: "^[ab]$" },
      { enum: ["a", "b"] },
      "yes",
    ],
    ["boolean values against an enum", { enum: [true, false] }, { type: "boolean" }, "yes"],
    ["a required property added", { type: "object", required: ["a"] }, { type: "object" }, "no"],
    ["a required property dropped", { type: "object" }, { type: "object", required: ["a"] }, "yes"],
    [
      "additionalProperties tightened",
      { type: "object", properties: { a: str }, additionalProperties: false },
      { type: "object", properties: { a: str } },
      "no",
    ],
    [
      "a property's type narrowed",
      { type: "object", properties: { a: int } },
      { type: "object", properties: { a: { type: "number" } } },
      "no",
    ],
    [
      "array items widened",
      { type: "array", items: { type: "number" } },
      { type: "array", items: int, maxItems: 3 },
      "yes",
    ],
    ["uniqueItems added", { type: "array", uniqueItems: true }, { type: "array" }, "no"],
    [
      "anyOf on the narrow side: every branch",
      { type: ["string", "number"] },
      { anyOf: [str, int] },
      "yes",
    ],
    ["anyOf on the narrow side: a branch lost", str, { anyOf: [str, int] }, "no"],
    [
      "anyOf on the wide side: one branch covers",
      { anyOf: [str, int] },
      { ...str, maxLength: 3 },
      "yes",
    ],
    [
      "anyOf on the wide side: only branches together might",
      {
        anyOf: [
          { ...int, maximum: 0 },
          { ...int, minimum: 1 },
        ],
      },
      int,
      "unknown",
    ],
    [
      "allOf on the wide side: every part",
      { allOf: [int, { minimum: 0 }] },
      { ...int, minimum: 1 },
      "yes",
    ],
    [
      "allOf on the wide side: a part fails",
      { allOf: [int, { minimum: 5 }] },
      { ...int, minimum: 1 },
      "no",
    ],
    [
      "allOf on the narrow side, merged",
      { type: "object", required: ["a", "b"] },
      { allOf: [{ type: "object", required: ["a"] }, { required: ["b"] }] },
      "yes",
    ],
    [
      "not is never assumed safe",
      { not: str },
      { not: { type: "string", maxLength: 3 } },
      "unknown",
    ],
    ["if/then is never assumed safe", { if: str, then: { maxLength: 2 } }, str, "unknown"],
  ])("%s", (_, wide, narrow, result) => {
    expect(judge(wide, narrow)).toBe(result);
  });

  it("follows $ref into $defs on each side", () => {
    const wide = { $defs: { K: { ...str, maxLength: 20 } }, $ref: "#/$defs/K" };
    const narrow = { $defs: { K: { ...str, maxLength: 10 } }, $ref: "#/$defs/K" };
    expect(judge(wide, narrow)).toBe("yes");
    expect(judge(narrow, wide)).toBe("no");
  });

  it("gives up on a recursive schema with unknown, not a crash", () => {
    const list = (max: number): JsonValue => ({
      $defs: {
        L: {
          type: "object",
          properties: { v: { ...int, maximum: max }, next: { $ref: "#/$defs/L" } },
        },
      },
      $ref: "#/$defs/L",
    });
    expect(judge(list(10), list(10))).toBe("yes");
    expect(["unknown", "no"]).toContain(judge(list(5), list(10)));
    expect(judge(list(10), list(5))).not.toBe("no");
  });

  it("a dangling $ref is unknown with its reason", () => {
    const verdict = subsumes(
      { schema: { $ref: "#/$defs/Missing" }, root: {} },
      { schema: str, root: {} },
    );
    expect(verdict).toEqual({
      result: "unknown",
      reason: expect.stringContaining("$ref") as string,
    });
  });
});
