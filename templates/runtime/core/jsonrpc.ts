/**
 * JSON-RPC 2.0 messages as MCP uses them (spec: basic, messages): their
 * shapes, and the responses either side builds. Nothing here knows which
 * side it runs on or what carries the messages.
 */

/** A request id: a string or an integer (MCP never uses null for a request; JSON-RPC discourages fractions and MCP forbids them). */
export type JsonRpcId = string | number;

/** A JSON-RPC error object. */
export interface JsonRpcErrorObject {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

/**
 * A message as it comes off the wire or goes onto it: a JSON object, not
 * yet checked against a schema (the generated modules do that).
 */
export type JsonRpcMessage = Record<string, unknown>;

/** A response: the result of one request, or the error it failed with. */
export type JsonRpcResponse =
  | { readonly jsonrpc: "2.0"; readonly id: JsonRpcId; readonly result: Record<string, unknown> }
  | { readonly jsonrpc: "2.0"; readonly id: JsonRpcId | null; readonly error: JsonRpcErrorObject };

/** Whether a value is a JSON object (not null, not an array). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Whether a value is a request id: a string or an integer. */
export function isJsonRpcId(value: unknown): value is JsonRpcId {
  return typeof value === "string" || (typeof value === "number" && Number.isInteger(value));
}

/** The id of a message when it is one a response may carry (a string or an integer), else undefined. */
export function idOf(message: JsonRpcMessage): JsonRpcId | undefined {
  return isJsonRpcId(message.id) ? message.id : undefined;
}

/** Whether a message is a response (it has no method: a result or an error for a request). */
export function isResponse(message: JsonRpcMessage): boolean {
  return message.method === undefined;
}

/** Whether a message is a request (a method and an id). */
export function isRequest(message: JsonRpcMessage): boolean {
  return message.method !== undefined && "id" in message;
}

/** A message's params when they are an object, else an empty one. */
export function paramsOf(message: JsonRpcMessage): Record<string, unknown> {
  return isJsonObject(message.params) ? message.params : {};
}

/** A message's `params._meta` when it is an object, else undefined. */
export function metaOf(message: JsonRpcMessage): Record<string, unknown> | undefined {
  const meta = paramsOf(message)._meta;
  return isJsonObject(meta) ? meta : undefined;
}

/** The success response to request `id`. */
export function resultResponse(id: JsonRpcId, result: Record<string, unknown>): JsonRpcResponse {
  return { jsonrpc: "2.0", id, result };
}

/** The error response to the request with id `id` (null when the id could not be read, or is not a string or an integer). */
export function errorResponse(id: unknown, error: JsonRpcErrorObject): JsonRpcResponse {
  return { jsonrpc: "2.0", id: isJsonRpcId(id) ? id : null, error };
}
