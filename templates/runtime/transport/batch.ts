/**
 * The answers to a JSON-RPC batch (2025-03-26 sessions) on one event
 * stream, in the order of the batch, written only as fast as the client
 * reads them: a batch of many requests whose answers were all written at
 * once filled the stream's buffer before its client read a byte, and the
 * stream was closed with every answer lost.
 */
import { Codes, McpError } from "../core/errors.js";
import { errorResponse, type JsonRpcMessage, type JsonRpcResponse } from "../core/jsonrpc.js";
import type { EventStream } from "./event-stream.js";

/** How many messages of a batch are served at once. */
export const BATCH_WINDOW = 8;

/**
 * Serves `entries` (a batch's messages, and the errors for its items that
 * are none) with at most {@link BATCH_WINDOW} under way, and writes each
 * answer to `stream` in the batch's order once the stream has room.
 * Nothing new starts once `signal` is aborted (the client went away).
 */
export async function answerInOrder(
  entries: ReadonlyArray<JsonRpcMessage | McpError>,
  serve: (message: JsonRpcMessage) => Promise<JsonRpcResponse | undefined>,
  stream: EventStream,
  signal: AbortSignal,
): Promise<void> {
  const underWay: Array<Promise<JsonRpcResponse | undefined>> = [];
  let next = 0;
  const start = () => {
    while (underWay.length < BATCH_WINDOW && next < entries.length && !signal.aborted) {
      const entry = entries[next++]!;
      underWay.push(
        entry instanceof McpError
          ? Promise.resolve(errorResponse(null, entry.toJSON()))
          : // A message whose serving failed is answered, not left to reject unobserved.
            serve(entry).catch(() =>
              "id" in entry
                ? errorResponse(entry.id, { code: Codes.InternalError, message: "Internal error" })
                : undefined,
            ),
      );
    }
  };
  start();
  while (underWay.length > 0) {
    const response = await underWay.shift()!;
    if (response !== undefined) {
      await stream.room();
      stream.notify(response);
    }
    start();
  }
}
