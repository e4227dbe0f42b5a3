/**
 * A server-sent event stream (spec: Streamable HTTP, SSE): one JSON-RPC
 * message per `data:` line, buffered until the stream is attached to the
 * wire. What a stream holds for its client is bounded: a client that does
 * not read falls behind, and once what waits for it passes the limit the
 * stream is closed rather than let memory grow (the client reconnects or
 * retries; a notification it missed is the price of not reading).
 */
import type { NotificationSink } from "../core/exchange.js";
import type { JsonRpcMessage } from "../core/jsonrpc.js";
import { writeFrame } from "../core/framing.js";

/** The default bound on what a stream holds for a client that does not read: 1 MiB of text. */
export const STREAM_BUFFER_DEFAULT = 1024 * 1024;

/** How often a writer waiting for room looks again. */
const ROOM_POLL_MS = 5;

/** The wire a stream is attached to. */
export interface StreamWire {
  /** Writes a chunk. */
  write(chunk: string): void;
  /** Ends the response normally. */
  finish(): void;
  /** What the wire holds that the client has not taken yet, in bytes or characters. */
  buffered(): number;
  /** Closes the connection at once: the client fell too far behind. */
  abort(): void;
}

/** A server-sent event stream. */
export class EventStream implements NotificationSink {
  private wire?: StreamWire;
  private readonly queue: string[] = [];
  private queued = 0;
  private ended = false;
  private keepAlive?: NodeJS.Timeout;
  private readonly onEnd: Array<() => void> = [];
  /** Whether the stream was closed because its client fell too far behind. */
  overflowed = false;
  /** When the stream last carried a message, keep-alive comments aside (ms since the epoch). */
  lastMessageAt = Date.now();

  /** @param maxBuffered the most the stream holds for its client before it is closed (characters). */
  constructor(private readonly maxBuffered: number = STREAM_BUFFER_DEFAULT) {}

  /** Sends one message. */
  notify(message: JsonRpcMessage): void {
    this.lastMessageAt = Date.now();
    this.push(`event: message\ndata: ${writeFrame(message)}\n\n`);
  }

  /** Sends a comment line every `ms`, so intermediaries keep a quiet stream open. */
  keepAliveEvery(ms: number): void {
    this.keepAlive = setInterval(() => this.push(":\n\n"), ms);
    this.keepAlive.unref();
  }

  /** Ends the stream. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    clearInterval(this.keepAlive);
    this.wire?.finish();
    this.ending();
  }

  /** Calls `callback` once the stream ends, whoever ends it (at once when it has ended). */
  whenEnded(callback: () => void): void {
    if (this.ended) callback();
    else this.onEnd.push(callback);
  }

  private ending(): void {
    for (const callback of this.onEnd.splice(0)) callback();
  }

  /** Connects the stream to the wire; what was sent before is flushed first. */
  attach(wire: StreamWire): void {
    this.wire = wire;
    if (this.overflowed) {
      wire.abort();
      return;
    }
    for (const chunk of this.queue.splice(0)) wire.write(chunk);
    this.queued = 0;
    if (this.ended) wire.finish();
  }

  /**
   * Resolves once what waits for the client is at most half the limit, or
   * the stream ended: a writer of many messages (a batch's answers) waits
   * for the client to read instead of overflowing the stream.
   */
  async room(): Promise<void> {
    while (!this.ended && this.waiting() > this.maxBuffered / 2)
      await new Promise((resolve) => setTimeout(resolve, ROOM_POLL_MS));
  }

  /** What the client has not taken yet. */
  private waiting(): number {
    return this.wire ? this.wire.buffered() : this.queued;
  }

  private push(chunk: string): void {
    if (this.ended) return;
    const waiting = this.waiting();
    // One message larger than the limit still goes to a client that has read everything before it.
    if (waiting > 0 && waiting + chunk.length > this.maxBuffered) {
      this.overflow();
      return;
    }
    if (this.wire) this.wire.write(chunk);
    else {
      this.queue.push(chunk);
      this.queued += chunk.length;
    }
  }

  /** The client is too far behind: drop what waits and close the connection. */
  private overflow(): void {
    this.overflowed = true;
    this.ended = true;
    clearInterval(this.keepAlive);
    this.queue.length = 0;
    this.queued = 0;
    this.wire?.abort();
    this.ending();
  }
}
