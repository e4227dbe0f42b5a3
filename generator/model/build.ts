/**
 * The build stage: SourceSet → McpModel. Each concept has its own builder;
 * this file only assembles them.
 */
import type { Diagnostic } from "../diagnostics.js";
import { diagnostic } from "../diagnostics.js";
import { knownRevisions } from "../load/registry.js";
import type { SourceSet } from "../load/types.js";
import { buildCapabilities } from "./build-capabilities.js";
import { buildDeclarations } from "./build-declarations.js";
import { buildErrorCodes } from "./build-error-codes.js";
import { buildMethods } from "./build-methods.js";
import type { Declaration, Envelopes, McpModel, ResultTypeNode, RevisionSummary } from "./types.js";

/** The rule that names a revision's resultType values. */
export const RULE_RESULT_TYPE_LITERALS =
  "the resultType values are the string literals of schema.ts's ResultType union";

/** Builds the model of a source set; diagnostics are warnings and notes (errors were caught by the check stage). */
export function buildModel(sources: SourceSet): { model: McpModel; diagnostics: Diagnostic[] } {
  const declarations = buildDeclarations(sources);
  const methods = buildMethods(declarations, sources);
  const constants = sources.schemaTs?.constants ?? {};
  const resultTypes = declaredResultTypes(sources);
  const model: McpModel = {
    revision: sources.revision,
    known: sources.known,
    protocolVersion: stringConstant(constants.LATEST_PROTOCOL_VERSION?.value) ?? sources.revision,
    jsonrpcVersion: stringConstant(constants.JSONRPC_VERSION?.value) ?? "2.0",
    dialect: sources.schema.dialect,
    sources: [sources.schema.file, ...(sources.schemaTs ? [sources.schemaTs.file] : [])].map(
      (f) => ({ name: f.name, sha256: f.sha256 }),
    ),
    declarations,
    requests: methods.requests,
    notifications: methods.notifications,
    resultTypes,
    errorCodes: buildErrorCodes(declarations, sources),
    capabilities: buildCapabilities(declarations, sources),
    envelopes: envelopesOf(declarations),
    revisions: revisionSummaries(sources, methods),
    channelMessages: [],
    channels: [],
    appliedPatches: [],
    supersededPatches: [],
    appliedRules: resultTypes.length > 0 ? [RULE_RESULT_TYPE_LITERALS] : [],
    extensions: [],
    ...(methods.inferences.length > 0 ? { inferences: methods.inferences } : {}),
    unknowns: sources.schemaTs
      ? []
      : [
          "the literal members of string unions (such as ResultType)",
          "deprecations",
          "error code constant names",
        ],
  };
  const notes =
    model.unknowns.length > 0
      ? [
          diagnostic(
            "MCPG206",
            { what: listInWords(model.unknowns) },
            { file: sources.schema.file.name },
          ),
        ]
      : [];
  return { model, diagnostics: [...methods.diagnostics, ...notes] };
}

/** The first of each envelope's names that the revision defines. */
function envelopesOf(declarations: readonly Declaration[]): Envelopes {
  const names = new Set(declarations.map((d) => d.name));
  const pick = (...candidates: string[]) => candidates.find((c) => names.has(c));
  const found = {
    request: pick("JSONRPCRequest"),
    notification: pick("JSONRPCNotification"),
    resultResponse: pick("JSONRPCResultResponse", "JSONRPCResponse"),
    errorResponse: pick("JSONRPCErrorResponse", "JSONRPCError"),
  };
  return Object.fromEntries(Object.entries(found).filter(([, v]) => v !== undefined));
}

/** `["a", "b", "c"]` → `a, b and c`. */
function listInWords(items: readonly string[]): string {
  return items.length <= 1
    ? (items[0] ?? "")
    : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

function stringConstant(value: string | number | undefined): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/**
 * The resultType values schema.ts names in its `ResultType` union, with the
 * doc line that explains each (`complete - the request completed ...`).
 * Which definitions pin each value is filled in by the discriminate pass.
 */
function declaredResultTypes(sources: SourceSet): ResultTypeNode[] {
  const union = sources.schemaTs?.unions.ResultType;
  if (!union) return [];
  const doc = sources.schemaTs?.declarations.ResultType?.description ?? "";
  return union.members.flatMap((m) =>
    m.kind === "literal" && typeof m.value === "string"
      ? [
          {
            kind: "result-type",
            value: m.value,
            ...docLine(doc, m.value),
            definitions: [],
            origin: { file: sources.schemaTs!.file.name, line: union.line },
          } satisfies ResultTypeNode,
        ]
      : [],
  );
}

function docLine(doc: string, value: string): { doc?: string } {
  const line = doc.split("\n").find((l) => l.startsWith(`${value} - `));
  return line ? { doc: line.slice(value.length + 3).trim() } : {};
}

/**
 * What each known revision defines (from the registry), oldest first. An
 * unknown revision is added from its own model, in place of a known one of
 * the same name (an edited copy of a known revision describes itself).
 */
function revisionSummaries(
  sources: SourceSet,
  own: ReturnType<typeof buildMethods>,
): RevisionSummary[] {
  const known = knownRevisions(sources.registry).map((revision) => {
    const entry = sources.registry.revisions[revision]!;
    return { revision, methods: entry.methods, notifications: entry.notifications };
  });
  if (sources.known) return known;
  const self = {
    revision: sources.revision,
    methods: own.requests.map((r) => r.method),
    notifications: own.notifications.map((n) => n.method),
  };
  return [...known.filter((r) => r.revision !== self.revision), self].sort((a, b) =>
    a.revision < b.revision ? -1 : a.revision > b.revision ? 1 : 0,
  );
}
