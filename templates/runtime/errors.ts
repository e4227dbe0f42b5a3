/**
 * Errors a handler (or the runtime) throws to answer with a JSON-RPC error.
 * The HTTP transport maps some codes to statuses the Streamable HTTP
 * transport requires (400 for header, version and capability errors; 404
 * for unknown methods).
 */
import type { JsonRpcErrorObject } from "./protocol.js";

/** JSON-RPC and MCP error codes the runtime itself uses. */
export const Codes = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  HeaderMismatch: -32020,
  MissingRequiredClientCapability: -32021,
  UnsupportedProtocolVersion: -32022,
} as const;

/** An error to send as a JSON-RPC error response. */
export class McpError extends Error {
  readonly code: number;
  readonly data?: unknown;
  /** The HTTP status to answer with on Streamable HTTP (JSON-RPC errors are 200 unless the spec says otherwise). */
  readonly httpStatus: number;

  constructor(code: number, message: string, data?: unknown, httpStatus = 200) {
    super(message);
    this.name = "McpError";
    this.code = code;
    if (data !== undefined) this.data = data;
    this.httpStatus = httpStatus;
  }

  /** The error object to send. */
  toJSON(): JsonRpcErrorObject {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}

/** -32602 with the failing path, as parameter validation reports it. */
export function invalidParams(message: string, data?: unknown): McpError {
  return new McpError(Codes.InvalidParams, message, data);
}

/** -32021: the request needs a client capability this request's clientCapabilities do not declare. */
export function missingCapability(
  requiredCapabilities: Record<string, unknown>,
  message: string,
): McpError {
  return new McpError(
    Codes.MissingRequiredClientCapability,
    message,
    { requiredCapabilities },
    400,
  );
}

/**
 * Thrown by a handler stub that has not been written yet. Tools answer
 * with a tool error result (isError), everything else with -32603, so an
 * unfilled handler never crashes the server.
 */
export class NotImplemented extends Error {
  constructor(readonly what: string) {
    super(`${what} is not implemented yet`);
    this.name = "NotImplemented";
  }
}
