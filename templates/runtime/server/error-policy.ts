/**
 * Which error codes a server may send (spec: basic, Error Codes). A
 * handler's McpError goes out with its code when the revision served
 * defines that code for sending (its `ErrorCode`, with the codes of the
 * extensions merged into the module) or when the code lies outside the
 * JSON-RPC reserved range -32768..-32000, the space the spec leaves to
 * applications. Any other code becomes -32603, and the cause goes to
 * `onError`:
 *
 * - -32000..-32019: the legacy sub-range; new implementations SHOULD NOT
 *   use it, and receivers MUST NOT assume any meaning for it;
 * - -32020..-32099: reserved for the MCP specification; implementations
 *   MUST NOT emit a code from it that the specification does not define;
 * - codes of earlier revisions kept reserved (-32002, -32042 for
 *   2026-07-28): implementations MUST NOT emit them (`receiveOnly` in the
 *   module's ERROR_CODES);
 * - the rest of -32768..-32000: JSON-RPC 2.0 reserves it for predefined
 *   errors.
 */
import { Codes, asMcpError } from "../core/errors.js";
import type { JsonRpcErrorObject } from "../core/jsonrpc.js";
import type { ProtocolModule } from "../core/protocol.js";

/** JSON-RPC 2.0 reserves -32768..-32000 for predefined and server errors. */
const RESERVED = { min: -32768, max: -32000 } as const;

/** Codes the runtime may send when a module predates ERROR_CODES: JSON-RPC's own. */
const JSON_RPC_CODES: ReadonlySet<number> = new Set([
  Codes.ParseError,
  Codes.InvalidRequest,
  Codes.MethodNotFound,
  Codes.InvalidParams,
  Codes.InternalError,
]);

/** Why `code` may not be sent in `protocol`'s revision, or undefined when it may. */
export function unsendableCode(protocol: ProtocolModule, code: number): string | undefined {
  if (!Number.isInteger(code)) return `${code} is not an integer (JSON-RPC error codes are)`;
  if (code < RESERVED.min || code > RESERVED.max) return undefined;
  const codes = protocol.ERROR_CODES;
  const info = codes && Object.hasOwn(codes, code) ? codes[code] : undefined;
  if (info === undefined)
    return codes === undefined && JSON_RPC_CODES.has(code)
      ? undefined
      : `${code} is ${rangeOf(code)} and ${protocol.PROTOCOL_VERSION} defines no such code (fix: use a code of ErrorCode, an extension's code, or an application code outside -32768..-32000)`;
  if (info.receiveOnly)
    return `${code} (${info.name}) is defined only by earlier revisions: ${protocol.PROTOCOL_VERSION} receivers accept it from older peers, but it must never be sent`;
  return undefined;
}

function rangeOf(code: number): string {
  if (code >= -32019)
    return "in -32000..-32019, the legacy sub-range new implementations must not use";
  if (code >= -32099) return "in -32020..-32099, reserved for codes the MCP specification defines";
  return "in JSON-RPC's reserved range -32768..-32000";
}

/**
 * What a request whose handler failed answers with: an McpError (or a
 * generated builder's error) as thrown when its code may be sent in the
 * revision `protocol` serves; anything else is a bug, reported to
 * `onError` and answered with -32603 without internals.
 */
export function errorToSend(
  protocol: ProtocolModule,
  onError: (error: unknown, where: string) => void,
  where: string,
  error: unknown,
): JsonRpcErrorObject {
  const known = asMcpError(error);
  if (known === undefined) {
    onError(error, where);
    return { code: Codes.InternalError, message: "Internal error" };
  }
  const problem = unsendableCode(protocol, known.code);
  if (problem === undefined) return known.toJSON();
  onError(
    new Error(`${where} answered with error code ${problem}; sent -32603 instead`, {
      cause: error,
    }),
    where,
  );
  return { code: Codes.InternalError, message: "Internal error" };
}
