/**
 * Continuations of the typed tool wrappers (bindTools) and request methods
 * (bindMethods), without a server: a result of an extension resultType
 * with a continuation is followed, and what the continuation resolves with
 * is the caller's result only when it is a valid complete result of the
 * method that answered (resultType "complete" added when left out);
 * anything else is an InvalidResponseError naming the method, as an
 * invalid response is. A resultType without a continuation, and a complete
 * result, reach the caller as the server sent them.
 */
import { describe, expect, it } from "vitest";
import * as protocol from "../../generated/2026-07-28/index.js";
import {
  bindMethods,
  bindTools,
  completeResultCheck,
  InvalidResponseError,
  type ContinuationContext,
  type Requester,
} from "../../templates/runtime/client/index.js";

const DEFERRED = { resultType: "deferred", jobId: "job-1" };
const ACCEPT_ANY = { arguments: () => ({ ok: true }) } as never;
const PROMPT = {
  resultType: "complete",
  messages: [{ role: "user", content: { type: "text", text: "later" } }],
};

/** A client whose tools/call and other requests answer `first`; awaitTask is not called. */
function requester(first: Record<string, unknown>): Requester {
  return {
    callTool: () => Promise.resolve(first),
    request: () => Promise.resolve(first),
    awaitTask: () => Promise.reject(new Error("not called")),
  };
}

type Wrapper = (args: object) => Promise<Record<string, unknown>>;

function render(continuation?: (handle: { jobId: string }) => object): Wrapper {
  const tools = bindTools<{ render: Wrapper }>(
    requester(DEFERRED),
    { render: ACCEPT_ANY },
    {
      continuations: continuation
        ? { deferred: (handle: { jobId: string }) => Promise.resolve(continuation(handle)) }
        : {},
      checkFinal: completeResultCheck(protocol),
    },
  );
  return tools.render;
}

type PromptsGet = (
  params: { name: string },
  options?: { signal?: AbortSignal },
) => Promise<Record<string, unknown>>;

/** The typed prompts/get of a client whose server answers `first`, following "deferred" with `continuation`. */
function promptsGet(
  first: Record<string, unknown>,
  continuation?: (handle: { jobId: string }, context: ContinuationContext<unknown>) => object,
): PromptsGet {
  const rpc = bindMethods<{ promptsGet: PromptsGet }>(requester(first), protocol.METHODS, {
    continuations: continuation
      ? {
          deferred: (handle: { jobId: string }, context: ContinuationContext<unknown>) =>
            Promise.resolve(continuation(handle, context)),
        }
      : {},
    checkFinal: completeResultCheck(protocol),
  });
  return rpc.promptsGet;
}

describe("a continuation's result", () => {
  it("a valid final result is what the caller gets, with resultType complete", async () => {
    const seen: string[] = [];
    const result = await render((handle) => {
      seen.push(handle.jobId);
      return { content: [{ type: "text", text: "done" }] };
    })({});
    expect(seen).toEqual(["job-1"]);
    expect(result).toEqual({ resultType: "complete", content: [{ type: "text", text: "done" }] });
  });

  it("an invalid one is refused as an invalid response, naming where", async () => {
    const error = await render(() => ({ content: "done" }))({}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(String((error as Error).message)).toContain(
      "a continuation's result is not a valid tools/call result: /content",
    );
  });

  it("without a continuation the extension's result reaches the caller as sent", async () => {
    expect(await render()({})).toEqual(DEFERRED);
  });
});

describe("a typed request method follows continuations too", () => {
  it("prompts/get answered deferred resolves with the prompt's final result; the continuation knows the method, the request's options and the methods", async () => {
    const signal = new AbortController().signal;
    const contexts: ContinuationContext<unknown>[] = [];
    const get = promptsGet(DEFERRED, (_handle, context) => {
      contexts.push(context);
      return { messages: PROMPT.messages };
    });
    expect(await get({ name: "later" }, { signal })).toEqual(PROMPT);
    expect(contexts).toEqual([
      expect.objectContaining({ method: "prompts/get", options: { signal }, signal }),
    ]);
    expect(contexts[0]!.rpc).toHaveProperty("promptsGet");
  });

  it("a final result that is not a valid prompts/get result is an InvalidResponseError naming prompts/get", async () => {
    const error = await promptsGet(DEFERRED, () => ({ content: [] }))({ name: "later" }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(String((error as Error).message)).toBe(
      "prompts/get: the server's response is not valid: a continuation's result is not a valid prompts/get result: /messages is required",
    );
  });

  it("a resultType without a continuation reaches the caller as the server sent it", async () => {
    const queued = { resultType: "queued", id: "q-1" };
    expect(await promptsGet(queued, () => PROMPT)({ name: "later" })).toEqual(queued);
    expect(await promptsGet(DEFERRED)({ name: "later" })).toEqual(DEFERRED);
  });

  it("a complete result is final: no continuation runs", async () => {
    let ran = false;
    const get = promptsGet(PROMPT, () => {
      ran = true;
      return {};
    });
    expect(await get({ name: "now" })).toBe(PROMPT);
    expect(ran).toBe(false);
  });
});

describe("a task (Tasks extension) answered to a typed request method", () => {
  it("is followed by the runtime's continuation with the request's signal, to a checked tools/call result", async () => {
    const handle = { resultType: "task", taskId: "t-1", status: "working" };
    const followed: unknown[] = [];
    const client: Requester = {
      ...requester(handle),
      awaitTask: (task, options) => {
        followed.push([task, options]);
        return Promise.resolve({ content: [{ type: "text", text: "done" }] });
      },
    };
    type ToolsCall = (
      params: object,
      options?: { signal?: AbortSignal },
    ) => Promise<Record<string, unknown>>;
    const rpc = bindMethods<{ toolsCall: ToolsCall }>(client, protocol.METHODS, {
      followTasks: true,
      checkFinal: completeResultCheck(protocol),
    });
    const signal = new AbortController().signal;
    expect(await rpc.toolsCall({ name: "slow", arguments: {} }, { signal })).toEqual({
      resultType: "complete",
      content: [{ type: "text", text: "done" }],
    });
    expect(followed).toEqual([[handle, { signal }]]);
  });
});
