/**
 * The check stage: validates the loaded inputs and returns every problem
 * found, not just the first, so a user fixes them in one pass.
 *
 * Rules, each named as it appears in test titles:
 * - the dialect is one mcp-gen supports (document and per-definition `$schema`);
 * - every `$ref` is local and points at something;
 * - every `$ref` names a whole definition;
 * - no definition is a cycle of bare `$ref`s.
 */
import { diagnostic, type Diagnostic } from "../diagnostics.js";
import {
  escapePointerSegment,
  isJsonObject,
  parsePointer,
  type JsonObject,
  type JsonValue,
} from "../load/json.js";
import { definitionsOf } from "../load/schema-json.js";
import { DIALECT_URIS } from "../shared/json-schema-dialects.js";
import { forEachSchema } from "../shared/schema-walk.js";
import type { JsonSchemaSource, SourceSet } from "../load/types.js";

/** Runs every check rule over the sources and returns all diagnostics. */
export function checkSources(sources: SourceSet): Diagnostic[] {
  return [
    ...checkDialects(sources.schema),
    ...checkDefinitionNames(sources.schema),
    ...checkRefs(sources.schema),
    ...checkRefCycles(sources.schema),
  ];
}

/** Rule: every definition name can name a TypeScript type. */
export function checkDefinitionNames(source: JsonSchemaSource): Diagnostic[] {
  return Object.keys(definitionsOf(source))
    .filter((name) => !/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name))
    .map((name) =>
      diagnostic(
        "MCPG210",
        { name },
        {
          file: source.file.name,
          pointer: `/${source.definitionsKey}/${escapePointerSegment(name)}`,
        },
      ),
    );
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
    if (isJsonObject(def))
      check(def.$schema, `/${source.definitionsKey}/${escapePointerSegment(name)}/$schema`);
  }
  return found;
}

/**
 * Rules: every `$ref` is local and points at something, and names a whole
 * definition. The emitters compile each definition on its own, so a
 * reference into the middle of one (`#/$defs/A/properties/b`) or at the
 * document (`#`) cannot be followed.
 */
export function checkRefs(source: JsonSchemaSource): Diagnostic[] {
  const found: Diagnostic[] = [];
  const prefix = `#/${source.definitionsKey}/`;
  walkRefs(source.document, "", (ref, pointer) => {
    const where = { file: source.file.name, pointer };
    if (!ref.startsWith("#")) found.push(diagnostic("MCPG204", { ref }, where));
    else if (resolveLocalRef(source.document, ref) === undefined)
      found.push(diagnostic("MCPG202", { ref }, where));
    else if (!namesDefinition(ref, source.definitionsKey))
      found.push(diagnostic("MCPG209", { ref, prefix }, where));
  });
  return found;
}

function namesDefinition(ref: string, definitionsKey: string): boolean {
  const segments = pointerOfRef(ref);
  return segments !== undefined && segments.length === 2 && segments[0] === definitionsKey;
}

/**
 * Rule: no definition is a cycle of bare `$ref`s (A → B → A describes no
 * value). A one-branch `allOf`/`anyOf`/`oneOf` adds nothing between the
 * references, so `A: {allOf: [{$ref: A}]}` is a cycle too.
 */
export function checkRefCycles(source: JsonSchemaSource): Diagnostic[] {
  const defs = definitionsOf(source);
  const prefix = `#/${source.definitionsKey}/`;
  const target = (name: string): string | undefined => {
    const ref = bareRef(defs[name]);
    return ref?.startsWith(prefix) ? ref.slice(prefix.length) : undefined;
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
          found.push(
            diagnostic(
              "MCPG207",
              { chain: [...chain, start].join(" → ") },
              {
                file: source.file.name,
                pointer: `/${source.definitionsKey}/${escapePointerSegment(start)}`,
              },
            ),
          );
        }
        break;
      }
      if (chain.includes(next)) break;
      chain.push(next);
    }
  }
  return found;
}

/** The `$ref` a schema is nothing but (`{$ref}` or a one-branch combinator of one), if any. */
function bareRef(schema: JsonValue | undefined): string | undefined {
  if (!isJsonObject(schema)) return undefined;
  if (typeof schema.$ref === "string") return schema.$ref;
  for (const keyword of ["allOf", "anyOf", "oneOf"]) {
    const branches = schema[keyword];
    if (Array.isArray(branches) && branches.length === 1) return bareRef(branches[0]);
  }
  return undefined;
}

/** Calls `visit` for every `$ref` in a schema document, with the JSON pointer of the `$ref` member. */
export function walkRefs(
  document: JsonValue,
  pointer: string,
  visit: (ref: string, pointer: string) => void,
): void {
  forEachSchema(document, pointer, (node, at) => {
    if (typeof node.$ref === "string") visit(node.$ref, `${at}/$ref`);
  });
}

/** The value a local `$ref` (`#/...`) points at, or undefined (also for anchors such as `#foo`). */
export function resolveLocalRef(document: JsonObject, ref: string): JsonValue | undefined {
  const segments = pointerOfRef(ref);
  if (segments === undefined) return undefined;
  let node: JsonValue | undefined = document;
  for (const segment of segments) {
    if (Array.isArray(node)) node = node[Number(segment)];
    else if (isJsonObject(node)) node = Object.hasOwn(node, segment) ? node[segment] : undefined;
    else return undefined;
  }
  return node;
}

/** The JSON pointer segments of a local `$ref`; undefined for anything that is not a (well-encoded) pointer. */
export function pointerOfRef(ref: string): string[] | undefined {
  let fragment: string;
  try {
    fragment = decodeURIComponent(ref.slice(1));
  } catch {
    return undefined; // malformed percent-encoding, e.g. `#/$defs/%zz`
  }
  return fragment === "" || fragment.startsWith("/") ? parsePointer(fragment) : undefined;
}
