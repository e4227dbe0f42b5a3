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

/**
 * Who a request acts for, as the transport verified it (an OAuth access
 * token's claims, for HTTP with authorization on). Plain data: protocol
 * code reads it and never sees how it was checked, nor the token itself.
 */
export interface Authorization {
  /** The token's subject (`sub`): the user, or the client acting for itself. */
  readonly subject?: string;
  /** The OAuth client the token was issued to (`client_id`). */
  readonly clientId?: string;
  /** The scopes granted (`scope`, split on spaces). */
  readonly scopes: readonly string[];
  /** When the token expires, in seconds since the epoch (`exp`). */
  readonly expiresAt?: number;
  /** Every verified claim of the token. */
  readonly claims: Readonly<Record<string, unknown>>;
}

/**
 * The one string that names whom a request acts for (its token's subject
 * and client), to compare owners by: the JSON of the pair, so that no two
 * identities give the same key (joined by a space, subject "alice x" with
 * client "y" was subject "alice" with client "x y"). Undefined without
 * authorization.
 */
export function principalKey(authorization: Authorization | undefined): string | undefined {
  if (authorization === undefined) return undefined;
  return JSON.stringify([authorization.subject ?? null, authorization.clientId ?? null]);
}

/**
 * Why a transport aborted a long-lived request (a listen stream) that the
 * server, not the client, ends: it was idle or open too long, or the
 * server is stopping. Set as the reason of `Exchange.signal`; the request
 * then answers with its closing result (spec: subscriptions, graceful
 * closure) instead of going without one as a cancelled request does.
 */
export class EndedByServer extends Error {
  constructor(readonly why: "idle" | "lifetime" | "stopping") {
    super(`the server ended the stream (${why})`);
    this.name = "EndedByServer";
  }
}

/** One message's connection to the transport that carried it. */
export interface Exchange {
  /** The request's own stream, for its notifications (progress, logs, listen notifications). */
  readonly sink: NotificationSink;
  /** Aborted when the client goes away or cancels the request. */
  readonly signal: AbortSignal;
  /** Who the request acts for, when the transport checks authorization; absent otherwise. */
  readonly authorization?: Authorization;
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
