/**
 * The request and the reply of the Fetch-style HTTP core, whatever server
 * carries them (node.ts, fetch.ts), and the replies it builds.
 */
import type { McpError } from "../core/errors.js";
import { errorResponse, type JsonRpcMessage } from "../core/jsonrpc.js";
import type { EventStream } from "./event-stream.js";

/** A request as the core sees it. */
export interface HttpRequest {
  readonly method: string;
  readonly path: string;
  /** The query string, without its `?` (empty when there is none). */
  readonly query?: string;
  /** A header's value by case-insensitive name. */
  header(name: string): string | undefined;
  readonly body: string;
  /** Aborted when the client goes away. */
  readonly signal: AbortSignal;
  /**
   * The client's address, when the server knows it (node:http does), to
   * bound what one client holds when authorization does not say who it is.
   */
  readonly peer?: string;
  /** Filled by the core with what an access log may show of the request (never its arguments). */
  readonly note?: AccessNote;
}

/** What an access log may show of a request: its JSON-RPC method and the tool or prompt it names. */
export interface AccessNote {
  method?: string;
  name?: string;
}

/** What the core answers: a complete body, or an event stream. */
export type HttpReply =
  | {
      readonly kind: "body";
      readonly status: number;
      readonly headers: Readonly<Record<string, string>>;
      readonly body: string;
    }
  | {
      readonly kind: "stream";
      readonly status: number;
      readonly headers: Readonly<Record<string, string>>;
      readonly stream: EventStream;
    };

const JSON_HEADERS = { "content-type": "application/json" };
/** Headers of an event stream (spec: Streamable HTTP; X-Accel-Buffering keeps proxies from buffering it). */
export const SSE_HEADERS = {
  "content-type": "text/event-stream",
  "cache-control": "no-cache, no-transform",
  "x-accel-buffering": "no",
};

/** A JSON body. */
export function jsonReply(
  status: number,
  message: unknown,
  headers: Readonly<Record<string, string>> = {},
): HttpReply {
  return {
    kind: "body",
    status,
    headers: { ...JSON_HEADERS, ...headers },
    body: JSON.stringify(message),
  };
}

/** A JSON-RPC error response as a JSON body. */
export function errorReply(status: number, id: unknown, error: McpError): HttpReply {
  return jsonReply(status, errorResponse(id, error.toJSON()));
}

/** A reply without a body. */
export function emptyReply(
  status: number,
  headers: Readonly<Record<string, string>> = {},
): HttpReply {
  return { kind: "body", status, headers, body: "" };
}

/** An event stream, answered with 200. */
export function streamReply(
  stream: EventStream,
  headers: Readonly<Record<string, string>> = {},
): HttpReply {
  return { kind: "stream", status: 200, headers: { ...SSE_HEADERS, ...headers }, stream };
}

/** What the access log shows of a message: its method, and the tool or prompt it names (never arguments). */
export function noteOf(message: JsonRpcMessage, note: AccessNote): void {
  if (typeof message.method === "string") note.method = message.method;
  const name = (message.params as { name?: unknown } | undefined)?.name;
  if (
    typeof name === "string" &&
    (message.method === "tools/call" || message.method === "prompts/get")
  )
    note.name = name;
}
