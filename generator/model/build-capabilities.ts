/**
 * Capabilities: every property of ClientCapabilities and ServerCapabilities,
 * and the properties of their inline objects, as paths.
 */
import { isJsonObject, escapePointerSegment, type JsonValue } from "../load/json.js";
import type { SourceSet } from "../load/types.js";
import { refName } from "./build-declarations.js";
import type { CapabilityNode, Declaration } from "./types.js";

const SIDES = { ClientCapabilities: "client", ServerCapabilities: "server" } as const;
/** Capabilities nest two levels in every revision (`tools.listChanged`, `elicitation.form`); deeper is data. */
const MAX_DEPTH = 3;

/** The capability tree of both sides, in schema order. */
export function buildCapabilities(
  declarations: readonly Declaration[],
  sources: SourceSet,
): CapabilityNode[] {
  const byName = new Map(declarations.map((d) => [d.name, d]));
  const out: CapabilityNode[] = [];
  for (const [definition, side] of Object.entries(SIDES)) {
    const decl = byName.get(definition);
    if (!decl) continue;
    const tsMembers = sources.schemaTs?.declarations[definition]?.members ?? {};
    collect(
      decl.schema,
      [],
      side,
      decl.origin.file,
      decl.origin.pointer ?? "",
      byName,
      out,
      tsMembers,
    );
  }
  return out;
}

function collect(
  schema: JsonValue,
  path: string[],
  side: "client" | "server",
  file: string,
  pointer: string,
  byName: ReadonlyMap<string, Declaration>,
  out: CapabilityNode[],
  tsMembers: Readonly<Record<string, { deprecated?: string }>>,
): void {
  if (!isJsonObject(schema) || path.length >= MAX_DEPTH) return;
  const target = refName(schema.$ref);
  if (target && path.length > 0) return; // a referenced definition is a value type, not more capabilities
  if (!isJsonObject(schema.properties)) return;
  for (const [name, child] of Object.entries(schema.properties)) {
    const childPath = [...path, name];
    const childPointer = `${pointer}/properties/${escapePointerSegment(name)}`;
    const doc =
      isJsonObject(child) && typeof child.description === "string" ? child.description : undefined;
    const deprecated =
      path.length === 0 ? tsMembers[escapePointerSegment(name)]?.deprecated : undefined;
    out.push({
      kind: "capability",
      side,
      path: childPath,
      ...(doc ? { doc } : {}),
      ...(deprecated !== undefined ? { deprecated } : {}),
      origin: { file, pointer: childPointer },
    });
    collect(child, childPath, side, file, childPointer, byName, out, {});
  }
}
