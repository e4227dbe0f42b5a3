/**
 * Error codes with their policy. A revision's own codes come from its
 * schema.ts constants in the JSON-RPC error range (or, without schema.ts,
 * from the `code` consts of its error definitions) and from codes its
 * specification text defines (schema/error-codes.json). Codes only earlier
 * revisions define are kept as `legacy`: accept them from older peers,
 * never send them.
 */
import { isJsonObject, type JsonObject } from "../load/json.js";
import type { Registry } from "../load/registry.js";
import type { SourceSet } from "../load/types.js";
import { isRequired, propertyOf } from "./build-methods.js";
import type { Declaration, ErrorCodeNode, ErrorCodePolicy, ErrorDefinitionRef } from "./types.js";

/** JSON-RPC 2.0 reserves -32768..-32000 for errors; MCP's codes live there. */
const ERROR_RANGE = { min: -32768, max: -32000 } as const;
/** JSON-RPC 2.0's predefined codes, with the constant names MCP's schema.ts gives them. */
const JSON_RPC_STANDARD = new Map([
  [-32700, "PARSE_ERROR"],
  [-32600, "INVALID_REQUEST"],
  [-32601, "METHOD_NOT_FOUND"],
  [-32602, "INVALID_PARAMS"],
  [-32603, "INTERNAL_ERROR"],
]);

/** `HEADER_MISMATCH` → `HeaderMismatch`. */
export function pascalFromConstant(constant: string): string {
  return constant
    .toLowerCase()
    .split("_")
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join("");
}

/** `UnsupportedProtocolVersionError` → `UNSUPPORTED_PROTOCOL_VERSION`. */
function constantFromDefinition(name: string): string {
  return name
    .replace(/Error$/, "")
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .toUpperCase();
}

/** The error codes of a revision, including legacy ones, sorted by code (descending: -32000 first, as the spec lists them). */
export function buildErrorCodes(
  declarations: readonly Declaration[],
  sources: SourceSet,
): ErrorCodeNode[] {
  const byName = new Map(declarations.map((d) => [d.name, d]));
  const definitions = errorDefinitionsByCode(declarations, byName);
  const own = ownCodes(sources, definitions);
  const nodes: ErrorCodeNode[] = [];
  for (const [code, info] of own) {
    nodes.push(
      node(
        info.constant,
        code,
        JSON_RPC_STANDARD.has(code) ? "json-rpc" : "spec",
        sources,
        definitions.get(code),
        info.origin,
        info.doc,
        true,
      ),
    );
  }
  for (const legacy of legacyCodes(sources.registry, comparableVersion(sources), own)) {
    nodes.push(
      node(
        legacy.constant,
        legacy.code,
        "legacy",
        sources,
        undefined,
        { file: legacy.source },
        legacy.doc,
        false,
      ),
    );
  }
  return nodes.sort((a, b) => b.code - a.code);
}

function node(
  constant: string,
  code: number,
  policy: ErrorCodePolicy,
  sources: SourceSet,
  definition: ErrorDefinitionRef | undefined,
  origin: ErrorCodeNode["origin"],
  doc: string | undefined,
  definedHere: boolean,
): ErrorCodeNode {
  return {
    kind: "error-code",
    name: pascalFromConstant(constant),
    constant,
    code,
    policy,
    revisions: revisionsDefining(code, sources, definedHere),
    ...(definition ? { definition } : {}),
    ...(doc ? { doc } : {}),
    origin,
  };
}

interface OwnCode {
  readonly constant: string;
  readonly origin: ErrorCodeNode["origin"];
  readonly doc?: string;
}

function ownCodes(
  sources: SourceSet,
  definitions: ReadonlyMap<number, ErrorDefinitionRef>,
): Map<number, OwnCode> {
  const own = new Map<number, OwnCode>();
  const ts = sources.schemaTs;
  if (ts) {
    for (const [constant, { value, line }] of Object.entries(ts.constants)) {
      if (typeof value === "number" && value >= ERROR_RANGE.min && value <= ERROR_RANGE.max) {
        own.set(value, {
          constant,
          origin: { file: ts.file.name, line },
          ...docOfDefinition(definitions.get(value)?.name, sources),
        });
      }
    }
  } else {
    for (const [code, definition] of definitions) {
      own.set(code, {
        constant: constantFromDefinition(definition.name),
        origin: { file: sources.schema.file.name },
        ...docOfDefinition(definition.name, sources),
      });
    }
  }
  for (const text of sources.registry.specTextErrorCodes) {
    if (text.revisions.includes(sources.revision) && !own.has(text.code))
      own.set(text.code, { constant: text.constant, origin: { file: text.source }, doc: text.doc });
  }
  // JSON-RPC's own codes hold in every revision, whether or not its schema.ts names them.
  for (const [code, constant] of JSON_RPC_STANDARD) {
    if (!own.has(code))
      own.set(code, {
        constant,
        origin: { file: "https://www.jsonrpc.org/specification#error_object" },
        ...docOfDefinition(definitions.get(code)?.name, sources),
      });
  }
  return own;
}

function docOfDefinition(definition: string | undefined, sources: SourceSet): { doc?: string } {
  const doc = definition ? sources.schemaTs?.declarations[definition]?.description : undefined;
  return doc ? { doc } : {};
}

/**
 * The date to compare with known revisions when asking what is "earlier":
 * the revision itself, or for a custom spec its LATEST_PROTOCOL_VERSION.
 * A custom spec without a dated version has no earlier revisions.
 */
function comparableVersion(sources: SourceSet): string | undefined {
  const declared = sources.schemaTs?.constants.LATEST_PROTOCOL_VERSION?.value;
  const version = sources.known
    ? sources.revision
    : typeof declared === "string"
      ? declared
      : undefined;
  return version !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(version) ? version : undefined;
}

/** Codes defined by earlier known revisions only. */
function legacyCodes(
  registry: Registry,
  revision: string | undefined,
  own: ReadonlyMap<number, OwnCode>,
): Array<{ constant: string; code: number; doc: string; source: string }> {
  const out = new Map<number, { constant: string; code: number; doc: string; source: string }>();
  if (revision === undefined) return [];
  for (const [rev, entry] of Object.entries(registry.revisions)) {
    if (rev >= revision) continue;
    for (const [constant, code] of Object.entries(entry.errorCodes)) {
      if (!own.has(code) && !out.has(code))
        out.set(code, {
          constant,
          code,
          doc: `Defined by ${rev} and earlier revisions only; accept it from older peers, never send it.`,
          source: `${rev}/schema.ts`,
        });
    }
  }
  for (const text of registry.specTextErrorCodes) {
    if (!own.has(text.code) && text.revisions.some((r) => r < revision))
      out.set(text.code, { ...text });
  }
  return [...out.values()];
}

function revisionsDefining(code: number, sources: SourceSet, definedHere: boolean): string[] {
  const found = new Set<string>();
  for (const [rev, entry] of Object.entries(sources.registry.revisions)) {
    if (Object.values(entry.errorCodes).includes(code)) found.add(rev);
  }
  for (const text of sources.registry.specTextErrorCodes)
    if (text.code === code) text.revisions.forEach((r) => found.add(r));
  if (!sources.known && definedHere) found.add(sources.revision);
  return [...found].sort();
}

/**
 * Error definitions by the code they pin. The JSON-RPC response form
 * (`{error: allOf[Error, {code: const}]}`) is preferred over the bare
 * error-object form (`ParseError`).
 */
function errorDefinitionsByCode(
  declarations: readonly Declaration[],
  byName: ReadonlyMap<string, Declaration>,
): Map<number, ErrorDefinitionRef> {
  const out = new Map<number, ErrorDefinitionRef>();
  for (const decl of declarations) {
    const error = propertyOf(decl.schema, "error", byName);
    const code = pinnedCode(error, byName);
    if (code !== undefined) out.set(code, describeErrorDefinition(decl, byName)!);
  }
  for (const decl of declarations) {
    if (!decl.name.endsWith("Error")) continue;
    const code = pinnedCode(decl.schema, byName);
    if (code !== undefined && !out.has(code))
      out.set(code, {
        name: decl.name,
        form: "error-object",
        data: dataPresence(decl.schema, byName),
      });
  }
  return out;
}

/** How a definition describes an error: a whole response (`error` member) or the error object, and its data. */
export function describeErrorDefinition(
  decl: Declaration,
  byName: ReadonlyMap<string, Declaration>,
): ErrorDefinitionRef | undefined {
  const error = propertyOf(decl.schema, "error", byName);
  if (error) return { name: decl.name, form: "response", data: dataPresence(error, byName) };
  return propertyOf(decl.schema, "code", byName)
    ? { name: decl.name, form: "error-object", data: dataPresence(decl.schema, byName) }
    : undefined;
}

function dataPresence(
  errorSchema: unknown,
  byName: ReadonlyMap<string, Declaration>,
): ErrorDefinitionRef["data"] {
  const data = propertyOf(errorSchema, "data", byName);
  if (!data || Object.keys(data).length === 0) return "absent";
  return isRequired(errorSchema, "data", byName) ? "required" : "optional";
}

function pinnedCode(schema: unknown, byName: ReadonlyMap<string, Declaration>): number | undefined {
  if (!isJsonObject(schema)) return undefined;
  const code: JsonObject | undefined = propertyOf(schema, "code", byName);
  return code && typeof code.const === "number" ? code.const : undefined;
}
