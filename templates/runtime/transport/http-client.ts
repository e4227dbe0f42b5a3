/**
 * Streamable HTTP, the client half (spec: Streamable HTTP). Every message
 * is a POST to the MCP endpoint, answered with a JSON body or an event
 * stream that carries the request's notifications before its response.
 *
 * - Modern requests (2026-07-28, the `_meta` envelope) carry the Mcp-*
 *   headers their body calls for (core/headers): MCP-Protocol-Version,
 *   Mcp-Method, Mcp-Name and the tool's `Mcp-Param-*`.
 * - Legacy sessions (2025-11-25 and earlier) carry Mcp-Session-Id and the
 *   negotiated MCP-Protocol-Version, open the standalone GET stream on which
 *   the server sends requests of its own, and resume an event stream that
 *   ends before its response: after the `retry` the stream asked for, a GET
 *   with Last-Event-ID (2025-11-25: resumability and redelivery).
 * - An auth hook adds credentials to every request and, when the server
 *   refuses one with 401 or 403, may renew them for one more try: a
 *   wrapper around the wire (http-auth.ts), so nothing here handles it.
 *
 * - What a server sends is bounded (the server may be broken or hostile):
 *   a message's size (a JSON body or one event's data) and nesting depth,
 *   an event stream's lines and events, and how long a listen or
 *   standalone stream may stay silent (keep-alives count). Past a limit
 *   the request fails with a ChannelError naming the limit, and its
 *   connection is closed.
 *
 * What the replies mean is the client's business: this file hands back the
 * JSON-RPC response whatever the HTTP status (when its id is the
 * request's), and a ChannelError with the status and body when there is
 * none.
 */
import { ChannelError, type ChannelRequestOptions, type ClientChannel } from "../core/channel.js";
import { claimsModern } from "../core/era.js";
import { type HeaderParameter, HEADERS, requestHeaders } from "../core/headers.js";
import { isJsonObject, type JsonRpcId, type JsonRpcMessage } from "../core/jsonrpc.js";
import { MAX_DEPTH, MAX_MESSAGE_BYTES, valueNestsDeeperThan } from "../core/limits.js";
import { BodyTooLarge, declaredLength, readTextWithin } from "./bounded-read.js";
import { credentialedWire, type HttpAuth } from "./http-auth.js";
import { nodeWire, type HttpWire, type WireReply } from "./http-wire.js";
import { EventStreamTooLarge, readEvents, type SseResumption } from "./sse-reader.js";

export type { HttpAuth, HttpRefusal, RetryVerdict } from "./http-auth.js";

/** How the HTTP client transport is set up. */
export interface HttpClientOptions {
  /** How requests go on the wire (default: node:http with keep-alive; `fetchWire()` for any fetch). */
  readonly wire?: HttpWire;
  /** Headers sent with every request (lower-case names). */
  readonly headers?: Readonly<Record<string, string>>;
  readonly auth?: HttpAuth;
  /** How often a legacy event stream is resumed before a request fails (default 3). */
  readonly maxReconnects?: number;
  /** The wait before a reconnection when the stream named none with `retry` (default 1000 ms). */
  readonly reconnectDelayMs?: number;
  /** Problems that fail no request (an unreadable event, a notification that could not be delivered). */
  readonly onWarning?: (message: string) => void;
  /** The largest message accepted from the server, in bytes: a JSON body, or one event's data (default 4 MiB, as the server's). */
  readonly maxMessageBytes?: number;
  /** The deepest nesting of objects and arrays a message may have (default 64). */
  readonly maxDepth?: number;
  /** The longest line of an event stream, in bytes (default: `maxMessageBytes` and 1 KiB for the field name). */
  readonly maxEventLineBytes?: number;
  /** The most bytes the lines of one event may add up to (default: `maxMessageBytes` and 1 KiB). */
  readonly maxEventBytes?: number;
  /**
   * How long a long-lived stream (a listen request's, a legacy session's
   * standalone GET) may go without a byte before it is closed, in ms
   * (default 60000; the server's keep-alives, every 15 s by default, count).
   * 0 turns it off.
   */
  readonly streamIdleMs?: number;
}

/** The defaults of the limits of HttpClientOptions. */
export const HTTP_CLIENT_LIMITS = {
  maxMessageBytes: MAX_MESSAGE_BYTES,
  maxDepth: MAX_DEPTH,
  /** Room, beyond a message, for a line's field name and an event's other fields. */
  eventOverheadBytes: 1024,
  streamIdleMs: 60_000,
} as const;

/** The limits in force for one connection. */
interface Limits {
  readonly maxMessageBytes: number;
  readonly maxDepth: number;
  readonly maxLineBytes: number;
  readonly maxEventBytes: number;
  readonly streamIdleMs: number;
}

const ACCEPT = "application/json, text/event-stream";

/** Connects to the MCP endpoint at `url` (nothing is sent until the first request). */
export function connectHttp(url: string | URL, options: HttpClientOptions = {}): HttpClientChannel {
  return new HttpClientChannel(new URL(url), options);
}

/** A client's Streamable HTTP connection to one MCP endpoint. */
export class HttpClientChannel implements ClientChannel {
  readonly streamPerRequest = true;
  readonly mirrorsHeaders = true;
  onMessage?: (message: JsonRpcMessage) => void;

  private readonly wire: HttpWire;
  private readonly limits: Limits;
  /** Legacy era: the negotiated version, once the session has begun. */
  private sessionVersion?: string;
  private sessionId?: string;
  private standalone?: AbortController;
  private closed = false;
  /** Requests whose response may arrive on another stream (a resumed or the standalone one). */
  private readonly elsewhere = new Map<JsonRpcId, (response: JsonRpcMessage) => void>();

  constructor(
    readonly url: URL,
    private readonly options: HttpClientOptions = {},
  ) {
    this.wire = credentialedWire(options.wire ?? nodeWire(), options.headers, options.auth);
    const maxMessageBytes = options.maxMessageBytes ?? HTTP_CLIENT_LIMITS.maxMessageBytes;
    const eventDefault = maxMessageBytes + HTTP_CLIENT_LIMITS.eventOverheadBytes;
    this.limits = {
      maxMessageBytes,
      maxDepth: options.maxDepth ?? HTTP_CLIENT_LIMITS.maxDepth,
      maxLineBytes: options.maxEventLineBytes ?? eventDefault,
      maxEventBytes: options.maxEventBytes ?? eventDefault,
      streamIdleMs: options.streamIdleMs ?? HTTP_CLIENT_LIMITS.streamIdleMs,
    };
  }

  /** The legacy session's id (Mcp-Session-Id), once the server gave one. */
  get session(): string | undefined {
    return this.sessionId;
  }

  async request(
    message: JsonRpcMessage,
    options: ChannelRequestOptions = {},
  ): Promise<JsonRpcMessage> {
    if (this.closed) throw new ChannelError(`the connection to ${this.url.href} is closed`);
    const reply = await this.exchange(
      "POST",
      this.headersFor(message, options.headerParameters, options.nameParameter),
      JSON.stringify(message),
      options.signal,
    );
    if (message.method === "initialize" && reply.headers[HEADERS.sessionId])
      this.sessionId = reply.headers[HEADERS.sessionId];
    return this.responseOf(reply, message, options);
  }

  async send(message: JsonRpcMessage): Promise<void> {
    if (this.closed) throw new ChannelError(`the connection to ${this.url.href} is closed`);
    const reply = await this.exchange("POST", this.headersFor(message), JSON.stringify(message));
    const text = await this.bodyOf(reply, message);
    if (reply.status >= 300)
      throw new ChannelError(
        `${describe(message)} was refused with HTTP ${reply.status}`,
        failure(reply, text),
      );
  }

  beginSession(protocolVersion: string): Promise<void> {
    this.sessionVersion = protocolVersion;
    void this.keepStandaloneStream();
    return Promise.resolve();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.standalone?.abort();
    if (this.sessionId === undefined) return;
    try {
      // Bounded: a server that never answers must not keep the client from closing.
      const reply = await this.exchange(
        "DELETE",
        this.sessionHeaders(),
        undefined,
        AbortSignal.timeout(2000),
      );
      reply.cancel();
    } catch {
      // The session ends with the server either way.
    }
  }

  /** The headers of a message: the modern Mcp-* set, or the legacy session's. */
  private headersFor(
    message: JsonRpcMessage,
    headerParameters?: readonly HeaderParameter[],
    nameParameter?: string,
  ): Record<string, string> {
    const base = { "content-type": "application/json", accept: ACCEPT };
    return claimsModern(message)
      ? { ...base, ...requestHeaders(message, headerParameters, nameParameter) }
      : { ...base, ...this.sessionHeaders() };
  }

  private sessionHeaders(): Record<string, string> {
    const headers: Record<string, string> = {};
    if (this.sessionVersion !== undefined) headers[HEADERS.protocolVersion] = this.sessionVersion;
    if (this.sessionId !== undefined) headers[HEADERS.sessionId] = this.sessionId;
    return headers;
  }

  /** One HTTP exchange; the wire adds the credentials and retries a refused request (http-auth.ts). */
  private exchange(
    method: "POST" | "GET" | "DELETE",
    headers: Record<string, string>,
    body: string | undefined,
    signal?: AbortSignal,
  ): Promise<WireReply> {
    return this.wire({
      url: this.url,
      method,
      headers,
      ...(body === undefined ? {} : { body }),
      ...(signal ? { signal } : {}),
    });
  }

  /** The response in a reply: its JSON body, or the answer on its event stream (resumed if need be). */
  private async responseOf(
    reply: WireReply,
    message: JsonRpcMessage,
    options: ChannelRequestOptions,
  ): Promise<JsonRpcMessage> {
    const type = reply.headers["content-type"] ?? "";
    if (reply.status < 300 && type.startsWith("text/event-stream")) {
      const resumption: SseResumption = {};
      // A listen request's stream lasts as long as the subscription: only silence ends it.
      const idleMs = message.method === "subscriptions/listen" ? this.limits.streamIdleMs : 0;
      const answer = await this.readStream(
        reply,
        message.id as JsonRpcId,
        options,
        resumption,
        false,
        idleMs,
      );
      if (answer) return answer;
      options.signal?.throwIfAborted();
      if (this.sessionVersion !== undefined && resumption.lastEventId !== undefined)
        return this.resume(message, options, resumption);
      throw new ChannelError(`the event stream ended before the response to ${describe(message)}`, {
        status: reply.status,
      });
    }
    const text = await this.bodyOf(reply, message);
    // The depth is checked on the parsed value: cheaper than scanning the text (core/limits).
    const parsed = parseJson(text);
    if (valueNestsDeeperThan(parsed, this.limits.maxDepth))
      throw new ChannelError(
        `the reply to ${describe(message)} nests deeper than ${this.limits.maxDepth} levels (maxDepth)`,
        { status: reply.status },
      );
    if (
      isJsonObject(parsed) &&
      parsed.method === undefined &&
      ("result" in parsed || "error" in parsed)
    ) {
      // An error the server could not tie to a request (a refusal before it read the body) has id null.
      if (parsed.id === message.id || (parsed.id === null && "error" in parsed)) return parsed;
      throw new ChannelError(
        `the reply to ${describe(message)} answers id ${JSON.stringify(parsed.id)}, not the request's ${JSON.stringify(message.id)}`,
        failure(reply, text),
      );
    }
    throw new ChannelError(
      `${describe(message)} got HTTP ${reply.status} without a JSON-RPC response`,
      failure(reply, text),
    );
  }

  /**
   * Reads an event stream, delivering what it carries, and resolves with
   * the response to `id` as soon as it arrives (the rest of the stream is
   * still read and delivered), or undefined when the stream ends without it.
   */
  private readStream(
    reply: WireReply,
    id: JsonRpcId | undefined,
    options: ChannelRequestOptions,
    resumption: SseResumption,
    cancelOnAnswer = false,
    idleMs = 0,
  ): Promise<JsonRpcMessage | undefined> {
    const { maxLineBytes, maxEventBytes } = this.limits;
    return new Promise((resolve, reject) => {
      let answered = false;
      const watch = { idle: false };
      /** Fails the request and closes its stream: the server passed a limit. */
      const refuse = (error: ChannelError) => {
        reply.cancel();
        reject(error);
      };
      const deliver = (message: JsonRpcMessage) => {
        if (message.method !== undefined) {
          const notification = !("id" in message);
          if (notification && options.onNotification) options.onNotification(message);
          else this.onMessage?.(message);
        } else if (!answered && id !== undefined && message.id === id) {
          answered = true;
          resolve(message);
          if (cancelOnAnswer) reply.cancel();
        } else this.answerElsewhere(message);
      };
      void (async () => {
        try {
          const chunks = idleMs > 0 ? watchedForSilence(reply, idleMs, watch) : reply.body;
          for await (const event of readEvents(chunks, resumption, {
            maxLineBytes,
            maxEventBytes,
          })) {
            if (event.data === "") continue; // a priming or keep-alive event
            const read = this.eventMessage(event.data);
            if ("problem" in read)
              return refuse(new ChannelError(`an event from ${this.url.href} ${read.problem}`));
            if (isJsonObject(read.value)) deliver(read.value);
            else
              this.warn(`an event of the stream from ${this.url.href} is not a JSON-RPC message`);
          }
        } catch (error) {
          if (error instanceof EventStreamTooLarge)
            return refuse(new ChannelError(`the stream from ${this.url.href}: ${error.message}`));
          if (!answered && options.signal?.aborted) return reject(options.signal.reason as Error);
          // A stream cut off mid-way is resumed like one that ended (legacy era) or fails the request.
        }
        if (watch.idle)
          return refuse(
            new ChannelError(
              `the stream from ${this.url.href} sent nothing for ${idleMs} ms (streamIdleMs); it is closed`,
            ),
          );
        if (!answered) resolve(undefined);
      })();
    });
  }

  /**
   * Resumes the stream of a request that ended before its response (legacy
   * era): waits the `retry` the stream asked for, then GETs the endpoint
   * with Last-Event-ID; the response may arrive there or on any other
   * stream of the session.
   */
  private async resume(
    message: JsonRpcMessage,
    options: ChannelRequestOptions,
    resumption: SseResumption,
  ): Promise<JsonRpcMessage> {
    const id = message.id as JsonRpcId;
    let settle!: (response: JsonRpcMessage) => void;
    const arrived = new Promise<JsonRpcMessage>((resolve) => (settle = resolve));
    this.elsewhere.set(id, settle);
    try {
      const attempts = this.options.maxReconnects ?? 3;
      for (let attempt = 0; attempt < attempts; attempt++) {
        const waited = await Promise.race([
          delay(resumption.retryMs ?? this.options.reconnectDelayMs ?? 1000, options.signal).then(
            () => undefined,
          ),
          arrived,
        ]);
        if (waited) return waited;
        const reply = await this.openEventStream(resumption, options.signal);
        if (!isEventStream(reply)) {
          const text = await this.bodyOf(reply, message);
          throw new ChannelError(
            `cannot resume the stream of ${describe(message)}: the GET got HTTP ${reply.status}`,
            failure(reply, text),
          );
        }
        const answer = await Promise.race([
          this.readStream(reply, id, options, resumption, true),
          arrived,
        ]);
        if (answer) {
          reply.cancel();
          return answer;
        }
      }
      throw new ChannelError(
        `no response to ${describe(message)} after ${attempts} reconnections of its event stream`,
      );
    } finally {
      this.elsewhere.delete(id);
    }
  }

  /**
   * A GET for an event stream of the session (resuming a request's, or
   * the standalone one), from where `resumption` left off.
   */
  private openEventStream(
    resumption: SseResumption,
    signal: AbortSignal | undefined,
  ): Promise<WireReply> {
    return this.exchange(
      "GET",
      {
        accept: "text/event-stream",
        ...this.sessionHeaders(),
        ...(resumption.lastEventId !== undefined
          ? { "last-event-id": resumption.lastEventId }
          : {}),
      },
      undefined,
      signal,
    );
  }

  /** A response that came on a stream other than its request's (resumption, standalone stream). */
  private answerElsewhere(message: JsonRpcMessage): void {
    const waiter =
      typeof message.id === "string" || typeof message.id === "number"
        ? this.elsewhere.get(message.id)
        : undefined;
    if (waiter) waiter(message);
    else
      this.warn(`a response with unknown id ${JSON.stringify(message.id)} arrived; it is dropped`);
  }

  /**
   * The standalone stream of a legacy session (a GET on the endpoint): the
   * server sends its own requests and notifications there. A server that
   * offers none answers 405 (or 404); a stream that ends is reopened after
   * its `retry`, with Last-Event-ID, until three attempts in a row deliver
   * nothing.
   */
  private async keepStandaloneStream(): Promise<void> {
    const resumption: SseResumption = {};
    let idle = 0;
    while (!this.closed && idle < 3) {
      const controller = new AbortController();
      this.standalone = controller;
      let reply: WireReply;
      try {
        reply = await this.openEventStream(resumption, controller.signal);
      } catch {
        if (this.closed) return;
        idle++;
        await delay(resumption.retryMs ?? this.options.reconnectDelayMs ?? 1000).catch(() => {});
        continue;
      }
      if (!isEventStream(reply)) {
        reply.cancel();
        return;
      }
      const before = resumption.lastEventId;
      await this.readStream(
        reply,
        undefined,
        { signal: controller.signal },
        resumption,
        false,
        this.limits.streamIdleMs,
      ).catch((error: unknown) => {
        if (error instanceof ChannelError) this.warn(error.message);
      });
      idle = resumption.lastEventId !== before ? 0 : idle + 1;
      if (this.closed) return;
      await delay(resumption.retryMs ?? this.options.reconnectDelayMs ?? 1000).catch(() => {});
    }
  }

  /** A reply's body, at most `maxMessageBytes` of it; past that the request fails and the reply is closed. */
  private async bodyOf(reply: WireReply, message: JsonRpcMessage): Promise<string> {
    try {
      return await readTextWithin(reply.body, this.limits.maxMessageBytes, {
        declared: declaredLength(reply.headers["content-length"]),
        stop: () => reply.cancel(),
      });
    } catch (error) {
      if (error instanceof BodyTooLarge)
        throw new ChannelError(
          `the reply to ${describe(message)} is larger than ${this.limits.maxMessageBytes} bytes (maxMessageBytes)`,
          { status: reply.status, headers: reply.headers },
        );
      throw error;
    }
  }

  /**
   * An event's data as a parsed value (undefined when it is not JSON), or
   * what is wrong with it as a message: its size, checked before it is
   * parsed, or its depth, checked on the value (core/limits).
   */
  private eventMessage(data: string): { readonly value: unknown } | { readonly problem: string } {
    const { maxMessageBytes, maxDepth } = this.limits;
    // Characters never outnumber bytes: only a long event needs counting.
    if (data.length > maxMessageBytes / 3 && Buffer.byteLength(data) > maxMessageBytes)
      return { problem: `holds a message larger than ${maxMessageBytes} bytes (maxMessageBytes)` };
    const value = parseJson(data);
    if (valueNestsDeeperThan(value, maxDepth))
      return { problem: `holds a message that nests deeper than ${maxDepth} levels (maxDepth)` };
    return { value };
  }

  private warn(message: string): void {
    this.options.onWarning?.(message);
  }
}

/** Whether a GET was answered with an event stream (anything else means there is none to read). */
function isEventStream(reply: WireReply): boolean {
  return (
    reply.status === 200 && (reply.headers["content-type"] ?? "").startsWith("text/event-stream")
  );
}

function describe(message: JsonRpcMessage): string {
  return typeof message.method === "string" ? message.method : "a response";
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function failure(reply: WireReply, text: string) {
  return { status: reply.status, body: text.slice(0, 1000), headers: reply.headers };
}

/**
 * The reply's chunks; when none arrives for `idleMs`, `watch.idle` is set
 * and the reply is closed, which ends the reading.
 */
async function* watchedForSilence(
  reply: WireReply,
  idleMs: number,
  watch: { idle: boolean },
): AsyncGenerator<Uint8Array> {
  const timer = setTimeout(() => {
    watch.idle = true;
    reply.cancel();
  }, idleMs);
  try {
    for await (const chunk of reply.body) {
      timer.refresh();
      yield chunk;
    }
  } finally {
    clearTimeout(timer);
  }
}

/** Waits `ms`; rejects with the signal's reason when it aborts first. */
function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason as Error);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
