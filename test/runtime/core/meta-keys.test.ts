/**
 * `_meta` keys a handler adds to what the server sends
 * (templates/runtime/core/meta-keys.ts; spec: basic, General fields,
 * `_meta`): results, notifications and input requests. A key off the
 * prefix/name grammar, or under a prefix whose second label is
 * `modelcontextprotocol` or `mcp`, is the handler's bug: the request
 * answers -32603 and the cause goes to onError. The reserved keys the
 * runtime owns (serverInfo) are still set. Over real HTTP on 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  isReservedMetaKey,
  isValidMetaKey,
  metaKeyProblem,
} from "../../../templates/runtime/core/index.js";
import { MetaKeyError, serveHttp } from "../../../templates/runtime/index.js";
import { post, request, testServer } from "../../helpers/mcp-client.js";

describe("the key grammar and the reserved prefixes", () => {
  it.each([
    ["progressToken", true, false],
    ["traceparent", true, false],
    ["", true, false],
    ["com.example/", true, false],
    ["com.example/a.b-c_d", true, false],
    ["com.example.mcp/tool", true, false],
    ["io.modelcontextprotocol/serverInfo", true, true],
    ["org.modelcontextprotocol.api/x", true, true],
    ["dev.mcp/x", true, true],
    ["com.mcp.tools/x", true, true],
    ["mcp/x", true, false],
    ["bad key", false, false],
    ["-leading", false, false],
    ["trailing-", false, false],
    ["1com.example/x", false, false],
    ["com..example/x", false, false],
    ["com.example-/x", false, false],
    ["a/b/c", false, false],
  ])("%j: valid %s, reserved %s", (key, valid, reserved) => {
    expect(isValidMetaKey(key)).toBe(valid);
    expect(isReservedMetaKey(key)).toBe(reserved);
    expect(metaKeyProblem(key) === undefined).toBe(valid && !reserved);
  });
});

const server = testServer();
server.tool(
  { name: "meta", inputSchema: { type: "object", properties: { key: { type: "string" } } } },
  (args) => ({ content: [], _meta: { [String(args.key)]: 1 } }),
);
server.tool(
  { name: "notify", inputSchema: { type: "object", properties: { key: { type: "string" } } } },
  (args, ctx) => {
    ctx.notify("notifications/message", {
      level: "info",
      data: "hi",
      _meta: { [String(args.key)]: 1 },
    });
    return { content: [] };
  },
);
server.tool(
  { name: "ask", inputSchema: { type: "object", properties: { key: { type: "string" } } } },
  async (args, ctx) => {
    await ctx.elicit("name", {
      mode: "form",
      message: "Name?",
      requestedSchema: { type: "object", properties: {} },
      _meta: { [String(args.key)]: 1 },
    });
    return { content: [] };
  },
);

let url: string;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ url, close } = await serveHttp(server, { port: 0 }));
});
afterAll(() => close());

async function call(tool: string, key: string) {
  server.errors.length = 0;
  const message = request("tools/call", { name: tool, arguments: { key } }, 1, {
    elicitation: { form: {} },
  });
  return (await post(url, message)).body;
}

describe("keys a handler adds to outgoing _meta", () => {
  it.each(["meta", "notify", "ask"])(
    "%s: a reserved prefix is refused: -32603, the cause reported",
    async (tool) => {
      const body = await call(tool, "io.modelcontextprotocol/serverInfo");
      expect(body.error).toEqual({ code: -32603, message: "Internal error" });
      expect(server.errors).toHaveLength(1);
      expect(server.errors[0]).toBeInstanceOf(MetaKeyError);
      expect(String(server.errors[0])).toMatch(/reserved for MCP/);
    },
  );

  it.each(["meta", "notify", "ask"])("%s: a malformed key is refused", async (tool) => {
    const body = await call(tool, "com.example/bad key");
    expect(body.error).toEqual({ code: -32603, message: "Internal error" });
    expect(String(server.errors[0])).toMatch(/not a valid _meta key/);
  });

  it("a key of the handler's own prefix goes out, beside the serverInfo the runtime sets", async () => {
    const body = await call("meta", "com.example.mcp/trace");
    expect(server.errors).toEqual([]);
    expect((body.result as { _meta: Record<string, unknown> })._meta).toEqual({
      "com.example.mcp/trace": 1,
      "io.modelcontextprotocol/serverInfo": { name: "runtime-tests", version: "1.0.0" },
    });
  });

  it("an input request with a key of the handler's own prefix is asked for", async () => {
    const body = await call("ask", "com.example/ui");
    const result = body.result as {
      resultType: string;
      inputRequests: Record<string, { params: { _meta: Record<string, unknown> } }>;
    };
    expect(result.resultType).toBe("input_required");
    expect(result.inputRequests.name!.params._meta).toEqual({ "com.example/ui": 1 });
  });
});
