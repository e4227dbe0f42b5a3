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
import { MAX_DEPTH, nestsDeeperThan } from "./limits.js";

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

/**
 * Checks a batch's shape (JSON-RPC: an empty batch is one Invalid Request;
 * `initialize` may not be part of one, per 2025-03-26) and splits it into
 * its messages and the errors to answer for the items that are not
 * messages.
 */
export function splitBatch(
  items: readonly unknown[],
): { readonly messages: JsonRpcMessage[]; readonly invalid: McpError[] } | McpError {
  if (items.length === 0)
    return new McpError(Codes.InvalidRequest, "Invalid Request", { reason: "the batch is empty" });
  const messages: JsonRpcMessage[] = [];
  const invalid: McpError[] = [];
  for (const item of items) {
    if (!isJsonObject(item))
      invalid.push(
        new McpError(Codes.InvalidRequest, "Invalid Request", {
          reason: "a message must be a JSON object",
        }),
      );
    else if (!hasValidId(item))
      invalid.push(
        new McpError(Codes.InvalidRequest, "Invalid Request", {
          reason: "an id must be a string or an integer",
        }),
      );
    else if (item.method === "initialize")
      return new McpError(Codes.InvalidRequest, "Invalid Request", {
        reason: "initialize must not be part of a batch",
      });
    else messages.push(item);
  }
  return { messages, invalid };
}

/** The text of one message (for stdio, without its newline). */
export function writeFrame(message: unknown): string {
  return JSON.stringify(message);
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
