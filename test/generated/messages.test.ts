/**
 * parseMessage / parseResponse / resultTypeOf of the generated 2026-07-28
 * module: each message checked against exactly the definition its method
 * (and resultType) selects, failures as JSON-RPC errors ready to send.
 */
import { describe, expect, it } from "vitest";
import * as mcp from "../../generated/2026-07-28/index.js";
import * as legacy from "../../generated/2025-11-25/index.js";

const meta = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};
const call = {
  jsonrpc: "2.0",
  id: 7,
  method: "tools/call",
  params: { _meta: meta, name: "echo", arguments: { text: "hi" } },
};

describe("parseMessage", () => {
  it("accepts a valid request, from text or value", () => {
    expect(mcp.parseMessage(JSON.stringify(call))).toEqual({ ok: true, message: call });
    expect(mcp.parseMessage(call)).toEqual({ ok: true, message: call });
  });

  it.each([
    ["unparsable text", "{", -32700, null],
    ["a batch", "[]", -32600, null],
    ["a string", '"x"', -32600, null],
    ["the wrong jsonrpc", { ...call, jsonrpc: "1.0" }, -32600, 7],
    ["a null id", { ...call, id: null }, -32600, null],
    ["a method that is not a string", { ...call, method: 3 }, -32600, 7],
    ["neither method, result nor error", { jsonrpc: "2.0", id: 1 }, -32600, 1],
    ["an unknown method", { ...call, method: "tools/explode" }, -32601, 7],
    ["a method named like an Object property", { ...call, method: "toString" }, -32601, 7],
    ["a method named __proto__", { ...call, method: "__proto__" }, -32601, 7],
    [
      "a notification named like an Object property",
      { jsonrpc: "2.0", method: "constructor" },
      -32601,
      null,
    ],
  ] as const)("rejects %s with %i", (_what, input, code, id) => {
    const result = mcp.parseMessage(input);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe(code);
      expect(result.id).toBe(id);
    }
  });

  it("validate() refuses a name that is no definition, even one every object has", () => {
    expect(() => mcp.validate("NoSuchThing" as mcp.DefinitionName, {})).toThrow(
      /"NoSuchThing" is not a definition of MCP 2026-07-28/,
    );
    expect(() => mcp.validate("toString" as mcp.DefinitionName, {})).toThrow(TypeError);
  });

  it("says which revisions define a method this one removed", () => {
    const result = mcp.parseMessage({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} });
    expect(result).toMatchObject({
      ok: false,
      error: {
        code: -32601,
        data: {
          method: "initialize",
          availableIn: ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"],
        },
      },
    });
  });

  it("rejects bad params with -32602 and the failing path", () => {
    const { name: _name, ...params } = call.params;
    const result = mcp.parseMessage({ ...call, params });
    expect(result).toMatchObject({
      ok: false,
      id: 7,
      error: { code: -32602, data: { path: "/params/name" } },
    });
    if (!result.ok) expect(result.error.message).toBe("Invalid params: /params/name is required");
  });

  it("requires the per-request _meta of 2026-07-28", () => {
    const result = mcp.parseMessage({ ...call, params: { name: "echo" } });
    expect(result).toMatchObject({
      ok: false,
      error: { code: -32602, data: { path: "/params/_meta" } },
    });
    const noVersion = mcp.parseMessage({
      ...call,
      params: { ...call.params, _meta: { "io.modelcontextprotocol/clientCapabilities": {} } },
    });
    expect(noVersion).toMatchObject({
      ok: false,
      error: {
        code: -32602,
        data: { path: "/params/_meta/io.modelcontextprotocol~1protocolVersion" },
      },
    });
  });

  it("accepts notifications and response envelopes", () => {
    const note = { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 7 } };
    expect(mcp.parseMessage(note)).toEqual({ ok: true, message: note });
    const error = { jsonrpc: "2.0", id: 7, error: { code: -32601, message: "Method not found" } };
    expect(mcp.parseMessage(error)).toEqual({ ok: true, message: error });
  });
});

describe("parseResponse", () => {
  const complete = { resultType: "complete", content: [{ type: "text", text: "hi" }] };
  const inputRequired = {
    resultType: "input_required",
    inputRequests: {
      q: {
        method: "elicitation/create",
        params: {
          mode: "form",
          message: "Name?",
          requestedSchema: { type: "object", properties: { name: { type: "string" } } },
        },
      },
    },
  };

  it("picks the result definition from resultType", () => {
    expect(
      mcp.parseResponse({ jsonrpc: "2.0", id: 7, result: complete }, "tools/call"),
    ).toMatchObject({ ok: true });
    expect(
      mcp.parseResponse({ jsonrpc: "2.0", id: 7, result: inputRequired }, "tools/call"),
    ).toMatchObject({ ok: true });
  });

  it("reads a missing resultType as complete and fills it in", () => {
    const { resultType: _rt, ...old } = complete;
    const result = mcp.parseResponse(
      JSON.stringify({ jsonrpc: "2.0", id: 7, result: old }),
      "tools/call",
    );
    expect(result).toEqual({ ok: true, message: { jsonrpc: "2.0", id: 7, result: complete } });
  });

  it("rejects an unrecognized resultType, and input_required where the method cannot return it", () => {
    expect(
      mcp.parseResponse(
        { jsonrpc: "2.0", id: 7, result: { ...complete, resultType: "task" } },
        "tools/call",
      ),
    ).toMatchObject({ ok: false, error: { code: -32602, data: { path: "/result/resultType" } } });
    expect(
      mcp.parseResponse({ jsonrpc: "2.0", id: 7, result: inputRequired }, "tools/list"),
    ).toMatchObject({ ok: false, error: { code: -32602 } });
  });

  it("validates the selected result with paths under /result", () => {
    const result = mcp.parseResponse(
      { jsonrpc: "2.0", id: 7, result: { resultType: "complete" } },
      "tools/call",
    );
    expect(result).toMatchObject({
      ok: false,
      error: { code: -32602, data: { path: "/result/content" } },
    });
  });

  it("passes error responses through", () => {
    const error = { jsonrpc: "2.0", id: 7, error: { code: -32602, message: "Unknown tool" } };
    expect(mcp.parseResponse(error, "tools/call")).toEqual({ ok: true, message: error });
  });

  it("works for revisions without resultType", () => {
    const old = { jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "hi" }] } };
    expect(legacy.parseResponse(old, "tools/call")).toMatchObject({ ok: true });
  });
});

describe("resultTypeOf", () => {
  it.each([
    [{ resultType: "complete" }, "complete"],
    [{ resultType: "input_required" }, "input_required"],
    [{}, "complete"],
    [{ resultType: "task" }, undefined],
    [{ resultType: 3 }, undefined],
    ["nope", undefined],
  ] as const)("%j → %s", (result, want) => {
    expect(mcp.resultTypeOf(result)).toBe(want);
  });

  it("RESULT_TYPES lists the core values", () => {
    expect(mcp.RESULT_TYPES).toEqual(["complete", "input_required"]);
    expect(legacy.RESULT_TYPES).toEqual(["complete"]);
  });
});

describe("tables", () => {
  it("records method directions, results and MRTR", () => {
    expect(mcp.METHODS["tools/call"]).toMatchObject({
      direction: "client-to-server",
      request: "CallToolRequest",
      results: { input_required: "InputRequiredResult", complete: "CallToolResult" },
      mrtr: true,
    });
    expect(mcp.METHODS["tools/list"].mrtr).toBe(false);
    expect(mcp.METHODS["elicitation/create"].direction).toBe("input-request");
    expect(
      Object.entries(mcp.METHODS)
        .filter(([, m]) => m.mrtr)
        .map(([k]) => k),
    ).toEqual(["prompts/get", "resources/read", "tools/call"]);
    expect(legacy.METHODS.ping.direction).toBe("both");
    expect(legacy.METHODS["sampling/createMessage"].direction).toBe("server-to-client");
  });

  it("records method availability across revisions", () => {
    expect(mcp.METHOD_AVAILABILITY["server/discover"]).toEqual(["2026-07-28"]);
    expect(mcp.METHOD_AVAILABILITY["tools/call"]).toEqual([
      "2024-11-05",
      "2025-03-26",
      "2025-06-18",
      "2025-11-25",
      "2026-07-28",
    ]);
    expect(mcp.METHOD_AVAILABILITY["elicitation/create"]).toEqual([
      "2025-06-18",
      "2025-11-25",
      "2026-07-28",
    ]);
  });

  it("PROTOCOL_VERSION", () => {
    expect(mcp.PROTOCOL_VERSION).toBe("2026-07-28");
    expect(legacy.PROTOCOL_VERSION).toBe("2025-11-25");
  });
});
