/**
 * Reading a server-sent event stream (the WHATWG event stream format, which
 * Streamable HTTP uses for responses): lines end in CRLF, LF or CR; a blank
 * line dispatches the event built so far; `data` lines accumulate; `id`
 * sets the last event id (what a 2025-era client resumes from); `retry`
 * sets how long to wait before reconnecting; lines starting with `:` are
 * comments (keep-alives).
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

/**
 * The events of a stream, in order; `resumption` is updated as `id` and
 * `retry` fields arrive (also for events without data, such as the priming
 * event a 2025-era server sends first).
 */
export async function* readEvents(
  chunks: AsyncIterable<Uint8Array | string>,
  resumption: SseResumption = {},
): AsyncGenerator<SseEvent> {
  const decoder = new TextDecoder();
  let buffer = "";
  let data: string[] = [];
  let event = "";
  let sawData = false;
  let skipLeadingLf = false;
  const field = (line: string): SseEvent | undefined => {
    if (line === "") {
      const dispatched = sawData ? { event: event || "message", data: data.join("\n") } : undefined;
      data = [];
      event = "";
      sawData = false;
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
  for await (const chunk of chunks) {
    buffer += typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
    let start = 0;
    for (let i = 0; i < buffer.length; i++) {
      const c = buffer.charCodeAt(i);
      if (c !== 10 && c !== 13) continue;
      if (c === 10 && skipLeadingLf && i === start) {
        skipLeadingLf = false;
        start = i + 1;
        continue;
      }
      skipLeadingLf = false;
      const dispatched = field(buffer.slice(start, i));
      if (c === 13) {
        if (i + 1 < buffer.length) {
          if (buffer.charCodeAt(i + 1) === 10) i++;
        } else skipLeadingLf = true;
      }
      start = i + 1;
      if (dispatched) yield dispatched;
    }
    buffer = buffer.slice(start);
  }
  // A stream that ends mid-event discards it (the format dispatches only on a blank line).
}
