/**
 * Which error codes a handler's error goes out with
 * (templates/runtime/server/error-policy.ts; spec: basic, Error Codes),
 * over real HTTP on 127.0.0.1: codes the revision defines for sending
 * (ErrorCode), codes of merged extensions and application codes outside
 * -32768..-32000 pass unchanged; the legacy sub-range -32000..-32019,
 * undefined codes of -32020..-32099, codes kept reserved from earlier
 * revisions (-32002, -32042) and the rest of JSON-RPC's reserved range
 * become -32603, with the cause reported to onError. An error thrown by a
 * generated extension builder (marked with the registered symbol) counts
 * as an McpError.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { McpError, serveHttp, unsendableCode } from "../../../templates/runtime/index.js";
import { legacy, post, protocol, request, testServer } from "../../helpers/mcp-client.js";

const server = testServer();
server.tool(
  { name: "fail", inputSchema: { type: "object", properties: { code: { type: "number" } } } },
  (args) => {
    throw new McpError(args.code as number, `failed with ${String(args.code)}`, { why: "test" });
  },
);
/** What a generated builder (`jobsErrors.jobNotFound`) throws, made the way the generated ExtensionError makes it. */
class BrandedError extends Error {
  readonly code = -31001;
  readonly data = { jobId: "j-1" };
  constructor() {
    super("Job not found");
    Object.defineProperty(this, Symbol.for("mcp-gen.json-rpc-error"), { value: true });
  }
}
server.tool({ name: "branded", inputSchema: { type: "object" } }, () => {
  throw new BrandedError();
});

let url: string;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ url, close } = await serveHttp(server, { port: 0 }));
});
afterAll(() => close());

async function errorOf(code: number) {
  server.errors.length = 0;
  const reply = await post(url, request("tools/call", { name: "fail", arguments: { code } }));
  return reply.body.error as { code: number; message: string; data?: unknown };
}

describe("a handler's error code on the wire", () => {
  it.each([
    [-32602, "JSON-RPC's own"],
    [-32601, "JSON-RPC's own"],
    [-32021, "defined by 2026-07-28 (MissingRequiredClientCapability)"],
    [-32022, "defined by 2026-07-28 (UnsupportedProtocolVersion)"],
    [-31001, "an application's, outside JSON-RPC's reserved range"],
    [1234, "an application's"],
  ])("%i (%s) goes out unchanged, with its message and data", async (code) => {
    expect(await errorOf(code)).toEqual({
      code,
      message: `failed with ${code}`,
      data: { why: "test" },
    });
    expect(server.errors).toEqual([]);
  });

  it.each([
    [-32000, "legacy sub-range"],
    [-32001, "legacy sub-range"],
    [-32019, "legacy sub-range"],
    [-32023, "undefined in -32020..-32099"],
    [-32099, "undefined in -32020..-32099"],
    [-32002, "receive-only: resource not found of 2025-11-25 and earlier"],
    [-32042, "receive-only: URL elicitation required of 2025-11-25"],
    [-32500, "JSON-RPC's reserved range, undefined"],
    [-32768, "JSON-RPC's reserved range, undefined"],
    [1.5, "not an integer"],
  ])("%d (%s) becomes -32603 and its cause is reported", async (code) => {
    expect(await errorOf(code)).toEqual({ code: -32603, message: "Internal error" });
    expect(server.errors).toHaveLength(1);
    const reported = server.errors[0] as Error;
    expect(reported.message).toContain(String(code));
    expect(reported.message).toContain("sent -32603 instead");
    expect((reported.cause as McpError).code).toBe(code);
  });

  it("an error marked by a generated extension builder goes out with its code and data", async () => {
    const reply = await post(url, request("tools/call", { name: "branded", arguments: {} }));
    expect(reply.body.error).toEqual({
      code: -31001,
      message: "Job not found",
      data: { jobId: "j-1" },
    });
  });
});

describe("which codes each revision may send", () => {
  it("2025-11-25 (the legacy era) still defines -32002 and -32042; 2026-07-28 only receives them", () => {
    expect(unsendableCode(legacy, -32002)).toBeUndefined();
    expect(unsendableCode(legacy, -32042)).toBeUndefined();
    expect(unsendableCode(protocol, -32002)).toMatch(/only by earlier revisions/);
    expect(unsendableCode(protocol, -32042)).toMatch(/only by earlier revisions/);
    expect(unsendableCode(legacy, -32020)).toMatch(/reserved for codes the MCP specification/);
  });

  it("a module without ERROR_CODES still sends JSON-RPC's codes and refuses the reserved range", () => {
    const { ERROR_CODES: _dropped, ...bare } = protocol;
    expect(unsendableCode(bare, -32602)).toBeUndefined();
    expect(unsendableCode(bare, -32001)).toMatch(/legacy sub-range/);
    expect(unsendableCode(bare, 42)).toBeUndefined();
  });
});
