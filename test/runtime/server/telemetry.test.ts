/**
 * OpenTelemetry spans (templates/runtime/server/telemetry.ts), with the
 * SDK's in-memory exporter and the async-hooks context manager: one SERVER
 * span per request, the child of the request's `traceparent`, and one
 * span per tool call, the child of the request's; the handler's own spans
 * nest inside the tool call's, and what the handler sends on (an MRTR
 * input request) carries the tool call's span as parent. Attributes: the
 * method, the tool's name, the JSON-RPC error code of an error answer
 * (after the error policy). Over real HTTP on 127.0.0.1.
 */
import { context, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { McpError, serveHttp } from "../../../templates/runtime/index.js";
import * as tasksProtocol from "../../../generated/2026-07-28+tasks/index.js";
import { legacy, post, request, testServer } from "../../helpers/mcp-client.js";
import { until } from "../../helpers/wait.js";

const TRACE_ID = "0af7651916cd43dd8448eb211c80319c";
const PARENT_ID = "b7ad6b7169203331";
const TRACEPARENT = `00-${TRACE_ID}-${PARENT_ID}-01`;

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });

const server = testServer();
server.tool({ name: "get_weather", inputSchema: { type: "object" } }, async () => {
  // The handler's own span: the active context makes it the tool call's child.
  await trace.getTracer("weather-app").startActiveSpan("lookup", async (span) => {
    await Promise.resolve();
    span.end();
  });
  return { content: [{ type: "text", text: "sunny" }] };
});
server.tool(
  { name: "fail", inputSchema: { type: "object", properties: { code: { type: "number" } } } },
  (args) => {
    throw new McpError(args.code as number, "no");
  },
);
server.tool({ name: "ask", inputSchema: { type: "object" } }, async (_args, ctx) => {
  await ctx.elicit("city", {
    mode: "form",
    message: "Which city?",
    requestedSchema: { type: "object", properties: {} },
  });
  return { content: [] };
});

let url: string;
let close: () => Promise<void>;
beforeAll(async () => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(provider);
  ({ url, close } = await serveHttp(server, { port: 0 }));
});
afterAll(async () => {
  await close();
  await provider.shutdown();
  trace.disable();
  context.disable();
});
beforeEach(() => exporter.reset());

function named(name: string): ReadableSpan {
  const span = exporter.getFinishedSpans().find((s) => s.name === name);
  if (!span)
    throw new Error(
      `no span ${name} in ${exporter
        .getFinishedSpans()
        .map((s) => s.name)
        .join(", ")}`,
    );
  return span;
}

const call = (
  name: string,
  args: Record<string, unknown> = {},
  meta: object = { traceparent: TRACEPARENT },
) =>
  post(
    url,
    request("tools/call", { name, arguments: args, _meta: meta }, 7, { elicitation: { form: {} } }),
  );

describe("spans of requests and tool calls", () => {
  it("the request's span is the incoming traceparent's child, the tool call's the request's, the handler's the tool call's", async () => {
    const reply = await call("get_weather");
    expect(reply.body.result).toMatchObject({ content: [{ text: "sunny" }] });
    const request = named("tools/call get_weather");
    const tool = named("execute_tool get_weather");
    const own = named("lookup");
    expect(request.spanContext().traceId).toBe(TRACE_ID);
    expect(request.parentSpanContext?.spanId).toBe(PARENT_ID);
    expect(request.kind).toBe(SpanKind.SERVER);
    expect(tool.spanContext().traceId).toBe(TRACE_ID);
    expect(tool.parentSpanContext?.spanId).toBe(request.spanContext().spanId);
    expect(own.parentSpanContext?.spanId).toBe(tool.spanContext().spanId);
    expect(request.attributes).toMatchObject({
      "mcp.method.name": "tools/call",
      "gen_ai.tool.name": "get_weather",
      "jsonrpc.request.id": "7",
      "mcp.protocol.version": "2026-07-28",
    });
    expect(request.attributes).not.toHaveProperty("rpc.jsonrpc.error_code");
    expect(tool.attributes).toMatchObject({
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "get_weather",
    });
  });

  it("a request without traceparent starts a trace of its own", async () => {
    await call("get_weather", {}, {});
    const request = named("tools/call get_weather");
    expect(request.parentSpanContext).toBeUndefined();
    expect(named("execute_tool get_weather").spanContext().traceId).toBe(
      request.spanContext().traceId,
    );
  });

  it.each([
    [-32602, -32602],
    [-32001, -32603],
  ])(
    "a tool throwing %i: both spans carry the code sent (%i) and the error status",
    async (thrown, sent) => {
      const reply = await call("fail", { code: thrown });
      expect((reply.body.error as { code: number }).code).toBe(sent);
      for (const name of ["tools/call fail", "execute_tool fail"]) {
        const span = named(name);
        expect(span.attributes["rpc.jsonrpc.error_code"]).toBe(sent);
        expect(span.attributes["error.type"]).toBe(String(sent));
        expect(span.status.code).toBe(SpanStatusCode.ERROR);
      }
    },
  );

  it("an input request carries the tool call's span as its traceparent; asking is no error", async () => {
    const reply = await call("ask");
    const result = reply.body.result as {
      inputRequests: Record<string, { params: { _meta: { traceparent: string } } }>;
    };
    const tool = named("execute_tool ask");
    expect(result.inputRequests.city!.params._meta.traceparent).toBe(
      `00-${TRACE_ID}-${tool.spanContext().spanId}-01`,
    );
    expect(tool.status.code).not.toBe(SpanStatusCode.ERROR);
    expect(named("tools/call ask").attributes).not.toHaveProperty("rpc.jsonrpc.error_code");
  });

  it("a legacy session's request gets its span too, the child of its traceparent", async () => {
    const session = server.openSession();
    const exchange = { sink: { notify() {} }, signal: new AbortController().signal };
    const params = {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "t", version: "1" },
    };
    await session.serve({ jsonrpc: "2.0", id: 0, method: "initialize", params }, exchange);
    await session.serve(
      {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "get_weather", arguments: {}, _meta: { traceparent: TRACEPARENT } },
      },
      exchange,
    );
    session.close();
    const span = named("tools/call get_weather");
    expect(span.parentSpanContext?.spanId).toBe(PARENT_ID);
    expect(span.attributes["mcp.protocol.version"]).toBe("2025-11-25");
    expect(named("execute_tool get_weather").parentSpanContext?.spanId).toBe(
      span.spanContext().spanId,
    );
  });

  it("a task's work keeps the tool call's span: its input request carries it", async () => {
    const tasks = testServer({ protocol: tasksProtocol, legacy });
    tasks.tool(
      { name: "later", inputSchema: { type: "object" }, execution: { taskSupport: "optional" } },
      (_args, ctx) =>
        ctx.runAsTask(async (task) => {
          await task.elicit("city", {
            mode: "form",
            message: "Which city?",
            requestedSchema: { type: "object", properties: {} },
          });
          return { content: [] };
        }),
    );
    const capabilities = {
      elicitation: { form: {} },
      extensions: { "io.modelcontextprotocol/tasks": {} },
    };
    const exchange = { sink: { notify() {} }, signal: new AbortController().signal };
    const created = await tasks.serve(
      request(
        "tools/call",
        { name: "later", arguments: {}, _meta: { traceparent: TRACEPARENT } },
        1,
        capabilities,
      ),
      exchange,
    );
    const taskId = (created.response as unknown as { result: { taskId: string } }).result.taskId;
    let task: { status?: string; inputRequests?: Record<string, { params: { _meta: unknown } }> } =
      {};
    await until(async () => {
      const got = await tasks.serve(request("tasks/get", { taskId }, 2, capabilities), exchange);
      task = (got.response as { result: typeof task }).result;
      return task.status === "input_required";
    });
    tasks.tasks?.close();
    const tool = named("execute_tool later");
    expect(tool.parentSpanContext?.spanId).toBe(named("tools/call later").spanContext().spanId);
    expect(task.inputRequests!.city!.params._meta).toEqual({
      traceparent: `00-${TRACE_ID}-${tool.spanContext().spanId}-01`,
    });
  });

  it("other requests get a span named after their method", async () => {
    await post(url, request("tools/list", { _meta: { traceparent: TRACEPARENT } }));
    const span = named("tools/list");
    expect(span.parentSpanContext?.spanId).toBe(PARENT_ID);
    expect(span.attributes["mcp.method.name"]).toBe("tools/list");
  });
});
