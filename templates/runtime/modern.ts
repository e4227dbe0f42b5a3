/**
 * The modern era (2026-07-28 and on): stateless requests, each carrying
 * its protocol version and client capabilities in `_meta`. Checks the
 * version, validates the request against its exact definition, routes it,
 * runs Multi Round-Trip Requests, and shapes the result (resultType,
 * caching hints, serverInfo), checking it against the schema before it
 * leaves.
 */
import {
  INPUT_KINDS,
  InputRequired,
  ModernContext,
  type InputMethod,
  type NotificationSink,
} from "./context.js";
import { Codes, McpError } from "./errors.js";
import { validateDefinition, type JsonRpcErrorObject } from "./protocol.js";
import { paramsDigest } from "./request-state.js";
import type { McpServer } from "./server.js";

/** One request's connection to its transport. */
export interface Exchange {
  /** The request's own stream, for its notifications (progress, logs, listen notifications). */
  readonly sink: NotificationSink;
  /** Aborted when the client goes away. */
  readonly signal: AbortSignal;
}

/** What to answer: a JSON-RPC response (none for notifications) and the HTTP status it goes with. */
export interface Outcome {
  readonly response?: Record<string, unknown>;
  readonly status: number;
}

/** `_meta` keys of the modern envelope. */
export const META = {
  protocolVersion: "io.modelcontextprotocol/protocolVersion",
  clientCapabilities: "io.modelcontextprotocol/clientCapabilities",
  clientInfo: "io.modelcontextprotocol/clientInfo",
  serverInfo: "io.modelcontextprotocol/serverInfo",
  subscriptionId: "io.modelcontextprotocol/subscriptionId",
} as const;

/** Results that carry caching hints (spec: caching). */
const CACHEABLE = new Set([
  "tools/list",
  "prompts/list",
  "resources/list",
  "resources/templates/list",
  "resources/read",
  "server/discover",
]);

/** A JSON-RPC error response. */
export function errorResponse(id: unknown, error: JsonRpcErrorObject): Record<string, unknown> {
  return {
    jsonrpc: "2.0",
    id: typeof id === "string" || typeof id === "number" ? id : null,
    error,
  };
}

/** The HTTP status a pre-dispatch error goes with (spec: Streamable HTTP, request metadata). */
export function statusOf(code: number): number {
  if (code === Codes.MethodNotFound) return 404;
  if (code === Codes.InternalError) return 500;
  return 400;
}

function fail(id: unknown, error: McpError): Outcome {
  return { response: errorResponse(id, error.toJSON()), status: error.httpStatus };
}

/** Serves one modern-era message (already parsed from JSON). */
export async function handleModern(
  server: McpServer,
  message: Record<string, unknown>,
  exchange: Exchange,
): Promise<Outcome> {
  const id = message.id;
  const params = (message.params ?? {}) as Record<string, unknown>;
  const meta = (params._meta ?? {}) as Record<string, unknown>;
  const version = meta[META.protocolVersion];
  const supported = server.protocol.PROTOCOL_VERSION;
  if (typeof version === "string" && version !== supported) {
    return fail(
      id,
      new McpError(
        Codes.UnsupportedProtocolVersion,
        `Unsupported protocol version: ${version}`,
        { supported: [supported], requested: version },
        400,
      ),
    );
  }
  const parsed = server.protocol.parseMessage(message);
  if (!parsed.ok)
    return {
      response: errorResponse(parsed.id ?? id, parsed.error),
      status: statusOf(parsed.error.code),
    };
  if (!("id" in message)) return { status: 202 };
  const method = message.method as string;
  const entry = server.protocol.METHODS[method];
  if (
    !entry ||
    (entry.direction !== "client-to-server" && entry.direction !== "both") ||
    !server.offers(method)
  ) {
    return fail(id, new McpError(Codes.MethodNotFound, "Method not found", { method }, 404));
  }
  try {
    const result = await route(server, method, params, meta, entry.mrtr, exchange, id);
    if (result === undefined) return { status: 200 };
    return {
      response: {
        jsonrpc: "2.0",
        id,
        result: checkResult(server, method, shape(server, method, result)),
      },
      status: 200,
    };
  } catch (error) {
    if (error instanceof McpError) return fail(id, error);
    server.onError(error, `${method} handler`);
    return fail(id, new McpError(Codes.InternalError, "Internal error"));
  }
}

async function route(
  server: McpServer,
  method: string,
  params: Record<string, unknown>,
  meta: Record<string, unknown>,
  mrtr: boolean,
  exchange: Exchange,
  id: unknown,
): Promise<Record<string, unknown> | undefined> {
  switch (method) {
    case "server/discover":
      return discover(server);
    case "tools/list":
      return server.listTools(params);
    case "resources/list":
      return server.listResources(params);
    case "resources/templates/list":
      return server.listResourceTemplates(params);
    case "prompts/list":
      return server.listPrompts(params);
    case "subscriptions/listen":
      return listen(server, params, exchange, id);
    default:
      return withInputs(server, method, params, meta, mrtr, exchange, (ctx) => {
        if (method === "tools/call") return server.callTool(params, ctx);
        if (method === "resources/read")
          return server.readResource(
            params,
            ctx,
            (uri) => new McpError(Codes.InvalidParams, `Resource not found: ${uri}`, { uri }),
          );
        if (method === "prompts/get") return server.getPrompt(params, ctx);
        if (method === "completion/complete") return server.complete(params, ctx);
        const custom = server.customMethod(method);
        if (custom)
          return custom(params, ctx) as Record<string, unknown> | Promise<Record<string, unknown>>;
        throw new McpError(Codes.MethodNotFound, "Method not found", { method }, 404);
      });
  }
}

/** The `server/discover` result. */
function discover(server: McpServer): Record<string, unknown> {
  const result: Record<string, unknown> = {
    supportedVersions: [server.protocol.PROTOCOL_VERSION],
    capabilities: server.capabilities(),
  };
  if (server.instructions !== undefined) result.instructions = server.instructions;
  return result;
}

/**
 * Runs a feature handler with a modern context. Answers from earlier rounds
 * come back out of the sealed requestState; when the handler needs input it
 * does not have, the request answers with an InputRequiredResult that asks
 * for it and seals what it has so far.
 */
async function withInputs(
  server: McpServer,
  method: string,
  params: Record<string, unknown>,
  meta: Record<string, unknown>,
  mrtr: boolean,
  exchange: Exchange,
  run: (ctx: ModernContext) => Record<string, unknown> | Promise<Record<string, unknown>>,
): Promise<Record<string, unknown>> {
  const digest = mrtr ? paramsDigest(params) : "";
  const sealed =
    typeof params.requestState === "string"
      ? server.requestState.open(params.requestState, method, digest)
      : undefined;
  const responses =
    params.inputResponses && typeof params.inputResponses === "object"
      ? (params.inputResponses as Record<string, unknown>)
      : {};
  const check = (kind: InputMethod, answer: unknown) =>
    validateDefinition(server.protocol, INPUT_KINDS[kind].answer, answer).ok;
  const ctx = new ModernContext(
    method,
    server.protocol.PROTOCOL_VERSION,
    (meta[META.clientCapabilities] ?? {}) as Record<string, unknown>,
    meta,
    exchange.signal,
    exchange.sink,
    server,
    meta[META.clientInfo] as { name: string; version: string } | undefined,
    { ...(sealed?.a ?? {}), ...responses },
    { ...(sealed?.s ?? {}) },
    mrtr,
    check,
  );
  try {
    return await run(ctx);
  } catch (error) {
    if (!(error instanceof InputRequired) || Object.keys(ctx.inputRequests).length === 0)
      throw error;
    const kept = Object.fromEntries([...ctx.used].map((k) => [k, ctx.answers[k]]));
    return {
      resultType: "input_required",
      inputRequests: ctx.inputRequests,
      requestState: server.requestState.seal(method, digest, kept, ctx.state),
    };
  }
}

/**
 * `subscriptions/listen`: acknowledges with the filter the server agrees
 * to, then streams matching change notifications, each tagged with the
 * listen request's id, until the client closes the stream.
 */
function listen(
  server: McpServer,
  params: Record<string, unknown>,
  exchange: Exchange,
  id: unknown,
): Promise<undefined> {
  const tag = { [META.subscriptionId]: id };
  const filter = server.agreedFilter((params.notifications ?? {}) as Record<string, unknown>);
  exchange.sink.notify({
    jsonrpc: "2.0",
    method: "notifications/subscriptions/acknowledged",
    params: { notifications: filter, _meta: tag },
  });
  const remove = server.changes.add({
    deliver(change) {
      if (!wantsChange(filter, change)) return;
      const params: Record<string, unknown> =
        change.kind === "resource" ? { uri: change.uri, _meta: tag } : { _meta: tag };
      exchange.sink.notify({
        jsonrpc: "2.0",
        method:
          change.kind === "resource"
            ? "notifications/resources/updated"
            : `notifications/${change.kind}/list_changed`,
        params,
      });
    },
  });
  return new Promise((resolve) => {
    const end = () => {
      remove();
      resolve(undefined);
    };
    if (exchange.signal.aborted) end();
    else exchange.signal.addEventListener("abort", end, { once: true });
  });
}

function wantsChange(
  filter: Record<string, unknown>,
  change: { kind: string; uri?: string },
): boolean {
  if (change.kind === "resource")
    return (
      Array.isArray(filter.resourceSubscriptions) &&
      filter.resourceSubscriptions.includes(change.uri)
    );
  return filter[`${change.kind}ListChanged`] === true;
}

/** Adds the protocol fields a handler leaves out: resultType, caching hints, serverInfo. */
function shape(
  server: McpServer,
  method: string,
  result: Record<string, unknown>,
): Record<string, unknown> {
  const shaped: Record<string, unknown> =
    result.resultType === undefined ? { ...result, resultType: "complete" } : { ...result };
  if (CACHEABLE.has(method) && shaped.resultType === "complete") {
    if (shaped.ttlMs === undefined) shaped.ttlMs = server.cache.ttlMs;
    if (shaped.cacheScope === undefined) shaped.cacheScope = server.cache.cacheScope;
  }
  shaped._meta = {
    ...(result._meta ?? {}),
    [META.serverInfo]: server.info,
  };
  return shaped;
}

/** Checks a result against the definition its resultType selects; a handler's mistake becomes -32603 here, not on the wire. */
function checkResult(
  server: McpServer,
  method: string,
  result: Record<string, unknown>,
): Record<string, unknown> {
  if (!server.validateResults) return result;
  const definition = server.protocol.METHODS[method]?.results[result.resultType as string];
  const verdict = definition
    ? validateDefinition(server.protocol, definition, result)
    : {
        ok: false as const,
        errors: [{ path: "/resultType", message: `is not one ${method} may return` }],
      };
  if (verdict.ok) return result;
  server.onError(
    new Error(
      `invalid ${method} result: ${verdict.errors.map((e) => `${e.path} ${e.message}`).join("; ")}`,
    ),
    `${method} handler`,
  );
  throw new McpError(Codes.InternalError, "Internal error: the server produced an invalid result");
}
