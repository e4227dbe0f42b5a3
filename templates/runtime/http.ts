/**
 * Streamable HTTP. A transport-agnostic core (`McpHttpHandler.handle`:
 * method, headers and body in; a JSON body or an event stream out), with
 * two adapters: Fetch (`Request` in, `Response` out, to mount in other
 * servers) and node:http (used by `serveHttp`, which skips building Fetch
 * objects on the hot path).
 *
 * One endpoint serves both eras: requests carrying the modern `_meta`
 * envelope are stateless 2026-07-28 requests; `initialize` without it opens
 * a legacy 2025-11-25 session (Mcp-Session-Id, GET stream, DELETE).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { NotificationSink } from "./context.js";
import { Codes } from "./errors.js";
import { MAX_DEPTH, nestsDeeperThan } from "./limits.js";
import { handleLegacy, LegacySessions, type LegacySession } from "./legacy.js";
import { errorResponse, handleModern, META, type Outcome } from "./modern.js";
import type { McpServer } from "./server.js";

/** How the HTTP transport is set up. */
export interface HttpOptions {
  /** The MCP endpoint path (default `/mcp`). */
  readonly endpoint?: string;
  /**
   * Host names accepted in `Host` and `Origin` (any port), against DNS
   * rebinding. Default: localhost, 127.0.0.1, [::1]; `"any"` turns the
   * check off (only behind something that does it).
   */
  readonly allowedHosts?: readonly string[] | "any";
  /** The largest request body accepted, in bytes (default 4 MiB). */
  readonly maxBodyBytes?: number;
  /** Interval of keep-alive comments on listen streams (default 15 s). */
  readonly keepAliveMs?: number;
}

/** A request as the core sees it. */
export interface HttpRequest {
  readonly method: string;
  readonly path: string;
  /** A header's value by case-insensitive name. */
  header(name: string): string | undefined;
  readonly body: string;
  /** Aborted when the client goes away. */
  readonly signal: AbortSignal;
}

/** What the core answers: a complete body, or an event stream. */
export type HttpReply =
  | {
      readonly kind: "body";
      readonly status: number;
      readonly headers: Readonly<Record<string, string>>;
      readonly body: string;
    }
  | {
      readonly kind: "stream";
      readonly status: number;
      readonly headers: Readonly<Record<string, string>>;
      readonly stream: EventStream;
    };

const JSON_HEADERS = { "content-type": "application/json" };
const SSE_HEADERS = {
  "content-type": "text/event-stream",
  "cache-control": "no-cache, no-transform",
  "x-accel-buffering": "no",
};
const LOCALHOST = ["localhost", "127.0.0.1", "[::1]", "::1"];
const NAMED = new Set(["tools/call", "resources/read", "prompts/get"]);
/** What a header value may hold as is: visible ASCII, space and tab (spec: value encoding); anything else comes base64-encoded. */
const HEADER_SAFE = /^[\t\x20-\x7e]*$/;
/** A decimal number, as clients write integer parameters into headers. */
const DECIMAL = /^-?\d+(?:\.\d+)?$/;
/** The first revision whose requests carry `_meta` instead of a session. */
const FIRST_MODERN = "2026-07-28";

/** A server-sent event stream: one JSON-RPC message per `data:` line. */
export class EventStream implements NotificationSink {
  private write?: (chunk: string) => void;
  private finish?: () => void;
  private readonly queue: string[] = [];
  private ended = false;
  private keepAlive?: NodeJS.Timeout;

  /** Sends one message. */
  notify(message: Record<string, unknown>): void {
    this.push(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
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

function body(status: number, message: unknown, headers: Record<string, string> = {}): HttpReply {
  return {
    kind: "body",
    status,
    headers: { ...JSON_HEADERS, ...headers },
    body: message === undefined ? "" : JSON.stringify(message),
  };
}

function rpcError(
  status: number,
  id: unknown,
  code: number,
  message: string,
  data?: unknown,
): HttpReply {
  return body(
    status,
    errorResponse(id, data === undefined ? { code, message } : { code, message, data }),
  );
}

/**
 * A request's reply that is a JSON body until the request sends a
 * notification before its response; then it becomes an event stream.
 */
class LazyReply implements NotificationSink {
  private resolve!: (reply: HttpReply) => void;
  readonly reply = new Promise<HttpReply>((resolve) => (this.resolve = resolve));
  private stream?: EventStream;

  constructor(
    private readonly headers: Record<string, string>,
    private readonly keepAliveMs?: number,
  ) {}

  notify(message: Record<string, unknown>): void {
    if (!this.stream) {
      this.stream = new EventStream();
      if (this.keepAliveMs !== undefined) this.stream.keepAliveEvery(this.keepAliveMs);
      this.resolve({
        kind: "stream",
        status: 200,
        headers: { ...SSE_HEADERS, ...this.headers },
        stream: this.stream,
      });
    }
    this.stream.notify(message);
  }

  finish(outcome: Outcome): void {
    if (this.stream) {
      if (outcome.response) this.stream.notify(outcome.response);
      this.stream.end();
    } else if (outcome.response) this.resolve(body(outcome.status, outcome.response, this.headers));
    else
      this.resolve({
        kind: "body",
        status: outcome.status === 200 ? 202 : outcome.status,
        headers: this.headers,
        body: "",
      });
  }
}

/** The transport-agnostic Streamable HTTP core of one server. */
export class McpHttpHandler {
  readonly endpoint: string;
  readonly maxBodyBytes: number;
  private readonly allowedHosts: readonly string[] | "any";
  private readonly keepAliveMs: number;
  private readonly sessions: LegacySessions;

  constructor(
    readonly server: McpServer,
    options: HttpOptions = {},
  ) {
    this.endpoint = options.endpoint ?? "/mcp";
    this.allowedHosts = options.allowedHosts ?? LOCALHOST;
    this.maxBodyBytes = options.maxBodyBytes ?? 4 * 1024 * 1024;
    this.keepAliveMs = options.keepAliveMs ?? 15_000;
    this.sessions = new LegacySessions(server);
  }

  /** Answers one HTTP request. Never throws: every failure is an HTTP status with a JSON-RPC error body. */
  async handle(request: HttpRequest): Promise<HttpReply> {
    try {
      if (request.path !== this.endpoint) return body(404, undefined);
      if (!this.trustedOrigin(request))
        return rpcError(403, null, -32000, "Forbidden: the Host or Origin header is not allowed");
      if (request.method === "POST") return await this.post(request);
      if (request.method === "GET") return this.openStandaloneStream(request);
      if (request.method === "DELETE") return this.endSession(request);
      return body(405, undefined, { allow: "POST, GET, DELETE" });
    } catch (error) {
      this.server.onError(error, "HTTP transport");
      return rpcError(500, null, Codes.InternalError, "Internal error");
    }
  }

  /** DNS-rebinding protection: Host (and Origin, when sent) must name an allowed host. */
  private trustedOrigin(request: HttpRequest): boolean {
    if (this.allowedHosts === "any") return true;
    const allowed = this.allowedHosts;
    const hostOf = (value: string) =>
      (value.startsWith("[")
        ? value.slice(0, value.indexOf("]") + 1)
        : value.split(":")[0]!
      ).toLowerCase();
    const host = request.header("host");
    if (host === undefined || !allowed.includes(hostOf(host))) return false;
    const origin = request.header("origin");
    if (origin === undefined || origin === "null") return origin === undefined;
    try {
      return allowed.includes(hostOf(new URL(origin).host));
    } catch {
      return false;
    }
  }

  private async post(request: HttpRequest): Promise<HttpReply> {
    if (nestsDeeperThan(request.body, MAX_DEPTH))
      return rpcError(400, null, Codes.InvalidRequest, "Invalid Request", {
        reason: `the message nests deeper than ${MAX_DEPTH} levels`,
      });
    let message: unknown;
    try {
      message = JSON.parse(request.body);
    } catch (error) {
      return rpcError(400, null, Codes.ParseError, "Parse error", {
        reason: (error as Error).message,
      });
    }
    if (Array.isArray(message))
      return rpcError(400, null, Codes.InvalidRequest, "Invalid Request", {
        reason: "batches are not supported",
      });
    if (typeof message !== "object" || message === null)
      return rpcError(400, null, Codes.InvalidRequest, "Invalid Request", {
        reason: "a message must be a JSON object",
      });
    const rpc = message as Record<string, unknown>;
    const era = this.classify(rpc, request);
    if (era.kind === "reject") return era.reply;
    return era.kind === "modern" ? this.modern(rpc, request) : this.legacy(rpc, request);
  }

  /**
   * Which era a message belongs to (spec: versioning, backward
   * compatibility): the `_meta` envelope claims the modern era; `initialize`
   * without it, session traffic, and answers to server requests are legacy.
   */
  private classify(
    rpc: Record<string, unknown>,
    request: HttpRequest,
  ): { kind: "modern" | "legacy" } | { kind: "reject"; reply: HttpReply } {
    const header = request.header("mcp-protocol-version");
    const headerIsModern = header !== undefined && header >= FIRST_MODERN;
    const params =
      rpc.params && typeof rpc.params === "object"
        ? (rpc.params as Record<string, unknown>)
        : undefined;
    const meta =
      params?._meta && typeof params._meta === "object"
        ? (params._meta as Record<string, unknown>)
        : undefined;
    const claimsModern = meta !== undefined && META.protocolVersion in meta;
    if (claimsModern) return { kind: "modern" };
    if (rpc.method === undefined) return { kind: "legacy" };
    if (rpc.method === "initialize" && headerIsModern) {
      return {
        kind: "reject",
        reply: rpcError(
          400,
          rpc.id,
          Codes.HeaderMismatch,
          "Header mismatch: MCP-Protocol-Version names a version without initialize",
        ),
      };
    }
    if (headerIsModern || !this.server.legacy) {
      return {
        kind: "reject",
        reply: rpcError(
          400,
          rpc.id,
          Codes.InvalidParams,
          `Invalid params: missing _meta["${META.protocolVersion}"]`,
          { path: `/params/_meta/${META.protocolVersion.replace("/", "~1")}` },
        ),
      };
    }
    return { kind: "legacy" };
  }

  private async modern(rpc: Record<string, unknown>, request: HttpRequest): Promise<HttpReply> {
    const mismatch = this.headerMismatch(rpc, request);
    if (mismatch)
      return rpcError(400, rpc.id, Codes.HeaderMismatch, `Header mismatch: ${mismatch}`);
    const reply = new LazyReply(
      {},
      rpc.method === "subscriptions/listen" ? this.keepAliveMs : undefined,
    );
    void handleModern(this.server, rpc, { sink: reply, signal: request.signal }).then((outcome) =>
      reply.finish(outcome),
    );
    return reply.reply;
  }

  /**
   * Header checks of the modern era (spec: Streamable HTTP, server
   * validation): a malformed envelope is -32602; headers that are missing or
   * disagree with the body are -32020.
   */
  private headerMismatch(rpc: Record<string, unknown>, request: HttpRequest): string | undefined {
    const params = (rpc.params ?? {}) as Record<string, unknown>;
    const meta = params._meta as Record<string, unknown>;
    const version = meta[META.protocolVersion];
    const header = request.header("mcp-protocol-version");
    if (
      typeof version !== "string" ||
      typeof meta[META.clientCapabilities] !== "object" ||
      meta[META.clientCapabilities] === null
    )
      return undefined;
    if (header === undefined) return "the MCP-Protocol-Version header is missing";
    if (header !== version)
      return `MCP-Protocol-Version header ${JSON.stringify(header)} does not match _meta protocolVersion ${JSON.stringify(version)}`;
    if (typeof rpc.method !== "string" || !("id" in rpc)) return undefined;
    const method = request.header("mcp-method");
    if (method === undefined) return "the Mcp-Method header is missing";
    if (method !== rpc.method)
      return `Mcp-Method header ${JSON.stringify(method)} does not match body method ${JSON.stringify(rpc.method)}`;
    if (!NAMED.has(rpc.method)) return undefined;
    const expected = rpc.method === "resources/read" ? params.uri : params.name;
    const name = request.header("mcp-name");
    if (name === undefined)
      return typeof expected === "string" ? "the Mcp-Name header is missing" : undefined;
    if (!HEADER_SAFE.test(name)) return unsafeHeader("Mcp-Name");
    const decoded = decodeHeaderValue(name.trim());
    if (decoded === undefined) return "the Mcp-Name header is not valid base64";
    if (decoded !== expected)
      return `Mcp-Name header ${JSON.stringify(decoded)} does not match body value ${JSON.stringify(expected)}`;
    return rpc.method === "tools/call" ? this.paramHeaderMismatch(params, request) : undefined;
  }

  /** `Mcp-Param-{Name}` headers of a tool's `x-mcp-header` parameters must mirror the arguments. */
  private paramHeaderMismatch(
    params: Record<string, unknown>,
    request: HttpRequest,
  ): string | undefined {
    const mirrored = this.server.headerParameters(params.name as string);
    const args = (params.arguments ?? {}) as Record<string, unknown>;
    for (const { header, path } of mirrored) {
      let value: unknown = args;
      for (const key of path)
        value =
          value && typeof value === "object" ? (value as Record<string, unknown>)[key] : undefined;
      const raw = request.header(`mcp-param-${header}`);
      if (value === undefined || value === null) continue;
      if (raw === undefined) return `the Mcp-Param-${header} header is missing`;
      if (!HEADER_SAFE.test(raw)) return unsafeHeader(`Mcp-Param-${header}`);
      const decoded = decodeHeaderValue(raw.trim());
      if (decoded === undefined) return `the Mcp-Param-${header} header is not valid base64`;
      // Numerically ("42.0" is 42), but only decimal numbers: Number() also reads "", "0x2A" and "1e1".
      const matches =
        typeof value === "number"
          ? DECIMAL.test(decoded) && Number(decoded) === value
          : typeof value === "boolean"
            ? decoded === String(value)
            : decoded === value;
      if (!matches)
        return `Mcp-Param-${header} header does not match the ${path.join(".")} argument`;
    }
    return undefined;
  }

  private async legacy(rpc: Record<string, unknown>, request: HttpRequest): Promise<HttpReply> {
    if (!this.server.legacy)
      return rpcError(
        400,
        rpc.id,
        Codes.InvalidRequest,
        "Invalid Request: this server speaks only the modern protocol",
      );
    const isInitialize = rpc.method === "initialize";
    const session = isInitialize ? this.sessions.create() : this.session(request);
    if (!session) {
      const id = request.header("mcp-session-id");
      return id === undefined
        ? rpcError(
            400,
            rpc.id,
            Codes.InvalidRequest,
            "Bad Request: no Mcp-Session-Id (send initialize first)",
          )
        : rpcError(404, rpc.id, Codes.InvalidRequest, "Session not found");
    }
    const headers = { "mcp-session-id": session.id };
    if (rpc.method === undefined)
      return session.receive(rpc)
        ? body(202, undefined, headers)
        : rpcError(
            400,
            null,
            Codes.InvalidRequest,
            "Invalid Request: an answer to no pending request",
          );
    if (!("id" in rpc)) {
      const outcome = await handleLegacy(this.server, session, rpc, {
        sink: session.standalone ?? { notify() {} },
        signal: request.signal,
      });
      return outcome.response
        ? body(outcome.status, outcome.response, headers)
        : body(202, undefined, headers);
    }
    // Requests answer on an event stream, so server-to-client requests (sampling, elicitation) can use it.
    const stream = new EventStream();
    void handleLegacy(this.server, session, rpc, { sink: stream, signal: request.signal }).then(
      (outcome) => {
        if (outcome.response) stream.notify(outcome.response);
        stream.end();
        if (isInitialize && outcome.response && "error" in outcome.response)
          this.sessions.delete(session.id);
      },
    );
    return { kind: "stream", status: 200, headers: { ...SSE_HEADERS, ...headers }, stream };
  }

  private session(request: HttpRequest): LegacySession | undefined {
    const id = request.header("mcp-session-id");
    return id === undefined ? undefined : this.sessions.get(id);
  }

  /** GET: a legacy session's standalone stream; the modern era has none (405). */
  private openStandaloneStream(request: HttpRequest): HttpReply {
    const session = this.session(request);
    if (!session)
      return request.header("mcp-session-id") === undefined
        ? body(405, undefined, { allow: "POST" })
        : rpcError(404, null, Codes.InvalidRequest, "Session not found");
    const stream = new EventStream();
    stream.keepAliveEvery(this.keepAliveMs);
    session.standalone = stream;
    request.signal.addEventListener(
      "abort",
      () => {
        if (session.standalone === stream) delete session.standalone;
        stream.end();
      },
      { once: true },
    );
    return {
      kind: "stream",
      status: 200,
      headers: { ...SSE_HEADERS, "mcp-session-id": session.id },
      stream,
    };
  }

  /** DELETE: ends a legacy session. */
  private endSession(request: HttpRequest): HttpReply {
    const id = request.header("mcp-session-id");
    if (id === undefined) return body(405, undefined, { allow: "POST" });
    return this.sessions.delete(id)
      ? { kind: "body", status: 200, headers: {}, body: "" }
      : rpcError(404, null, Codes.InvalidRequest, "Session not found");
  }
}

function unsafeHeader(name: string): string {
  return `the ${name} header has characters outside visible ASCII (send it as =?base64?...?=)`;
}

/** Decodes the `=?base64?…?=` sentinel (spec: value encoding); plain values pass through; undefined for bad base64. */
export function decodeHeaderValue(value: string): string | undefined {
  const match = /^=\?base64\?(.*)\?=$/.exec(value);
  if (!match) return value;
  const encoded = match[1]!;
  if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(encoded))
    return undefined;
  return Buffer.from(encoded, "base64").toString("utf8");
}

/** A Fetch handler: mount the server in anything that speaks `Request` / `Response`. */
export function fetchHandler(handler: McpHttpHandler): (request: Request) => Promise<Response> {
  return async (request) => {
    const url = new URL(request.url);
    const declared = Number(request.headers.get("content-length") ?? "0");
    if (declared > handler.maxBodyBytes) return tooLarge();
    const text = request.method === "POST" ? await request.text() : "";
    if (Buffer.byteLength(text) > handler.maxBodyBytes) return tooLarge();
    const reply = await handler.handle({
      method: request.method,
      path: url.pathname,
      // A Request made in process has no Host header: its URL says where it was sent.
      header: (n) => request.headers.get(n) ?? (n === "host" ? url.host : undefined),
      body: text,
      signal: request.signal,
    });
    if (reply.kind === "body")
      return new Response(reply.body === "" ? null : reply.body, {
        status: reply.status,
        headers: reply.headers,
      });
    const encoder = new TextEncoder();
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        reply.stream.attach(
          (chunk) => controller.enqueue(encoder.encode(chunk)),
          () => controller.close(),
        );
      },
      cancel() {
        reply.stream.end();
      },
    });
    return new Response(stream, { status: reply.status, headers: reply.headers });
  };
}

function tooLarge(): Response {
  return new Response(
    JSON.stringify(
      errorResponse(null, { code: Codes.InvalidRequest, message: "Request body too large" }),
    ),
    { status: 413, headers: JSON_HEADERS },
  );
}

/** A node:http request listener over the core. */
export function nodeListener(
  handler: McpHttpHandler,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
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
          errorResponse(null, { code: Codes.InvalidRequest, message: "Request body too large" }),
        );
        res.writeHead(413, { ...JSON_HEADERS, connection: "close" }).end(payload);
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on("error", () => controller.abort());
    req.on("end", () => {
      if (refused) return;
      const path = (req.url ?? "/").split("?")[0]!;
      const header = (name: string) => {
        const value = req.headers[name.toLowerCase()];
        return Array.isArray(value) ? value.join(", ") : value;
      };
      void handler
        .handle({
          method: req.method ?? "GET",
          path,
          header,
          body: Buffer.concat(chunks).toString("utf8"),
          signal: controller.signal,
        })
        .then((reply) => write(res, reply));
    });
  };
}

function write(res: ServerResponse, reply: HttpReply): void {
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
  reply.stream.attach(
    (chunk) => res.write(chunk),
    () => res.end(),
  );
  res.on("close", () => reply.stream.end());
}

/** Serves `server` over Streamable HTTP on node:http; resolves once it listens. */
export async function serveHttp(
  server: McpServer,
  options: HttpOptions & { readonly port?: number; readonly host?: string } = {},
): Promise<{ readonly url: string; readonly http: Server; readonly close: () => Promise<void> }> {
  const handler = new McpHttpHandler(server, options);
  const http = createServer({ keepAliveTimeout: 65_000 }, nodeListener(handler));
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(options.port ?? 3000, host, () => resolve());
  });
  const address = http.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}${handler.endpoint}`,
    http,
    close: () =>
      new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      }),
  };
}
