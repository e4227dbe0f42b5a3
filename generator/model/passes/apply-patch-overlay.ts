/**
 * Pass: apply the patch overlay that fixes known upstream defects.
 *
 * Patches address the upstream schema.json (`/$defs/JSONValue/anyOf/2/type`);
 * the first two segments pick the declaration, the rest is a pointer inside
 * it. `test` operations must match exactly, so a patch that upstream has
 * made obsolete fails loudly (MCPG301) instead of rewriting new content.
 */
import { diagnostic, McpGenError, type Diagnostic } from "../../diagnostics.js";
import {
  cloneJson,
  isJsonObject,
  jsonEqual,
  parsePointer,
  type JsonValue,
} from "../../load/json.js";
import type { Patch, PatchOperation } from "../../load/patches.js";
import type { AppliedPatch, Declaration, McpModel, Pass } from "../types.js";

/** The pass. */
export const applyPatchOverlay: Pass = {
  name: "apply the patch overlay that fixes known upstream defects",
  run(model, context) {
    const declarations = new Map(model.declarations.map((d) => [d.name, { ...d }]));
    const problems: Diagnostic[] = [];
    const applied: AppliedPatch[] = [];
    for (const file of context.patches) {
      for (const patch of file.patches) {
        const before = problems.length;
        const result = applyPatch(patch, declarations, problems);
        if (problems.length === before) {
          for (const [name, decl] of result) declarations.set(name, decl);
          applied.push({ id: patch.id, why: patch.why, file: file.file });
        }
      }
    }
    if (problems.length > 0) throw new McpGenError(problems);
    return {
      ...model,
      declarations: model.declarations.map((d) => declarations.get(d.name)!),
      appliedPatches: [...model.appliedPatches, ...applied],
    };
  },
};

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** Applies one patch to copies of the declarations it touches; returns the copies. */
function applyPatch(
  patch: Patch,
  declarations: ReadonlyMap<string, Declaration>,
  problems: Diagnostic[],
): Map<string, Declaration> {
  const touched = new Map<string, Mutable<Declaration>>();
  for (const op of patch.operations) {
    const [defsKey, name, ...inner] = parsePointer(op.path);
    const source = name === undefined ? undefined : (touched.get(name) ?? declarations.get(name));
    if ((defsKey !== "$defs" && defsKey !== "definitions") || !source) {
      problems.push(
        diagnostic("MCPG301", {
          patch: patch.id,
          expected: `a definition at ${op.path}`,
          actual: "none",
        }),
      );
      return touched;
    }
    const decl: Mutable<Declaration> = touched.get(name!) ?? {
      ...source,
      schema: cloneJson(source.schema),
      validatorSchema: cloneJson(source.validatorSchema),
    };
    touched.set(name!, decl);
    // Both views are patched by a types-and-validators patch; validators-only patches leave the type alone.
    const views: Array<"schema" | "validatorSchema"> =
      patch.scope === "validators" ? ["validatorSchema"] : ["schema", "validatorSchema"];
    for (const view of views) {
      const failure = applyOperation(decl, view, inner, op);
      if (failure) {
        problems.push(
          diagnostic(
            "MCPG301",
            { patch: patch.id, expected: failure.expected, actual: failure.actual },
            { file: "schema.json", pointer: op.path },
          ),
        );
        return touched;
      }
    }
  }
  return touched;
}

function applyOperation(
  decl: Mutable<Declaration>,
  view: "schema" | "validatorSchema",
  path: string[],
  op: PatchOperation,
): { expected: string; actual: string } | undefined {
  if (path.length === 0) {
    if (op.op === "test")
      return jsonEqual(decl[view], op.value) ? undefined : mismatch(op.value, decl[view]);
    if (op.op === "replace" && isJsonObject(op.value)) decl[view] = op.value;
    return undefined;
  }
  const container = walk(decl[view], path.slice(0, -1));
  const key = path[path.length - 1]!;
  if (!isJsonObject(container) && !Array.isArray(container))
    return { expected: `a container at ${path.slice(0, -1).join("/")}`, actual: String(container) };
  const current = Array.isArray(container)
    ? container[Number(key)]
    : Object.hasOwn(container, key)
      ? container[key]
      : undefined;
  switch (op.op) {
    case "test":
      return jsonEqual(current, op.value) ? undefined : mismatch(op.value, current);
    case "add":
      if (Array.isArray(container))
        container.splice(key === "-" ? container.length : Number(key), 0, cloneJson(op.value));
      else if (current !== undefined)
        return { expected: `nothing at ${key}`, actual: JSON.stringify(current) };
      else container[key] = cloneJson(op.value);
      return undefined;
    case "replace":
      if (Array.isArray(container)) container[Number(key)] = cloneJson(op.value);
      else container[key] = cloneJson(op.value);
      return undefined;
    case "remove":
      if (Array.isArray(container)) container.splice(Number(key), 1);
      else delete container[key];
      return undefined;
  }
}

function walk(node: JsonValue, path: string[]): JsonValue | undefined {
  let current: JsonValue | undefined = node;
  for (const segment of path) {
    if (Array.isArray(current)) current = current[Number(segment)];
    else if (isJsonObject(current)) current = current[segment];
    else return undefined;
  }
  return current;
}

function mismatch(
  expected: JsonValue,
  actual: JsonValue | undefined,
): { expected: string; actual: string } {
  return {
    expected: JSON.stringify(expected),
    actual: actual === undefined ? "nothing" : JSON.stringify(actual),
  };
}

export type { McpModel };
