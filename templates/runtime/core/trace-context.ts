/**
 * W3C Trace Context in `_meta` (spec: basic, `_meta`, OpenTelemetry trace
 * context): `traceparent` and `tracestate` of a request are carried into
 * what its handler sends on (input requests, tasks), so one trace spans
 * the client, the server and the client again. Values that do not follow
 * the W3C format are dropped, never passed on.
 */

/** A request's trace context, as `_meta` carries it. */
export interface TraceContext {
  /** `00-<32 hex trace-id>-<16 hex parent-id>-<2 hex flags>`. */
  readonly traceparent: string;
  readonly tracestate?: string;
}

/** The `_meta` keys of the trace context (reserved by the spec, without a prefix). */
export const TRACE_KEYS = { traceparent: "traceparent", tracestate: "tracestate" } as const;

/**
 * W3C Trace Context §3.2: version 00 is exactly this; a later version may
 * add fields after the flags, which a version-00 reader ignores.
 */
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
/** W3C Trace Context §3.3: list members of printable ASCII without `,` and `=` in keys; 512 characters is what every vendor must carry. */
const TRACESTATE = /^[\x20-\x7e]{1,512}$/;

/** The trace context in `meta`, or undefined when it has none or a malformed `traceparent`. */
export function traceContextOf(meta: Readonly<Record<string, unknown>>): TraceContext | undefined {
  const traceparent = meta[TRACE_KEYS.traceparent];
  if (typeof traceparent !== "string" || !isValidTraceparent(traceparent)) return undefined;
  const tracestate = meta[TRACE_KEYS.tracestate];
  return typeof tracestate === "string" && TRACESTATE.test(tracestate)
    ? { traceparent, tracestate }
    : { traceparent };
}

/** Whether `value` is a traceparent a version-00 reader accepts (no all-zero ids, no version ff). */
export function isValidTraceparent(value: string): boolean {
  const match = TRACEPARENT.exec(value);
  if (!match) return false;
  const [, version, traceId, parentId, , rest] = match;
  if (version === "ff") return false;
  if (version === "00" && rest !== undefined) return false;
  return !/^0+$/.test(traceId!) && !/^0+$/.test(parentId!);
}

/** A version-00 traceparent. */
export function formatTraceparent(traceId: string, spanId: string, flags: number): string {
  return `00-${traceId}-${spanId}-${(flags & 0xff).toString(16).padStart(2, "0")}`;
}

/**
 * `params` with `trace` added to its `_meta` (a trace context the handler
 * set there itself stays as it is); `params` unchanged without a trace.
 */
export function withTraceContext(
  params: Record<string, unknown> | undefined,
  trace: TraceContext | undefined,
): Record<string, unknown> | undefined {
  if (trace === undefined) return params;
  const meta = isObject(params?._meta) ? params._meta : {};
  if (meta[TRACE_KEYS.traceparent] !== undefined) return params;
  const added: Record<string, unknown> = { [TRACE_KEYS.traceparent]: trace.traceparent };
  if (trace.tracestate !== undefined) added[TRACE_KEYS.tracestate] = trace.tracestate;
  return { ...(params ?? {}), _meta: { ...meta, ...added } };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
