/**
 * What a client's request can fail with, besides the server's own errors
 * (core's RemoteError) and what the transport reports (ChannelError).
 */
import { Codes, McpError, RemoteError } from "../core/errors.js";
import { isJsonObject, type JsonRpcErrorObject, type JsonRpcMessage } from "../core/jsonrpc.js";

/** The server answered, but not with what the revision's schema allows for the request. */
export class InvalidResponseError extends McpError {
  constructor(method: string, error: JsonRpcErrorObject) {
    super(
      error.code,
      `${method}: the server's response is not valid: ${error.message}`,
      error.data,
    );
    this.name = "InvalidResponseError";
  }
}

/**
 * `resources/read` named a resource the server does not have: -32602 with
 * the uri in its data (2026-07-28), or -32002, which earlier revisions used
 * and clients still accept (spec: resources, error handling).
 */
export class ResourceNotFoundError extends RemoteError {
  constructor(
    readonly uri: string,
    error: JsonRpcErrorObject,
  ) {
    super(error);
    this.name = "ResourceNotFoundError";
  }
}

/** The server's answer to `resources/read` of `uri` as the error to throw. */
export function readError(uri: unknown, error: JsonRpcErrorObject): RemoteError {
  const data = error.data as { uri?: unknown } | undefined;
  const notFound =
    error.code === Codes.ResourceNotFound ||
    (error.code === Codes.InvalidParams && typeof uri === "string" && data?.uri === uri);
  return notFound && typeof uri === "string"
    ? new ResourceNotFoundError(uri, error)
    : new RemoteError(error);
}

/** A response's error object, when it is an error response. */
export function errorOf(response: JsonRpcMessage): JsonRpcErrorObject | undefined {
  const error = response.error;
  if (!isJsonObject(error)) return undefined;
  return {
    code: typeof error.code === "number" ? error.code : Codes.InternalError,
    message: typeof error.message === "string" ? error.message : "unknown error",
    ...("data" in error ? { data: error.data } : {}),
  };
}
