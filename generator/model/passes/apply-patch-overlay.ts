/**
 * Pass: apply the patches whose tests hold.
 *
 * Patches address an upstream schema.json (`/$defs/JSONValue/anyOf/2/type`);
 * the first two segments pick the declaration, the rest is a pointer inside
 * it. A patch is matched by content: it applies to any schema on which its
 * `test` operations hold, whatever the revision is called. A test that
 * fails decides what the patch is to this schema:
 *
 * - what it tests is not there (no such definition or path): the patch is
 *   about another shape of schema, and is skipped silently;
 * - it is there with another value: upstream has changed what the patch
 *   fixes, most likely fixed the defect, and the patch is skipped with a
 *   note (MCPG304).
 *
 * Either way generation goes on; the model check stops it if the schema
 * as it is would make code that does not compile. Only an overlay that
 * cannot be applied once its tests hold (MCPG301) is an error.
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
import type { AppliedPatch, Declaration, Pass, SupersededPatch } from "../types.js";

/** The pass. */
export const applyPatchOverlay: Pass = {
  name: "apply the patches whose tests hold",
  run(model, context) {
    const declarations = new Map(model.declarations.map((d) => [d.name, d]));
    const problems: Diagnostic[] = [];
    const applied: AppliedPatch[] = [];
    const superseded: SupersededPatch[] = [];
    for (const file of context.patches) {
      for (const patch of file.patches) {
        // Source patches repaired extension schemas as they were read (load/patches.ts).
        if (patch.scope === "source") continue;
        const outcome = tryPatch(patch, declarations);
        switch (outcome.kind) {
          case "applied":
            for (const [name, decl] of outcome.declarations) declarations.set(name, decl);
            applied.push({ id: patch.id, why: patch.why, file: file.file });
            break;
          case "superseded":
            superseded.push({ id: patch.id, file: file.file, ...outcome.mismatch });
            break;
          case "broken":
            problems.push(
              diagnostic(
                "MCPG301",
                { patch: patch.id, reason: `${outcome.pointer}: ${outcome.reason}` },
                { file: file.file },
              ),
            );
            break;
          case "absent":
            break;
        }
      }
    }
    if (problems.length > 0) throw new McpGenError(problems);
    return {
      ...model,
      declarations: model.declarations.map((d) => declarations.get(d.name)!),
      appliedPatches: [...model.appliedPatches, ...applied],
      supersededPatches: [...model.supersededPatches, ...superseded],
    };
  },
};

/** A test that does not hold: where, what the patch expects, what the schema has. */
interface Mismatch {
  readonly pointer: string;
  readonly expected: string;
  readonly actual: string;
}

/** What a patch is to a schema. */
type Outcome =
  | { readonly kind: "applied"; readonly declarations: ReadonlyMap<string, Declaration> }
  | { readonly kind: "absent" }
  | { readonly kind: "superseded"; readonly mismatch: Mismatch }
  | { readonly kind: "broken"; readonly pointer: string; readonly reason: string };

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
type View = "schema" | "validatorSchema";

/** Runs a patch's operations in order on copies of the declarations they touch. */
function tryPatch(patch: Patch, declarations: ReadonlyMap<string, Declaration>): Outcome {
  const touched = new Map<string, Mutable<Declaration>>();
  // A types-and-validators patch shapes both views; a validators patch leaves the type alone.
  const views: View[] =
    patch.scope === "validators" ? ["validatorSchema"] : ["schema", "validatorSchema"];
  for (const op of patch.operations) {
    const [defsKey, name, ...inner] = parsePointer(op.path);
    const source = name === undefined ? undefined : (touched.get(name) ?? declarations.get(name));
    if ((defsKey !== "$defs" && defsKey !== "definitions") || !source)
      return op.op === "test"
        ? { kind: "absent" }
        : { kind: "broken", pointer: op.path, reason: "it names no definition of this schema" };
    const decl: Mutable<Declaration> = touched.get(name!) ?? {
      ...source,
      schema: cloneJson(source.schema),
      validatorSchema: cloneJson(source.validatorSchema),
    };
    touched.set(name!, decl);
    for (const view of views) {
      const failure = applyOperation(decl, view, inner, op);
      if (failure) return failure;
    }
  }
  return { kind: "applied", declarations: touched };
}

/** Applies one operation to one view; undefined when it succeeded. */
function applyOperation(
  decl: Mutable<Declaration>,
  view: View,
  path: string[],
  op: PatchOperation,
): Exclude<Outcome, { kind: "applied" }> | undefined {
  if (path.length === 0) {
    if (op.op === "test")
      return jsonEqual(decl[view], op.value) ? undefined : superseded(op, decl[view]);
    if (op.op === "replace" && isJsonObject(op.value)) decl[view] = cloneJson(op.value);
    return undefined;
  }
  const container = walk(decl[view], path.slice(0, -1));
  const key = path[path.length - 1]!;
  if (!isJsonObject(container) && !Array.isArray(container))
    return op.op === "test"
      ? { kind: "absent" }
      : { kind: "broken", pointer: op.path, reason: "no object or array holds that path" };
  const current = Array.isArray(container)
    ? container[Number(key)]
    : Object.hasOwn(container, key)
      ? container[key]
      : undefined;
  switch (op.op) {
    case "test":
      if (current === undefined) return { kind: "absent" };
      return jsonEqual(current, op.value) ? undefined : superseded(op, current);
    case "add":
      if (Array.isArray(container))
        container.splice(key === "-" ? container.length : Number(key), 0, cloneJson(op.value));
      // Upstream now has a value where the patch adds one: what the patch adds is there already.
      else if (current !== undefined) return superseded(op, current, "nothing");
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

function superseded(
  op: PatchOperation,
  actual: JsonValue,
  expected = "value" in op ? JSON.stringify(op.value) : "nothing",
): Extract<Outcome, { kind: "superseded" }> {
  return {
    kind: "superseded",
    mismatch: { pointer: op.path, expected, actual: JSON.stringify(actual) },
  };
}
