/**
 * A rejected message's -32602 lists every problem, up to PROBLEM_LIMIT:
 * parseMessage runs a second, problem-listing validator (ajv-problems.gen.ts)
 * only after the first has failed, and that validator stops collecting soon
 * after the limit, so a hostile message costs a bounded number of errors.
 */
import { describe, expect, it } from "vitest";
import * as mcp from "../../generated/2026-07-28/index.js";
import * as problemValidators from "../../generated/2026-07-28/ajv-problems.gen.js";
import { PROBLEM_LIMIT, listProblems } from "../../generated/2026-07-28/support.gen.js";
import type { CompiledValidator } from "../../generated/2026-07-28/support.gen.js";
import { withProblemLimits } from "../../generator/emit/ajv-setup.js";
import { compilerFor } from "../../generator/emit/compile-validators.js";
import type { JsonObject } from "../../generator/load/json.js";

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

/** A subscriptions/listen request whose resourceSubscriptions are `items`. */
const listen = (items: unknown[]) => ({
  jsonrpc: "2.0",
  id: 8,
  method: "subscriptions/listen",
  params: { _meta: meta, notifications: { resourceSubscriptions: items } },
});

describe("parseMessage's -32602", () => {
  it("lists all three problems of a message with three, and says how many", () => {
    const result = mcp.parseMessage({
      ...call,
      params: {
        _meta: { ...meta, "io.modelcontextprotocol/protocolVersion": 5 },
        arguments: "x",
      },
    });
    expect(result).toEqual({
      ok: false,
      id: 7,
      error: {
        code: -32602,
        message: "Invalid params: 3 problems, all in data.errors; the first: /params/name is required",
        data: {
          path: "/params/name",
          errors: [
            { path: "/params/name", message: "is required" },
            {
              path: "/params/_meta/io.modelcontextprotocol~1protocolVersion",
              message: "must be string",
            },
            { path: "/params/arguments", message: "must be object" },
          ],
        },
      },
    });
  });

  it("keeps the one-problem message as it was", () => {
    const { name: _name, ...params } = call.params;
    const result = mcp.parseMessage({ ...call, params });
    expect(result).toMatchObject({
      ok: false,
      error: {
        message: "Invalid params: /params/name is required",
        data: { path: "/params/name", errors: [{ path: "/params/name", message: "is required" }] },
      },
    });
  });

  it("lists at most PROBLEM_LIMIT of a 100,000-item invalid array, quickly", () => {
    const items = Array.from({ length: 100_000 }, () => 5);
    const started = performance.now();
    const result = mcp.parseMessage(listen(items));
    const elapsed = performance.now() - started;
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const data = result.error.data as { errors: unknown[]; truncated?: boolean };
    expect(data.errors).toHaveLength(PROBLEM_LIMIT);
    expect(data.truncated).toBe(true);
    expect(data.errors[PROBLEM_LIMIT - 1]).toEqual({
      path: `/params/notifications/resourceSubscriptions/${PROBLEM_LIMIT - 1}`,
      message: "must be string",
    });
    expect(result.error.message).toBe(
      `Invalid params: more than ${PROBLEM_LIMIT} problems, the first ${PROBLEM_LIMIT} in data.errors; the first: /params/notifications/resourceSubscriptions/0 must be string`,
    );
    // The listing validator itself stopped: it holds one error past the limit, not 100,000.
    const listing = problemValidators.validateSubscriptionsListenRequest;
    expect(listing.errors).toHaveLength(
      PROBLEM_LIMIT + 1,
    );
    // Typically a few milliseconds; generous for a busy machine.
    expect(elapsed).toBeLessThan(1000);
  });

  it("leaves valid messages alone, the large ones too", () => {
    expect(mcp.parseMessage(call)).toEqual({ ok: true, message: call });
    const many = listen(Array.from({ length: 100_000 }, (_, i) => `file:///${i}`));
    expect(mcp.parseMessage(many)).toEqual({ ok: true, message: many });
  });
});

describe("problem limits in the listing validators", () => {
  /** A validator compiled the way ajv-problems.gen.ts's are, from one schema. */
  const listing = (schema: JsonObject): CompiledValidator => {
    const limited = withProblemLimits({ $id: "S", ...schema }) as JsonObject;
    return compilerFor([limited], { allErrors: true, limitProblems: true }).compile(limited) as CompiledValidator;
  };
  const firstOnly = (schema: JsonObject): CompiledValidator =>
    compilerFor([schema]).compile(schema) as CompiledValidator;

  it("put the limit on per-item subschemas and make additionalProperties: false one", () => {
    expect(
      withProblemLimits({
        items: { $ref: "X" },
        additionalProperties: false,
        patternProperties: { "^a": { type: "string" } },
        properties: { p: { type: "string" } },
      }),
    ).toEqual({
      items: { $ref: "X", "x-mcp-problem-limit": true },
      additionalProperties: { "x-mcp-disallowed": true, "x-mcp-problem-limit": true },
      patternProperties: { "^a": { type: "string", "x-mcp-problem-limit": true } },
      properties: { p: { type: "string" } },
    });
  });

  it("stop at the limit on 100,000 properties that are not allowed", () => {
    const validator = listing({ type: "object", additionalProperties: false });
    const value = Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`k${i}`, i]));
    expect(validator(value)).toBe(false);
    expect(validator.errors).toHaveLength(PROBLEM_LIMIT + 1);
    const { problems, truncated } = listProblems(validator, validator, value);
    expect(truncated).toBe(true);
    expect(problems[0]).toEqual({ path: "/k0", message: "is not allowed" });
  });

  it("inside a union, give up past the tentative limit and fall back to the first problem", () => {
    const schema: JsonObject = {
      anyOf: [{ type: "array", items: { type: "string" } }, { type: "null" }],
    };
    const value = Array.from({ length: 100_000 }, () => 5);
    const first = firstOnly(schema);
    expect(first(value)).toBe(false);
    const validator = listing(schema);
    expect(() => validator(value)).toThrow(RangeError);
    // What the first pass found: each branch's first problem and the union's own.
    expect(listProblems(first, validator, value)).toEqual({
      problems: [
        { path: "/0", message: "must be string" },
        { path: "", message: "must be null" },
        { path: "", message: "must match one of the allowed shapes" },
      ],
      truncated: false,
    });
  });

  it("do not let a union's failed branch end the validator when another branch matches", () => {
    const schema: JsonObject = {
      type: "object",
      properties: {
        either: { anyOf: [{ type: "array", items: { type: "string" } }, { type: "array" }] },
        name: { type: "string" },
      },
    };
    const value = { either: Array.from({ length: 50 }, () => 5), name: 3 };
    const validator = listing(schema);
    expect(validator(value)).toBe(false);
    expect(listProblems(firstOnly(schema), validator, value).problems).toEqual([
      { path: "/name", message: "must be string" },
    ]);
  });
});
