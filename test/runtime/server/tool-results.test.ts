/**
 * Tool results as the 2026-07-28 tools page says, in the runtime itself
 * (tools registered by hand, over stdio, both eras): arguments that fail
 * the inputSchema are a tool execution error listing every problem; a tool
 * registered without a handler answers a tool error naming it; a tool with
 * an outputSchema that returns no structuredContent is the server's bug
 * (logged with the tool's name, -32603 without internals); and a
 * 2025-11-25 client never sees what its revision cannot carry (an
 * outputSchema or structuredContent that is not an object).
 */
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { serveStdio, type SchemaCheck } from "../../../templates/runtime/index.js";
import { request, testServer } from "../../helpers/mcp-client.js";
import { sleep } from "../../helpers/wait.js";

/** A check that accepts only what `accept` says, with one error per refusal. */
const checkWith =
  (accept: (value: unknown) => boolean): SchemaCheck =>
  (value) =>
    accept(value) ? { ok: true } : { ok: false, errors: [{ path: "", message: "is wrong" }] };

function server() {
  const s = testServer();
  s.tool(
    { name: "tags", inputSchema: { type: "object" }, outputSchema: { type: "array" } },
    (args) =>
      args.forget === true
        ? { content: [{ type: "text", text: "no structured content" }] }
        : { content: [{ type: "text", text: '["a"]' }], structuredContent: ["a"] },
    { checkOutput: checkWith(Array.isArray) },
  );
  s.tool(
    { name: "strict", inputSchema: { type: "object" } },
    () => ({ content: [{ type: "text", text: "ran" }] }),
    {
      checkArguments: () => ({
        ok: false,
        errors: [
          { path: "/a", message: "is required" },
          { path: "/b/0", message: "must be string" },
        ],
      }),
    },
  );
  // What a handlers map from plain JavaScript can do: leave a tool out.
  s.tool({ name: "unwritten", inputSchema: { type: "object" } }, undefined as never);
  return s;
}

/** Sends each message over stdio, one at a time; the responses, in order. */
async function converse(
  s: ReturnType<typeof server>,
  messages: ReadonlyArray<Record<string, unknown>>,
): Promise<Array<Record<string, unknown>>> {
  const input = new PassThrough();
  const output = new PassThrough();
  const done = serveStdio(s, { input, output });
  const lines: string[] = [];
  let buffered = "";
  output.on("data", (chunk: Buffer) => {
    buffered += chunk.toString("utf8");
    const parts = buffered.split("\n");
    buffered = parts.pop()!;
    lines.push(...parts);
  });
  const replies: Array<Record<string, unknown>> = [];
  for (const message of messages) {
    const before = lines.length;
    input.write(`${JSON.stringify(message)}\n`);
    if (!("id" in message)) continue;
    while (lines.length === before) await sleep(5);
    replies.push(JSON.parse(lines[before]!) as Record<string, unknown>);
  }
  input.end();
  await done;
  return replies;
}

describe("tools/call results (2026-07-28)", () => {
  it("arguments that fail the schema: isError, every problem with its pointer; the handler does not run", async () => {
    const [reply] = await converse(server(), [
      request("tools/call", { name: "strict", arguments: {} }),
    ]);
    expect(reply!.result).toMatchObject({
      resultType: "complete",
      isError: true,
      content: [
        {
          type: "text",
          text: "Invalid arguments for tool strict (2 problems):\n- /a: is required\n- /b/0: must be string",
        },
      ],
    });
  });

  it("a tool registered without a handler answers a tool error naming it, and tells onError", async () => {
    const s = server();
    const [reply] = await converse(s, [
      request("tools/call", { name: "unwritten", arguments: {} }),
    ]);
    const text =
      'Tool unwritten has no handler: this server registered it without one (add a handler named "unwritten" to its tool handlers)';
    expect(reply!.result).toMatchObject({ isError: true, content: [{ type: "text", text }] });
    expect(s.errors.map((e) => (e as Error).message)).toEqual([text]);
  });

  it("an outputSchema and no structuredContent: logged with the tool's name, -32603 without internals", async () => {
    const s = server();
    const [good, bad] = await converse(s, [
      request("tools/call", { name: "tags", arguments: {} }, 1),
      request("tools/call", { name: "tags", arguments: { forget: true } }, 2),
    ]);
    expect(good!.result).toMatchObject({ structuredContent: ["a"] });
    expect(bad!.error).toEqual({ code: -32603, message: "Internal error" });
    expect(s.errors.map((e) => (e as Error).message)).toEqual([
      "tool tags returned no structuredContent, though it declares an outputSchema",
    ]);
  });

  it("checks that answer through a promise (a generated check whose validators are still loading) are awaited, for the arguments and the output", async () => {
    const later =
      (check: SchemaCheck): SchemaCheck =>
      async (value) => {
        await sleep(5);
        return check(value);
      };
    const s = testServer();
    s.tool(
      { name: "slow", inputSchema: { type: "object" }, outputSchema: { type: "object" } },
      (args) => ({
        content: [{ type: "text", text: "ran" }],
        structuredContent: args.bad === true ? ["not an object"] : { ran: true },
      }),
      {
        checkArguments: later(checkWith((value) => !Object.hasOwn(value as object, "refused"))),
        checkOutput: later(checkWith((value) => !Array.isArray(value))),
      },
    );
    const [good, refused, bad] = await converse(s, [
      request("tools/call", { name: "slow", arguments: {} }, 1),
      request("tools/call", { name: "slow", arguments: { refused: true } }, 2),
      request("tools/call", { name: "slow", arguments: { bad: true } }, 3),
    ]);
    expect(good!.result).toMatchObject({ structuredContent: { ran: true } });
    expect(refused!.result).toMatchObject({
      isError: true,
      content: [
        { type: "text", text: "Invalid arguments for tool slow (1 problem):\n- /: is wrong" },
      ],
    });
    expect(bad!.error).toEqual({ code: -32603, message: "Internal error" });
    expect(s.errors.map((e) => (e as Error).message)).toEqual([
      "tool slow returned structuredContent that does not match its outputSchema: / is wrong",
    ]);
  });

  it("lists an outputSchema of any type", async () => {
    const [reply] = await converse(server(), [request("tools/list")]);
    expect(reply!.result).toMatchObject({
      tools: [
        { name: "tags", outputSchema: { type: "array" } },
        { name: "strict" },
        { name: "unwritten" },
      ],
    });
  });
});

describe("a 2025-11-25 client", () => {
  const initialize = {
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "legacy-client", version: "1.0.0" },
    },
  };
  const initialized = { jsonrpc: "2.0", method: "notifications/initialized" };

  it("sees a tool whose outputSchema is not an object schema without it, and its result without structuredContent", async () => {
    const s = server();
    const [, listed, called] = await converse(s, [
      initialize,
      initialized,
      { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} },
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "tags", arguments: {} } },
    ]);
    const tags = (listed!.result as { tools: Array<Record<string, unknown>> }).tools[0]!;
    expect(tags.name).toBe("tags");
    expect(tags).not.toHaveProperty("outputSchema");
    expect(called!.result).toEqual({ content: [{ type: "text", text: '["a"]' }] });
    expect(s.errors).toEqual([]);
  });
});
