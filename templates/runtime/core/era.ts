/**
 * The two eras of MCP and how to tell a message's era (spec: versioning,
 * backward compatibility). From 2026-07-28 on ("modern"), every request
 * carries its protocol version and the client's capabilities in
 * `params._meta` and stands alone; up to 2025-11-25 ("legacy"), a client
 * opens with `initialize` and its later messages belong to that session.
 * One endpoint or one stdio stream can serve both.
 *
 * The revisions the runtime knows, by what it does differently for them,
 * are listed here and nowhere else (FIRST_MODERN, LEGACY_REVISIONS,
 * BATCHING_REVISIONS). A new revision that changes nothing at run time
 * needs no line: a modern one is any from FIRST_MODERN on, and the legacy
 * era is closed.
 */
import { Codes, McpError } from "./errors.js";
import { isJsonObject, metaOf, type JsonRpcMessage } from "./jsonrpc.js";

/** An era: `modern` (2026-07-28 on, stateless) or `legacy` (2025-11-25 and earlier, sessions). */
export type Era = "modern" | "legacy";

/** The first revision whose requests carry `_meta` instead of a session. */
export const FIRST_MODERN = "2026-07-28";

/**
 * The legacy revisions, newest first: those a legacy client may ask for in
 * `initialize` (a server answers one it does not know with its legacy
 * module's revision), and the first of them the one a project's legacy
 * module is generated for.
 */
export const LEGACY_REVISIONS: readonly string[] = [
  "2025-11-25",
  "2025-06-18",
  "2025-03-26",
  "2024-11-05",
];

/** The revisions whose JSON-RPC allows batches (see framing.ts). */
export const BATCHING_REVISIONS: ReadonlySet<string> = new Set(["2025-03-26"]);

/** `_meta` keys of the modern envelope and of results (spec: basic, `_meta`). */
export const META = {
  protocolVersion: "io.modelcontextprotocol/protocolVersion",
  clientCapabilities: "io.modelcontextprotocol/clientCapabilities",
  clientInfo: "io.modelcontextprotocol/clientInfo",
  logLevel: "io.modelcontextprotocol/logLevel",
  serverInfo: "io.modelcontextprotocol/serverInfo",
  subscriptionId: "io.modelcontextprotocol/subscriptionId",
} as const;

/** The client capabilities of a modern request's `_meta` (none: an empty object). */
export function capabilitiesOf(meta: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const capabilities = meta[META.clientCapabilities];
  return isJsonObject(capabilities) ? capabilities : {};
}

/** Whether a protocol version (such as a transport's version header) names a modern revision. */
export function isModernVersion(version: string | undefined): boolean {
  return version !== undefined && version >= FIRST_MODERN;
}

/** Whether a message claims the modern era: its `params._meta` names a protocol version. */
export function claimsModern(message: JsonRpcMessage): boolean {
  const meta = metaOf(message);
  return meta !== undefined && META.protocolVersion in meta;
}

/** A message's era, or the error refusing it. */
export type EraVerdict = { readonly era: Era } | { readonly refused: McpError };

/** What besides the message decides its era. */
export interface EraContext {
  /** The protocol version the transport declared for the message (HTTP: MCP-Protocol-Version), if any. */
  readonly declaredVersion?: string;
  /** Whether the receiver serves the legacy era at all. */
  readonly servesLegacy: boolean;
}

/**
 * Which era a message belongs to. The `_meta` envelope claims the modern
 * era; a response (to a request the server sent on a session) and any
 * other message are legacy, if the receiver serves legacy clients and the
 * transport did not declare a modern version for it. `initialize` under a
 * declared modern version is a header mismatch (-32020); a message
 * without the envelope where only the modern era is possible lacks a
 * required field (-32602).
 */
export function detectEra(message: JsonRpcMessage, context: EraContext): EraVerdict {
  if (claimsModern(message)) return { era: "modern" };
  if (message.method === undefined) return { era: "legacy" };
  const declaredModern = isModernVersion(context.declaredVersion);
  if (message.method === "initialize" && declaredModern)
    return {
      refused: new McpError(
        Codes.HeaderMismatch,
        "Header mismatch: MCP-Protocol-Version names a version without initialize",
      ),
    };
  if (declaredModern || !context.servesLegacy) return { refused: missingEnvelope() };
  return { era: "legacy" };
}

/** -32602 for a request without the modern envelope where one is required. */
export function missingEnvelope(): McpError {
  return new McpError(
    Codes.InvalidParams,
    `Invalid params: missing _meta["${META.protocolVersion}"]`,
    { path: `/params/_meta/${META.protocolVersion.replace("/", "~1")}` },
  );
}
