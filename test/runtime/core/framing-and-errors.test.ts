/**
 * The runtime's core (templates/runtime/core), on its own: framing, era
 * detection, the Mcp-* header rules in both directions (a client's
 * headers pass a server's check; each broken rule fails it) and
 * request/answer matching.
 */
import { describe, expect, it } from "vitest";
import {
  allowsBatches,
  detectEra,
  encodeHeaderValue,
  decodeHeaderValue,
  headerMismatch,
  headerParametersOf,
  McpError,
  PendingRequests,
  readFrame,
  RemoteError,
  requestHeaders,
  splitBatch,
  type JsonRpcMessage,
} from "../../../templates/runtime/core/index.js";
import { request } from "../../helpers/mcp-client.js";

describe("core: framing", () => {
  it.each([
    ["a message", '{"jsonrpc":"2.0","id":1,"method":"m"}', "message"],
    ["a batch", '[{"jsonrpc":"2.0","method":"m"}]', "batch"],
    ["an empty batch (refused later, by splitBatch)", "[]", "batch"],
  ])("reads %s", (_title, text, kind) => {
    expect(readFrame(text).kind).toBe(kind);
  });

  it.each([
    ["text that is not JSON", "{", -32700, undefined],
    ["a JSON value that is not an object", "42", -32600, "a message must be a JSON object"],
    ["null", "null", -32600, "a message must be a JSON object"],
    [
      "a message nesting deeper than the limit",
      "[".repeat(65),
      -32600,
      "the message nests deeper than 64 levels",
    ],
  ])("refuses %s", (_title, text, code, reason) => {
    const frame = readFrame(text);
    expect(frame.kind).toBe("invalid");
    if (frame.kind !== "invalid") return;
    expect(frame.error.code).toBe(code);
    if (reason) expect(frame.error.data).toEqual({ reason });
  });

  it("allows batches in 2025-03-26 only, the one revision whose JSON-RPC has them", () => {
    expect(
      ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28", "", undefined].map(
        allowsBatches,
      ),
    ).toEqual([false, true, false, false, false, false, false]);
  });

  it("splits a batch into messages and errors for the items that are not messages; refuses an empty one and initialize", () => {
    const split = splitBatch([
      { jsonrpc: "2.0", method: "a" },
      7,
      { jsonrpc: "2.0", id: 1, method: "b" },
    ]);
    expect(split).not.toBeInstanceOf(McpError);
    if (split instanceof McpError) return;
    expect(split.messages.map((m) => m.method)).toEqual(["a", "b"]);
    expect(split.invalid.map((e) => e.toJSON())).toEqual([
      {
        code: -32600,
        message: "Invalid Request",
        data: { reason: "a message must be a JSON object" },
      },
    ]);
    expect((splitBatch([]) as McpError).data).toEqual({ reason: "the batch is empty" });
    expect(
      (splitBatch([{ jsonrpc: "2.0", id: 1, method: "initialize" }]) as McpError).data,
    ).toEqual({ reason: "initialize must not be part of a batch" });
  });
});

describe("core: era detection", () => {
  const legacyCall = { jsonrpc: "2.0", id: 1, method: "tools/list" };
  const initialize = { jsonrpc: "2.0", id: 1, method: "initialize", params: {} };
  const answer = { jsonrpc: "2.0", id: "mcp-gen-1", result: {} };
  const rows: ReadonlyArray<
    readonly [string, JsonRpcMessage, string | undefined, boolean, string | number]
  > = [
    ["the envelope claims the modern era", request("tools/list"), undefined, true, "modern"],
    [
      "the envelope, even where legacy is not served",
      request("tools/list"),
      undefined,
      false,
      "modern",
    ],
    ["no envelope: legacy", legacyCall, undefined, true, "legacy"],
    ["no envelope under a legacy version header: legacy", legacyCall, "2025-11-25", true, "legacy"],
    ["an answer is legacy (only sessions get server requests)", answer, undefined, true, "legacy"],
    ["no envelope where legacy is not served: -32602", legacyCall, undefined, false, -32602],
    ["no envelope under a modern version header: -32602", legacyCall, "2026-07-28", true, -32602],
    ["initialize under a modern version header: -32020", initialize, "2026-07-28", true, -32020],
  ];
  it.each(rows)("%s", (_title, message, declaredVersion, servesLegacy, expected) => {
    const verdict = detectEra(message, {
      ...(declaredVersion ? { declaredVersion } : {}),
      servesLegacy,
    });
    expect("era" in verdict ? verdict.era : verdict.refused.code).toBe(expected);
  });
});

describe("core: Mcp-* headers", () => {
  const QUERY = {
    name: "query",
    inputSchema: {
      type: "object",
      properties: {
        region: { type: "string", "x-mcp-header": "Region" },
        limit: { type: "integer", "x-mcp-header": "Limit" },
        dry: { type: "boolean", "x-mcp-header": "Dry" },
        options: {
          type: "object",
          properties: { tenant: { type: "string", "x-mcp-header": "Tenant" } },
        },
      },
    },
  };
  const mirrored = headerParametersOf(QUERY);
  const check = (message: JsonRpcMessage, headers: Record<string, string | undefined>) =>
    headerMismatch(
      message,
      (name) => headers[name],
      () => mirrored,
    )?.message;

  it.each([
    ["us-west1", "us-west1"],
    ["Hello, 世界", "=?base64?SGVsbG8sIOS4lueVjA==?="],
    [" padded ", "=?base64?IHBhZGRlZCA=?="],
    ["line1\nline2", "=?base64?bGluZTEKbGluZTI=?="],
    ["=?base64?literal?=", "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="],
  ])("encodes %j as the spec's table says, and decodes it back", (value, encoded) => {
    expect(encodeHeaderValue(value)).toBe(encoded);
    expect(decodeHeaderValue(encoded)).toBe(value);
  });

  it("a client's headers pass the server's check, for every kind of request", () => {
    const messages = [
      request("tools/list"),
      request("tools/call", {
        name: "query",
        arguments: { region: "eu", limit: 42, dry: false, options: { tenant: "ácme" } },
      }),
      request("tools/call", { name: "query", arguments: { region: null } }),
      request("resources/read", { uri: "file:///notes/día uno.txt" }),
      request("prompts/get", { name: " padded " }),
    ];
    for (const message of messages) {
      const headers = requestHeaders(message, mirrored);
      expect(check(message, headers), JSON.stringify(headers)).toBe(undefined);
    }
    expect(requestHeaders(messages[1]!, mirrored)).toEqual({
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": "query",
      "mcp-param-region": "eu",
      "mcp-param-limit": "42",
      "mcp-param-dry": "false",
      "mcp-param-tenant": "=?base64?w6FjbWU=?=",
    });
  });

  it("each rule a client breaks is a -32020 naming it", () => {
    const message = request("tools/call", { name: "query", arguments: { region: "eu", limit: 7 } });
    const good = requestHeaders(message, mirrored);
    expect(check(message, { ...good, "mcp-protocol-version": undefined })).toBe(
      "Header mismatch: the MCP-Protocol-Version header is missing",
    );
    expect(check(message, { ...good, "mcp-method": "tools/list" })).toBe(
      'Header mismatch: Mcp-Method header "tools/list" does not match body method "tools/call"',
    );
    expect(check(message, { ...good, "mcp-name": "=?base64?***?=" })).toBe(
      "Header mismatch: the Mcp-Name header is not valid base64",
    );
    expect(check(message, { ...good, "mcp-param-limit": undefined })).toBe(
      "Header mismatch: the Mcp-Param-Limit header is missing",
    );
    expect(check(message, { ...good, "mcp-param-limit": "7.0" })).toBe(undefined);
    expect(check(message, { ...good, "mcp-param-limit": "0x7" })).toBe(
      "Header mismatch: Mcp-Param-Limit header does not match the limit argument",
    );
  });

  it("an x-mcp-header that breaks the spec's constraints is an error naming the tool", () => {
    expect(() =>
      headerParametersOf({
        name: "bad",
        inputSchema: { type: "object", properties: { a: { type: "object", "x-mcp-header": "A" } } },
      }),
    ).toThrow("tool bad: x-mcp-header on a needs a string, integer or boolean parameter");
  });
});

describe("core: request/answer matching", () => {
  function channel() {
    const sent: JsonRpcMessage[] = [];
    const pending = new PendingRequests({ timeoutMs: 1000, idPrefix: "s-" });
    const send = (message: JsonRpcMessage) => void sent.push(message);
    return { sent, pending, send };
  }

  it("gives every request a fresh id and settles each with the answer carrying it, in any order", async () => {
    const { sent, pending, send } = channel();
    const first = pending.request("roots/list", undefined, send);
    const second = pending.request("sampling/createMessage", { maxTokens: 1 }, send);
    expect(sent).toEqual([
      { jsonrpc: "2.0", id: "s-1", method: "roots/list" },
      { jsonrpc: "2.0", id: "s-2", method: "sampling/createMessage", params: { maxTokens: 1 } },
    ]);
    expect(pending.settle({ jsonrpc: "2.0", id: "s-2", result: { two: true } })).toBe(true);
    expect(pending.settle({ jsonrpc: "2.0", id: "s-1", result: { one: true } })).toBe(true);
    await expect(first).resolves.toEqual({ one: true });
    await expect(second).resolves.toEqual({ two: true });
    expect(pending.size).toBe(0);
  });

  it("an answer nobody waits for is reported, never matched by guess (unknown id, a number for a string id, settled twice)", async () => {
    const { pending, send } = channel();
    const waiting = pending.request("ping", undefined, send);
    expect(pending.settle({ jsonrpc: "2.0", id: "s-9", result: {} })).toBe(false);
    expect(pending.settle({ jsonrpc: "2.0", id: 1, result: {} })).toBe(false);
    expect(pending.settle({ jsonrpc: "2.0", id: "s-1", result: {} })).toBe(true);
    expect(pending.settle({ jsonrpc: "2.0", id: "s-1", result: {} })).toBe(false);
    await waiting;
  });

  it("an error answer rejects with a RemoteError carrying the peer's code, message and data", async () => {
    const { pending, send } = channel();
    const waiting = pending.request("elicitation/create", {}, send);
    pending.settle({
      jsonrpc: "2.0",
      id: "s-1",
      error: { code: -1, message: "no", data: { x: 1 } },
    });
    const error = (await waiting.catch((e: unknown) => e)) as RemoteError;
    expect(error).toBeInstanceOf(RemoteError);
    expect(error.toJSON()).toEqual({ code: -1, message: "no", data: { x: 1 } });
  });

  it("times out, aborts and closes with -32603, leaving nothing pending", async () => {
    const { pending, send } = channel();
    const slow = pending.request("ping", undefined, send, { timeoutMs: 10 });
    await expect(slow).rejects.toMatchObject({
      code: -32603,
      message: "no answer to ping within 10 ms",
    });
    const controller = new AbortController();
    const aborted = pending.request("ping", undefined, send, { signal: controller.signal });
    controller.abort();
    await expect(aborted).rejects.toMatchObject({ code: -32603, message: "ping was cancelled" });
    const open = pending.request("ping", undefined, send);
    pending.close("the server exited");
    await expect(open).rejects.toMatchObject({ code: -32603, message: "the server exited" });
    await expect(pending.request("ping", undefined, send)).rejects.toMatchObject({
      message: "the server exited",
    });
    expect(pending.size).toBe(0);
  });

  it("numbers its ids when given no prefix", () => {
    const sent: JsonRpcMessage[] = [];
    const pending = new PendingRequests({ timeoutMs: 1000 });
    void pending.request("a", undefined, (m) => void sent.push(m)).catch(() => {});
    void pending.request("b", undefined, (m) => void sent.push(m)).catch(() => {});
    expect(sent.map((m) => m.id)).toEqual([1, 2]);
    pending.close("done");
  });
});
