/**
 * The overlay's `source` patches applied to an extension's schema as read,
 * before it is checked: the repair of a published file whose defect stops
 * it loading at all (MCP Apps' dangling `#/$defs/__schema0`), matched by
 * content like every patch (patches.ts).
 */
import {
  cloneJson,
  isJsonObject,
  jsonEqual,
  parsePointer,
  type JsonObject,
  type JsonValue,
} from "./json.js";
import type { PatchFile, PatchOperation } from "./patches.js";
import type { JsonSchemaSource } from "./types.js";

/** A `source` patch applied to an extension's schema, for the note that names it. */
export interface AppliedSourcePatch {
  readonly id: string;
  readonly why: string;
  readonly file: string;
}

/**
 * Applies the overlay's `source` patches whose tests all hold to a schema
 * as read (copies; the input is untouched). A patch whose test finds
 * anything else is not applied, so it repairs the published file it was
 * written for and nothing else: another schema with a defect of the same
 * kind is refused by the check stage with its own pointer.
 */
export function applySourcePatches(
  source: JsonSchemaSource,
  overlay: readonly PatchFile[],
): { source: JsonSchemaSource; applied: AppliedSourcePatch[] } {
  let document = source.document;
  const applied: AppliedSourcePatch[] = [];
  for (const file of overlay)
    for (const patch of file.patches) {
      if (patch.scope !== "source") continue;
      const patched = patchDocument(document, patch.operations);
      if (!patched) continue;
      document = patched;
      applied.push({ id: patch.id, why: patch.why, file: file.file });
    }
  return { source: applied.length > 0 ? { ...source, document } : source, applied };
}

/** The document with `operations` applied, or undefined when a test does not hold or a path is missing. */
function patchDocument(
  document: JsonObject,
  operations: readonly PatchOperation[],
): JsonObject | undefined {
  const copy = cloneJson(document);
  for (const op of operations) {
    const path = parsePointer(op.path);
    const key = path.pop()!;
    let container: JsonValue | undefined = copy;
    for (const segment of path)
      container = isJsonObject(container) ? container[segment] : undefined;
    if (!isJsonObject(container)) return undefined;
    const present = Object.hasOwn(container, key);
    if (op.op === "test") {
      if (!present || !jsonEqual(container[key], op.value)) return undefined;
    } else if (op.op === "remove") {
      if (!present) return undefined;
      delete container[key];
    } else if (op.op === "add" && present) return undefined;
    else container[key] = cloneJson(op.value);
  }
  return copy;
}
