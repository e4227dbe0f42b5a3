/**
 * Multi Round-Trip Requests (2026-07-28; spec: MRTR): a handler asks for
 * input with `ctx.elicit`, `ctx.sample` or `ctx.listRoots`. An answer the
 * client already sent (in `inputResponses`, or sealed in `requestState` by
 * an earlier round) is returned at once; a missing one ends the round with
 * an InputRequiredResult that asks for it and seals what the handler has
 * so far, and the handler runs again on the retry.
 */
import { capabilitiesOf, META } from "../core/era.js";
import type { Exchange } from "../core/exchange.js";
import { isJsonObject } from "../core/jsonrpc.js";
import { traceContextOf, type TraceContext } from "../core/trace-context.js";
import { mrtrResultType, validateDefinition } from "../core/protocol.js";
import { INPUT_KINDS, InputRequired, ModernContext, type InputMethod } from "./context.js";
import type { Result } from "./dispatch.js";
import type { ServerFeatures } from "./features.js";
import { paramsDigest } from "./request-state.js";

/**
 * Runs a feature handler with a modern context for one round of its
 * request. `mrtr` says whether the method may ask for input at all
 * (tools/call, prompts/get, resources/read).
 */
export async function withInputs(
  server: ServerFeatures,
  method: string,
  params: Record<string, unknown>,
  meta: Record<string, unknown>,
  mrtr: boolean,
  exchange: Exchange,
  run: (ctx: ModernContext) => Result | Promise<Result>,
  trace: TraceContext | undefined = traceContextOf(meta),
): Promise<Result> {
  const digest = mrtr ? paramsDigest(params) : "";
  const sealed =
    typeof params.requestState === "string"
      ? server.requestState.open(params.requestState, method, digest)
      : undefined;
  const responses = isJsonObject(params.inputResponses) ? params.inputResponses : {};
  const check = (kind: InputMethod, answer: unknown) =>
    validateDefinition(server.protocol, INPUT_KINDS[kind].answer, answer).ok;
  const ctx = new ModernContext({
    method,
    protocolVersion: server.protocol.PROTOCOL_VERSION,
    clientCapabilities: capabilitiesOf(meta),
    meta,
    signal: exchange.signal,
    sink: exchange.sink,
    serverSide: server,
    clientInfo: meta[META.clientInfo] as { name: string; version: string } | undefined,
    // An answer sealed in an earlier round stands: a later round's inputResponses cannot replace it.
    answers: { ...responses, ...(sealed?.a ?? {}) },
    state: { ...(sealed?.s ?? {}) },
    mrtr,
    check,
    authorization: exchange.authorization,
    trace,
  });
  try {
    return await run(ctx);
  } catch (error) {
    if (!(error instanceof InputRequired) || Object.keys(ctx.inputRequests).length === 0)
      throw error;
    const kept = Object.fromEntries([...ctx.used].map((k) => [k, ctx.answers[k]]));
    return {
      resultType: mrtrResultType(server.protocol),
      inputRequests: ctx.inputRequests,
      requestState: server.requestState.seal(method, digest, kept, ctx.state),
    };
  }
}
