/**
 * node:http for the HTTP core: a request listener (the body read in full,
 * refused past the size limit while it arrives), and `serveHttp`, which
 * listens with it and bounds what slow, idle and numerous clients can
 * hold: header, request and idle timeouts and a cap on open connections.
 * This path builds no Fetch objects, the fastest on Node.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { Codes, McpError } from "../core/errors.js";
import { errorResponse } from "../core/jsonrpc.js";
import { isLoopback, LOCALHOST } from "./guards.js";
import type { AccessNote, HttpReply } from "./http-reply.js";
import { McpHttpHandler, type HttpOptions } from "./http.js";
import type { ServedSide } from "./served.js";
import { SettingError } from "./fetch-settings.js";
import { STREAM_DEFAULTS } from "./streams.js";

/** How `serveHttp` listens, beyond what the HTTP core needs (every field has a default). */
export interface ServeHttpOptions extends HttpOptions {
  /** The port (default 3000; 0 picks a free one). */
  readonly port?: number;
  /** The address to listen on (default 127.0.0.1); another than loopback logs a warning. */
  readonly host?: string;
  /** A request's headers must arrive within this time from its first byte, or from the connection's start (default 10 s). */
  readonly headersTimeoutMs?: number;
  /** A whole request, headers and body, must arrive within this time (default 30 s). Responses, streams among them, are not limited. */
  readonly requestTimeoutMs?: number;
  /** A keep-alive connection with no request under way is closed after this time (default 5 s). */
  readonly idleTimeoutMs?: number;
  /**
   * The most connections open at once (default 1000). Past it, a new
   * connection closes the oldest one that has no request being served
   * (idle, or still sending its request), or is closed itself when every
   * one is being served.
   */
  readonly maxConnections?: number;
  /** Where warnings go (default: a line on stderr). */
  readonly warn?: (message: string) => void;
  /** How long `shutdown` lets requests under way finish (default 10 s). */
  readonly shutdownTimeoutMs?: number;
  /**
   * An access log: `true` writes one JSON line per request on stderr
   * (time, HTTP method, JSON-RPC method, tool or prompt name, status,
   * duration); a function receives each entry instead. Never arguments,
   * bodies or headers (tokens stay out). Off by default.
   */
  readonly accessLog?: boolean | ((entry: AccessEntry) => void);
}

/** One line of the access log. */
export interface AccessEntry {
  /** When the response ended (ISO 8601). */
  readonly time: string;
  /** The HTTP method. */
  readonly http: string;
  /** The JSON-RPC method, when the body was one message. */
  readonly method?: string;
  /** The tool (tools/call) or prompt (prompts/get) it named. */
  readonly name?: string;
  readonly status: number;
  /** From the request's arrival to the end of its response (an event stream's end), in milliseconds. */
  readonly durationMs: number;
}

/** The defaults of ServeHttpOptions. */
export const HTTP_DEFAULTS = {
  port: 3000,
  host: "127.0.0.1",
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  idleTimeoutMs: 5_000,
  maxConnections: 1000,
  shutdownTimeoutMs: 10_000,
} as const;

/** A running HTTP server. */
export interface RunningHttpServer {
  /** The endpoint's URL. */
  readonly url: string;
  readonly http: Server;
  /** Closes the server and every connection at once. */
  readonly close: () => Promise<void>;
  /**
   * Stops gracefully: no new connections, the health endpoint and new
   * requests answer 503, listen and GET streams end, requests under way
   * finish within `deadlineMs` (default `shutdownTimeoutMs`), then every
   * connection closes. Then the served side shuts down (`ServedSide.shutdown`):
   * tasks running here have what is left of the deadline to end, and those
   * still under way fail with "the instance running this task stopped".
   * Resolves true when no request had to be cut.
   */
  readonly shutdown: (deadlineMs?: number) => Promise<boolean>;
}

/** A node:http request listener over the core. */
export function nodeListener(
  handler: McpHttpHandler,
  options: { readonly accessLog?: ServeHttpOptions["accessLog"] } = {},
): (req: IncomingMessage, res: ServerResponse) => void {
  const log =
    options.accessLog === true
      ? (entry: AccessEntry) => process.stderr.write(`${JSON.stringify(entry)}\n`)
      : options.accessLog || undefined;
  return (req, res) => {
    const note: AccessNote | undefined = log ? {} : undefined;
    if (log && note) {
      const started = performance.now();
      res.once("close", () =>
        log({
          time: new Date().toISOString(),
          http: req.method ?? "",
          ...note,
          status: res.statusCode,
          durationMs: Math.round((performance.now() - started) * 10) / 10,
        }),
      );
    }
    // While stopping, no connection is kept for another request.
    if (handler.isStopping) res.shouldKeepAlive = false;
    const controller = new AbortController();
    res.on("close", () => {
      if (!res.writableFinished) controller.abort();
    });
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    req.on("data", (chunk: Buffer) => {
      if (refused) return;
      size += chunk.length;
      if (size > handler.maxBodyBytes) {
        refused = true;
        const payload = JSON.stringify(
          errorResponse(
            null,
            new McpError(Codes.InvalidRequest, "Request body too large").toJSON(),
          ),
        );
        res
          .writeHead(413, { "content-type": "application/json", connection: "close" })
          .end(payload);
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on("error", () => controller.abort());
    req.on("end", () => {
      if (refused) return;
      const url = req.url ?? "/";
      const mark = url.indexOf("?");
      const path = mark < 0 ? url : url.slice(0, mark);
      const header = (name: string) => {
        const key = name.toLowerCase();
        // node:http keeps only the first of several Host headers; all of them are read, so that two are refused.
        const value = key === "host" ? req.headersDistinct.host : req.headers[key];
        return Array.isArray(value) ? value.join(", ") : value;
      };
      void handler
        .handle({
          method: req.method ?? "GET",
          path,
          query: mark < 0 ? "" : url.slice(mark + 1),
          header,
          body: Buffer.concat(chunks).toString("utf8"),
          signal: controller.signal,
          note,
          ...(req.socket.remoteAddress ? { peer: req.socket.remoteAddress } : {}),
        })
        .then((reply) => write(res, reply))
        .catch((error: unknown) => failed(handler, res, error));
    });
  };
}

/**
 * A reply that could not be written (a header node refuses, a stream that
 * throws): reported, and answered 500 when nothing was sent yet, else the
 * connection is closed. The process goes on serving.
 */
function failed(handler: McpHttpHandler, res: ServerResponse, error: unknown): void {
  try {
    handler.side.onError(error, "HTTP transport (writing a response)");
  } catch {
    // A failing error reporter must not end the process either.
  }
  if (res.headersSent || res.destroyed) {
    res.destroy();
    return;
  }
  const payload = JSON.stringify(
    errorResponse(null, new McpError(Codes.InternalError, "Internal error").toJSON()),
  );
  try {
    res.removeHeader("content-length");
    res
      .writeHead(500, {
        "content-type": "application/json",
        "content-length": Buffer.byteLength(payload),
      })
      .end(payload);
  } catch {
    res.destroy();
  }
}

function write(res: ServerResponse, reply: HttpReply): void {
  try {
    writeReply(res, reply);
  } catch (error) {
    // The stream will never reach the client: end it, so what feeds it stops.
    if (reply.kind === "stream") reply.stream.end();
    throw error;
  }
}

function writeReply(res: ServerResponse, reply: HttpReply): void {
  if (res.destroyed) {
    if (reply.kind === "stream") reply.stream.end();
    return;
  }
  if (reply.kind === "body") {
    res.writeHead(reply.status, {
      ...reply.headers,
      "content-length": Buffer.byteLength(reply.body),
    });
    res.end(reply.body);
    return;
  }
  res.writeHead(reply.status, reply.headers);
  res.flushHeaders();
  reply.stream.attach({
    write: (chunk) => res.write(chunk),
    finish: () => res.end(),
    // What node holds for the socket beyond what the kernel took: grows only while the client does not read.
    buffered: () => res.writableLength,
    abort: () => res.destroy(),
  });
  res.on("close", () => reply.stream.end());
}

/** Serves `side` (an McpServer) over Streamable HTTP on node:http; resolves once it listens. */
export async function serveHttp(
  side: ServedSide,
  options: ServeHttpOptions = {},
): Promise<RunningHttpServer> {
  const handler = new McpHttpHandler(side, withStreamCap(options));
  const requestTimeout = options.requestTimeoutMs ?? HTTP_DEFAULTS.requestTimeoutMs;
  const headersTimeout = Math.min(
    options.headersTimeoutMs ?? HTTP_DEFAULTS.headersTimeoutMs,
    requestTimeout,
  );
  const maxConnections = options.maxConnections ?? HTTP_DEFAULTS.maxConnections;
  const connections = new ConnectionCap(maxConnections);
  const listener = nodeListener(handler, { accessLog: options.accessLog });
  const http = createServer(
    {
      headersTimeout,
      requestTimeout,
      keepAliveTimeout: options.idleTimeoutMs ?? HTTP_DEFAULTS.idleTimeoutMs,
      // node:http checks the header and request timeouts this often (its default, 30 s, lets a slow client stay that much longer).
      connectionsCheckingInterval: Math.max(250, Math.min(1000, headersTimeout / 4)),
    },
    (req, res) => {
      connections.serving(req, res);
      listener(req, res);
    },
  );
  http.on("connection", (socket: Socket) => connections.add(socket));
  const host = options.host ?? HTTP_DEFAULTS.host;
  const port = options.port ?? HTTP_DEFAULTS.port;
  await new Promise<void>((resolve, reject) => {
    const refused = (error: NodeJS.ErrnoException) => reject(listenError(error, host, port));
    http.once("error", refused);
    // A burst of up to the cap's connections waits to be accepted rather than being dropped by a full
    // accept queue (node's is 511), whose clients try again only after a second, then three.
    const backlog = Math.max(511, maxConnections);
    http.listen({ port, host, backlog }, () => {
      http.off("error", refused);
      resolve();
    });
  });
  const warn = options.warn ?? warnOnStderr;
  const warning = bindWarning(host, options.allowedHosts ?? LOCALHOST);
  if (warning !== undefined) warn(warning);
  for (const note of side.deploymentWarnings?.() ?? []) warn(note);
  const address = http.address();
  const bound = typeof address === "object" && address ? address.port : port;
  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${bound}${handler.endpoint}`,
    http,
    close: () =>
      new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      }),
    shutdown: async (deadlineMs = options.shutdownTimeoutMs ?? HTTP_DEFAULTS.shutdownTimeoutMs) => {
      const started = Date.now();
      handler.stop();
      const closed = new Promise<void>((resolve) => http.close(() => resolve()));
      // Connections between requests close at once; the others once their response ends.
      const sweep = setInterval(() => http.closeIdleConnections(), 50);
      http.closeIdleConnections();
      let timer: NodeJS.Timeout | undefined;
      const finished = await Promise.race([
        closed.then(() => true),
        new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), deadlineMs))),
      ]);
      clearTimeout(timer);
      clearInterval(sweep);
      http.closeAllConnections();
      await closed;
      // Tasks have until the same deadline; those still under way then fail, never left "working".
      await side
        .shutdown?.(Math.max(0, deadlineMs - (Date.now() - started)))
        .catch((error: unknown) => side.onError(error, "shutdown"));
      return finished;
    },
  };
}

/**
 * The options with the most listen and GET streams kept below the
 * connection cap, so that streams that never end cannot hold every
 * connection: by default the smaller of 500 and half the cap; one given
 * at or above the cap throws.
 */
export function withStreamCap(options: ServeHttpOptions): ServeHttpOptions {
  const maxConnections = options.maxConnections ?? HTTP_DEFAULTS.maxConnections;
  const maxListenStreams =
    options.maxListenStreams ?? Math.min(STREAM_DEFAULTS.max, Math.floor(maxConnections / 2));
  if (maxListenStreams >= maxConnections)
    throw new SettingError(
      "MCP_MAX_LISTEN_STREAMS",
      `MCP_MAX_LISTEN_STREAMS (${maxListenStreams}) must be below MCP_MAX_CONNECTIONS (${maxConnections}): listen and GET streams never end by themselves, and must leave connections for other requests`,
    );
  return { ...options, maxListenStreams };
}

/** The warning for listening on `host` when other machines reach it, naming the Host check in force; undefined on loopback. */
export function bindWarning(
  host: string,
  allowedHosts: readonly string[] | "any",
): string | undefined {
  if (isLoopback(host)) return undefined;
  const check =
    allowedHosts === "any"
      ? "the Host check is off (ALLOWED_HOSTS=any): only do this behind a proxy that checks Host"
      : `the Host check accepts only ${allowedHosts.join(", ")}; set ALLOWED_HOSTS to the names clients use to reach this server`;
  return `warning: listening on ${host}, which other machines can reach; ${check}`;
}

function warnOnStderr(message: string): void {
  process.stderr.write(`${message}\n`);
}

/**
 * The open connections, oldest first, and which of them have a request
 * being served (its body received, its response not yet finished). At the
 * cap, a new connection closes the oldest that has none, so a client that
 * holds many idle or half-sent connections cannot keep others out.
 */
class ConnectionCap {
  private readonly open = new Map<Socket, { serving: number }>();

  constructor(private readonly max: number) {}

  add(socket: Socket): void {
    if (this.open.size >= this.max && !this.evictOne()) {
      socket.destroy();
      return;
    }
    this.open.set(socket, { serving: 0 });
    socket.once("close", () => this.open.delete(socket));
  }

  /** Marks the request's connection as serving from the end of its body until its response ends. */
  serving(req: IncomingMessage, res: ServerResponse): void {
    const state = this.open.get(req.socket);
    if (!state) return;
    req.once("end", () => {
      state.serving++;
      res.once("close", () => state.serving--);
    });
  }

  private evictOne(): boolean {
    for (const [socket, state] of this.open)
      if (state.serving === 0) {
        this.open.delete(socket);
        socket.destroy();
        return true;
      }
    return false;
  }
}

/**
 * Why the server could not listen, said so that whoever started it can act:
 * the port in use (EADDRINUSE) or not allowed (EACCES) names the port and
 * the PORT variable that moves it. The error keeps node's code.
 */
export function listenError(error: NodeJS.ErrnoException, host: string, port: number): Error {
  const where = `port ${port} of ${host}`;
  const message =
    error.code === "EADDRINUSE"
      ? `${where} is in use (EADDRINUSE): stop what listens there, or start this server on another port (PORT=${port + 1} npm start)`
      : error.code === "EACCES"
        ? `${where} may not be opened by this user (EACCES): use a port above 1023 (PORT=3000)`
        : error.code === "EADDRNOTAVAIL"
          ? `${host} is no address of this machine (EADDRNOTAVAIL): set HOST to one of its addresses (HOST=127.0.0.1)`
          : `cannot listen on ${where}: ${error.message}`;
  return Object.assign(new Error(message), { code: error.code });
}
