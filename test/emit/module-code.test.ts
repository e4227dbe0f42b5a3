/**
 * moduleCode (generator/emit/module-code.ts) writes the module ajv's
 * standaloneCode writes for the same exports, to the byte: checked with
 * standaloneCode as the reference on schemas that reach each kind of scope
 * value (validators referring to each other and to themselves, a root
 * reference, shared schemas and formats, `evaluated` under 2020-12), and
 * on the revision's own definitions.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Ajv } from "ajv";
import standalone from "ajv/dist/standalone/index.js";
import { describe, expect, it } from "vitest";
import { createAjv, type AjvChoices } from "../../generator/shared/ajv.js";
import { addMcpKeywords } from "../../generator/emit/ajv-setup.js";
import { moduleCode } from "../../generator/emit/module-code.js";
import { SCHEMA_DIR } from "../helpers/index.js";

const standaloneCode = standalone as unknown as typeof standalone.default;

function compiler(schemas: ReadonlyArray<Record<string, unknown>>, choices: AjvChoices): Ajv {
  const ajv = addMcpKeywords(createAjv(choices));
  for (const schema of schemas) ajv.addSchema(schema);
  return ajv;
}

/** Both texts, moduleCode's first (each compiles what it reaches; the second reuses it). */
function bothTexts(
  schemas: ReadonlyArray<Record<string, unknown>>,
  exports: Record<string, string>,
  choices: AjvChoices = {},
) {
  const ajv = compiler(schemas, choices);
  const ours = moduleCode(ajv, exports);
  return { ours, ajvs: standaloneCode(ajv, { ...exports }) };
}

const LINKED = [
  {
    $id: "Outer",
    type: "object",
    properties: {
      inner: { $ref: "Inner" },
      list: { type: "array", items: { $ref: "Inner" } },
      when: { type: "string", format: "date-time" },
      name: { type: "string", minLength: 1, maxLength: 9 },
    },
  },
  {
    $id: "Inner",
    type: "object",
    properties: { count: { type: "number" }, more: { $ref: "Inner" } },
    required: ["count"],
  },
  {
    $id: "Tree",
    type: "object",
    properties: { children: { type: "array", items: { $ref: "#" } }, leaf: { $ref: "Inner" } },
  },
  { $id: "Either", anyOf: [{ $ref: "Outer" }, { $ref: "Tree" }, { const: { a: [1] } }] },
];

describe("moduleCode", () => {
  it("writes what standaloneCode writes: validators referring to each other, to themselves and to their root, once each", () => {
    const { ours, ajvs } = bothTexts(
      LINKED,
      { validateEither: "Either", validateOuter: "Outer", validateTree: "Tree" },
      { formats: true },
    );
    expect(ours).toBe(ajvs);
    // Tree's reference to its root is a wrapper object declared before the validator it holds.
    expect(ours).toMatch(/var wrapper\d+ = \{validate: validate\d+\};/);
    // Each validator is written once, however many exports reach it.
    expect(ours.match(/function validate\d+\(/g)?.length).toBe(
      new Set(ours.match(/function validate\d+\(/g)).size,
    );
  });

  it("writes what standaloneCode writes under 2020-12, where a validator tells what it evaluated", () => {
    const schemas = [
      {
        $id: "Closed",
        $schema: "https://json-schema.org/draft/2020-12/schema",
        allOf: [{ $ref: "Base" }],
        properties: { extra: { type: "boolean" } },
        unevaluatedProperties: false,
      },
      {
        $id: "Base",
        $schema: "https://json-schema.org/draft/2020-12/schema",
        type: "object",
        properties: { id: { type: "string" } },
        anyOf: [{ required: ["id"] }, { properties: { alt: { type: "number" } } }],
      },
    ];
    const { ours, ajvs } = bothTexts(
      schemas,
      { validateClosed: "Closed", validateBase: "Base" },
      { dialect: "2020-12" },
    );
    expect(ours).toContain(".evaluated = ");
    expect(ours).toBe(ajvs);
  });

  it("writes what standaloneCode writes for every definition of 2026-07-28", () => {
    const schema = JSON.parse(
      readFileSync(join(SCHEMA_DIR, "2026-07-28", "schema.json"), "utf8"),
    ) as { $defs: Record<string, Record<string, unknown>> };
    const names = Object.keys(schema.$defs);
    // Each definition on its own, its references rewritten to the others' $ids, as emit-validators.ts does.
    const schemas = names.map(
      (name) =>
        JSON.parse(
          JSON.stringify({ ...schema.$defs[name], $id: name }).replaceAll('"#/$defs/', '"'),
        ) as Record<string, unknown>,
    );
    const exports = Object.fromEntries(names.map((name) => [`validate${name}`, name]));
    const { ours, ajvs } = bothTexts(schemas, exports, { formats: true });
    expect(ours).toBe(ajvs);
  });

  it("names an export whose $id no schema has", () => {
    expect(() => moduleCode(compiler(LINKED, {}), { validateX: "Missing" })).toThrow(
      "compiling validators: no schema has $id Missing",
    );
  });

  it("refuses an export name that is not an identifier, which would not be valid JavaScript", () => {
    expect(() => moduleCode(compiler(LINKED, {}), { "validate-x": "Outer" })).toThrow(
      'compiling validators: export name "validate-x" is not an identifier',
    );
  });
});
