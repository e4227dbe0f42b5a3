/**
 * The legacy era: clients of 2025-11-25 (and the versions it negotiates
 * with) that open with `initialize` and keep a session. Served on the same
 * endpoint as the modern era, with the same handlers: input requests
 * become real server-to-client requests on the session, logging follows
 * `logging/setLevel`, and resource subscriptions are per session (spec:
 * versioning, backward compatibility).
 */
import { randomUUID } from "node:crypto";
import {
  INPUT_KINDS,
  LegacyContext,
  LOG_LEVELS,
  type InputMethod,
  type LogLevel,
  type NotificationSink,
} from "./context.js";
import { Codes, McpError } from "./errors.js";
import { errorResponse, statusOf, type Exchange, type Outcome } from "./modern.js";
import { validateDefinition, type ProtocolModule } from "./protocol.js";
import type { McpServer } from "./server.js";

/** Versions a legacy client may ask for; the server answers with its legacy revision when it asks for another. */
const NEGOTIABLE = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];

/** How long a server-to-client request waits for its answer. */
const PEER_TIMEOUT_MS = 60_000;

/** One legacy session (Mcp-Session-Id on HTTP; the whole connection on stdio). */
export class LegacySession {
  readonly id = randomUUID();
  protocolVersion = "";
  clientCapabilities: Record<string, unknown> = {};
  clientInfo?: { name: string; version: string };
  logLevel?: LogLevel;
  readonly subscriptions = new Set<string>();
  /** The standalone stream (HTTP GET), for notifications that belong to no request. */
  standalone?: NotificationSink;
  private readonly pending = new Map<
    string,
    { resolve: (value: unknown) => void; reject: (error: Error) => void }
  >();
  private next = 0;
  private readonly unlisten: () => void;
  /** Requests running in this session, by id, for notifications/cancelled. */
  readonly running = new Map<string | number, AbortController>();

  constructor(private readonly server: McpServer) {
    this.unlisten = server.changes.add({
      deliver: (change) => {
        if (change.kind === "resource" && !this.subscriptions.has(change.uri)) return;
        const params = change.kind === "resource" ? { uri: change.uri } : {};
        this.standalone?.notify({
          jsonrpc: "2.0",
          method:
            change.kind === "resource"
              ? "notifications/resources/updated"
              : `notifications/${change.kind}/list_changed`,
          params,
        });
      },
    });
  }

  /** Sends a request to the client on `sink` and waits for its answer. */
  request(
    method: InputMethod,
    params: Record<string, unknown> | undefined,
    sink: NotificationSink,
    signal: AbortSignal,
  ): Promise<unknown> {
    const id = `mcp-gen-${++this.next}`;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () =>
          settle(() =>
            reject(
              new McpError(Codes.InternalError, `the client did not answer ${method} in time`),
            ),
          ),
        PEER_TIMEOUT_MS,
      );
      const onAbort = () =>
        settle(() => reject(new McpError(Codes.InternalError, "request cancelled")));
      const settle = (action: () => void) => {
        clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
        this.pending.delete(id);
        action();
      };
      signal.addEventListener("abort", onAbort, { once: true });
      this.pending.set(id, {
        resolve: (v) => settle(() => resolve(v)),
        reject: (e) => settle(() => reject(e)),
      });
      sink.notify(
        params === undefined
          ? { jsonrpc: "2.0", id, method }
          : { jsonrpc: "2.0", id, method, params },
      );
    });
  }

  /** Routes a JSON-RPC response from the client to the request waiting for it; false when none is. */
  receive(message: Record<string, unknown>): boolean {
    const waiter = this.pending.get(String(message.id));
    if (!waiter) return false;
    if ("error" in message) {
      const error = message.error as { code?: number; message?: string };
      waiter.reject(
        new McpError(
          Codes.InternalError,
          `the client answered with an error: ${error.message ?? "unknown"}`,
          error,
        ),
      );
    } else waiter.resolve(message.result);
    return true;
  }

  /** Ends the session: pending requests fail, change delivery stops. */
  close(): void {
    this.unlisten();
    for (const waiter of this.pending.values())
      waiter.reject(new McpError(Codes.InternalError, "session closed"));
    this.pending.clear();
    for (const controller of this.running.values()) controller.abort();
  }
}

/** The sessions of one server. */
export class LegacySessions {
  private readonly sessions = new Map<string, LegacySession>();

  constructor(private readonly server: McpServer) {}

  create(): LegacySession {
    const session = new LegacySession(this.server);
    this.sessions.set(session.id, session);
    return session;
  }

  get(id: string): LegacySession | undefined {
    return this.sessions.get(id);
  }

  delete(id: string): boolean {
    const session = this.sessions.get(id);
    session?.close();
    return this.sessions.delete(id);
  }
}

function legacyProtocol(server: McpServer): ProtocolModule {
  if (!server.legacy) throw new Error("this server serves no legacy era");
  return server.legacy;
}

/** Serves one legacy-era message in `session` (for `initialize`, the session it opens). */
export async function handleLegacy(
  server: McpServer,
  session: LegacySession,
  message: Record<string, unknown>,
  exchange: Exchange,
): Promise<Outcome> {
  const protocol = legacyProtocol(server);
  const parsed = protocol.parseMessage(message);
  if (!parsed.ok)
    return {
      response: errorResponse(parsed.id ?? message.id, parsed.error),
      status: statusOf(parsed.error.code),
    };
  const method = message.method as string;
  const params = (message.params ?? {}) as Record<string, unknown>;
  if (!("id" in message)) {
    if (method === "notifications/cancelled")
      session.running.get(params.requestId as string | number)?.abort();
    return { status: 202 };
  }
  const id = message.id as string | number;
  const entry = protocol.METHODS[method];
  if (
    !entry ||
    (entry.direction !== "client-to-server" && entry.direction !== "both") ||
    !server.offers(method)
  ) {
    return {
      response: errorResponse(id, {
        code: Codes.MethodNotFound,
        message: "Method not found",
        data: { method },
      }),
      status: 200,
    };
  }
  const controller = new AbortController();
  const abort = () => controller.abort();
  exchange.signal.addEventListener("abort", abort, { once: true });
  session.running.set(id, controller);
  try {
    const result = await routeLegacy(server, session, method, params, {
      sink: exchange.sink,
      signal: controller.signal,
    });
    return {
      response: { jsonrpc: "2.0", id, result: checkLegacyResult(server, protocol, method, result) },
      status: 200,
    };
  } catch (error) {
    if (error instanceof McpError)
      return { response: errorResponse(id, error.toJSON()), status: 200 };
    server.onError(error, `${method} handler`);
    return {
      response: errorResponse(id, { code: Codes.InternalError, message: "Internal error" }),
      status: 200,
    };
  } finally {
    session.running.delete(id);
    exchange.signal.removeEventListener("abort", abort);
  }
}

async function routeLegacy(
  server: McpServer,
  session: LegacySession,
  method: string,
  params: Record<string, unknown>,
  exchange: Exchange,
): Promise<Record<string, unknown>> {
  switch (method) {
    case "initialize":
      return initialize(server, session, params);
    case "ping":
      return {};
    case "logging/setLevel":
      session.logLevel = params.level as LogLevel;
      return {};
    case "resources/subscribe":
      session.subscriptions.add(params.uri as string);
      return {};
    case "resources/unsubscribe":
      session.subscriptions.delete(params.uri as string);
      return {};
    case "tools/list":
      return server.listTools(params);
    case "resources/list":
      return server.listResources(params);
    case "resources/templates/list":
      return server.listResourceTemplates(params);
    case "prompts/list":
      return server.listPrompts(params);
    default: {
      const ctx = legacyContext(server, session, method, params, exchange);
      if (method === "tools/call") return server.callTool(params, ctx);
      if (method === "resources/read")
        return server.readResource(
          params,
          ctx,
          (uri) => new McpError(-32002, "Resource not found", { uri }),
        );
      if (method === "prompts/get") return server.getPrompt(params, ctx);
      if (method === "completion/complete") return server.complete(params, ctx);
      const custom = server.customMethod(method);
      if (custom)
        return custom(params, ctx) as Record<string, unknown> | Promise<Record<string, unknown>>;
      throw new McpError(Codes.MethodNotFound, "Method not found", { method });
    }
  }
}

/** The `initialize` result: negotiates the version, records the client, declares the server. */
function initialize(
  server: McpServer,
  session: LegacySession,
  params: Record<string, unknown>,
): Record<string, unknown> {
  const requested = params.protocolVersion as string;
  session.protocolVersion = NEGOTIABLE.includes(requested)
    ? requested
    : legacyProtocol(server).PROTOCOL_VERSION;
  session.clientCapabilities = (params.capabilities ?? {}) as Record<string, unknown>;
  session.clientInfo = params.clientInfo as { name: string; version: string };
  const { extensions: _extensions, ...capabilities } = server.capabilities();
  const result: Record<string, unknown> = {
    protocolVersion: session.protocolVersion,
    capabilities,
    serverInfo: server.info,
  };
  if (server.instructions !== undefined) result.instructions = server.instructions;
  return result;
}

function legacyContext(
  server: McpServer,
  session: LegacySession,
  method: string,
  params: Record<string, unknown>,
  exchange: Exchange,
): LegacyContext {
  const protocol = legacyProtocol(server);
  const check = (kind: InputMethod, answer: unknown) =>
    validateDefinition(protocol, INPUT_KINDS[kind].answer, answer).ok;
  const meta = (params._meta ?? {}) as Record<string, unknown>;
  return new LegacyContext(
    method,
    session.protocolVersion,
    session.clientCapabilities,
    meta,
    exchange.signal,
    exchange.sink,
    server,
    session.clientInfo,
    (kind, input, signal) => session.request(kind, input, exchange.sink, signal),
    () =>
      session.logLevel && (LOG_LEVELS as readonly string[]).includes(session.logLevel)
        ? session.logLevel
        : undefined,
    check,
  );
}

/** Legacy results carry none of the modern fields; checked against the legacy schema. */
function checkLegacyResult(
  server: McpServer,
  protocol: ProtocolModule,
  method: string,
  result: Record<string, unknown>,
): Record<string, unknown> {
  const { resultType: _r, ttlMs: _t, cacheScope: _c, ...plain } = result;
  if (!server.validateResults) return plain;
  const definition = protocol.METHODS[method]?.results.complete;
  const verdict = definition
    ? validateDefinition(protocol, definition, plain)
    : { ok: true as const };
  if (verdict.ok) return plain;
  server.onError(
    new Error(
      `invalid ${method} result: ${verdict.errors.map((e) => `${e.path} ${e.message}`).join("; ")}`,
    ),
    `${method} handler`,
  );
  throw new McpError(Codes.InternalError, "Internal error: the server produced an invalid result");
}
