/**
 * Reading a server-sent event stream (the WHATWG event stream format, which
 * Streamable HTTP uses for responses): lines end in CRLF, LF or CR; a blank
 * line dispatches the event built so far; `data` lines accumulate; `id`
 * sets the last event id (what a 2025-era client resumes from); `retry`
 * sets how long to wait before reconnecting; lines starting with `:` are
 * comments (keep-alives).
 *
 * The stream comes from a server this process does not control, so what
 * it may make the reader hold is bounded: a line longer than
 * `maxLineBytes`, or an event whose lines add up to more than
 * `maxEventBytes`, ends the reading with EventStreamTooLarge. Lines are
 * split on the line-end bytes before they are decoded, and each byte is
 * looked at once, so reading is linear in the stream's size however it is
 * cut into chunks.
 */

/** One event of a stream. */
export interface SseEvent {
  /** The event type (`message` unless the stream named another). */
  readonly event: string;
  /** The event's data lines, joined with newlines. */
  readonly data: string;
}

/** What a stream has said about resuming it, updated as events arrive. */
export interface SseResumption {
  /** The last event id the stream gave (sent back as Last-Event-ID). */
  lastEventId?: string;
  /** The reconnection time the stream asked for, in milliseconds. */
  retryMs?: number;
}

/** How much of a stream the reader may hold at once. */
export interface SseLimits {
  /** The longest line, in bytes without its line end (default: no limit). */
  readonly maxLineBytes?: number;
  /** The most bytes the lines of one event may add up to (default: no limit). */
  readonly maxEventBytes?: number;
}

/** A stream that passed one of the reader's limits. */
export class EventStreamTooLarge extends Error {
  override readonly name = "EventStreamTooLarge";
  constructor(
    /** Which limit: `maxLineBytes` or `maxEventBytes`. */
    readonly limit: "maxLineBytes" | "maxEventBytes",
    /** Its value, in bytes. */
    readonly bytes: number,
  ) {
    super(
      limit === "maxLineBytes"
        ? `a line of the event stream is longer than ${bytes} bytes (maxEventLineBytes)`
        : `an event of the event stream is larger than ${bytes} bytes (maxEventBytes)`,
    );
  }
}

const LF = 10;
const CR = 13;

/**
 * The events of a stream, in order; `resumption` is updated as `id` and
 * `retry` fields arrive (also for events without data, such as the priming
 * event a 2025-era server sends first). Throws EventStreamTooLarge past a
 * limit.
 */
export async function* readEvents(
  chunks: AsyncIterable<Uint8Array | string>,
  resumption: SseResumption = {},
  limits: SseLimits = {},
): AsyncGenerator<SseEvent> {
  const maxLine = limits.maxLineBytes ?? Infinity;
  const maxEvent = limits.maxEventBytes ?? Infinity;
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  /** The start of a line whose end has not arrived, and its size. */
  let partial: Uint8Array[] = [];
  let partialBytes = 0;
  /** A CR ended the last chunk: an LF that starts the next one belongs to it. */
  let skipLeadingLf = false;
  let data: string[] = [];
  let event = "";
  let sawData = false;
  let eventBytes = 0;

  const field = (line: string): SseEvent | undefined => {
    if (line === "") {
      const dispatched = sawData ? { event: event || "message", data: data.join("\n") } : undefined;
      data = [];
      event = "";
      sawData = false;
      eventBytes = 0;
      return dispatched;
    }
    if (line.startsWith(":")) return undefined;
    const colon = line.indexOf(":");
    const name = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (name === "data") {
      data.push(value);
      sawData = true;
    } else if (name === "event") event = value;
    else if (name === "id" && !value.includes("\0")) resumption.lastEventId = value;
    else if (name === "retry" && /^\d+$/.test(value)) resumption.retryMs = Number(value);
    return undefined;
  };

  /** The line made of what was held and `tail`, checked against the event's limit. */
  const lineOf = (tail: Uint8Array): string => {
    const bytes = partialBytes + tail.length;
    const whole = partial.length === 0 ? tail : concat([...partial, tail], bytes);
    partial = [];
    partialBytes = 0;
    // Comments (keep-alives) are never held, so they do not count toward an event.
    if (whole.length > 0 && whole[0] !== 0x3a /* : */) {
      eventBytes += bytes;
      if (eventBytes > maxEvent) throw new EventStreamTooLarge("maxEventBytes", maxEvent);
    }
    return decoder.decode(whole);
  };

  for await (const chunk of chunks) {
    const bytes = typeof chunk === "string" ? encoder.encode(chunk) : chunk;
    let start = 0;
    if (skipLeadingLf && bytes.length > 0) {
      if (bytes[0] === LF) start = 1;
      skipLeadingLf = false;
    }
    for (let i = start; i < bytes.length; i++) {
      const c = bytes[i]!;
      if (c !== LF && c !== CR) continue;
      if (partialBytes + (i - start) > maxLine)
        throw new EventStreamTooLarge("maxLineBytes", maxLine);
      const dispatched = field(lineOf(bytes.subarray(start, i)));
      if (c === CR) {
        if (i + 1 < bytes.length) {
          if (bytes[i + 1] === LF) i++;
        } else skipLeadingLf = true;
      }
      start = i + 1;
      if (dispatched) yield dispatched;
    }
    if (start < bytes.length) {
      const rest = bytes.subarray(start);
      partialBytes += rest.length;
      if (partialBytes > maxLine) throw new EventStreamTooLarge("maxLineBytes", maxLine);
      // A copy: the chunk's buffer may be reused by whoever produced it.
      partial.push(rest.slice());
    }
  }
  // A stream that ends mid-event discards it (the format dispatches only on a blank line).
}

function concat(parts: readonly Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
