/**
 * mcp-gen's ajv set-up (ajv-setup.ts): its `$ref` keyword calls a
 * referenced validator with the value alone and puts the path in front
 * of its errors only when it fails; under every ajv option where the
 * callee would read its context, ajv's own `$ref` runs instead. Checked
 * on the code ajv writes and on the errors the validators report.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv, type Options } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import standalone from "ajv/dist/standalone/index.js";
import { describe, expect, it } from "vitest";
import { AJV_OPTIONS } from "../../generator/shared/ajv.js";
import { addMcpKeywords } from "../../generator/emit/ajv-setup.js";
import {
  compileValidators,
  namesInheritedProperty,
} from "../../generator/emit/compile-validators.js";
import { validate } from "../../generated/2026-07-28/index.js";
import { SCHEMA_DIR } from "../helpers/index.js";

const standaloneCode = standalone as unknown as typeof standalone.default;

/** Two definitions compiled on their own (`$id` each), the first referring to the second twice. */
const SCHEMAS = [
  {
    $id: "Outer",
    type: "object",
    properties: {
      inner: { $ref: "Inner" },
      list: { type: "array", items: { $ref: "Inner" } },
    },
  },
  {
    $id: "Inner",
    type: "object",
    properties: { count: { type: "number" }, more: { $ref: "Inner" } },
    required: ["count"],
  },
];

function compile(options: Options = {}, engine: typeof Ajv = Ajv) {
  const ajv = addMcpKeywords(new engine({ ...AJV_OPTIONS, ...options, inlineRefs: false }));
  for (const schema of SCHEMAS) ajv.addSchema(schema);
  return {
    validate: ajv.getSchema("Outer")!,
    code: standaloneCode(ajv, { validateOuter: "Outer" }),
  };
}

const BAD = { inner: { count: 1, more: { count: "x" } }, list: [{ count: 1 }, {}] };

describe("the $ref keyword", () => {
  it("calls a referenced validator with the value alone", () => {
    const { code } = compile();
    expect(code).toMatch(/validate\d+\(data\.inner\)/);
    expect(code).not.toMatch(/parentDataProperty:/);
  });

  it("reports a referenced definition's errors at the path they were found at", () => {
    const { validate: check } = compile({ allErrors: true });
    expect(check(BAD)).toBe(false);
    expect(check.errors!.map((e) => [e.instancePath, e.keyword])).toEqual([
      ["/inner/more/count", "type"],
      ["/list/1", "required"],
    ]);
  });

  it("reports the same paths as ajv's own $ref", () => {
    const ours = compile({ allErrors: true }).validate;
    const ajv = new Ajv({ ...AJV_OPTIONS, allErrors: true, inlineRefs: false });
    for (const schema of SCHEMAS) ajv.addSchema(schema);
    const theirs = ajv.getSchema("Outer")!;
    expect(ours(BAD)).toBe(false);
    expect(theirs(BAD)).toBe(false);
    expect(ours.errors!.map((e) => e.instancePath)).toEqual(
      theirs.errors!.map((e) => e.instancePath),
    );
  });

  it.each([
    ["passContext", { passContext: true }],
    ["$data", { $data: true }],
  ] as const)("leaves references to ajv's own $ref under %s", (_, options) => {
    const { code, validate: check } = compile(options);
    expect(code).toMatch(/parentDataProperty:/);
    expect(check({ inner: { count: "x" } })).toBe(false);
    expect(check.errors![0]!.instancePath).toBe("/inner/count");
  });

  it("leaves references to ajv's own $ref under Ajv2020 (it tracks what a callee evaluated)", () => {
    const { code, validate: check } = compile({}, Ajv2020);
    expect(code).toMatch(/parentDataProperty:/);
    expect(check({ inner: { count: "x" } })).toBe(false);
    expect(check.errors![0]!.instancePath).toBe("/inner/count");
  });

  it("leaves a reference to the root (#) to ajv", () => {
    const ajv = addMcpKeywords(new Ajv({ ...AJV_OPTIONS, inlineRefs: false }));
    const check = ajv.compile({
      $id: "Tree",
      type: "object",
      properties: { child: { $ref: "#" }, n: { type: "number" } },
    });
    expect(check({ child: { child: { n: 1 } } })).toBe(true);
    expect(check({ child: { child: { n: "x" } } })).toBe(false);
    expect(check.errors![0]!.instancePath).toBe("/child/child/n");
  });
});

describe("compileValidators", () => {
  it("returns ajv's standalone code as ajv writes it, loading its runtime helpers with require()", () => {
    const code = compileValidators({
      schemas: [{ $id: "Name", type: "string", minLength: 1 }],
      exports: { validateName: "Name" },
    });
    expect(code.startsWith('"use strict";')).toBe(true);
    expect(code).toContain('require("ajv/dist/runtime/ucs2length").default');
  });
});

describe("generated validators", () => {
  it("report a failing property inside a referenced definition with its whole path", () => {
    const result = validate("CallToolRequest", {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: {
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientInfo": { name: "c", version: "1" },
          "io.modelcontextprotocol/clientCapabilities": { roots: "no" },
        },
        name: "get_weather",
      },
    });
    expect(result.ok).toBe(false);
    expect(result.ok === false && result.errors.map((e) => e.path)).toContain(
      "/params/_meta/io.modelcontextprotocol~1clientCapabilities/roots",
    );
  });
});

describe("own properties only where a schema names an inherited one", () => {
  const schema = (node: Record<string, unknown>) => ({ $id: "S", ...node }) as never;

  it("finds inherited names among checked and required properties", () => {
    expect(namesInheritedProperty(schema({ properties: { constructor: {} } }))).toBe(true);
    expect(namesInheritedProperty(schema({ required: ["toString"] }))).toBe(true);
    expect(namesInheritedProperty(schema({ required: ["__proto__"] }))).toBe(true);
    expect(namesInheritedProperty(schema({ dependentRequired: { a: ["valueOf"] } }))).toBe(true);
    expect(namesInheritedProperty(schema({ dependencies: { hasOwnProperty: {} } }))).toBe(true);
    expect(
      namesInheritedProperty(
        schema({ anyOf: [{ type: "object", properties: { a: { required: ["isPrototypeOf"] } } }] }),
      ),
    ).toBe(true);
    // schema.json keeps its definitions under $defs (2026-07-28) or definitions (earlier revisions).
    expect(namesInheritedProperty(schema({ $defs: { X: { required: ["constructor"] } } }))).toBe(
      true,
    );
    expect(namesInheritedProperty(schema({ definitions: { X: { required: ["toString"] } } }))).toBe(
      true,
    );
    expect(namesInheritedProperty(schema({ properties: { name: {} }, required: ["name"] }))).toBe(
      false,
    );
  });

  it("leaves every upstream definition without the option, and guards a schema that needs it", () => {
    const upstream = JSON.parse(
      readFileSync(join(SCHEMA_DIR, "2026-07-28", "schema.json"), "utf8"),
    ) as Record<string, unknown>;
    expect(namesInheritedProperty(upstream as never)).toBe(false);
    const guarded = compileValidators({
      schemas: [schema({ type: "object", required: ["constructor"] })],
      exports: { isS: "S" },
    });
    expect(guarded).toContain("hasOwnProperty");
    const plain = compileValidators({
      schemas: [schema({ type: "object", required: ["name"] })],
      exports: { isS: "S" },
    });
    expect(plain).not.toContain("hasOwnProperty");
  });
});
