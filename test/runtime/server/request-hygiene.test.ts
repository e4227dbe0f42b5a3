/**
 * Request hygiene (templates/runtime/core/framing.ts, core/jsonrpc.ts,
 * server/uri-template.ts): an id that is neither a string nor an integer
 * is refused with id null over HTTP and stdio; resource template values
 * with malformed percent-encoding are -32602, never a stack trace; a
 * decoded `/` or `..` reaches a handler only through `{+var}`.
 */
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorResponse, readFrame, splitBatch } from "../../../templates/runtime/core/index.js";
import { serveHttp, serveStdio, type RunningHttpServer } from "../../../templates/runtime/index.js";
import { templateMatcher } from "../../../templates/runtime/server/uri-template.js";
import { LineReader, post, request, testServer } from "../../helpers/mcp-client.js";

describe("ids", () => {
  it.each([
    ["a fraction", 1.5],
    ["an object", { a: 1 }],
    ["an array", [1]],
    ["a boolean", true],
  ])("refuses an id that is %s (-32600, answered with id null)", (_what, id) => {
    const frame = readFrame(JSON.stringify({ jsonrpc: "2.0", id, method: "tools/list" }));
    expect(frame.kind).toBe("invalid");
    if (frame.kind === "invalid") {
      expect(frame.error.code).toBe(-32600);
      expect(errorResponse(id, frame.error.toJSON()).id).toBeNull();
    }
    const split = splitBatch([{ jsonrpc: "2.0", id, method: "ping" }]);
    expect(split).toMatchObject({ messages: [], invalid: [{ code: -32600 }] });
  });

  it.each([
    ["a string", "a"],
    ["an integer", 7],
    ["a negative integer", -3],
    ["null (refused later, as a request without a usable id)", null],
  ])("reads an id that is %s", (_what, id) => {
    expect(readFrame(JSON.stringify({ jsonrpc: "2.0", id, method: "m" })).kind).toBe("message");
  });

  it("over HTTP: 400 with -32600 and id null", async () => {
    const server = await serveHttp(testServer(), { port: 0 });
    try {
      const reply = await post(server.url, { ...request("server/discover"), id: 1.5 });
      expect(reply.status).toBe(400);
      expect(reply.messages[0]).toMatchObject({ id: null, error: { code: -32600 } });
    } finally {
      await server.close();
    }
  });

  it("over stdio: -32600 with id null", async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const served = serveStdio(testServer(), { input, output });
    const lines = new LineReader(output);
    input.write(`${JSON.stringify({ ...request("server/discover"), id: 2.5 })}\n`);
    expect(await lines.next()).toMatchObject({ id: null, error: { code: -32600 } });
    input.end();
    await served;
  });
});

describe("resource template variables", () => {
  it("decodes the values of {var} and {+var}", () => {
    expect(templateMatcher("test://template/{id}/data")("test://template/a%20b/data")).toEqual({
      id: "a b",
    });
    expect(templateMatcher("file:///{+path}")("file:///docs/a/b.txt")).toEqual({
      path: "docs/a/b.txt",
    });
    expect(templateMatcher("test://template/{id}/data")("test://other/x")).toBeUndefined();
    expect(
      templateMatcher("test://template/{id}/data")("test://template/a/b/data"),
    ).toBeUndefined();
  });

  it.each([
    ["a lone %", "test://template/%/data", /malformed percent-encoding/],
    ["a % without hex digits", "test://template/%zz/data", /malformed percent-encoding/],
    ["bytes that are not UTF-8", "test://template/%C3%28/data", /malformed percent-encoding/],
    ["an encoded /", "test://template/%2F..%2F/data", /may not contain "\/"/],
    ["an encoded \\", "test://template/..%5C/data", /may not contain/],
    ["..", "test://template/%2E%2E/data", /be "\." or "\.\."/],
  ])("refuses %s in {var} with -32602 naming the variable", (_what, uri, message) => {
    let error: unknown;
    try {
      templateMatcher("test://template/{id}/data")(uri);
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(message) as unknown,
    });
    expect((error as Error).message).toContain("{id}");
  });

  it("lets {+var} take / and .., and still refuses malformed percent-encoding", () => {
    expect(templateMatcher("file:///{+path}")("file:///a/%2E%2E/b")).toEqual({ path: "a/../b" });
    expect(() => templateMatcher("file:///{+path}")("file:///a/%")).toThrow(/percent-encoding/);
  });

  describe("over HTTP", () => {
    const server = testServer();
    const seen: string[] = [];
    server.resourceTemplate(
      { uriTemplate: "test://template/{id}/data", name: "item" },
      (uri, variables) => {
        seen.push(variables.id!);
        return { contents: [{ uri, text: `item ${variables.id}` }] };
      },
    );
    let running: RunningHttpServer;
    beforeAll(async () => {
      running = await serveHttp(server, { port: 0 });
    });
    afterAll(() => running.close());

    it("answers -32602 for test://template/%/data, with nothing logged, and %2F..%2F never reaches the handler", async () => {
      for (const uri of ["test://template/%/data", "test://template/%2F..%2F/data"]) {
        const reply = await post(running.url, request("resources/read", { uri }));
        expect(reply.messages[0]).toMatchObject({ error: { code: -32602 } });
      }
      expect(server.errors).toEqual([]);
      expect(seen).toEqual([]);
      const good = await post(
        running.url,
        request("resources/read", { uri: "test://template/7/data" }),
      );
      expect(good.messages[0]).toMatchObject({ result: { contents: [{ text: "item 7" }] } });
    });
  });
});
