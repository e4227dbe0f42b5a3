/**
 * The reply to a modern request: a JSON body, unless the request sends a
 * notification before its response (progress, a log); then an event
 * stream that carries the notifications and ends with the response.
 */
import type { NotificationSink, Outcome } from "../core/exchange.js";
import type { JsonRpcMessage } from "../core/jsonrpc.js";
import { EventStream } from "./event-stream.js";
import { emptyReply, jsonReply, streamReply, type HttpReply } from "./http-reply.js";

/** A reply that is a JSON body until a notification makes it an event stream. */
export class LazyReply implements NotificationSink {
  private resolve!: (reply: HttpReply) => void;
  /** The reply, once it is known: at the first notification, or at the outcome. */
  readonly reply = new Promise<HttpReply>((resolve) => (this.resolve = resolve));
  private stream?: EventStream;
  private readonly createdAt = Date.now();

  /**
   * @param keepAliveMs keep-alive comments on the stream, for long-lived ones (listen).
   * @param maxBuffered the most the stream holds for a client that does not read (EventStream).
   */
  constructor(
    private readonly keepAliveMs?: number,
    private readonly maxBuffered?: number,
  ) {}

  /** Sends a notification: the first one starts the event stream. */
  notify(message: JsonRpcMessage): void {
    if (!this.stream) {
      this.stream = new EventStream(this.maxBuffered);
      if (this.keepAliveMs !== undefined) this.stream.keepAliveEvery(this.keepAliveMs);
      this.resolve(streamReply(this.stream));
    }
    this.stream.notify(message);
  }

  /** When the reply last carried a message (its creation, before the first). */
  get lastMessageAt(): number {
    return this.stream?.lastMessageAt ?? this.createdAt;
  }

  /** Ends with the outcome: the last message of the stream, or the body with `status`. */
  finish(outcome: Outcome, status: number): void {
    if (this.stream) {
      if (outcome.response) this.stream.notify(outcome.response);
      this.stream.end();
    } else if (outcome.response) this.resolve(jsonReply(status, outcome.response));
    else this.resolve(emptyReply(status));
  }
}
