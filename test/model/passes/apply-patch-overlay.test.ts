/**
 * Pass "apply the patches whose tests hold": applies test/add/replace/remove
 * to the right view of any schema its tests hold on, goes on without a
 * patch whose tests do not hold (recording it when upstream has changed
 * the tested value), and fails only when the overlay itself is wrong.
 */
import { describe, expect, it } from "vitest";
import { formatDiagnostic, McpGenError } from "../../../generator/diagnostics.js";
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
  supersededPatches: [],
} as unknown as McpModel;

function run(patches: Patch[]): McpModel {
  return applyPatchOverlay.run(base, {
    patches: [{ file: "schema/patches/x.json", patches }],
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

  it.each<[string, PatchOperation, McpModel["supersededPatches"]]>([
    [
      "a test that no longer matches",
      { op: "test", path: "/$defs/Value/anyOf/0/type", value: ["string"] },
      [
        {
          id: "stale",
          file: "schema/patches/x.json",
          pointer: "/$defs/Value/anyOf/0/type",
          expected: '["string"]',
          actual: '["string","integer"]',
        },
      ],
    ],
    [
      "an add over a value upstream now has",
      { op: "add", path: "/$defs/Thing/required", value: [] },
      [
        {
          id: "stale",
          file: "schema/patches/x.json",
          pointer: "/$defs/Thing/required",
          expected: "nothing",
          actual: '["kind"]',
        },
      ],
    ],
    [
      "a definition this schema does not have",
      { op: "test", path: "/$defs/Gone/type", value: "object" },
      [],
    ],
    [
      "a path this schema does not have",
      { op: "test", path: "/$defs/Thing/items/type", value: "object" },
      [],
    ],
  ])("goes on without the patch on %s, recording only a changed value", (_what, op, superseded) => {
    const out = run([
      {
        id: "stale",
        why: "w",
        scope: "validators",
        operations: [op, { op: "add", path: "/$defs/Thing/properties/kind/const", value: "t" }],
      },
    ]);
    expect(out.declarations).toEqual(base.declarations);
    expect(out.appliedPatches).toEqual([]);
    expect(out.supersededPatches).toEqual(superseded);
  });

  it("fails when a patch whose tests hold cannot be applied (the overlay is wrong)", () => {
    try {
      run([
        {
          id: "wrong",
          why: "w",
          scope: "validators",
          operations: [
            { op: "test", path: "/$defs/Thing/type", value: "object" },
            { op: "add", path: "/$defs/Thing/items/type", value: "string" },
          ],
        },
      ]);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(McpGenError);
      expect((error as McpGenError).diagnostics.map(formatDiagnostic)).toEqual([
        'schema/patches/x.json: error MCPG301: patch "wrong" cannot be applied although its tests hold: /$defs/Thing/items/type: no object or array holds that path (fix: the overlay is wrong: fix the patch\'s operations in schema/patches/ (see schema/patch.schema.json))',
      ]);
    }
  });
});
