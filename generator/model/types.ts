/**
 * The McpModel: mcp-gen's intermediate representation. It does not depend
 * on the protocol revision's raw shape (draft-07 or 2020-12, with or
 * without `*ResultResponse` definitions), so emitters never branch on it.
 *
 * Order is decided here and nowhere else: declarations keep schema.json's
 * order; requests, notifications, result types and error codes are sorted
 * (by method, value and code) so output is stable across upstream edits
 * that only move things around.
 */
import type { JsonObject, JsonValue } from "../load/json.js";
import type { Dialect, NegotiationCondition } from "../load/types.js";

/** Where a model node came from. */
export interface Origin {
  /** Display name of the file, e.g. `2026-07-28/schema.json`. */
  readonly file: string;
  /** JSON pointer inside a JSON file. */
  readonly pointer?: string;
  /** Line inside a TypeScript file. */
  readonly line?: number;
}

/** A JSON Schema (object or boolean form). */
export type JsonSchema = JsonObject | boolean;

/** The literal members schema.ts gives a string type that schema.json only calls `string`. */
export interface LiteralMembers {
  readonly values: readonly string[];
  /** True when the union also admits any string (`"a" | "b" | string`). */
  readonly open: boolean;
}

/** One named type of the schema. */
export interface Declaration {
  readonly kind: "declaration";
  readonly name: string;
  /** The schema the TypeScript type is generated from: upstream plus `types-and-validators` patches. */
  readonly schema: JsonSchema;
  /** The schema the validator is compiled from: additionally shaped by `validators` patches. */
  readonly validatorSchema: JsonSchema;
  readonly doc?: string;
  readonly deprecated?: string;
  /** Deprecation notes of members, by property name (from schema.ts). */
  readonly deprecatedMembers: Readonly<Record<string, string>>;
  readonly literalMembers?: LiteralMembers;
  /**
   * True when the TypeScript type admits any extra property
   * (`[key: string]: unknown`): schema.ts gives it an index signature, or
   * schema.json says `additionalProperties` explicitly.
   */
  readonly openType: boolean;
  readonly origin: Origin;
}

/**
 * Who sends a message. `input-request` is a server-to-client request that
 * 2026-07-28 carries inside an InputRequiredResult (MRTR) instead of sending
 * it on the wire.
 */
export type Direction = "client-to-server" | "server-to-client" | "both" | "input-request";

/** One definition a request may return, with the resultType that selects it. */
export interface ResultBranch {
  readonly definition: string;
  /** The pinned resultType; undefined in revisions that have no resultType. */
  readonly resultType?: string;
  /**
   * Without a resultType: the properties whose presence selects this branch
   * (declared by no other branch of the method). Absent on the branch a
   * result without any of the other branches' markers is read as.
   */
  readonly markers?: readonly string[];
}

/** A JSON-RPC request method. */
export interface RequestNode {
  readonly kind: "request";
  readonly method: string;
  readonly direction: Direction;
  /** The request definition, e.g. `CallToolRequest`. */
  readonly definition: string;
  /** The named params definition, when the schema has one. */
  readonly paramsDefinition?: string;
  /** Whether the request carries params: always, optionally, or never. */
  readonly params: ParamsPresence;
  /** What the method may return, in schema order. */
  readonly results: readonly ResultBranch[];
  /** The `<X>ResultResponse` definition (2026-07-28 on), whose `result` lists the results. */
  readonly responseDefinition?: string;
  /** True when one of the results has the MRTR shape (`inputRequests` and/or `requestState`): Multi Round-Trip Requests. */
  readonly mrtr: boolean;
  readonly deprecated?: string;
  readonly origin: Origin;
}

/** A JSON-RPC notification method. */
export interface NotificationNode {
  readonly kind: "notification";
  readonly method: string;
  readonly direction: Direction;
  readonly definition: string;
  readonly paramsDefinition?: string;
  readonly params: ParamsPresence;
  readonly deprecated?: string;
  readonly origin: Origin;
}

/**
 * A message of an extension that travels on another channel than the MCP
 * connection (MCP Apps' `ui/*`, between an app's view and its host over
 * postMessage). Its definitions get types and validators like any other,
 * but it is no MCP method: it is kept apart from `requests` and
 * `notifications`, so nothing built from those (method tables, dispatch,
 * client wrappers, diff) can see it.
 */
export interface ChannelMessageNode {
  readonly kind: "channel-message";
  /** The channel's name, as the manifest declares it. */
  readonly channel: string;
  readonly method: string;
  readonly message: "request" | "notification";
  /** On the channel: client-to-server is from the side that plays the client there (MCP Apps: the view) to the other. */
  readonly direction: Direction;
  readonly definition: string;
  readonly paramsDefinition?: string;
  /** A request's result definition, when the extension defines one. */
  readonly result?: string;
  /** The extension that defines it. */
  readonly extension: string;
  readonly origin: Origin;
}

/** A channel other than the MCP connection that an extension declares. */
export interface ChannelNode {
  readonly kind: "channel";
  readonly name: string;
  readonly description: string;
  readonly extension: string;
}

/** Whether a message carries params. */
export type ParamsPresence = "required" | "optional" | "absent";

/** A value of `resultType`. */
export interface ResultTypeNode {
  readonly kind: "result-type";
  readonly value: string;
  readonly doc?: string;
  /** Result definitions that pin this value. */
  readonly definitions: readonly string[];
  readonly origin: Origin;
}

/**
 * How an error code may be used:
 * - `json-rpc`: the JSON-RPC 2.0 standard codes;
 * - `spec`: defined by this revision (in -32020..-32099 from 2026-07-28 on);
 * - `legacy`: defined by an earlier revision only; accept it from older peers, never send it;
 * - `extension`: defined by an extension merged into this model.
 */
export type ErrorCodePolicy = "json-rpc" | "spec" | "legacy" | "extension";

/** A JSON-RPC error code. */
export interface ErrorCodeNode {
  readonly kind: "error-code";
  /** PascalCase name, e.g. `HeaderMismatch`. */
  readonly name: string;
  /** The upstream constant, e.g. `HEADER_MISMATCH`. */
  readonly constant: string;
  readonly code: number;
  readonly policy: ErrorCodePolicy;
  /** Known revisions that define the code. */
  readonly revisions: readonly string[];
  /** The error definition that carries this code, e.g. `UnsupportedProtocolVersionError`. */
  readonly definition?: ErrorDefinitionRef;
  readonly doc?: string;
  readonly origin: Origin;
}

/**
 * How a revision defines an error: as a whole JSON-RPC error response
 * (`{jsonrpc, id, error: {code, message, data}}`) or as the error object alone.
 */
export interface ErrorDefinitionRef {
  readonly name: string;
  readonly form: "response" | "error-object";
  /** Whether the error's `data` is required, optional, or not described. */
  readonly data: ParamsPresence;
}

/** A capability flag or object in ClientCapabilities or ServerCapabilities. */
export interface CapabilityNode {
  readonly kind: "capability";
  readonly side: "client" | "server";
  /** Property path below the capabilities object, e.g. `["tools", "listChanged"]`. */
  readonly path: readonly string[];
  readonly doc?: string;
  readonly deprecated?: string;
  readonly origin: Origin;
}

/** A source file that fed the model, named and hashed for banners. */
export interface ModelSource {
  readonly name: string;
  readonly sha256: string;
}

/** What another known revision defines, for availability tables. */
export interface RevisionSummary {
  readonly revision: string;
  readonly methods: readonly string[];
  readonly notifications: readonly string[];
}

/** An extension merged into the model. */
export interface MergedExtension {
  readonly id: string;
  readonly name: string;
  readonly manifestFile: string;
  /** Definitions it added (copies of core definitions it carries are folded, not listed). */
  readonly definitions: readonly string[];
  /** Its request methods and who sends them. */
  readonly requests: ReadonlyArray<{ readonly method: string; readonly direction: Direction }>;
  /** The params member each of its requests mirrors into Mcp-Name, where the manifest names one (Tasks: taskId). */
  readonly names?: ReadonlyArray<{ readonly method: string; readonly param: string }>;
  /** Its notification methods and who sends them. */
  readonly notifications: ReadonlyArray<{ readonly method: string; readonly direction: Direction }>;
  /** The resultType values it adds. */
  readonly resultTypes: readonly string[];
  /** Its settings under `capabilities.extensions[id]`: the definition and which sides declare it. */
  readonly capability?: {
    /** The definition typing its settings; without one they are the core's open JSONObject. */
    readonly definition?: string;
    readonly sides: ReadonlyArray<"client" | "server">;
  };
  /** What a server does for a client that did not declare it, when the manifest says (default "refuse"). */
  readonly undeclared?: "refuse" | "fallback";
  /** The manifest's negotiation rule, as written (absent: every message needs the client's declaration). */
  readonly negotiation?: Readonly<Record<string, readonly NegotiationCondition[]>>;
}

/** A patch the passes applied, reported to the user. */
export interface AppliedPatch {
  readonly id: string;
  readonly why: string;
  readonly file: string;
}

/**
 * A patch whose test found another value than it expects where it looks:
 * upstream has changed what it fixes (most likely fixed the defect), so it
 * was not applied.
 */
export interface SupersededPatch {
  readonly id: string;
  readonly file: string;
  /** The patch's path (`/$defs/JSONValue/anyOf/2/type`). */
  readonly pointer: string;
  /** What the patch expects there, as JSON. */
  readonly expected: string;
  /** What the schema has there, as JSON. */
  readonly actual: string;
}

/**
 * The JSON-RPC envelope definitions, whatever a revision calls them
 * (2025-11-25 renamed JSONRPCResponse / JSONRPCError to
 * JSONRPCResultResponse / JSONRPCErrorResponse).
 */
export interface Envelopes {
  readonly request?: string;
  readonly notification?: string;
  readonly resultResponse?: string;
  readonly errorResponse?: string;
}

/** The whole model of one revision (plus, later, its extensions). */
export interface McpModel {
  readonly revision: string;
  /** True for registry revisions; false for `--spec <dir>`. */
  readonly known: boolean;
  readonly protocolVersion: string;
  readonly jsonrpcVersion: string;
  readonly dialect: Dialect;
  readonly sources: readonly ModelSource[];
  readonly declarations: readonly Declaration[];
  /** The MCP connection's request methods. */
  readonly requests: readonly RequestNode[];
  /** The MCP connection's notification methods. */
  readonly notifications: readonly NotificationNode[];
  /** Messages of extensions on other channels, by channel then method. */
  readonly channelMessages: readonly ChannelMessageNode[];
  /** The other channels extensions declare, by name. */
  readonly channels: readonly ChannelNode[];
  readonly resultTypes: readonly ResultTypeNode[];
  readonly errorCodes: readonly ErrorCodeNode[];
  readonly capabilities: readonly CapabilityNode[];
  readonly envelopes: Envelopes;
  /** Every known revision with its methods, oldest first (includes this one when known). */
  readonly revisions: readonly RevisionSummary[];
  readonly appliedPatches: readonly AppliedPatch[];
  /** Patches not applied because upstream has changed what they fix. */
  readonly supersededPatches: readonly SupersededPatch[];
  /**
   * The rules over the schema that shaped this model (which resultType each
   * result carries, which methods are MRTR), by the sentence naming each,
   * in the order they ran; only rules that decided something are listed.
   */
  readonly appliedRules: readonly string[];
  /**
   * What the rules inferred from the schema's shapes (which definition is
   * the MRTR result, how results without resultType are told apart), one
   * sentence each, reported as notes for revisions mcp-gen does not know.
   */
  readonly inferences?: readonly string[];
  /** The definitions of the MRTR shape that methods may answer with (`InputRequiredResult`, a draft's `IncompleteResult`). */
  readonly mrtrResults?: readonly string[];
  /** The resultType literal of the revision's MRTR result (`"input_required"`, `"incomplete"`), when it has one. */
  readonly mrtrResultType?: string;
  /** Extensions merged into the model, in order. */
  readonly extensions: readonly MergedExtension[];
  /** What generation could not know (e.g. without schema.ts), reported as notes. */
  readonly unknowns: readonly string[];
}

/** A pure model rewrite, named by the sentence used in logs and test titles. */
export interface Pass {
  readonly name: string;
  readonly run: (model: McpModel, context: PassContext) => McpModel;
}

/** What passes may read besides the model. */
export interface PassContext {
  readonly patches: readonly import("../load/patches.js").PatchFile[];
  readonly definitionsKey: "$defs" | "definitions";
  /** Extensions to merge, in the order given. */
  readonly extensions: readonly import("../load/types.js").ExtensionSource[];
}

/** Convenience: a schema node as an object, or undefined for boolean schemas. */
export function schemaObject(schema: JsonSchema | JsonValue | undefined): JsonObject | undefined {
  return typeof schema === "object" && schema !== null && !Array.isArray(schema)
    ? schema
    : undefined;
}
