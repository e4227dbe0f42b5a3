/**
 * A server-sent event stream (spec: Streamable HTTP, SSE): one JSON-RPC
 * message per `data:` line, buffered until the stream is attached to the
 * wire.
 */
import type { NotificationSink } from "../core/exchange.js";
import type { JsonRpcMessage } from "../core/jsonrpc.js";
import { writeFrame } from "../core/framing.js";

/** A server-sent event stream. */
export class EventStream implements NotificationSink {
  private write?: (chunk: string) => void;
  private finish?: () => void;
  private readonly queue: string[] = [];
  private ended = false;
  private keepAlive?: NodeJS.Timeout;

  /** Sends one message. */
  notify(message: JsonRpcMessage): void {
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
    if (this.finish) this.finish();
  }

  /** Connects the stream to the wire; what was sent before is flushed first. */
  attach(write: (chunk: string) => void, finish: () => void): void {
    this.write = write;
    this.finish = finish;
    for (const chunk of this.queue.splice(0)) write(chunk);
    if (this.ended) finish();
  }

  private push(chunk: string): void {
    if (this.ended) return;
    if (this.write) this.write(chunk);
    else this.queue.push(chunk);
  }
}
