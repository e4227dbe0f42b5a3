/**
 * How the HTTP client transport puts a request on the wire: a function
 * from a request to a reply whose body is read as it arrives. Two come
 * with the runtime: node:http(s) with keep-alive connections (the default,
 * and the fastest on Node), and any Fetch implementation (for other
 * runtimes, proxies, or a fetch with its own TLS settings).
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";

/** A request to send. */
export interface WireRequest {
  readonly url: URL;
  readonly method: "POST" | "GET" | "DELETE";
  /** Header values by lower-case name. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly signal?: AbortSignal;
}

/** A reply, its body not read yet. */
export interface WireReply {
  readonly status: number;
  /** Header values by lower-case name (repeated headers joined with `, `). */
  readonly headers: Readonly<Record<string, string>>;
  /** The body, chunk by chunk, as it arrives. */
  readonly body: AsyncIterable<Uint8Array>;
  /** The whole body as text. */
  text(): Promise<string>;
  /** Stops reading the body and releases the connection. */
  cancel(): void;
}

/** Sends a request; rejects when no reply comes (connection refused, reset, aborted). */
export type HttpWire = (request: WireRequest) => Promise<WireReply>;

/** Options of {@link nodeWire}. */
export interface NodeWireOptions {
  /** The most connections kept open per host (default 64). */
  readonly maxSockets?: number;
  /** TLS options for https URLs (for example `ca` for a private certificate authority). */
  readonly tls?: { readonly ca?: string | Buffer; readonly rejectUnauthorized?: boolean };
}

/**
 * node:http(s), with connections kept alive between requests. A request
 * that fails on a reused connection before any reply (the server closed it
 * while idle) is sent once more on a fresh one, as browsers do.
 */
export function nodeWire(options: NodeWireOptions = {}): HttpWire {
  const maxSockets = options.maxSockets ?? 64;
  const http = new HttpAgent({ keepAlive: true, maxSockets });
  const https = new HttpsAgent({ keepAlive: true, maxSockets, ...options.tls });
  const send = (request: WireRequest, retried: boolean): Promise<WireReply> =>
    new Promise((resolve, reject) => {
      const secure = request.url.protocol === "https:";
      const req = (secure ? httpsRequest : httpRequest)(
        request.url,
        {
          method: request.method,
          headers: {
            ...request.headers,
            ...(request.body === undefined
              ? {}
              : { "content-length": String(Buffer.byteLength(request.body)) }),
          },
          agent: secure ? https : http,
          signal: request.signal,
        },
        (res) => resolve(nodeReply(res)),
      );
      req.on("error", (error: NodeJS.ErrnoException) => {
        const stale = req.reusedSocket && (error.code === "ECONNRESET" || error.code === "EPIPE");
        if (stale && !retried && !request.signal?.aborted) resolve(send(request, true));
        else reject(error);
      });
      req.end(request.body);
    });
  return (request) => send(request, false);
}

function nodeReply(res: IncomingMessage): WireReply {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.headers))
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value;
  return {
    status: res.statusCode ?? 0,
    headers,
    body: res,
    async text() {
      const chunks: Buffer[] = [];
      for await (const chunk of res) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString("utf8");
    },
    cancel() {
      res.destroy();
    },
  };
}

/** A Fetch implementation (`globalThis.fetch` by default) as the wire. */
export function fetchWire(fetchImpl: typeof fetch = globalThis.fetch): HttpWire {
  return async (request) => {
    const response = await fetchImpl(request.url, {
      method: request.method,
      headers: request.headers,
      ...(request.body === undefined ? {} : { body: request.body }),
      ...(request.signal ? { signal: request.signal } : {}),
      redirect: "manual",
    });
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => (headers[name] = value));
    const body = response.body;
    return {
      status: response.status,
      headers,
      body: body ? streamChunks(body) : EMPTY_BODY,
      text: () => response.text(),
      cancel() {
        void body?.cancel().catch(() => {});
      },
    };
  };
}

async function* streamChunks(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

const EMPTY_BODY: AsyncIterable<Uint8Array> = {
  [Symbol.asyncIterator]: () => ({
    next: () => Promise.resolve({ done: true as const, value: undefined }),
  }),
};
