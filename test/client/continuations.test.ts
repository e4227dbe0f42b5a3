/**
 * Continuations of the typed tool wrappers (bindTools), without a server:
 * a result of an extension resultType with a continuation is followed, and
 * what the continuation resolves with is the caller's result only when it
 * is a valid complete tools/call result (resultType "complete" added when
 * left out); anything else is an InvalidResponseError, as an invalid
 * response is. A resultType without a continuation reaches the caller as
 * the server sent it.
 */
import { describe, expect, it } from "vitest";
import * as protocol from "../../generated/2026-07-28/index.js";
import {
  bindTools,
  InvalidResponseError,
  type Requester,
} from "../../templates/runtime/client/index.js";

const DEFERRED = { resultType: "deferred", jobId: "job-1" };
const ACCEPT_ANY = { arguments: () => ({ ok: true }) } as never;

/** A client whose tools/call answers `first`; nothing else is called. */
function requester(first: Record<string, unknown>): Requester {
  return {
    callTool: () => Promise.resolve(first),
    request: () => Promise.reject(new Error("not called")),
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
      checkFinal: (result) => protocol.validate("CallToolResult", result),
    },
  );
  return tools.render;
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
