/**
 * Multi Round-Trip Requests (templates/runtime/server/mrtr.ts, context.ts): a
 * handler asks for input with ctx.elicit / ctx.sample / ctx.listRoots; a
 * missing or invalid answer makes the request answer with an
 * InputRequiredResult that asks for it and seals what is known so far;
 * the retry carries the answers and the sealed requestState (spec: MRTR).
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  paramsDigest,
  RequestStateCodec,
  statusOf,
  type McpServer,
  type Outcome,
  type RequestContext,
} from "../../../templates/runtime/index.js";
import { protocol, request, testServer } from "../../helpers/mcp-client.js";

const codec = new RequestStateCodec(createHash("sha256").update("mrtr test key").digest(), 60_000);
const SEAT_FORM = { type: "object", properties: { seat: { type: "string" } }, required: ["seat"] };
const ELICITATION = { elicitation: { form: {} } };
/** The params digest of the `book` calls below. */
const BOOK_DIGEST = paramsDigest({ name: "book", arguments: { seats: 2 } });

/** A server with a two-question tool, a tool that samples, and a completion handler that (wrongly) asks for input. */
function bookingServer() {
  const runs: Array<Record<string, unknown>> = [];
  const server = testServer({ requestState: codec });
  server.tool(
    { name: "book", inputSchema: { type: "object", properties: { seats: { type: "integer" } } } },
    async (args, ctx: RequestContext) => {
      runs.push({ ...ctx.state });
      ctx.state.rounds = Number(ctx.state.rounds ?? 0) + 1;
      const seat = await ctx.elicit("seat", {
        mode: "form",
        message: "Which seat?",
        requestedSchema: SEAT_FORM,
      });
      const confirm = await ctx.elicit("confirm", {
        mode: "form",
        message: `Book ${String(seat.content?.seat)}?`,
        requestedSchema: { type: "object", properties: {} },
      });
      return {
        content: [
          {
            type: "text",
            text: `${String(args.seats)} x ${String(seat.content?.seat)}: ${confirm.action} after ${String(ctx.state.rounds)} rounds`,
          },
        ],
      };
    },
  );
  server.tool({ name: "summarize", inputSchema: { type: "object" } }, async (_args, ctx) => {
    const answer = await ctx.sample("summary", {
      messages: [{ role: "user", content: { type: "text", text: "Summarize" } }],
      maxTokens: 10,
    });
    return {
      content: [{ type: "text", text: String((answer.content as { text?: string }).text) }],
    };
  });
  server.completions(async (_params, ctx) => {
    await ctx.elicit("never", {
      mode: "form",
      message: "no",
      requestedSchema: { type: "object", properties: {} },
    });
    return { values: [] };
  });
  return { server, runs };
}

const exchange = () => ({ sink: { notify() {} }, signal: new AbortController().signal });

/** One message served as a 2026-07-28 request; its response is read as a result or an error. */
function serve(
  server: McpServer,
  message: Record<string, unknown>,
): Promise<
  Outcome & {
    readonly response?: { readonly result?: Record<string, unknown>; readonly error?: unknown };
  }
> {
  return server.serve(message, exchange());
}

/** Sends one round of tools/call `book` and returns the outcome. */
async function call(
  server: ReturnType<typeof bookingServer>["server"],
  extra: Record<string, unknown> = {},
  capabilities: Record<string, unknown> = ELICITATION,
  name = "book",
) {
  const message = request(
    "tools/call",
    { name, arguments: { seats: 2 }, ...extra },
    1,
    capabilities,
  );
  return serve(server, message);
}

const accept = (content: Record<string, unknown> = {}) => ({ action: "accept", content });

/** A round's result as these tests read it: an InputRequiredResult until the request completes. */
interface RoundResult {
  readonly [key: string]: unknown;
  readonly resultType: string;
  readonly requestState: string;
  readonly inputRequests: Readonly<
    Record<string, { readonly method: string; readonly params: Readonly<Record<string, unknown>> }>
  >;
}

describe("MRTR: input across rounds", () => {
  it("round 1 asks for the first input it needs, with a sealed requestState, and nothing else", async () => {
    const { server } = bookingServer();
    const outcome = await call(server);
    expect(statusOf("modern", outcome)).toBe(200);
    const result = outcome.response!.result as RoundResult;
    expect(result.resultType).toBe("input_required");
    expect(result.inputRequests).toEqual({
      seat: {
        method: "elicitation/create",
        params: { mode: "form", message: "Which seat?", requestedSchema: SEAT_FORM },
      },
    });
    expect(codec.open(result.requestState, "tools/call", BOOK_DIGEST)).toMatchObject({
      m: "tools/call",
      a: {},
      s: { rounds: 1 },
    });
    expect(protocol.parseResponse(outcome.response, "tools/call")).toMatchObject({ ok: true });
  });

  it("answers given in one round are carried to the next in requestState, and the request completes", async () => {
    const { server, runs } = bookingServer();
    const first = (await call(server)).response!.result as RoundResult;
    const second = (
      await call(server, {
        inputResponses: { seat: accept({ seat: "12A" }) },
        requestState: first.requestState,
      })
    ).response!.result as RoundResult;
    expect(second.resultType).toBe("input_required");
    expect(Object.keys(second.inputRequests)).toEqual(["confirm"]);
    expect(second.inputRequests.confirm?.params.message).toBe("Book 12A?");
    // Round 3 sends only the newest answer: the first comes back out of the sealed state.
    const third = await call(server, {
      inputResponses: { confirm: { action: "accept" } },
      requestState: second.requestState,
    });
    expect(third.response!.result).toMatchObject({
      resultType: "complete",
      content: [{ type: "text", text: "2 x 12A: accept after 3 rounds" }],
    });
    expect(runs).toEqual([{}, { rounds: 1 }, { rounds: 2 }]);
  });

  it("an answer sealed in an earlier round cannot be replaced by a later round's inputResponses", async () => {
    const { server } = bookingServer();
    const first = (await call(server)).response!.result as RoundResult;
    const second = (
      await call(server, {
        inputResponses: { seat: accept({ seat: "12A" }) },
        requestState: first.requestState,
      })
    ).response!.result as RoundResult;
    const third = await call(server, {
      inputResponses: { seat: accept({ seat: "1A" }), confirm: { action: "accept" } },
      requestState: second.requestState,
    });
    expect(third.response!.result).toMatchObject({
      content: [{ type: "text", text: "2 x 12A: accept after 3 rounds" }],
    });
  });

  it("a missing answer is asked for again (an InputRequiredResult, not an error)", async () => {
    const { server } = bookingServer();
    const first = (await call(server)).response!.result as RoundResult;
    const retry = (await call(server, { requestState: first.requestState })).response!
      .result as RoundResult;
    expect(retry.resultType).toBe("input_required");
    expect(Object.keys(retry.inputRequests)).toEqual(["seat"]);
  });

  it("an answer of the wrong kind (a ListRootsResult for an elicitation) is asked for again", async () => {
    const { server } = bookingServer();
    const first = (await call(server)).response!.result as RoundResult;
    const retry = (
      await call(server, {
        inputResponses: { seat: { roots: [] } },
        requestState: first.requestState,
      })
    ).response!.result as RoundResult;
    expect(retry.resultType).toBe("input_required");
    expect(Object.keys(retry.inputRequests)).toEqual(["seat"]);
    expect(codec.open(retry.requestState, "tools/call", BOOK_DIGEST).a).toEqual({});
  });

  it("answers nobody asked for are ignored: not used, and not sealed into the next state", async () => {
    const { server } = bookingServer();
    const round = (
      await call(server, {
        inputResponses: { seat: accept({ seat: "3C" }), bogus: accept({ x: "y" }) },
      })
    ).response!.result as RoundResult;
    expect(Object.keys(round.inputRequests)).toEqual(["confirm"]);
    expect(codec.open(round.requestState, "tools/call", BOOK_DIGEST).a).toEqual({
      seat: accept({ seat: "3C" }),
    });
  });

  it("a requestState presented with other arguments is refused with -32602", async () => {
    const { server } = bookingServer();
    const first = (await call(server)).response!.result as RoundResult;
    const message = request(
      "tools/call",
      { name: "book", arguments: { seats: 3 }, requestState: first.requestState },
      2,
      ELICITATION,
    );
    const outcome = await serve(server, message);
    expect(statusOf("modern", outcome)).toBe(200);
    expect(outcome.response!.error).toEqual({
      code: -32602,
      message: "Invalid or expired requestState",
      data: { reason: "invalid_request_state", detail: "issued for another request" },
    });
  });

  it("a tampered requestState is refused with -32602", async () => {
    const { server } = bookingServer();
    const first = (await call(server)).response!.result as RoundResult;
    const outcome = await call(server, { requestState: `${first.requestState}x` });
    expect(outcome.response!.error).toMatchObject({
      code: -32602,
      data: { detail: "authentication" },
    });
  });

  it("input the request's client capabilities do not declare is -32021 with requiredCapabilities, on HTTP status 400", async () => {
    const { server } = bookingServer();
    const outcome = await call(server, {}, {});
    expect(statusOf("modern", outcome)).toBe(400);
    expect(outcome.response!.error).toEqual({
      code: -32021,
      message:
        "Cannot request input 'seat' (elicitation/create): the request's client capabilities do not declare elicitation",
      data: { requiredCapabilities: { elicitation: {} } },
    });
    const sampling = await call(server, {}, ELICITATION, "summarize");
    expect(sampling.response!.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { sampling: {} } },
    });
  });

  it("sampling goes through the same rounds", async () => {
    const { server } = bookingServer();
    const first = (await call(server, {}, { sampling: {} }, "summarize")).response!
      .result as RoundResult;
    expect(first.inputRequests.summary?.method).toBe("sampling/createMessage");
    const answer = { role: "assistant", content: { type: "text", text: "Short." }, model: "test" };
    const done = await call(
      server,
      { inputResponses: { summary: answer }, requestState: first.requestState },
      { sampling: {} },
      "summarize",
    );
    expect(done.response!.result).toMatchObject({
      resultType: "complete",
      content: [{ text: "Short." }],
    });
  });

  it("a method that is not a Multi Round-Trip Request (completion/complete) cannot ask for input: -32603, no InputRequiredResult", async () => {
    const { server } = bookingServer();
    const message = request(
      "completion/complete",
      { ref: { type: "ref/prompt", name: "p" }, argument: { name: "a", value: "" } },
      1,
      ELICITATION,
    );
    const outcome = await serve(server, message);
    expect(outcome.response!.error).toEqual({
      code: -32603,
      message:
        "completion/complete cannot ask the client for input: only tools/call, prompts/get and resources/read may",
    });
  });
});
