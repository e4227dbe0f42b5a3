/**
 * Errors that answer a request with a JSON-RPC error. They carry a code,
 * a message and data, nothing about how a transport reports them: the HTTP
 * transport alone decides which status goes with which code
 * (transport/status.ts).
 */
import type { JsonRpcErrorObject } from "./jsonrpc.js";

/** JSON-RPC and MCP error codes the runtime itself uses. */
export const Codes = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** Resource not found, as 2025-11-25 and earlier answer it (2026-07-28 uses -32602). */
  ResourceNotFound: -32002,
  HeaderMismatch: -32020,
  MissingRequiredClientCapability: -32021,
  UnsupportedProtocolVersion: -32022,
} as const;

/** An error to send as a JSON-RPC error response. */
export class McpError extends Error {
  readonly code: number;
  readonly data?: unknown;

  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.name = "McpError";
    this.code = code;
    if (data !== undefined) this.data = data;
  }

  /** The error object to send. */
  toJSON(): JsonRpcErrorObject {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}

/** An error the peer answered one of our requests with: its code, message and data. */
export class RemoteError extends McpError {
  constructor(error: JsonRpcErrorObject) {
    super(error.code, error.message, error.data);
    this.name = "RemoteError";
  }
}

/**
 * The mark of an error a generated module's builders throw (the typed
 * builders of an extension's error codes, `jobsErrors.jobNotFound(...)`):
 * generated code does not import the runtime, so the two agree on this
 * registered symbol instead of a class.
 */
export const ERROR_BRAND: unique symbol = Symbol.for("mcp-gen.json-rpc-error");

/**
 * The JSON-RPC error `error` stands for: an McpError, or an Error marked
 * with ERROR_BRAND carrying an integer code and a message; undefined for
 * anything else (a bug, answered -32603).
 */
export function asMcpError(error: unknown): McpError | undefined {
  if (error instanceof McpError) return error;
  if (!(error instanceof Error) || (error as { [ERROR_BRAND]?: unknown })[ERROR_BRAND] !== true)
    return undefined;
  const { code, data } = error as Error & { code?: unknown; data?: unknown };
  return typeof code === "number" && Number.isInteger(code)
    ? new McpError(code, error.message, data)
    : undefined;
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
  return new McpError(Codes.MissingRequiredClientCapability, message, { requiredCapabilities });
}

/** -32601 for `method`. */
export function methodNotFound(method: string): McpError {
  return new McpError(Codes.MethodNotFound, "Method not found", { method });
}

/**
 * Something another process handed over (a record or message read from a
 * shared store) that is not what it should be, dropped where it was found.
 * Nothing in this process went wrong, so it is reported in one line: its
 * stack is its message.
 */
export class ForeignDataError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ForeignDataError";
    this.stack = `${this.name}: ${message}`;
  }
}
