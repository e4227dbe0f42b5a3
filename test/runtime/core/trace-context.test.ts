/**
 * W3C trace context in `_meta` (templates/runtime/core/trace-context.ts;
 * spec: basic, `_meta`, OpenTelemetry trace context): a request's
 * `traceparent` and `tracestate` reach the handler (`ctx.trace`), the
 * input requests it makes (MRTR rounds, legacy server-to-client
 * requests) and the task it starts, whose work keeps the trace context of
 * the request that created it. A malformed traceparent is dropped. No
 * OpenTelemetry SDK is registered here, so the context passes through as
 * it came. Over real HTTP on 127.0.0.1 where a transport is involved.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as tasksProtocol from "../../../generated/2026-07-28+tasks/index.js";
import {
  isValidTraceparent,
  traceContextOf,
  withTraceContext,
} from "../../../templates/runtime/core/index.js";
import { serveHttp, type TraceContext } from "../../../templates/runtime/index.js";
import { legacy, post, request, testServer } from "../../helpers/mcp-client.js";
import { until } from "../../helpers/wait.js";

const TRACEPARENT = "00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01";
const TRACESTATE = "congo=t61rcWkgMzE,rojo=00f067aa0ba902b7";
const TRACED = { traceparent: TRACEPARENT, tracestate: TRACESTATE };
const ELICITATION = { elicitation: { form: {} } };
const FORM = {
  mode: "form",
  message: "Name?",
  requestedSchema: { type: "object", properties: {} },
};

describe("reading and carrying a trace context", () => {
  it.each([
    [TRACEPARENT, true],
    ["00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-00", true],
    ["01-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01-future", true],
    ["00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01-extra", false],
    ["ff-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01", false],
    ["00-00000000000000000000000000000000-00f067aa0ba902b7-01", false],
    ["00-0af7651916cd43dd8448eb211c80319c-0000000000000000-01", false],
    ["00-0AF7651916CD43DD8448EB211C80319C-00f067aa0ba902b7-01", false],
    ["00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7", false],
  ])("%s valid: %s", (value, valid) => {
    expect(isValidTraceparent(value)).toBe(valid);
  });

  it("drops a tracestate past 512 characters or with control characters, keeps the traceparent", () => {
    expect(
      traceContextOf({ traceparent: TRACEPARENT, tracestate: "a=b".padEnd(513, "c") }),
    ).toEqual({ traceparent: TRACEPARENT });
    expect(traceContextOf({ traceparent: TRACEPARENT, tracestate: "a=\nb" })).toEqual({
      traceparent: TRACEPARENT,
    });
    expect(traceContextOf({ traceparent: "junk", tracestate: TRACESTATE })).toBeUndefined();
  });

  it("adds the context to params' _meta, leaving one the handler set itself", () => {
    expect(withTraceContext({ a: 1 }, TRACED)).toEqual({ a: 1, _meta: TRACED });
    expect(withTraceContext(undefined, { traceparent: TRACEPARENT })).toEqual({
      _meta: { traceparent: TRACEPARENT },
    });
    const own = {
      _meta: { traceparent: "00-11111111111111111111111111111111-2222222222222222-01" },
    };
    expect(withTraceContext(own, TRACED)).toBe(own);
    expect(withTraceContext({ a: 1 }, undefined)).toEqual({ a: 1 });
  });
});

describe("a request's trace context in its handler and what the handler sends", () => {
  const seen: Array<TraceContext | undefined> = [];
  const server = testServer({ protocol: tasksProtocol, legacy });
  server.tool({ name: "ask", inputSchema: { type: "object" } }, async (_args, ctx) => {
    seen.push(ctx.trace);
    await ctx.elicit("name", FORM);
    return { content: [] };
  });
  server.tool(
    { name: "later", inputSchema: { type: "object" }, execution: { taskSupport: "optional" } },
    (_args, ctx) =>
      ctx.runAsTask(async (task) => {
        seen.push(task.trace);
        await task.elicit("name", FORM);
        return { content: [] };
      }),
  );

  let url: string;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ url, close } = await serveHttp(server, { port: 0 }));
  });
  afterAll(async () => {
    server.tasks?.close();
    await close();
  });

  it("reaches ctx.trace and the MRTR input request of the round", async () => {
    seen.length = 0;
    const reply = await post(
      url,
      request("tools/call", { name: "ask", arguments: {}, _meta: TRACED }, 1, ELICITATION),
    );
    expect(seen).toEqual([TRACED]);
    const result = reply.body.result as {
      inputRequests: Record<string, { params: { _meta?: unknown } }>;
    };
    expect(result.inputRequests.name!.params._meta).toEqual(TRACED);
  });

  it("is left out of input requests when the request has none, or a malformed one", async () => {
    for (const meta of [{}, { traceparent: "00-abc-def-01", tracestate: TRACESTATE }]) {
      seen.length = 0;
      const reply = await post(
        url,
        request("tools/call", { name: "ask", arguments: {}, _meta: meta }, 1, ELICITATION),
      );
      expect(seen).toEqual([undefined]);
      const result = reply.body.result as {
        inputRequests: Record<string, { params: Record<string, unknown> }>;
      };
      expect(result.inputRequests.name!.params._meta).toBeUndefined();
    }
  });

  it("stays with a task's work: its input request carries the creating request's context", async () => {
    seen.length = 0;
    const capabilities = { ...ELICITATION, extensions: { "io.modelcontextprotocol/tasks": {} } };
    const created = await post(
      url,
      request("tools/call", { name: "later", arguments: {}, _meta: TRACED }, 1, capabilities),
    );
    const taskId = (created.body.result as { taskId: string }).taskId;
    let task: Record<string, unknown> = {};
    await until(async () => {
      const got = await post(url, request("tasks/get", { taskId }, 2, capabilities));
      task = got.body.result as Record<string, unknown>;
      return task.status === "input_required";
    });
    expect(seen).toEqual([TRACED]);
    const asked = task.inputRequests as Record<string, { params: { _meta?: unknown } }>;
    expect(asked.name!.params._meta).toEqual(TRACED);
  });
});

describe("a legacy session's server-to-client request", () => {
  it("carries the trace context of the request whose handler made it", async () => {
    const server = testServer();
    server.tool({ name: "ask", inputSchema: { type: "object" } }, async (_args, ctx) => {
      await ctx.elicit("name", FORM);
      return { content: [] };
    });
    const session = server.openSession();
    const sent: Array<Record<string, unknown>> = [];
    const exchange = {
      sink: { notify: (message: Record<string, unknown>) => void sent.push(message) },
      signal: new AbortController().signal,
    };
    await session.serve(
      {
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: {
          protocolVersion: "2025-11-25",
          capabilities: { elicitation: { form: {} } },
          clientInfo: { name: "t", version: "1" },
        },
      },
      exchange,
    );
    const answered = session.serve(
      {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "ask", arguments: {}, _meta: TRACED },
      },
      exchange,
    );
    await until(() => sent.length > 0);
    const asked = sent[0] as { id: string; method: string; params: { _meta?: unknown } };
    expect(asked.method).toBe("elicitation/create");
    expect(asked.params._meta).toEqual(TRACED);
    session.receive({ jsonrpc: "2.0", id: asked.id, result: { action: "decline" } });
    expect((await answered).response).toMatchObject({ result: { content: [] } });
    session.close();
  });
});
