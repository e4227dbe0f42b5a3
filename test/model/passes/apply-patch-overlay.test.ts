/**
 * Pass "apply the patch overlay that fixes known upstream defects":
 * applies test/add/replace/remove to the right view, and fails loudly when
 * upstream no longer matches what a patch tests.
 */
import { describe, expect, it } from "vitest";
import { McpGenError } from "../../../generator/diagnostics.js";
import type { Patch, PatchOperation } from "../../../generator/load/patches.js";
import { applyPatchOverlay } from "../../../generator/model/passes/apply-patch-overlay.js";
import type { Declaration, McpModel } from "../../../generator/model/types.js";

function declaration(name: string, schema: Declaration["schema"]): Declaration {
  return {
    kind: "declaration",
    name,
    schema,
    validatorSchema: schema,
    deprecatedMembers: {},
    openType: false,
    origin: { file: "x/schema.json", pointer: `/$defs/${name}` },
  };
}

const base = {
  declarations: [
    declaration("Value", { anyOf: [{ type: ["string", "integer"] }] }),
    declaration("Thing", {
      type: "object",
      properties: { kind: { type: "string" } },
      required: ["kind"],
    }),
  ],
  appliedPatches: [],
} as unknown as McpModel;

function run(patches: Patch[]): McpModel {
  return applyPatchOverlay.run(base, {
    patches: [{ file: "schema/patches/x.json", revision: "x", patches }],
    definitionsKey: "$defs",
    extensions: [],
  });
}

describe(applyPatchOverlay.name, () => {
  it("applies a types-and-validators patch to both views", () => {
    const out = run([
      {
        id: "p",
        why: "w",
        scope: "types-and-validators",
        operations: [
          { op: "test", path: "/$defs/Value/anyOf/0/type", value: ["string", "integer"] },
          { op: "replace", path: "/$defs/Value/anyOf/0/type", value: ["string", "number"] },
        ],
      },
    ]);
    const value = out.declarations.find((d) => d.name === "Value")!;
    expect(value.schema).toEqual({ anyOf: [{ type: ["string", "number"] }] });
    expect(value.validatorSchema).toEqual({ anyOf: [{ type: ["string", "number"] }] });
    expect(out.appliedPatches).toEqual([{ id: "p", why: "w", file: "schema/patches/x.json" }]);
  });

  it("applies a validators patch to the validator view only", () => {
    const out = run([
      {
        id: "pin",
        why: "w",
        scope: "validators",
        operations: [
          { op: "test", path: "/$defs/Thing/properties/kind/type", value: "string" },
          { op: "add", path: "/$defs/Thing/properties/kind/const", value: "t" },
        ],
      },
    ]);
    const thing = out.declarations.find((d) => d.name === "Thing")!;
    expect(thing.schema).toEqual(base.declarations[1]!.schema);
    expect(thing.validatorSchema).toEqual({
      type: "object",
      properties: { kind: { type: "string", const: "t" } },
      required: ["kind"],
    });
  });

  it("never mutates its input", () => {
    const before = structuredClone(base);
    run([
      {
        id: "p",
        why: "w",
        scope: "types-and-validators",
        operations: [
          { op: "test", path: "/$defs/Thing/required", value: ["kind"] },
          { op: "remove", path: "/$defs/Thing/required" },
        ],
      },
    ]);
    expect(base).toEqual(before);
  });

  it.each<[string, PatchOperation, string]>([
    [
      "a test that no longer matches",
      { op: "test", path: "/$defs/Value/anyOf/0/type", value: ["string"] },
      'patch "stale" no longer applies: upstream has changed (expected ["string"], found ["string","integer"])',
    ],
    [
      "an add over an existing value",
      { op: "add", path: "/$defs/Thing/required", value: [] },
      'patch "stale" no longer applies: upstream has changed (expected nothing at required, found ["kind"])',
    ],
    [
      "a definition that is gone",
      { op: "test", path: "/$defs/Gone/type", value: "object" },
      'patch "stale" no longer applies: upstream has changed (expected a definition at /$defs/Gone/type, found none)',
    ],
  ])("fails loudly on %s", (_what, op, message) => {
    try {
      run([{ id: "stale", why: "w", scope: "validators", operations: [op] }]);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(McpGenError);
      expect((error as McpGenError).diagnostics.map((d) => [d.code, d.message])).toEqual([
        ["MCPG301", message],
      ]);
    }
  });
});
