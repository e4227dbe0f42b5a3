/**
 * Wire framing, the same for every transport and both sides: the text of
 * one frame (an HTTP body, a stdio line) becomes a message, a batch, or
 * the error to answer with; a message becomes text.
 *
 * JSON-RPC batches (an array of messages in one frame) are MCP's only in
 * 2025-03-26: that revision requires receivers to accept them, 2025-06-18
 * removed them, and no later revision has them. So a batch is served only
 * in a session that negotiated 2025-03-26 (spec 2025-03-26: basic,
 * batching; 2025-06-18 changelog).
 */
import { BATCHING_REVISIONS } from "./era.js";
import { Codes, McpError } from "./errors.js";
import { isJsonObject, isJsonRpcId, type JsonRpcMessage } from "./jsonrpc.js";
import { MAX_BATCH_ITEMS, MAX_DEPTH, nestsDeeperThan } from "./limits.js";

/** What a frame holds. */
export type Frame =
  | { readonly kind: "message"; readonly message: JsonRpcMessage }
  | { readonly kind: "batch"; readonly items: readonly unknown[] }
  | { readonly kind: "invalid"; readonly error: McpError };

/**
 * Reads one frame. Text nesting deeper than `maxDepth` is refused before it
 * is parsed (-32600); text that is not JSON is -32700; JSON that is neither
 * an object nor an array is -32600, and so is a message whose id is
 * neither a string, an integer nor null (JSON-RPC 2.0; MCP: basic,
 * requests), answered with id null since it cannot be echoed. The message is not checked against a
 * schema here: the receiving side does that with its generated module.
 */
export function readFrame(text: string, maxDepth = MAX_DEPTH): Frame {
  if (nestsDeeperThan(text, maxDepth))
    return invalidRequest(`the message nests deeper than ${maxDepth} levels`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return {
      kind: "invalid",
      error: new McpError(Codes.ParseError, "Parse error", { reason: (error as Error).message }),
    };
  }
  if (Array.isArray(value)) return { kind: "batch", items: value };
  if (!isJsonObject(value)) return invalidRequest("a message must be a JSON object");
  if (!hasValidId(value)) return invalidRequest("an id must be a string or an integer");
  return { kind: "message", message: value };
}

/** Whether a peer speaking `protocolVersion` may send batches. */
export function allowsBatches(protocolVersion: string | undefined): boolean {
  return protocolVersion !== undefined && BATCHING_REVISIONS.has(protocolVersion);
}

/** The error for a batch where the protocol version in force has none. */
export function batchRefused(): McpError {
  return new McpError(Codes.InvalidRequest, "Invalid Request", {
    reason: "batches are not supported (only a 2025-03-26 session may send them)",
  });
}

/** A batch split into its messages, in order, each item that is no message as the error to answer it with. */
export interface SplitBatch {
  readonly messages: JsonRpcMessage[];
  readonly invalid: McpError[];
  /** Every item in the batch's order: a message, or the error for an item that is not one. */
  readonly entries: Array<JsonRpcMessage | McpError>;
}

/**
 * Checks a batch's shape (JSON-RPC: an empty batch is one Invalid Request;
 * `initialize` may not be part of one, per 2025-03-26; at most `maxItems`
 * messages, MAX_BATCH_ITEMS by default) and splits it into its messages
 * and the errors to answer for the items that are not messages.
 */
export function splitBatch(
  items: readonly unknown[],
  maxItems: number = MAX_BATCH_ITEMS,
): SplitBatch | McpError {
  if (items.length === 0)
    return new McpError(Codes.InvalidRequest, "Invalid Request", { reason: "the batch is empty" });
  if (items.length > maxItems)
    return new McpError(Codes.InvalidRequest, "Invalid Request", {
      reason: `the batch holds ${items.length} messages, more than the ${maxItems} a batch may hold here (MCP_MAX_BATCH_ITEMS); send it in parts`,
    });
  const messages: JsonRpcMessage[] = [];
  const invalid: McpError[] = [];
  const entries: Array<JsonRpcMessage | McpError> = [];
  for (const item of items) {
    const reason = !isJsonObject(item)
      ? "a message must be a JSON object"
      : !hasValidId(item)
        ? "an id must be a string or an integer"
        : undefined;
    if (reason !== undefined) {
      const error = new McpError(Codes.InvalidRequest, "Invalid Request", { reason });
      invalid.push(error);
      entries.push(error);
    } else if ((item as JsonRpcMessage).method === "initialize")
      return new McpError(Codes.InvalidRequest, "Invalid Request", {
        reason: "initialize must not be part of a batch",
      });
    else {
      messages.push(item as JsonRpcMessage);
      entries.push(item as JsonRpcMessage);
    }
  }
  return { messages, invalid, entries };
}

/**
 * The text of one message (for stdio, without its newline). A response
 * whose text cannot be made (JavaScript strings end near 512 MiB, where V8
 * throws RangeError "Invalid string length") becomes an error response to
 * the same request: a result that large is a handler's mistake the peer
 * should hear of, not one that ends the process. Any other message that
 * large throws, to the code that sent it.
 */
export function writeFrame(message: unknown): string {
  try {
    return JSON.stringify(message);
  } catch (error) {
    if (!(error instanceof RangeError) || !isJsonObject(message) || !isAnswer(message)) throw error;
    return JSON.stringify({
      jsonrpc: "2.0",
      id: message.id ?? null,
      error: {
        code: Codes.InternalError,
        message: "Internal error: the response is too large to send",
      },
    });
  }
}

/** Whether a message is a response (a result or an error). */
function isAnswer(message: JsonRpcMessage): boolean {
  return "result" in message || "error" in message;
}

/** Whether a message's id, if it has one, is one JSON-RPC allows: a string, an integer, or null (which answers to an unreadable id). */
function hasValidId(message: JsonRpcMessage): boolean {
  return !("id" in message) || message.id === null || isJsonRpcId(message.id);
}

function invalidRequest(reason: string): Frame {
  return {
    kind: "invalid",
    error: new McpError(Codes.InvalidRequest, "Invalid Request", { reason }),
  };
}
