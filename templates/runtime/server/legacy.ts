/**
 * The legacy era: clients of 2025-11-25 (and the versions it negotiates
 * with) that open with `initialize` and keep a session. Served on the same
 * endpoint as the modern era, through the same routes and handlers: input
 * requests become real server-to-client requests on the session, logging
 * follows `logging/setLevel`, and resource subscriptions are per session
 * (spec: versioning, backward compatibility).
 */
import { randomUUID } from "node:crypto";
import { LEGACY_REVISIONS } from "../core/era.js";
import { Codes, McpError, methodNotFound, RemoteError } from "../core/errors.js";
import type { Exchange, NotificationSink, Outcome } from "../core/exchange.js";
import {
  errorResponse,
  isJsonObject,
  paramsOf,
  resultResponse,
  type JsonRpcId,
  type JsonRpcMessage,
} from "../core/jsonrpc.js";
import { checkOutgoingMeta } from "../core/meta-keys.js";
import { traceContextOf, type TraceContext } from "../core/trace-context.js";
import { PendingRequests } from "../core/matching.js";
import { requestEntry, validateDefinition, type ProtocolModule } from "../core/protocol.js";
import {
  INPUT_KINDS,
  LegacyContext,
  LOG_LEVELS,
  type InputMethod,
  type LogLevel,
} from "./context.js";
import { handlerError, route, type Result, type SessionControl } from "./dispatch.js";
import { keepWithin } from "./limits.js";
import type { ServerFeatures } from "./features.js";
import type { SessionRecord } from "./session-store.js";
import { changeNotification } from "./subscriptions.js";
import { errorCodeOf, requestAttributes, startSpan } from "./telemetry.js";

/** How long a server-to-client request waits for its answer. */
const PEER_TIMEOUT_MS = 60_000;

/** One legacy session (Mcp-Session-Id on HTTP; the whole connection on stdio). */
export class LegacySession implements SessionControl {
  /** The session's id (HTTP: Mcp-Session-Id): random, so it cannot be guessed. */
  readonly id: string;
  /** The version negotiated by `initialize` (empty before). */
  protocolVersion = "";
  /** The capabilities the client declared in `initialize`. */
  clientCapabilities: Record<string, unknown> = {};
  /** Who the client said it is in `initialize`. */
  clientInfo?: { name: string; version: string };
  /** The least severe level the client asked logs for (`logging/setLevel`); none before it asks. */
  logLevel?: LogLevel;
  /** The resources the client subscribed to (`resources/subscribe`). */
  readonly subscriptions = new Set<string>();
  /** The standalone stream (HTTP GET; stdio: the connection), for notifications that belong to no request. */
  standalone?: NotificationSink;
  /** Requests running in this session, by id, for notifications/cancelled. */
  readonly running = new Map<JsonRpcId, AbortController>();
  /** Set once the session ended here (closed, or ended on another instance). */
  closed = false;
  private readonly closing = new AbortController();
  /** Called after the client changed what the session keeps (log level, subscriptions): a shared session saves it. */
  onChange?: () => Promise<void>;
  /** Called once when the session ends here. */
  onClosed?: () => void;
  private readonly protocol: ProtocolModule;
  /** Requests this server sent to the client, waiting for answers. */
  private readonly pending = new PendingRequests({
    timeoutMs: PEER_TIMEOUT_MS,
    idPrefix: "mcp-gen-",
  });
  private readonly unlisten: () => void;

  /**
   * A new session, or with `restored` one opened on another instance of
   * the server (a shared session store), rebuilt from its record.
   */
  constructor(
    private readonly server: ServerFeatures,
    restored?: { readonly id: string; readonly record: SessionRecord },
  ) {
    if (!server.legacy) throw new Error("this server serves no legacy era");
    this.protocol = server.legacy;
    this.id = restored?.id ?? randomUUID();
    if (restored) this.restore(restored.record);
    this.unlisten = server.changes.add({
      deliver: (change) => {
        if (change.kind === "resource" && !this.subscriptions.has(change.uri)) return;
        // Extensions' notifications are for listen streams that asked for their keys (2026-07-28).
        if (change.kind === "keyed") return;
        this.standalone?.notify(changeNotification(change));
      },
    });
  }

  /** Serves one message of this session (for `initialize`, the one that opens it). */
  async serve(message: JsonRpcMessage, exchange: Exchange): Promise<Outcome> {
    const parsed = this.protocol.parseMessage(message);
    if (!parsed.ok)
      return { response: errorResponse(parsed.id ?? message.id, parsed.error), refused: true };
    const method = message.method as string;
    const params = paramsOf(message);
    if (!("id" in message)) {
      if (method === "notifications/cancelled")
        this.running.get(params.requestId as JsonRpcId)?.abort();
      return {};
    }
    const id = message.id as JsonRpcId;
    if (!requestEntry(this.protocol, method, "server") || !this.server.offers(method))
      return { response: errorResponse(id, methodNotFound(method).toJSON()) };
    const controller = new AbortController();
    const abort = () => controller.abort();
    exchange.signal.addEventListener("abort", abort, { once: true });
    this.running.set(id, controller);
    const scoped = {
      sink: exchange.sink,
      signal: controller.signal,
      authorization: exchange.authorization,
    };
    const meta = isJsonObject(params._meta) ? params._meta : {};
    const { name, attributes } = requestAttributes(method, id, this.protocolVersion, params);
    const span = await startSpan(name, "server", attributes, traceContextOf(meta));
    try {
      const outcome = await span.run(() => this.answer(method, params, id, scoped, span.trace));
      span.end(errorCodeOf(outcome));
      return outcome;
    } finally {
      this.running.delete(id);
      exchange.signal.removeEventListener("abort", abort);
    }
  }

  /** Routes a request of this session and checks its result, or answers with the error its handler threw. */
  private async answer(
    method: string,
    params: Record<string, unknown>,
    id: JsonRpcId,
    scoped: Exchange,
    trace: TraceContext | undefined,
  ): Promise<Outcome> {
    try {
      const result = await route({
        era: "legacy",
        server: this.server,
        method,
        params,
        id,
        exchange: scoped,
        session: this,
        withContext: async (run) => run(this.context(method, params, scoped, trace)),
      });
      return { response: resultResponse(id, this.checkResult(method, result ?? {})) };
    } catch (error) {
      return {
        response: errorResponse(id, handlerError(this.server, method, error, this.protocol)),
      };
    }
  }

  /** Routes the client's answer to a request this server sent; false when no request waits for it. */
  receive(answer: JsonRpcMessage): boolean {
    return this.pending.settle(answer);
  }

  /** What another instance needs to serve this session, for `owner`. */
  record(owner: string | undefined): SessionRecord {
    return {
      protocolVersion: this.protocolVersion,
      clientCapabilities: this.clientCapabilities,
      ...(this.clientInfo ? { clientInfo: this.clientInfo } : {}),
      ...(this.logLevel ? { logLevel: this.logLevel } : {}),
      subscriptions: [...this.subscriptions],
      ...(owner === undefined ? {} : { owner }),
    };
  }

  /** Takes the state another instance saved (the client changed it there). */
  restore(record: SessionRecord): void {
    this.protocolVersion = record.protocolVersion;
    this.clientCapabilities = { ...record.clientCapabilities };
    this.clientInfo = record.clientInfo && { ...record.clientInfo };
    this.logLevel = record.logLevel;
    this.subscriptions.clear();
    for (const uri of record.subscriptions) this.subscriptions.add(uri);
  }

  /** Aborted when the session ends (here, or on another instance): its GET stream ends with it. */
  get closedSignal(): AbortSignal {
    return this.closing.signal;
  }

  /** Ends the session: pending requests fail, running ones are aborted, change delivery stops. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.closing.abort();
    this.onClosed?.();
    this.unlisten();
    this.pending.close("session closed");
    for (const controller of this.running.values()) controller.abort();
  }

  /**
   * `initialize`: negotiates the version, records the client, declares the
   * server. What the session would keep of the client (its capabilities
   * and clientInfo) past maxClientInfoBytes is refused with -32602.
   */
  initialize(params: Readonly<Record<string, unknown>>): Result {
    keepWithin(
      { capabilities: params.capabilities, clientInfo: params.clientInfo },
      this.server.limits,
      "maxClientInfoBytes",
      "the capabilities and clientInfo of initialize",
    );
    const requested = params.protocolVersion as string;
    this.protocolVersion = LEGACY_REVISIONS.includes(requested)
      ? requested
      : this.protocol.PROTOCOL_VERSION;
    this.clientCapabilities = (params.capabilities ?? {}) as Record<string, unknown>;
    this.clientInfo = params.clientInfo as { name: string; version: string };
    const { extensions: _extensions, ...capabilities } = this.server.capabilities();
    const result: Result = {
      protocolVersion: this.protocolVersion,
      capabilities,
      serverInfo: this.server.info,
    };
    if (this.server.instructions !== undefined) result.instructions = this.server.instructions;
    return result;
  }

  /** `logging/setLevel`. */
  setLogLevel(level: string): Promise<void> | undefined {
    if (!(LOG_LEVELS as readonly string[]).includes(level)) return;
    this.logLevel = level as LogLevel;
    return this.onChange?.();
  }

  /** `resources/subscribe`; -32602 when the session's subscriptions would pass maxListenFilterBytes. */
  subscribe(uri: string): Promise<void> | undefined {
    if (!this.subscriptions.has(uri))
      keepWithin(
        [...this.subscriptions, uri],
        this.server.limits,
        "maxListenFilterBytes",
        "the session's resource subscriptions",
      );
    this.subscriptions.add(uri);
    return this.onChange?.();
  }

  /** `resources/unsubscribe`. */
  unsubscribe(uri: string): Promise<void> | undefined {
    this.subscriptions.delete(uri);
    return this.onChange?.();
  }

  /**
   * Sends a request to the client on `sink` (the stream of the request
   * whose handler asks) and waits for its answer. The client's error
   * answer fails the handler's request with -32603 naming it.
   */
  private request(
    method: InputMethod,
    params: Record<string, unknown> | undefined,
    sink: NotificationSink,
    signal: AbortSignal,
  ): Promise<unknown> {
    return this.pending
      .request(method, params, (request) => sink.notify(request), { signal })
      .catch((error: unknown) => {
        if (!(error instanceof RemoteError)) throw error;
        throw new McpError(
          Codes.InternalError,
          `the client answered with an error: ${error.message}`,
          error.toJSON(),
        );
      });
  }

  private context(
    method: string,
    params: Record<string, unknown>,
    exchange: Exchange,
    trace: TraceContext | undefined,
  ): LegacyContext {
    const check = (kind: InputMethod, answer: unknown) =>
      validateDefinition(this.protocol, INPUT_KINDS[kind].answer, answer).ok;
    return new LegacyContext({
      method,
      protocolVersion: this.protocolVersion,
      clientCapabilities: this.clientCapabilities,
      meta: (params._meta ?? {}) as Record<string, unknown>,
      signal: exchange.signal,
      sink: exchange.sink,
      serverSide: this.server,
      clientInfo: this.clientInfo,
      peer: (kind, input, signal) => this.request(kind, input, exchange.sink, signal),
      threshold: () => this.logLevel,
      check,
      authorization: exchange.authorization,
      trace,
    });
  }

  /** Legacy results carry none of the modern fields; checked against the legacy schema. */
  private checkResult(method: string, result: Result): Result {
    const { resultType: _r, ttlMs: _t, cacheScope: _c, ...plain } = result;
    checkOutgoingMeta(plain._meta, `${method} result`);
    if (!this.server.validateResults) return plain;
    const definition = this.protocol.METHODS[method]?.results.complete;
    const verdict = definition
      ? validateDefinition(this.protocol, definition, plain)
      : { ok: true as const };
    if (verdict.ok) return plain;
    this.server.onError(
      new Error(
        `invalid ${method} result: ${verdict.errors.map((e) => `${e.path} ${e.message}`).join("; ")}`,
      ),
      `${method} handler`,
    );
    throw new McpError(
      Codes.InternalError,
      "Internal error: the server produced an invalid result",
    );
  }
}
