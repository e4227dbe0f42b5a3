/**
 * In memory: a client and a server in one process, with no socket and no
 * child process, for tests. It is Streamable HTTP with the network taken
 * out: the client's HttpClientChannel puts each request on a wire that
 * hands it to the server's McpHttpHandler as a call, and the reply (a JSON
 * body or an event stream) comes back as text. So everything else is the
 * path a request takes over the network: JSON serialisation both ways, the
 * Mcp-* headers and their checks against the body, the Host and Origin
 * guards, era detection, legacy sessions (Mcp-Session-Id, the standalone
 * stream a 2025-11-25 server sends its requests on), Multi Round-Trip
 * Requests, the HTTP statuses, and the size limits of both sides. Header
 * names and values are checked as node:http checks them, so a header that
 * could not go on the wire fails here too. What passes in memory passes
 * over HTTP; what is left out is the socket and node:http's parser.
 */
import { validateHeaderName, validateHeaderValue } from "node:http";
import { Codes, McpError } from "../core/errors.js";
import { errorResponse } from "../core/jsonrpc.js";
import { HttpClientChannel, type HttpClientOptions } from "./http-client.js";
import type { HttpReply } from "./http-reply.js";
import type { HttpWire, WireReply } from "./http-wire.js";
import { McpHttpHandler, type HttpOptions } from "./http.js";
import type { ServedSide } from "./served.js";

/** How an in-memory connection is set up (every field has a default). */
export interface InMemoryOptions {
  /** The server half: the HTTP core's options (endpoint, allowed hosts, limits, authorization). */
  readonly server?: HttpOptions;
  /** The client half: the HTTP channel's options (headers, auth, limits); its wire is the in-memory one. */
  readonly client?: Omit<HttpClientOptions, "wire">;
  /**
   * The URL the client believes it talks to (default
   * `http://localhost/mcp`, the endpoint of `server`): its host must pass
   * the server's Host guard, as it would over the network.
   */
  readonly url?: string | URL;
}

/**
 * Connects a client's channel to `side` (an McpServer) in this process.
 * Give the channel to an McpClient; its `close` ends the legacy session,
 * if one was opened, as over HTTP.
 */
export function connectInMemory(
  side: ServedSide,
  options: InMemoryOptions = {},
): HttpClientChannel {
  const handler = new McpHttpHandler(side, options.server);
  const url = new URL(options.url ?? `http://localhost${handler.endpoint}`);
  return new HttpClientChannel(url, { ...options.client, wire: memoryWire(handler) });
}

/** A wire that hands each request to `handler` in this process (see the file's comment). */
export function memoryWire(handler: McpHttpHandler): HttpWire {
  return async (request) => {
    request.signal?.throwIfAborted();
    checkHeaders(request.headers);
    const body = request.body ?? "";
    if (Buffer.byteLength(body) > handler.maxBodyBytes) return bodyReply(tooLarge());
    // Aborted when the client goes away before the reply ends, as a closed connection is.
    const gone = new AbortController();
    const leave = () => gone.abort();
    request.signal?.addEventListener("abort", leave, { once: true });
    const headers = new Map(Object.entries(request.headers).map(([n, v]) => [n.toLowerCase(), v]));
    const handled = handler.handle({
      method: request.method,
      path: request.url.pathname,
      query: request.url.search.slice(1),
      // The Host header a client library would send for this URL.
      header: (name) =>
        headers.get(name.toLowerCase()) ??
        (name.toLowerCase() === "host" ? request.url.host : undefined),
      body,
      signal: gone.signal,
    });
    const reply = await beforeAbort(handled, request.signal);
    const written = writable(handler, reply);
    if (written.kind === "body") {
      request.signal?.removeEventListener("abort", leave);
      return bodyReply(written);
    }
    return streamReply(written, gone, request.signal);
  };
}

/**
 * The reply, or the client's abort when it comes first (the request fails
 * at once, as over a socket; a stream the server opens later is ended).
 */
function beforeAbort(
  handled: Promise<HttpReply>,
  signal: AbortSignal | undefined,
): Promise<HttpReply> {
  if (!signal) return handled;
  return new Promise((resolve, reject) => {
    const abort = () => reject(signal.reason as Error);
    signal.addEventListener("abort", abort, { once: true });
    handled.then((reply) => {
      signal.removeEventListener("abort", abort);
      if (!signal.aborted) return resolve(reply);
      if (reply.kind === "stream") reply.stream.end();
    }, reject);
  });
}

/** Header names and values as node:http accepts them; anything else throws its TypeError. */
function checkHeaders(headers: Readonly<Record<string, string>>): void {
  for (const [name, value] of Object.entries(headers)) {
    validateHeaderName(name);
    validateHeaderValue(name, value);
  }
}

/**
 * The reply, or a 500 when its headers could not be written (node:http
 * refuses them): reported to the served side, as node.ts does.
 */
function writable(handler: McpHttpHandler, reply: HttpReply): HttpReply {
  try {
    checkHeaders(reply.headers);
    return reply;
  } catch (error) {
    if (reply.kind === "stream") reply.stream.end();
    handler.side.onError(error, "HTTP transport (writing a response)");
    return {
      kind: "body",
      status: 500,
      headers: { "content-type": "application/json" },
      body: JSON.stringify(
        errorResponse(null, new McpError(Codes.InternalError, "Internal error").toJSON()),
      ),
    };
  }
}

/** 413, as node.ts and fetch.ts answer a body past the limit. */
function tooLarge(): HttpReply & { kind: "body" } {
  return {
    kind: "body",
    status: 413,
    headers: { "content-type": "application/json" },
    body: JSON.stringify(
      errorResponse(null, new McpError(Codes.InvalidRequest, "Request body too large").toJSON()),
    ),
  };
}

/** Header names lower-cased, as a client reads them off the wire. */
function lowerCased(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([n, v]) => [n.toLowerCase(), v]));
}

/** A complete body. */
function bodyReply(reply: HttpReply & { kind: "body" }): WireReply {
  const pipe = new ChunkPipe();
  if (reply.body !== "") pipe.push(reply.body);
  pipe.finish();
  return {
    status: reply.status,
    headers: {
      ...lowerCased(reply.headers),
      "content-length": String(Buffer.byteLength(reply.body)),
    },
    body: pipe.reader(() => {}),
    text: () => Promise.resolve(reply.body),
    cancel() {},
  };
}

/**
 * An event stream: what the server writes is queued until the client reads
 * it. The client's abort, or its cancelling the body before the end, is the
 * server's closed connection (its request's signal aborts); the server
 * aborting the stream (the client fell too far behind) fails the client's
 * read, as a reset connection does.
 */
function streamReply(
  reply: HttpReply & { kind: "stream" },
  gone: AbortController,
  clientSignal: AbortSignal | undefined,
): WireReply {
  const pipe = new ChunkPipe();
  const hangUp = (reason: unknown) => {
    // A reply the server has finished is not cut short on its side, as node:http sees it.
    if (!pipe.finished) {
      reply.stream.end();
      gone.abort();
    }
    pipe.fail(reason);
  };
  clientSignal?.addEventListener("abort", () => hangUp(clientSignal.reason), { once: true });
  reply.stream.attach({
    write: (chunk) => pipe.push(chunk),
    finish: () => pipe.finish(),
    buffered: () => pipe.buffered,
    abort: () => pipe.fail(new Error("the connection was reset: the client fell too far behind")),
  });
  return {
    status: reply.status,
    headers: lowerCased(reply.headers),
    body: { [Symbol.asyncIterator]: () => pipe.reader(() => hangUp(new Error("cancelled"))) },
    async text() {
      const chunks: Uint8Array[] = [];
      for await (const chunk of pipe.reader(() => hangUp(new Error("cancelled"))))
        chunks.push(chunk);
      return Buffer.concat(chunks).toString("utf8");
    },
    cancel: () => hangUp(new Error("cancelled")),
  };
}

/** Chunks from the server to one reader, held until read. */
class ChunkPipe {
  private readonly queue: Uint8Array[] = [];
  private waiting?: () => void;
  private failure?: { reason: unknown };
  /** True once the server finished the stream. */
  finished = false;
  /** Bytes written and not read yet. */
  buffered = 0;

  push(chunk: string): void {
    if (this.finished || this.failure) return;
    const bytes = Buffer.from(chunk, "utf8");
    this.queue.push(bytes);
    this.buffered += bytes.byteLength;
    this.wake();
  }

  finish(): void {
    this.finished = true;
    this.wake();
  }

  fail(reason: unknown): void {
    if (this.failure) return;
    this.failure = { reason };
    this.queue.length = 0;
    this.buffered = 0;
    this.wake();
  }

  /** Reads the chunks in order; `abandoned` runs when the reader stops before the end. */
  async *reader(abandoned: () => void): AsyncGenerator<Uint8Array> {
    let ended = false;
    try {
      for (;;) {
        const chunk = this.queue.shift();
        if (chunk) {
          this.buffered -= chunk.byteLength;
          yield chunk;
          continue;
        }
        if (this.failure) throw this.failure.reason;
        if (this.finished) {
          ended = true;
          return;
        }
        await new Promise<void>((resolve) => (this.waiting = resolve));
      }
    } finally {
      if (!ended && !this.failure) abandoned();
    }
  }

  private wake(): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.();
  }
}
