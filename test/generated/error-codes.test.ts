/**
 * Error codes, their policy and builders, and the `_meta` key rules, as
 * the generated modules expose them.
 */
import { describe, expect, it } from "vitest";
import * as mcp from "../../generated/2026-07-28/index.js";
import * as legacy from "../../generated/2025-11-25/index.js";
import * as oldest from "../../generated/2024-11-05/index.js";

describe("ErrorCode", () => {
  it("names every code of 2026-07-28 and the legacy ones", () => {
    expect(mcp.ErrorCode.HeaderMismatch).toBe(-32020);
    expect(mcp.ErrorCode.MissingRequiredClientCapability).toBe(-32021);
    expect(mcp.ErrorCode.UnsupportedProtocolVersion).toBe(-32022);
    expect(mcp.ErrorCode.ParseError).toBe(-32700);
    expect(mcp.ErrorCode.ResourceNotFound).toBe(-32002);
    expect(mcp.ErrorCode.UrlElicitationRequired).toBe(-32042);
  });

  it("records revisions and policy", () => {
    expect(mcp.ERROR_CODES[-32020]).toMatchObject({
      policy: "spec",
      receiveOnly: false,
      revisions: ["2026-07-28"],
      definition: "HeaderMismatchError",
    });
    expect(mcp.ERROR_CODES[-32002]).toMatchObject({
      policy: "legacy",
      receiveOnly: true,
      revisions: ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"],
    });
    expect(mcp.ERROR_CODES[-32042]).toMatchObject({
      policy: "legacy",
      receiveOnly: true,
      revisions: ["2025-11-25"],
    });
    expect(mcp.ERROR_CODES[-32602]).toMatchObject({
      policy: "json-rpc",
      revisions: ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"],
    });
  });

  it("is per revision: 2025-11-25 defines -32042 and -32002 itself", () => {
    expect(legacy.ERROR_CODES[-32042]).toMatchObject({
      policy: "spec",
      definition: "URLElicitationRequiredError",
    });
    expect(legacy.ERROR_CODES[-32002]).toMatchObject({ policy: "spec" });
    expect("HeaderMismatch" in legacy.ErrorCode).toBe(false);
    expect(Object.keys(oldest.ErrorCode).sort()).toEqual([
      "InternalError",
      "InvalidParams",
      "InvalidRequest",
      "MethodNotFound",
      "ParseError",
      "ResourceNotFound",
    ]);
  });

  it.each([
    [-32000, false, true],
    [-32019, false, true],
    [-32020, true, false],
    [-32099, true, false],
    [-32100, false, false],
    [-32602, false, false],
    [-32020.5, false, false],
  ])("%i: spec-reserved %s, implementation-defined %s", (code, reserved, implementation) => {
    expect(mcp.isSpecReservedCode(code)).toBe(reserved);
    expect(mcp.isImplementationDefinedCode(code)).toBe(implementation);
  });
});

describe("error builders", () => {
  it("build the error member of UnsupportedProtocolVersionError", () => {
    const error = mcp.unsupportedProtocolVersionError({
      supported: ["2026-07-28"],
      requested: "1999-01-01",
    });
    expect(error).toEqual({
      code: -32022,
      message: "Unsupported protocol version",
      data: { supported: ["2026-07-28"], requested: "1999-01-01" },
    });
    expect(
      mcp.validate("UnsupportedProtocolVersionError", { jsonrpc: "2.0", id: 1, error }),
    ).toEqual({ ok: true });
  });

  it("build the error member of MissingRequiredClientCapabilityError", () => {
    const error = mcp.missingRequiredClientCapabilityError(
      { requiredCapabilities: { elicitation: {} } },
      "Needs elicitation",
    );
    expect(error).toEqual({
      code: -32021,
      message: "Needs elicitation",
      data: { requiredCapabilities: { elicitation: {} } },
    });
    expect(mcp.isMissingRequiredClientCapabilityError({ jsonrpc: "2.0", id: 1, error })).toBe(true);
  });

  it("use JSON-RPC's standard messages", () => {
    expect(mcp.parseError()).toEqual({ code: -32700, message: "Parse error" });
    expect(mcp.invalidParamsError("Unknown tool: x")).toEqual({
      code: -32602,
      message: "Unknown tool: x",
    });
    expect(mcp.headerMismatchError()).toEqual({ code: -32020, message: "Header mismatch" });
  });
});

describe("_meta keys", () => {
  it.each([
    ["progressToken", true, false],
    ["io.modelcontextprotocol/protocolVersion", true, true],
    ["dev.mcp/x", true, true],
    ["org.modelcontextprotocol.api/x", true, true],
    ["com.mcp.tools/x", true, true],
    ["com.example.mcp/x", true, false],
    ["com.example/", true, false],
    ["mcp/x", true, false],
    ["", true, false],
    ["a.b-c.d9/name_with.dots-and-1", true, false],
    ["1com.example/x", false, false],
    ["com.-example/x", false, false],
    ["com.example-/x", false, false],
    ["com.example/-x", false, false],
    ["com.example/x-", false, false],
    ["a/b/c", false, false],
    ["com..example/x", false, false],
    ["has space", false, false],
  ])("%j: valid %s, reserved %s", (key, valid, reserved) => {
    expect(mcp.isValidMetaKey(key)).toBe(valid);
    expect(mcp.isReservedMetaKey(key)).toBe(reserved);
  });
});
