/**
 * Where a protocol outcome becomes an HTTP status: the only place in the
 * runtime that knows both. Protocol code answers with JSON-RPC errors and
 * says whether it refused a message before any handler ran; this module
 * applies the statuses Streamable HTTP requires.
 */
import type { Era } from "../core/era.js";
import { Codes } from "../core/errors.js";
import type { Outcome } from "../core/exchange.js";

/**
 * Errors whose status 2026-07-28 fixes wherever they arise (spec:
 * Streamable HTTP, request metadata and server validation; basic,
 * `_meta`): -32601 is 404; header mismatches, missing client capabilities
 * and unsupported versions are 400.
 */
const MODERN_STATUS: ReadonlyMap<number, number> = new Map([
  [Codes.MethodNotFound, 404],
  [Codes.HeaderMismatch, 400],
  [Codes.MissingRequiredClientCapability, 400],
  [Codes.UnsupportedProtocolVersion, 400],
]);

/**
 * The status of a message the server refused before any handler ran:
 * 404 for an unknown method, 500 for its own failure, 400 for anything
 * malformed (spec: basic, "a request missing any required field is
 * malformed ... 400 Bad Request").
 */
export function refusalStatus(code: number): number {
  if (code === Codes.MethodNotFound) return 404;
  if (code === Codes.InternalError) return 500;
  return 400;
}

/**
 * The status of an outcome in `era`: 202 when there is nothing to answer
 * (a notification); the status above for a refused message and, in the
 * modern era, for the errors whose status the spec fixes; 200 for a result
 * and for an error a handler answered with (legacy Streamable HTTP answers
 * every served request with 200).
 */
export function statusOf(era: Era, outcome: Outcome): number {
  const response = outcome.response;
  if (response === undefined) return 202;
  if (!("error" in response)) return 200;
  const code = response.error.code;
  if (era === "modern") {
    const fixed = MODERN_STATUS.get(code);
    if (fixed !== undefined) return fixed;
  }
  return outcome.refused ? refusalStatus(code) : 200;
}
