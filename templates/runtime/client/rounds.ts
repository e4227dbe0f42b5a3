/**
 * Multi Round-Trip Requests as a client drives them: an InputRequiredResult
 * is answered with the client's input handlers and the request sent again
 * with a fresh id, the answers in `inputResponses` and the server's
 * `requestState` echoed as received, up to `maxRounds` rounds. Sending one
 * round is the client's (McpClient.round); this file decides what the next
 * round carries and when to stop.
 */
import { Codes, McpError } from "../core/errors.js";
import { isJsonObject } from "../core/jsonrpc.js";
import { answerInputRequest, type InputHandlers, type InputTypes } from "./inputs.js";
import type { ClientProtocol } from "./protocol.js";

/** How the rounds of one request are sent and answered. */
export interface RoundTrip {
  /** The most rounds before the request fails. */
  readonly maxRounds: number;
  /** The resultType that asks for input (InputRequiredResult's) in the revision spoken. */
  readonly inputRequired: string;
  /** Sends one round with these params and resolves with its checked result. */
  round(params: Readonly<Record<string, unknown>>): Promise<Record<string, unknown>>;
  /** Answers a round's input requests, keyed as the server keyed them. */
  answer(requests: Record<string, unknown>): Promise<Record<string, unknown>>;
}

/**
 * A Multi Round-Trip Request: each InputRequiredResult is answered and the
 * request sent again with a new id, carrying `inputResponses` and the
 * server's `requestState` exactly as received (and neither when the
 * server sent none), until a result completes or `maxRounds` is reached.
 */
export async function completeRounds(
  method: string,
  params: Readonly<Record<string, unknown>>,
  trip: RoundTrip,
): Promise<Record<string, unknown>> {
  const { inputResponses: _responses, requestState: _state, ...original } = params;
  let next: Readonly<Record<string, unknown>> = params;
  for (let round = 1; ; round++) {
    const result = await trip.round(next);
    if (result.resultType !== trip.inputRequired) return result;
    if (round >= trip.maxRounds)
      throw new McpError(
        Codes.InternalError,
        `${method}: the server still asked for input after ${trip.maxRounds} rounds (maxRounds)`,
      );
    const retry: Record<string, unknown> = { ...original };
    if (isJsonObject(result.inputRequests))
      retry.inputResponses = await trip.answer(result.inputRequests);
    if (typeof result.requestState === "string") retry.requestState = result.requestState;
    next = retry;
  }
}

/** Answers every input request of a round (in parallel), keyed as the server keyed them. */
export async function answerInputs(
  requests: Record<string, unknown>,
  signal: AbortSignal | undefined,
  handlers: InputHandlers<InputTypes>,
  protocol: ClientProtocol,
): Promise<Record<string, unknown>> {
  const context = { signal: signal ?? new AbortController().signal };
  const answers = await Promise.all(
    Object.entries(requests).map(async ([key, request]) => {
      const { method, params } = isJsonObject(request) ? request : {};
      const answer = await answerInputRequest(
        { method: String(method), params },
        handlers,
        protocol,
        { ...context, key },
      );
      return [key, answer] as const;
    }),
  );
  return Object.fromEntries(answers);
}
