/**
 * OpenTelemetry spans, when the project has @opentelemetry/api installed
 * (an optional peer dependency): one span per request the server answers
 * (kind SERVER, named after the method and its target) and one per tool
 * call (`execute_tool <name>`, its child), each the child of the
 * request's `traceparent` when it has one. The API is loaded with a
 * dynamic import of a name the compiler does not resolve, so a project
 * without it compiles and runs; spans then are not made, and the incoming
 * trace context is carried on as it came. Without an SDK registered, the
 * API makes no spans either and hands the incoming context on.
 *
 * Attributes follow the OpenTelemetry conventions for MCP and JSON-RPC:
 * `mcp.method.name`, `jsonrpc.request.id`, `mcp.protocol.version`,
 * `gen_ai.tool.name` and `gen_ai.operation.name` ("execute_tool"),
 * `gen_ai.prompt.name`, `mcp.resource.uri`; an error answer sets
 * `rpc.jsonrpc.error_code`, `error.type` (the code) and the ERROR status,
 * and a tool result with isError sets `error.type` "tool_error".
 */
import type { Outcome } from "../core/exchange.js";
import { formatTraceparent, type TraceContext } from "../core/trace-context.js";
import { BaseContext, InputRequired, type RequestContext } from "./context.js";

/** The package loaded when present; a variable, so the compiler never needs its types. */
const OTEL_API: string = "@opentelemetry/api";

/** What the runtime uses of @opentelemetry/api (1.x). */
interface OtelSpanContext {
  readonly traceId: string;
  readonly spanId: string;
  readonly traceFlags: number;
  readonly isRemote?: boolean;
  readonly traceState?: { serialize(): string };
}
interface OtelSpan {
  spanContext(): OtelSpanContext;
  setAttribute(key: string, value: string | number): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  end(): void;
}
interface OtelApi {
  readonly ROOT_CONTEXT: unknown;
  readonly SpanKind: { readonly SERVER: number; readonly INTERNAL: number };
  readonly SpanStatusCode: { readonly ERROR: number };
  readonly trace: {
    getTracer(name: string): {
      startSpan(
        name: string,
        options: { kind: number; attributes: Attributes },
        context: unknown,
      ): OtelSpan;
    };
    setSpan(context: unknown, span: OtelSpan): unknown;
    setSpanContext(context: unknown, spanContext: OtelSpanContext): unknown;
    isSpanContextValid(spanContext: OtelSpanContext): boolean;
  };
  readonly context: { with<R>(context: unknown, work: () => R): R };
  createTraceState?(raw: string): { serialize(): string };
}

/** Span attributes. */
export type Attributes = Record<string, string | number>;

/** A span in progress, or its stand-in when there is no OpenTelemetry. */
export interface Span {
  /** The trace context to hand on from inside the span. */
  readonly trace: TraceContext | undefined;
  /** Runs `work` with the span as the active one (for the handler's own spans). */
  run<R>(work: () => Promise<R>): Promise<R>;
  setAttribute(key: string, value: string | number): void;
  /** Ends the span; an error code marks it failed. */
  end(errorCode?: number): void;
}

let loading: Promise<OtelApi | undefined> | undefined;

/** @opentelemetry/api, once loaded; undefined when the project does not have it. */
function otel(): Promise<OtelApi | undefined> {
  loading ??= import(OTEL_API).then(
    (module: { default?: OtelApi } & Partial<OtelApi>) =>
      module.trace ? (module as OtelApi) : module.default,
    () => undefined,
  );
  return loading;
}

/** The OpenTelemetry context of each trace context a span handed on, for its children. */
const contexts = new WeakMap<TraceContext, unknown>();

/**
 * Starts a span named `name`, the child of `parent` (a span's trace
 * context, or one that came in a request's `_meta`).
 */
export async function startSpan(
  name: string,
  kind: "server" | "internal",
  attributes: Attributes,
  parent: TraceContext | undefined,
): Promise<Span> {
  const api = await otel();
  if (!api) return passThrough(parent);
  const parentContext = contextOf(api, parent);
  const span = api.trace
    .getTracer("mcp-gen")
    .startSpan(
      name,
      { kind: kind === "server" ? api.SpanKind.SERVER : api.SpanKind.INTERNAL, attributes },
      parentContext,
    );
  const active = api.trace.setSpan(parentContext, span);
  const spanContext = span.spanContext();
  const trace = api.trace.isSpanContextValid(spanContext) ? traceOf(spanContext) : parent;
  if (trace) contexts.set(trace, active);
  return {
    trace,
    run: (work) => api.context.with(active, work),
    setAttribute: (key, value) => void span.setAttribute(key, value),
    end(errorCode) {
      if (errorCode !== undefined) {
        span.setAttribute("rpc.jsonrpc.error_code", errorCode);
        span.setAttribute("error.type", String(errorCode));
        span.setStatus({ code: api.SpanStatusCode.ERROR });
      }
      span.end();
    },
  };
}

/** The OpenTelemetry context to start a child of `parent` in. */
function contextOf(api: OtelApi, parent: TraceContext | undefined): unknown {
  if (!parent) return api.ROOT_CONTEXT;
  const known = contexts.get(parent);
  if (known !== undefined) return known;
  const [, traceId, spanId, flags] = parent.traceparent.split("-");
  const traceState =
    parent.tracestate !== undefined ? api.createTraceState?.(parent.tracestate) : undefined;
  return api.trace.setSpanContext(api.ROOT_CONTEXT, {
    traceId: traceId!,
    spanId: spanId!,
    traceFlags: parseInt(flags!, 16),
    isRemote: true,
    ...(traceState ? { traceState } : {}),
  });
}

function traceOf(spanContext: OtelSpanContext): TraceContext {
  const traceparent = formatTraceparent(
    spanContext.traceId,
    spanContext.spanId,
    spanContext.traceFlags,
  );
  const tracestate = spanContext.traceState?.serialize();
  return tracestate ? { traceparent, tracestate } : { traceparent };
}

function passThrough(trace: TraceContext | undefined): Span {
  return { trace, run: (work) => work(), setAttribute() {}, end() {} };
}

/** What names a request's target in its span: the tool, prompt or resource. */
export function requestAttributes(
  method: string,
  id: unknown,
  protocolVersion: string,
  params: Readonly<Record<string, unknown>>,
): { name: string; attributes: Attributes } {
  const attributes: Attributes = {
    "mcp.method.name": method,
    "mcp.protocol.version": protocolVersion,
  };
  if (typeof id === "string" || typeof id === "number")
    attributes["jsonrpc.request.id"] = String(id);
  let target: string | undefined;
  if (method === "tools/call" && typeof params.name === "string")
    attributes["gen_ai.tool.name"] = target = params.name;
  if (method === "prompts/get" && typeof params.name === "string")
    attributes["gen_ai.prompt.name"] = target = params.name;
  if (method === "resources/read" && typeof params.uri === "string")
    attributes["mcp.resource.uri"] = target = params.uri;
  return { name: target === undefined ? method : `${method} ${target}`, attributes };
}

/** The error code an outcome answers with, or undefined for a result (or no response). */
export function errorCodeOf(outcome: Outcome): number | undefined {
  const response = outcome.response;
  return response && "error" in response ? response.error.code : undefined;
}

/**
 * Runs a tool handler in its own span, the child of the request's; inside
 * it, `ctx.trace` is the tool call's, so the input requests and the task
 * the handler starts carry it on. `codeOf` says which code an error
 * answers with (after the error policy).
 */
export async function inToolSpan<R>(
  ctx: RequestContext,
  tool: string,
  codeOf: (error: unknown) => number,
  work: () => Promise<R>,
): Promise<R> {
  const span = await startSpan(
    `execute_tool ${tool}`,
    "internal",
    {
      "mcp.method.name": "tools/call",
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": tool,
    },
    ctx.trace,
  );
  const inTrace = (run: () => Promise<R>) =>
    ctx instanceof BaseContext ? ctx.inTrace(span.trace, run) : run();
  try {
    const result = await inTrace(() => span.run(work));
    if ((result as { isError?: unknown }).isError === true)
      span.setAttribute("error.type", "tool_error");
    span.end();
    return result;
  } catch (error) {
    // A round that asks for input is not a failure: the call goes on in the next round.
    span.end(error instanceof InputRequired ? undefined : codeOf(error));
    throw error;
  }
}
