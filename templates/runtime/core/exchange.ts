/**
 * What passes between a transport and the side that serves its messages:
 * the transport hands over a message with an Exchange (where notifications
 * for it go, and a signal for when its client goes away); the serving side
 * hands back an Outcome. Neither knows how the other works: the transport
 * decides what an Outcome looks like on its wire (for HTTP, which status).
 */
import type { JsonRpcMessage, JsonRpcResponse } from "./jsonrpc.js";

/** Where the messages that belong to one incoming request go: its own stream. */
export interface NotificationSink {
  notify(message: JsonRpcMessage): void;
}

/** One message's connection to the transport that carried it. */
export interface Exchange {
  /** The request's own stream, for its notifications (progress, logs, listen notifications). */
  readonly sink: NotificationSink;
  /** Aborted when the client goes away or cancels the request. */
  readonly signal: AbortSignal;
}

/** What serving one message came to. */
export interface Outcome {
  /**
   * The response to send. None for a notification or an answer, and for a
   * request that ended without one (a listen stream the client closed).
   */
  readonly response?: JsonRpcResponse;
  /**
   * True when the message was refused before any handler ran: it was
   * malformed, named an unsupported version, or asked for a method that
   * is not served. False or absent when a handler answered, even with an
   * error.
   */
  readonly refused?: boolean;
}
