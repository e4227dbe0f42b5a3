/**
 * The patch overlay (schema/patches/*.json): declarative fixes for known
 * upstream defects. Each patch is a list of RFC 6902 JSON Patch operations
 * against an upstream schema.json. Patches are matched by content, never
 * by revision name: a patch applies to any schema on which its `test`
 * operations hold, and every `replace` or `remove` must be preceded by a
 * `test` of the same path, so a patch never rewrites something upstream
 * has changed.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { diagnostic, McpGenError, type Diagnostic } from "../diagnostics.js";
import { isJsonObject, type JsonValue } from "./json.js";
import { packageRoot } from "./package-root.js";

/** One RFC 6902 operation (the subset mcp-gen uses). */
export type PatchOperation =
  | { readonly op: "test"; readonly path: string; readonly value: JsonValue }
  | { readonly op: "add"; readonly path: string; readonly value: JsonValue }
  | { readonly op: "replace"; readonly path: string; readonly value: JsonValue }
  | { readonly op: "remove"; readonly path: string };

/**
 * Which emitted artefacts a patch shapes. `types-and-validators` fixes a
 * plain defect (schema.json disagrees with schema.ts); `validators` adds a
 * rule schema.ts states only in prose, so the TypeScript types keep the
 * shape schema.ts gives them; `source` repairs an extension's schema file
 * as read, before it is checked, for a defect that stops it loading at all
 * (MCP Apps' dangling `#/$defs/__schema0`).
 */
export type PatchScope = "types-and-validators" | "validators" | "source";

/** One named fix. */
export interface Patch {
  readonly id: string;
  readonly why: string;
  readonly scope: PatchScope;
  readonly operations: readonly PatchOperation[];
}

/** One file of the overlay. */
export interface PatchFile {
  /** Display name, e.g. `schema/patches/upstream-defects.json`. */
  readonly file: string;
  readonly patches: readonly Patch[];
}

/** Reads every file of the overlay (schema/patches/*.json, in name order); every problem is reported together. */
export function readOverlay(): PatchFile[] {
  const dir = join(packageRoot(), "schema", "patches");
  const names = readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort();
  const problems: Diagnostic[] = [];
  const files = names.map((name): PatchFile => {
    const file = `schema/patches/${name}`;
    const raw = JSON.parse(readFileSync(join(dir, name), "utf8")) as { patches?: unknown };
    const patches = Array.isArray(raw.patches) ? raw.patches : [];
    patches.forEach((p, i) => problems.push(...checkPatchShape(p, `${file}#/patches/${i}`)));
    return { file, patches: patches as Patch[] };
  });
  if (problems.length > 0) throw new McpGenError(problems);
  return files;
}

function checkPatchShape(patch: unknown, where: string): Diagnostic[] {
  const name = isJsonObject(patch) && typeof patch.id === "string" ? patch.id : where;
  const bad = (reason: string) => [diagnostic("MCPG302", { patch: name, reason }, { file: where })];
  if (!isJsonObject(patch)) return bad("a patch must be an object");
  if (typeof patch.why !== "string" || patch.why === "") return bad("missing why");
  if (!["types-and-validators", "validators", "source"].includes(patch.scope as string))
    return bad(`unknown scope ${JSON.stringify(patch.scope)}`);
  if (!Array.isArray(patch.operations) || patch.operations.length === 0)
    return bad("no operations");
  const tested = new Set<string>();
  for (const op of patch.operations) {
    if (!isJsonObject(op) || typeof op.path !== "string")
      return bad("every operation needs a path");
    if (op.op === "test") tested.add(op.path);
    else if ((op.op === "replace" || op.op === "remove") && !tested.has(op.path))
      return bad(`${op.op} ${op.path} has no test before it`);
    else if (typeof op.op !== "string" || !["add", "replace", "remove"].includes(op.op))
      return bad(`unsupported op ${JSON.stringify(op.op)}`);
  }
  return [];
}
