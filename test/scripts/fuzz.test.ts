/**
 * The judge and the mutations of `npm run fuzz:server` (the fuzz itself is
 * a script, run by hand): a bad answer is a finding, a good one is not, and
 * a seed always gives the same messages.
 */
import { describe, expect, it } from "vitest";
import { judgeHttp, judgeJsonRpc, mutateHttp, type HttpMessage } from "../../scripts/fuzz/http.js";
import { Random } from "../../scripts/fuzz/mutate.js";

const message: HttpMessage = {
  method: "POST",
  path: "/mcp",
  headers: [
    ["host", "127.0.0.1:1"],
    ["content-type", "application/json"],
  ],
  body: Buffer.from('{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}'),
  wellFramed: true,
};
const answer = (status: number, body: string) => ({
  status,
  head: "",
  contentType: "application/json",
  body,
  timedOut: false,
  closedWithoutAnswer: false,
});

describe("fuzz:server's judge", () => {
  it("finds ids that are neither strings nor integers, missing jsonrpc and error codes that are not integers", () => {
    expect(judgeJsonRpc('{"jsonrpc":"2.0","id":1.5,"result":{}}')).toBe("an answer with id 1.5");
    expect(judgeJsonRpc('{"jsonrpc":"2.0","id":{},"result":{}}')).toBe("an answer with id {}");
    expect(judgeJsonRpc('{"id":1,"result":{}}')).toBe("an answer without jsonrpc 2.0");
    expect(judgeJsonRpc('{"jsonrpc":"2.0","id":null,"error":{"code":"x"}}')).toBe(
      "an error without an integer code",
    );
    expect(judgeJsonRpc("<html>")).toBe("a body that is not JSON");
    expect(judgeJsonRpc('{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"x"}}')).toBe(
      undefined,
    );
    expect(judgeJsonRpc('{"jsonrpc":"2.0","id":"a","result":{}}')).toBe(undefined);
  });

  it("finds 5xx, hangs and well-framed requests closed without an answer", () => {
    expect(judgeHttp(message, answer(500, ""))).toBe("status 500");
    expect(judgeHttp(message, answer(200, '{"jsonrpc":"2.0","id":1,"result":{}}'))).toBe(undefined);
    const none = { head: "", body: "", timedOut: false, closedWithoutAnswer: true };
    expect(judgeHttp(message, none)).toBe("closed without an answer");
    expect(judgeHttp({ ...message, wellFramed: false }, none)).toBe(undefined);
    expect(
      judgeHttp(message, { head: "", body: "", timedOut: true, closedWithoutAnswer: false }),
    ).toBe("no answer within the deadline");
    // Only the MCP endpoint speaks JSON-RPC.
    expect(judgeHttp({ ...message, path: "/health" }, answer(200, '{"status":"ok"}'))).toBe(
      undefined,
    );
  });

  it("a seed gives the same messages every time, and different seeds differ", () => {
    const run = (seed: number) => {
      const random = new Random(seed);
      return Array.from({ length: 200 }, () => {
        const m = mutateHttp(message, random, ["tools/list", "tools/call"]);
        return `${m.method} ${m.path} ${JSON.stringify(m.headers)} ${m.body.toString("base64")}`;
      });
    };
    expect(run(7)).toEqual(run(7));
    expect(run(7)).not.toEqual(run(8));
  });
});
