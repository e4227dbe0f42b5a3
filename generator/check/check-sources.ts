/**
 * The check stage: validates the loaded inputs and returns every problem
 * found, not just the first, so a user fixes them in one pass.
 *
 * Rules, each named as it appears in test titles:
 * - the dialect is one mcp-gen supports (document and per-definition `$schema`);
 * - every `$ref` is local and points at something;
 * - no definition is a cycle of bare `$ref`s.
 */
import { diagnostic, type Diagnostic } from "../diagnostics.js";
import { escapePointerSegment, isJsonObject, parsePointer, type JsonObject, type JsonValue } from "../load/json.js";
import { DIALECT_URIS, definitionsOf } from "../load/load-sources.js";
import { forEachSchema } from "../load/schema-walk.js";
import type { JsonSchemaSource, SourceSet } from "../load/types.js";

/** Runs every check rule over the sources and returns all diagnostics. */
export function checkSources(sources: SourceSet): Diagnostic[] {
  return [...checkDialects(sources.schema), ...checkRefs(sources.schema), ...checkRefCycles(sources.schema)];
}

/** Rule: the dialect is one mcp-gen supports. */
export function checkDialects(source: JsonSchemaSource): Diagnostic[] {
  const found: Diagnostic[] = [];
  const check = (value: JsonValue | undefined, pointer: string) => {
    if (typeof value === "string" && !DIALECT_URIS[value]) {
      found.push(diagnostic("MCPG203", { dialect: value }, { file: source.file.name, pointer }));
    }
  };
  check(source.document.$schema, "/$schema");
  for (const [name, def] of Object.entries(definitionsOf(source))) {
    if (isJsonObject(def)) check(def.$schema, `/${source.definitionsKey}/${escapePointerSegment(name)}/$schema`);
  }
  return found;
}

/** Rule: every `$ref` is local and points at something. */
export function checkRefs(source: JsonSchemaSource): Diagnostic[] {
  const found: Diagnostic[] = [];
  walkRefs(source.document, "", (ref, pointer) => {
    const where = { file: source.file.name, pointer };
    if (!ref.startsWith("#")) found.push(diagnostic("MCPG204", { ref }, where));
    else if (resolveLocalRef(source.document, ref) === undefined) found.push(diagnostic("MCPG202", { ref }, where));
  });
  return found;
}

/** Rule: no definition is a cycle of bare `$ref`s (A → B → A describes no value). */
export function checkRefCycles(source: JsonSchemaSource): Diagnostic[] {
  const defs = definitionsOf(source);
  const prefix = `#/${source.definitionsKey}/`;
  const target = (name: string): string | undefined => {
    const def = defs[name];
    return isJsonObject(def) && typeof def.$ref === "string" && def.$ref.startsWith(prefix) ? def.$ref.slice(prefix.length) : undefined;
  };
  const found: Diagnostic[] = [];
  const reported = new Set<string>();
  for (const start of Object.keys(defs)) {
    const chain = [start];
    for (let next = target(start); next !== undefined; next = target(next)) {
      if (next === start) {
        const key = [...chain].sort().join(",");
        if (!reported.has(key)) {
          reported.add(key);
          found.push(diagnostic("MCPG207", { chain: [...chain, start].join(" → ") }, { file: source.file.name, pointer: `/${source.definitionsKey}/${escapePointerSegment(start)}` }));
        }
        break;
      }
      if (chain.includes(next)) break;
      chain.push(next);
    }
  }
  return found;
}

/** Calls `visit` for every `$ref` in a schema document, with the JSON pointer of the `$ref` member. */
export function walkRefs(document: JsonValue, pointer: string, visit: (ref: string, pointer: string) => void): void {
  forEachSchema(document, pointer, (node, at) => {
    if (typeof node.$ref === "string") visit(node.$ref, `${at}/$ref`);
  });
}

/** The value a local `$ref` (`#/...`) points at, or undefined. */
export function resolveLocalRef(document: JsonObject, ref: string): JsonValue | undefined {
  let node: JsonValue | undefined = document;
  for (const segment of parsePointer(decodeURIComponent(ref.slice(1)))) {
    if (Array.isArray(node)) node = node[Number(segment)];
    else if (isJsonObject(node)) node = Object.hasOwn(node, segment) ? node[segment] : undefined;
    else return undefined;
  }
  return node;
}
