/**
 * types.gen.ts is translated (ts-type.ts) and laid out (ts-print.ts) by
 * mcp-gen itself. The reference is what json-schema-to-typescript writes
 * for the same prepared schemas, formatted with prettier: every
 * declaration of every revision, extension and fixture must come out
 * byte for byte the same, and so must a sweep of synthetic shapes across
 * the print width, where layouts change.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { compile } from "json-schema-to-typescript";
import * as prettier from "prettier";
import { describe, expect, it } from "vitest";
import { backendSchema, emitTypes } from "../../generator/emit/emit-types.js";
import { PRINT_WIDTH } from "../../generator/emit/doc.js";
import { TsFileBuilder } from "../../generator/emit/file.js";
import { printDeclaration } from "../../generator/emit/ts-print.js";
import { declarationOf } from "../../generator/emit/ts-type.js";
import type { JsonObject } from "../../generator/load/json.js";
import { generate } from "../../generator/index.js";
import { REVISIONS, ROOT, testSources } from "../helpers/index.js";

/** prettier's options for the reference: the print width and style the printer's types follow. */
const PRETTIER_OPTIONS: prettier.Options = {
  parser: "typescript",
  printWidth: PRINT_WIDTH,
  tabWidth: 2,
  semi: true,
  singleQuote: false,
  trailingComma: "all",
};

/** json-schema-to-typescript's options, as mcp-gen's types follow them. */
const JSON2TS_OPTIONS = {
  bannerComment: "",
  format: false,
  additionalProperties: false,
  declareExternallyReferenced: false,
  unknownAny: true,
  strictIndexSignatures: false,
  ignoreMinAndMaxItems: true,
  $refOptions: { resolve: { external: false, file: false, http: false } },
} as const;

async function reference(name: string, schema: JsonObject): Promise<string> {
  return (await compile(schema, name, JSON2TS_OPTIONS)).trim();
}

/** A file of declarations as json-schema-to-typescript and prettier write it. */
async function referenceFile(
  declarations: ReadonlyArray<readonly [string, JsonObject]>,
): Promise<string> {
  const file = new TsFileBuilder("types.gen.ts");
  for (const [name, schema] of declarations) file.add(await reference(name, schema));
  return prettier.format(file.build("/* banner */\n").contents, PRETTIER_OPTIONS);
}

function ownFile(declarations: ReadonlyArray<readonly [string, JsonObject]>): string {
  const file = new TsFileBuilder("types.gen.ts");
  for (const [name, schema] of declarations)
    file.add(printDeclaration(declarationOf(name, schema)));
  return file.build("/* banner */\n").contents;
}

const fixtures = readdirSync(join(ROOT, "test", "fixtures")).filter((f) => f.startsWith("golden-"));
const cases: Array<{ label: string; spec: string; extensions?: string[] }> = [
  ...REVISIONS.map((r) => ({ label: r, spec: r })),
  { label: "2026-07-28 + tasks", spec: "2026-07-28", extensions: ["tasks"] },
  ...fixtures.map((f) => ({ label: f, spec: join("test", "fixtures", f) })),
];

describe("types.gen.ts against json-schema-to-typescript + prettier", () => {
  for (const c of cases) {
    it(`writes every declaration of ${c.label} as the reference does`, async () => {
      const { model } = await generate({
        spec: c.spec,
        out: "out",
        sources: testSources(),
        stampVersion: false,
        ...(c.extensions ? { extensions: c.extensions } : {}),
      });
      const core = model.sources[0]?.name;
      const declarations = model.declarations.map((d) => [d.name, backendSchema(d, core)] as const);
      expect(emitTypes(model, "/* banner */\n").contents).toBe(await referenceFile(declarations));
    });
  }
});

/** `N`, `Nx`, `Nxx`, … so that lines cross the print width one column at a time. */
const name = (length: number) => `N${"x".repeat(Math.max(0, length - 1))}`;
const ref = (length: number) => ({ tsType: name(length) });
const object = (
  properties: JsonObject,
  required: string[] = Object.keys(properties),
): JsonObject => ({ type: "object", properties, required });

/** Shapes whose layout depends on width, each as a function of one length. */
const SHAPES: Record<string, (n: number) => JsonObject> = {
  "alias union of names": (n) => ({ anyOf: [ref(n), ref(12), ref(20), ref(8)] }),
  "alias union of string literals": (n) => ({
    type: "string",
    enum: ["a".repeat(n), "bb", "ccc", "dddd", "eeeeeeeeeeeeeee"],
  }),
  "member union": (n) =>
    object({ [name(n)]: { anyOf: [ref(30), ref(25), { type: "string" }, { type: "null" }] } }, []),
  "nested member union": (n) =>
    object({ outer: object({ [name(n)]: { anyOf: [ref(30), ref(28), { type: "number" }] } }) }),
  "array of a union": (n) =>
    object({
      items: {
        type: "array",
        items: { anyOf: [ref(n), ref(30), ref(25)] },
        description: "A list.",
      },
    }),
  "union with objects": (n) => ({
    anyOf: [object({ [name(n)]: { type: "string" } }), ref(20), { type: "array", items: ref(n) }],
  }),
  "hugged union": (n) => object({ value: { anyOf: [ref(n), { type: "null" }] } }),
  "intersection with an object": (n) => ({
    allOf: [ref(n), object({ resultType: { const: "complete" } })],
  }),
  "intersection of a name, a union and an object": (n) => ({
    allOf: [
      ref(n),
      { anyOf: [object({ a: { type: "string" } }), object({ b: { type: "number" } })] },
      object({ c: { const: "x" } }),
    ],
  }),
  "intersection of names": (n) => ({ allOf: [ref(n), ref(40), ref(30)] }),
  "widened index signature": (n) => ({
    type: "object",
    properties: { [name(n)]: ref(20), other: { type: "array", items: { type: "string" } } },
    additionalProperties: { anyOf: [ref(25), ref(n)] },
  }),
  "type array": (n) =>
    object({
      [name(n)]: { type: ["string", "integer", "boolean", "null"] },
      list: { type: "array", maxItems: n, items: { type: ["string", "number"] } },
    }),
  "alias of a name": (n) => ({ tsType: name(n) }),
  "documented members": (n) =>
    object({
      [name(n)]: {
        tsType: name(n),
        description: `Line one.\n\n  indented ${"w".repeat(n)}  \nlast */ line`,
      },
    }),
};

describe("types layout against json-schema-to-typescript + prettier, across the print width", () => {
  for (const [shape, schemaOf] of Object.entries(SHAPES)) {
    it(`lays out ${shape} as the reference does`, async () => {
      const lengths = Array.from({ length: 24 }, (_, i) => 60 + i * 2).concat([1, 10, 30, 110]);
      const declarations = lengths.map(
        (n) =>
          [
            name(n).replace(/^N/, "D"),
            { description: `From test #/${shape}`, ...schemaOf(n) },
          ] as const,
      );
      expect(ownFile(declarations)).toBe(await referenceFile(declarations));
    });
  }
});
