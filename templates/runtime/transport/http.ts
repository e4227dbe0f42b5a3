/**
 * Streamable HTTP: what happens to a request, top to bottom.
 *
 * 1. guards: the endpoint path, then Host and Origin (DNS rebinding), the
 *    content type of a POST, then the guards of the options (guards.ts);
 * 1b. authorization, when on (authorization.ts): the protected resource
 *    metadata is answered before the guards; after them, the request's
 *    bearer token becomes an Authorization or a 401;
 * 2. framing: the body is one JSON-RPC message, or a batch, which only a
 *    2025-03-26 session may send (core/framing);
 *    With authorization on, each message must then be covered by the
 *    token's scopes (else 403 insufficient_scope);
 * 3. era: the `_meta` envelope makes a message modern, anything else is
 *    legacy (core/era);
 * 4. handler: a modern request has its Mcp-* headers checked against the
 *    body (core/headers) and goes to the served side (McpServer.serve); a
 *    legacy message goes to the session its Mcp-Session-Id names;
 * 5. reply: a JSON body, or an event stream once the handler sends a
 *    notification; the status comes from status.ts, the one place where
 *    a protocol outcome becomes an HTTP status.
 *
 * McpHttpHandler is the Fetch-style core (a request in, a reply out);
 * node.ts adapts it to node:http and fetch.ts to Request and Response.
 */
import { detectEra } from "../core/era.js";
import { Codes, McpError } from "../core/errors.js";
import {
  EndedByServer,
  principalKey,
  type Authorization,
  type NotificationSink,
} from "../core/exchange.js";
import { allowsBatches, batchRefused, readFrame, splitBatch } from "../core/framing.js";
import { headerMismatch, HEADERS, nameParameterOf } from "../core/headers.js";
import { errorResponse, isResponse, type JsonRpcMessage } from "../core/jsonrpc.js";
import { MAX_BATCH_ITEMS, MAX_MESSAGE_BYTES } from "../core/limits.js";
import { answerInOrder } from "./batch.js";
import { isReply, type HttpAuthorization } from "./authorization.js";
import { EventStream, STREAM_BUFFER_DEFAULT } from "./event-stream.js";
import { contentTypeGuard, endpointGuard, hostGuard, LOCALHOST, type Guard } from "./guards.js";
import {
  emptyReply,
  errorReply,
  jsonReply,
  streamReply,
  noteOf,
  type HttpReply,
  type HttpRequest,
} from "./http-reply.js";
import { LazyReply } from "./lazy-reply.js";
import type { ServedSession, ServedSide } from "./served.js";
import { HttpSessions, SESSION_DEFAULTS } from "./sessions.js";
import { refusalStatus, statusOf } from "./status.js";
import { LongLivedStreams, STREAM_DEFAULTS } from "./streams.js";

/** How the HTTP transport is set up. */
export interface HttpOptions {
  /** The MCP endpoint path (default `/mcp`). */
  readonly endpoint?: string;
  /**
   * Host names accepted in `Host` (any port), against DNS rebinding.
   * Default: localhost, 127.0.0.1, [::1]; `"any"` turns the check off
   * (only behind something that does it).
   */
  readonly allowedHosts?: readonly string[] | "any";
  /**
   * Origins accepted in `Origin` (`https://app.example.com`, compared
   * exactly), when a browser page of another origin may call the server.
   * Default: any origin whose host is an allowed host; `"any"` turns the
   * check off. A request without Origin (not from a browser) is not
   * affected.
   */
  readonly allowedOrigins?: readonly string[] | "any";
  /** The largest request body accepted, in bytes (default 4 MiB). */
  readonly maxBodyBytes?: number;
  /** Interval of keep-alive comments on listen streams (default 15 s). */
  readonly keepAliveMs?: number;
  /** More guards, run in order after the built-in ones. */
  readonly guards?: readonly Guard[];
  /**
   * OAuth authorization (auth/: `bearerAuthorization`): the protected
   * resource metadata, a bearer token on every request (401 without a
   * valid one), scopes per method and tool (403 without them). The
   * verified claims reach handlers as `ctx.authorization`. Default: off.
   */
  readonly authorization?: HttpAuthorization;
  /** A legacy session with no request and no open stream for this long ends (default 10 minutes). */
  readonly sessionIdleMs?: number;
  /** The most legacy sessions open at once; a new one ends the least recently used (default 10,000). */
  readonly maxSessions?: number;
  /**
   * The most an event stream may hold for a client that does not read it,
   * in characters (default 1 MiB); past it the client is too far behind
   * and the stream is closed.
   */
  readonly maxStreamBufferBytes?: number;
  /**
   * The most listen streams and 2025-era GET streams one client holds at
   * once (default 16): a client is whom its token acts for, else its
   * address (HttpRequest.peer). Past it, a new one is refused with 429.
   */
  readonly maxListenStreamsPerClient?: number;
  /**
   * The most listen and GET streams the endpoint holds at once (default
   * 500; serveHttp keeps it below its connection cap), 429 past it.
   */
  readonly maxListenStreams?: number;
  /** A listen or GET stream that has sent no message for this long ends (default 10 minutes; keep-alive comments do not count). */
  readonly listenIdleMs?: number;
  /** A listen or GET stream open this long ends, whatever it sends (default one hour). */
  readonly listenLifetimeMs?: number;
  /** The most messages a JSON-RPC batch may hold (2025-03-26 sessions; default 100). */
  readonly maxBatchItems?: number;
  /**
   * The path of the health endpoint for load balancers (default
   * `/health`; null for none): GET answers 200 `{"status":"ok"}`, or 503
   * `{"status":"stopping"}` once the server is shutting down. It is
   * answered before the Host check, since a balancer probes by address.
   */
  readonly healthPath?: string | null;
}

/** Where the notifications of a legacy notification go when the session has no standalone stream. */
const NOWHERE: NotificationSink = { notify() {} };

/** The transport-agnostic Streamable HTTP core of one served side. */
export class McpHttpHandler {
  readonly endpoint: string;
  readonly maxBodyBytes: number;
  private readonly guards: readonly Guard[];
  private readonly authorization: HttpAuthorization | undefined;
  private readonly keepAliveMs: number;
  private readonly streamBuffer: number;
  private readonly sessions: HttpSessions;
  /** How long a legacy session may stay unused (also its expiry in a shared store). */
  private readonly sessionIdleMs: number;
  private readonly healthPath: string | null;
  private stopping = false;
  /** How to end each long-lived stream open now (listen subscriptions, legacy GET streams). */
  private readonly longLived = new Set<() => void>();
  /** How many long-lived streams each client and the endpoint hold, and for how long (streams.ts). */
  private readonly streams: LongLivedStreams;
  private readonly maxBatchItems: number;

  constructor(
    readonly side: ServedSide,
    options: HttpOptions = {},
  ) {
    this.endpoint = options.endpoint ?? "/mcp";
    this.maxBodyBytes = options.maxBodyBytes ?? MAX_MESSAGE_BYTES;
    this.keepAliveMs = options.keepAliveMs ?? 15_000;
    this.guards = [
      endpointGuard(this.endpoint),
      hostGuard(options.allowedHosts ?? LOCALHOST, options.allowedOrigins),
      contentTypeGuard(),
      ...(options.guards ?? []),
    ];
    this.authorization = options.authorization;
    this.streamBuffer = options.maxStreamBufferBytes ?? STREAM_BUFFER_DEFAULT;
    this.healthPath = options.healthPath === undefined ? "/health" : options.healthPath;
    this.sessionIdleMs = options.sessionIdleMs ?? SESSION_DEFAULTS.idleMs;
    this.streams = new LongLivedStreams({
      perClient: options.maxListenStreamsPerClient ?? STREAM_DEFAULTS.perClient,
      max: options.maxListenStreams ?? STREAM_DEFAULTS.max,
      idleMs: options.listenIdleMs ?? STREAM_DEFAULTS.idleMs,
      lifetimeMs: options.listenLifetimeMs ?? STREAM_DEFAULTS.lifetimeMs,
    });
    this.maxBatchItems = options.maxBatchItems ?? MAX_BATCH_ITEMS;
    this.sessions = new HttpSessions(side, {
      idleMs: this.sessionIdleMs,
      max: options.maxSessions ?? SESSION_DEFAULTS.max,
    });
  }

  /** The number of legacy sessions open now. */
  get openSessions(): number {
    return this.sessions.size;
  }

  /** The number of listen and GET streams open now. */
  get openStreams(): number {
    return this.streams.size;
  }

  /** Whether `stop` was called. */
  get isStopping(): boolean {
    return this.stopping;
  }

  /**
   * Starts shutting down: the health endpoint answers 503, new requests
   * get 503, and open listen subscriptions and legacy GET streams end.
   * Requests under way go on; the adapter waits for them (node.ts).
   */
  stop(): void {
    this.stopping = true;
    for (const end of [...this.longLived]) end();
  }

  /** Answers one HTTP request. Never throws: every failure is an HTTP status with a JSON-RPC error body. */
  async handle(request: HttpRequest): Promise<HttpReply> {
    if (request.path === this.healthPath) return this.health(request);
    if (this.stopping)
      return errorReply(
        503,
        null,
        new McpError(-32000, "Service Unavailable: the server is shutting down"),
      );
    try {
      const metadata = request.method === "GET" ? this.authorization?.metadata(request) : undefined;
      if (metadata) return metadata;
      for (const guard of this.guards) {
        const checked = guard(request);
        const refusal = checked instanceof Promise ? await checked : checked;
        if (refusal) return refusal;
      }
      let authorization: Authorization | undefined;
      if (this.authorization) {
        const verdict = await this.authorization.authenticate(request);
        if (isReply(verdict)) return verdict;
        authorization = verdict;
      }
      if (request.method === "POST") return await this.post(request, authorization);
      if (request.method === "GET") return await this.openStandaloneStream(request, authorization);
      if (request.method === "DELETE") return await this.endSession(request, authorization);
      return emptyReply(405, { allow: "POST, GET, DELETE" });
    } catch (error) {
      this.side.onError(error, "HTTP transport");
      if (error instanceof SessionStoreUnavailable)
        return errorReply(
          503,
          null,
          new McpError(
            Codes.InternalError,
            "Service Unavailable: the shared session store did not answer; try again",
          ),
        );
      return errorReply(500, null, new McpError(Codes.InternalError, "Internal error"));
    }
  }

  /** GET on the health path: 200 while serving, 503 once stopping. */
  private health(request: HttpRequest): HttpReply {
    if (request.method !== "GET" && request.method !== "HEAD")
      return emptyReply(405, { allow: "GET, HEAD" });
    return jsonReply(this.stopping ? 503 : 200, { status: this.stopping ? "stopping" : "ok" });
  }

  /** POST: framing, scopes, era, handler. */
  private async post(request: HttpRequest, authorization?: Authorization): Promise<HttpReply> {
    const frame = readFrame(request.body);
    if (frame.kind === "invalid") return this.refuse(null, frame.error);
    if (frame.kind === "batch") return this.batch(frame.items, request, authorization);
    const message = frame.message;
    if (request.note) noteOf(message, request.note);
    const refusal = authorization && this.authorization?.authorize(message, authorization);
    if (refusal) return refusal;
    const verdict = detectEra(message, {
      declaredVersion: request.header(HEADERS.protocolVersion),
      servesLegacy: this.side.servesLegacy,
    });
    if ("refused" in verdict) return this.refuse(message.id, verdict.refused);
    return verdict.era === "modern"
      ? this.modern(message, request, authorization)
      : this.legacy(message, request, authorization);
  }

  /** A modern request: headers checked against the body, then served; the reply is lazy (JSON or a stream). */
  private modern(
    message: JsonRpcMessage,
    request: HttpRequest,
    authorization: Authorization | undefined,
  ): Promise<HttpReply> | HttpReply {
    const mismatch = headerMismatch(
      message,
      (name) => request.header(name),
      (tool) => this.side.headerParameters(tool),
      (method) => this.side.nameParameter?.(method) ?? nameParameterOf(undefined, method),
    );
    if (mismatch) return this.refuse(message.id, mismatch);
    const listen = message.method === "subscriptions/listen";
    const reply = new LazyReply(listen ? this.keepAliveMs : undefined, this.streamBuffer);
    const held = listen
      ? this.holdStream(request, authorization, () => reply.lastMessageAt)
      : undefined;
    if (held instanceof McpError) return errorReply(429, message.id, held);
    const signal = held?.signal ?? request.signal;
    this.side.serve(message, { sink: reply, signal, authorization }).then(
      (outcome) => {
        held?.release();
        reply.finish(outcome, statusOf("modern", outcome));
      },
      (error: unknown) => {
        held?.release();
        this.side.onError(error, "HTTP transport");
        reply.finish(
          {
            response: errorResponse(message.id, {
              code: Codes.InternalError,
              message: "Internal error",
            }),
            refused: true,
          },
          500,
        );
      },
    );
    return reply.reply;
  }

  /** A legacy message: served in the session its Mcp-Session-Id names (`initialize` opens one). */
  private async legacy(
    message: JsonRpcMessage,
    request: HttpRequest,
    authorization: Authorization | undefined,
  ): Promise<HttpReply> {
    if (message.method === "initialize") return this.initialize(message, request, authorization);
    const session = await this.session(request, authorization);
    if (!session) return this.noSession(request, message.id);
    const headers = { [HEADERS.sessionId]: session.id };
    if (isResponse(message)) {
      if (session.receive(message)) return emptyReply(202, headers);
      const shared = this.side.sharedSessions;
      if (!shared)
        return this.refuse(
          null,
          new McpError(Codes.InvalidRequest, "Invalid Request: an answer to no pending request"),
        );
      // The request it answers may wait on another instance.
      await shared.forward(session, message).catch((error: unknown) => {
        throw new SessionStoreUnavailable(error);
      });
      return emptyReply(202, headers);
    }
    if (!("id" in message)) {
      const outcome = await this.sessions.using(session.id, () =>
        session.serve(message, {
          sink: session.standalone ?? NOWHERE,
          signal: request.signal,
          authorization,
        }),
      );
      return outcome.response
        ? jsonReply(statusOf("legacy", outcome), outcome.response, headers)
        : emptyReply(202, headers);
    }
    // Requests answer on an event stream, so server-to-client requests (sampling, elicitation) can use it.
    const stream = new EventStream(this.streamBuffer);
    void this.sessions
      .using(session.id, () =>
        session.serve(message, { sink: stream, signal: request.signal, authorization }),
      )
      .then((outcome) => {
        if (outcome.response) stream.notify(outcome.response);
        stream.end();
      });
    return streamReply(stream, headers);
  }

  /**
   * `initialize`: the session opens only when it succeeds, so a failed
   * one (no id, bad params) leaves nothing behind and gets no session id.
   */
  private async initialize(
    message: JsonRpcMessage,
    request: HttpRequest,
    authorization: Authorization | undefined,
  ): Promise<HttpReply> {
    const session = this.sessions.create();
    const outcome = await session.serve(message, { sink: NOWHERE, signal: request.signal });
    const response = outcome.response;
    if (!response || !("result" in response)) {
      session.close();
      return response ? jsonReply(statusOf("legacy", outcome), response) : emptyReply(202);
    }
    this.sessions.admit(session, ownerOf(authorization));
    try {
      await this.side.sharedSessions?.share(session, ownerOf(authorization), this.sessionIdleMs);
    } catch (error) {
      this.sessions.close(session.id, ownerOf(authorization));
      throw new SessionStoreUnavailable(error);
    }
    const stream = new EventStream(this.streamBuffer);
    stream.notify(response);
    stream.end();
    return streamReply(stream, { [HEADERS.sessionId]: session.id });
  }

  /**
   * A JSON-RPC batch: served only in a session that negotiated 2025-03-26
   * (core/framing). Answers go back to the session, notifications are
   * served, and the responses to the requests share one event stream,
   * which ends after the last (spec 2025-03-26: Streamable HTTP, sending
   * messages to the server).
   */
  private async batch(
    items: readonly unknown[],
    request: HttpRequest,
    authorization: Authorization | undefined,
  ): Promise<HttpReply> {
    const session = await this.session(request, authorization);
    if (!session && request.header(HEADERS.sessionId) !== undefined)
      return this.noSession(request, null);
    if (!session || !allowsBatches(session.protocolVersion))
      return this.refuse(null, batchRefused());
    const split = splitBatch(items, this.maxBatchItems);
    if (split instanceof McpError) return this.refuse(null, split);
    if (authorization && this.authorization)
      for (const message of split.messages) {
        const refusal = this.authorization.authorize(message, authorization);
        if (refusal) return refusal;
      }
    const headers = { [HEADERS.sessionId]: session.id };
    const answered =
      split.invalid.length > 0 || split.messages.some((m) => "id" in m && !isResponse(m));
    if (!answered) {
      for (const message of split.messages)
        if (isResponse(message)) session.receive(message);
        else
          void session.serve(message, {
            sink: session.standalone ?? NOWHERE,
            signal: request.signal,
            authorization,
          });
      return emptyReply(202, headers);
    }
    const stream = new EventStream(this.streamBuffer);
    const serve = async (message: JsonRpcMessage) => {
      if (isResponse(message)) {
        session.receive(message);
        return undefined;
      }
      const sink = "id" in message ? stream : (session.standalone ?? NOWHERE);
      return (await session.serve(message, { sink, signal: request.signal, authorization }))
        .response;
    };
    void answerInOrder(split.entries, serve, stream, request.signal)
      .catch((error: unknown) => this.side.onError(error, "HTTP transport (a batch)"))
      .finally(() => stream.end());
    return streamReply(stream, headers);
  }

  /** A message refused before anything served it, with the status status.ts gives its error. */
  private refuse(id: unknown, error: McpError): HttpReply {
    return errorReply(refusalStatus(error.code), id, error);
  }

  /**
   * The session the request's Mcp-Session-Id names, when it belongs to whom
   * the request acts for: held here, or (sessions shared) opened on another
   * instance and taken from the shared store.
   */
  private async session(
    request: HttpRequest,
    authorization: Authorization | undefined,
  ): Promise<ServedSession | undefined> {
    const id = request.header(HEADERS.sessionId);
    if (id === undefined) return undefined;
    const owner = ownerOf(authorization);
    const shared = this.side.sharedSessions;
    const held = this.sessions.get(id, owner);
    if (held || !shared) {
      if (held) shared?.touch(held, (error) => this.side.onError(error, "shared session"));
      return held;
    }
    const found = await shared.find(id, owner, this.sessionIdleMs).catch((error: unknown) => {
      throw new SessionStoreUnavailable(error);
    });
    if (found) this.sessions.admit(found, owner);
    return found;
  }

  /** A legacy message outside a session: 400 without Mcp-Session-Id, 404 with one that is not open. */
  private noSession(request: HttpRequest, id: unknown): HttpReply {
    return request.header(HEADERS.sessionId) === undefined
      ? errorReply(
          400,
          id,
          new McpError(
            Codes.InvalidRequest,
            "Bad Request: no Mcp-Session-Id (send initialize first)",
          ),
        )
      : errorReply(404, id, new McpError(Codes.InvalidRequest, "Session not found"));
  }

  /** GET: a legacy session's standalone stream; the modern era has none (405). */
  private async openStandaloneStream(
    request: HttpRequest,
    authorization: Authorization | undefined,
  ): Promise<HttpReply> {
    const session = await this.session(request, authorization);
    if (!session)
      return request.header(HEADERS.sessionId) === undefined
        ? emptyReply(405, { allow: "POST" })
        : errorReply(404, null, new McpError(Codes.InvalidRequest, "Session not found"));
    const stream = new EventStream(this.streamBuffer);
    const held = this.holdStream(request, authorization, () => stream.lastMessageAt);
    if (held instanceof McpError) return errorReply(429, null, held);
    stream.keepAliveEvery(this.keepAliveMs);
    // One GET stream per session: the one it replaces would hold its connection for nothing.
    const replaced = session.standalone;
    session.standalone = stream;
    if (replaced instanceof EventStream) replaced.end();
    const shared = this.side.sharedSessions;
    // The instance holding the stream keeps the session alive in the shared store while it is open.
    const keeping = shared
      ? setInterval(
          () => shared.touch(session, (error) => this.side.onError(error, "shared session")),
          Math.max(1000, Math.floor(this.sessionIdleMs / 4)),
        )
      : undefined;
    keeping?.unref?.();
    const close = () => {
      held.release();
      clearInterval(keeping);
      if (session.standalone === stream) delete session.standalone;
      stream.end();
      this.sessions.get(session.id, ownerOf(authorization)); // idle from now on, not from when the stream opened
    };
    held.signal.addEventListener("abort", close, { once: true });
    stream.whenEnded(close);
    // DELETE here or on another instance ends the session's stream with it.
    if (session.closedSignal?.aborted) close();
    else session.closedSignal?.addEventListener("abort", close, { once: true });
    return streamReply(stream, { [HEADERS.sessionId]: session.id });
  }

  /**
   * Holds a long-lived stream of the request's client (streams.ts): a
   * signal aborted when the client goes away, or with EndedByServer when
   * the stream was idle or open too long or the server stops, and a
   * release to call once the stream's request ended. The McpError says
   * which limit refuses it.
   */
  private holdStream(
    request: HttpRequest,
    authorization: Authorization | undefined,
    lastMessageAt: () => number,
  ): { readonly signal: AbortSignal; readonly release: () => void } | McpError {
    const controller = new AbortController();
    const end = (why: EndedByServer["why"]) => controller.abort(new EndedByServer(why));
    const client = principalKey(authorization) ?? (request.peer && `peer ${request.peer}`);
    const held = this.streams.hold(client || undefined, lastMessageAt, end);
    if (held instanceof McpError) return held;
    const stop = () => end("stopping");
    this.longLived.add(stop);
    const release = () => {
      held.release();
      this.longLived.delete(stop);
    };
    controller.signal.addEventListener("abort", release, { once: true });
    const gone = () => controller.abort();
    if (request.signal.aborted) gone();
    else request.signal.addEventListener("abort", gone, { once: true });
    return { signal: controller.signal, release };
  }

  /** DELETE: ends a legacy session (shared: on every instance). */
  private async endSession(
    request: HttpRequest,
    authorization: Authorization | undefined,
  ): Promise<HttpReply> {
    const id = request.header(HEADERS.sessionId);
    if (id === undefined) return emptyReply(405, { allow: "POST" });
    const owner = ownerOf(authorization);
    const endedHere = this.sessions.close(id, owner);
    const endedEverywhere = await this.side.sharedSessions
      ?.end(id, owner)
      .catch((error: unknown) => {
        throw new SessionStoreUnavailable(error);
      });
    return endedHere || endedEverywhere
      ? emptyReply(200)
      : errorReply(404, null, new McpError(Codes.InvalidRequest, "Session not found"));
  }
}

/** Whom a legacy session belongs to: the token's subject and client (principalKey); undefined without authorization. */
const ownerOf = principalKey;

/** The shared session store failed or did not answer within its deadline: 503, the client may try again. */
class SessionStoreUnavailable extends Error {
  constructor(override readonly cause: unknown) {
    super(
      `the shared session store failed: ${cause instanceof Error ? cause.message : String(cause)}`,
    );
    this.name = "SessionStoreUnavailable";
  }
}
