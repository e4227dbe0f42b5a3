/**
 * The Tasks extension in the server runtime (templates/runtime/server/
 * tasks.ts, task-store.ts): per-tool task support, the task lifecycle
 * (tasks/get, tasks/update, tasks/cancel), input requests inside a task,
 * the MRTR-then-task composition, status notifications on listen streams,
 * the capability gate and the Mcp-Name rule for tasks/*.
 */
import { afterEach, describe, expect, it } from "vitest";
import * as legacy from "../../../generated/2025-11-25/index.js";
import * as tasksProtocol from "../../../generated/2026-07-28+tasks/index.js";
import {
  headerMismatch,
  nameParameterOf,
  requestHeaders,
  type JsonRpcMessage,
} from "../../../templates/runtime/core/index.js";
import {
  InMemoryTaskStore,
  McpError,
  McpServer,
  type RequestContext,
  type TaskStore,
  type ToolResult,
} from "../../../templates/runtime/index.js";
import { request } from "../../helpers/mcp-client.js";
import { until } from "../../helpers/wait.js";

const EXT = { extensions: { "io.modelcontextprotocol/tasks": {} } };
const EXT_ELICIT = { elicitation: { form: {} }, ...EXT };
const text = (value: string): ToolResult => ({ content: [{ type: "text", text: value }] });
const delay = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    if (signal?.aborted) {
      clearTimeout(timer);
      resolve();
    }
    signal?.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
  });
const NAME_FORM = { type: "object", properties: { name: { type: "string" } } };

const servers: McpServer[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.tasks?.close();
});

/** A server of the tasks protocol with one tool per behaviour. */
function tasksServer(store: TaskStore = new InMemoryTaskStore(), ttlMs?: number) {
  const errors: unknown[] = [];
  const aborted: string[] = [];
  const server = new McpServer({
    protocol: tasksProtocol,
    legacy,
    info: { name: "tasks-tests", version: "1.0.0" },
    onError: (error) => errors.push(error),
    tasks: { store, pollIntervalMs: 50, ...(ttlMs ? { ttlMs } : {}) },
  });
  servers.push(server);
  const obj = { type: "object" } as const;
  server.tool({ name: "greet", inputSchema: obj }, () => text("Hello!"));
  server.tool(
    { name: "slow", inputSchema: obj, execution: { taskSupport: "optional" } },
    (args, ctx) =>
      ctx.runAsTask(async (task) => {
        await delay(Number(args.ms ?? 0), task.signal);
        if (task.signal.aborted) aborted.push("slow");
        return text(`slept ${Number(args.ms ?? 0)}`);
      }),
  );
  server.tool(
    { name: "must", inputSchema: obj, execution: { taskSupport: "required" } },
    (_args, ctx) => ctx.runAsTask(() => ({ ...text("tool error"), isError: true })),
  );
  server.tool(
    { name: "broken", inputSchema: obj, execution: { taskSupport: "optional" } },
    (args, ctx) =>
      ctx.runAsTask(() => {
        // An application's code; a code reserved by the spec (-32001) must never go out.
        throw new McpError(Number(args.code ?? -31000), "The backend is down");
      }),
  );
  server.tool(
    { name: "ask", inputSchema: obj, execution: { taskSupport: "optional" } },
    (_args, ctx) =>
      ctx.runAsTask(async (task: RequestContext) => {
        const [a, b] = await Promise.all([
          task.elicit("first", { mode: "form", message: "1?", requestedSchema: NAME_FORM }),
          task.elicit("second", { mode: "form", message: "2?", requestedSchema: NAME_FORM }),
        ]);
        return text(`${String(a.content?.name)} ${String(b.content?.name)}`);
      }),
  );
  server.tool(
    { name: "then_task", inputSchema: obj, execution: { taskSupport: "required" } },
    async (_args, ctx) => {
      const answer = await ctx.elicit("user_name", {
        mode: "form",
        message: "Name?",
        requestedSchema: NAME_FORM,
      });
      return ctx.runAsTask(() => text(`Hello, ${String(answer.content?.name)}`));
    },
  );
  return { server, errors, aborted };
}

type Answer = { result?: Record<string, unknown>; error?: { code: number; data?: unknown } };

let nextId = 1;
async function send(
  server: McpServer,
  method: string,
  params: Record<string, unknown>,
  caps: Record<string, unknown> = EXT,
  sink: (message: JsonRpcMessage) => void = () => {},
  signal = new AbortController().signal,
): Promise<Answer> {
  const outcome = await server.serve(request(method, params, nextId++, caps), {
    sink: { notify: sink },
    signal,
  });
  return outcome.response as Answer;
}

const get = async (server: McpServer, taskId: string) =>
  (await send(server, "tasks/get", { taskId })).result!;

/** The task once `done` holds for it. */
const taskWhen = (
  server: McpServer,
  taskId: string,
  done: (task: Record<string, unknown>) => boolean,
) =>
  until(
    async () => {
      const task = await get(server, taskId);
      return done(task) && task;
    },
    { what: `task ${taskId} reaching the state` },
  );
const terminal = (t: Record<string, unknown>) =>
  ["completed", "failed", "cancelled"].includes(String(t.status));

describe("tasks: creation and per-tool task support", () => {
  it("server/discover declares the extension, and nothing under capabilities.tasks", async () => {
    const { server } = tasksServer();
    const caps = (await send(server, "server/discover", {})).result!.capabilities as Record<
      string,
      unknown
    >;
    expect(caps.extensions).toEqual({ "io.modelcontextprotocol/tasks": {} });
    expect(caps.tasks).toBeUndefined();
  });

  it("an optional tool becomes a task for a declaring client: a flat CreateTaskResult, then completed", async () => {
    const { server } = tasksServer();
    const created = (await send(server, "tools/call", { name: "slow", arguments: { ms: 30 } }))
      .result!;
    expect(created).toMatchObject({ resultType: "task", status: "working", ttlMs: 3_600_000 });
    expect(created.pollIntervalMs).toBe(50);
    expect(created.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/);
    for (const key of ["task", "result", "error", "inputRequests", "requestState", "content"])
      expect(created).not.toHaveProperty(key);
    const taskId = String(created.taskId);
    const working = await get(server, taskId);
    expect(working).toMatchObject({ resultType: "complete", taskId, status: "working" });
    const done = await taskWhen(server, taskId, terminal);
    expect(done).toMatchObject({
      status: "completed",
      result: { content: [{ type: "text", text: "slept 30" }] },
    });
    expect(done).not.toHaveProperty("inputRequests");
  });

  it("the same tool runs at once for a client without the extension; a tool without task support never becomes one", async () => {
    const { server } = tasksServer();
    const sync = (await send(server, "tools/call", { name: "slow", arguments: { ms: 0 } }, {}))
      .result!;
    expect(sync).toMatchObject({ resultType: "complete", content: [{ text: "slept 0" }] });
    const greet = (await send(server, "tools/call", { name: "greet", arguments: {} })).result!;
    expect(greet).toMatchObject({ resultType: "complete", content: [{ text: "Hello!" }] });
    expect(greet).not.toHaveProperty("taskId");
  });

  it("a required tool refuses a client without the extension with -32021 naming it", async () => {
    const { server } = tasksServer();
    const refused = await send(server, "tools/call", { name: "must", arguments: {} }, {});
    expect(refused.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { "io.modelcontextprotocol/tasks": {} } } },
    });
    const created = (await send(server, "tools/call", { name: "must", arguments: {} })).result!;
    const done = await taskWhen(server, String(created.taskId), terminal);
    expect(done).toMatchObject({ status: "completed", result: { isError: true } });
  });

  it("work that throws a JSON-RPC error ends failed, with the error and no result", async () => {
    const { server } = tasksServer();
    const created = (await send(server, "tools/call", { name: "broken", arguments: {} })).result!;
    const done = await taskWhen(server, String(created.taskId), terminal);
    expect(done.status).toBe("failed");
    expect(done.error).toEqual({ code: -31000, message: "The backend is down" });
    expect(done).not.toHaveProperty("result");
  });

  it("work that throws a code the spec reserves ends failed with -32603, the cause reported", async () => {
    const { server, errors } = tasksServer();
    const call = { name: "broken", arguments: { code: -32001 } };
    const created = (await send(server, "tools/call", call)).result!;
    const done = await taskWhen(server, String(created.taskId), terminal);
    expect(done.error).toEqual({ code: -32603, message: "Internal error" });
    expect(String(errors[0])).toMatch(/-32001 is in -32000\.\.-32019/);
  });
});

describe("tasks: legacy sessions", () => {
  it("a 2025-11-25 client's tools/list shows no execution.taskSupport (its own task mechanism is not served)", async () => {
    const { server } = tasksServer();
    const session = server.openSession();
    const exchange = { sink: { notify() {} }, signal: new AbortController().signal };
    await session.serve(
      {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-11-25",
          capabilities: {},
          clientInfo: { name: "legacy", version: "1" },
        },
      },
      exchange,
    );
    const listed = await session.serve({ jsonrpc: "2.0", id: 2, method: "tools/list" }, exchange);
    const tools = (
      listed.response as unknown as { result: { tools: Array<Record<string, unknown>> } }
    ).result.tools;
    expect(tools.find((t) => t.name === "slow")).not.toHaveProperty("execution");
  });
});

describe("tasks: the requests of the extension", () => {
  it("tasks/get, tasks/update and tasks/cancel need the extension before anything else (-32021), then a known task (-32602)", async () => {
    const { server } = tasksServer();
    for (const [method, params] of [
      ["tasks/get", { taskId: "gate-test" }],
      ["tasks/update", { taskId: "gate-test", inputResponses: {} }],
      ["tasks/cancel", { taskId: "gate-test" }],
    ] as const) {
      expect((await send(server, method, params, {})).error?.code).toBe(-32021);
      expect((await send(server, method, params)).error?.code).toBe(-32602);
    }
  });

  it("tasks/result and tasks/list do not exist (-32601)", async () => {
    const { server } = tasksServer();
    expect((await send(server, "tasks/result", { taskId: "x" })).error?.code).toBe(-32601);
    expect((await send(server, "tasks/list", {})).error?.code).toBe(-32601);
  });

  it("input requests park the task in input_required; answers leave inputRequests at once; unknown keys are ignored", async () => {
    const { server } = tasksServer();
    const created = (await send(server, "tools/call", { name: "ask", arguments: {} }, EXT_ELICIT))
      .result!;
    const taskId = String(created.taskId);
    const asking = await taskWhen(server, taskId, (t) => t.status === "input_required");
    expect(Object.keys(asking.inputRequests as object).sort()).toEqual(["first", "second"]);
    expect(asking.inputRequests).toMatchObject({
      first: { method: "elicitation/create", params: { message: "1?" } },
    });
    const ignored = await send(server, "tasks/update", {
      taskId,
      inputResponses: { "unknown-key": { ignored: true } },
    });
    expect(ignored.result).toMatchObject({ resultType: "complete" });
    const ack = await send(server, "tasks/update", {
      taskId,
      inputResponses: { first: { action: "accept", content: { name: "Ada" } } },
    });
    expect(ack.result).toMatchObject({ resultType: "complete" });
    for (const key of ["taskId", "status", "result", "error", "inputRequests"])
      expect(ack.result).not.toHaveProperty(key);
    const partial = await get(server, taskId);
    expect(partial.status).toBe("input_required");
    expect(Object.keys(partial.inputRequests as object)).toEqual(["second"]);
    const invalid = await send(server, "tasks/update", {
      taskId,
      inputResponses: { second: { action: "maybe" } },
    });
    expect(invalid.error?.code).toBe(-32602);
    await send(server, "tasks/update", {
      taskId,
      inputResponses: { second: { action: "accept", content: { name: "Lovelace" } } },
    });
    const done = await taskWhen(server, taskId, terminal);
    expect(done).toMatchObject({
      status: "completed",
      result: { content: [{ text: "Ada Lovelace" }] },
    });
  });

  it("tasks/cancel fires the work's signal, ends the task cancelled, and acknowledges again once it ended", async () => {
    const { server, aborted } = tasksServer();
    const created = (await send(server, "tools/call", { name: "slow", arguments: { ms: 60_000 } }))
      .result!;
    const taskId = String(created.taskId);
    await delay(30); // the work is under way
    const ack = await send(server, "tasks/cancel", { taskId });
    expect(ack.result).toMatchObject({ resultType: "complete" });
    expect(await get(server, taskId)).toMatchObject({ status: "cancelled" });
    await delay(20);
    expect(aborted).toEqual(["slow"]);
    expect(server.tasks?.runningCount).toBe(0);
    expect((await send(server, "tasks/cancel", { taskId })).result).toMatchObject({
      resultType: "complete",
    });
    expect(await get(server, taskId)).toMatchObject({ status: "cancelled" });
  });

  it("a task cancelled before its work started never starts it", async () => {
    const { server, aborted } = tasksServer();
    const created = (await send(server, "tools/call", { name: "slow", arguments: { ms: 60_000 } }))
      .result!;
    await send(server, "tasks/cancel", { taskId: created.taskId });
    await delay(20);
    expect(aborted).toEqual([]);
    expect(server.tasks?.runningCount).toBe(0);
    expect(await get(server, String(created.taskId))).toMatchObject({ status: "cancelled" });
  });

  it("an MRTR round comes first, then the call becomes a task without requestState", async () => {
    const { server } = tasksServer();
    const round1 = (
      await send(server, "tools/call", { name: "then_task", arguments: {} }, EXT_ELICIT)
    ).result!;
    expect(round1).toMatchObject({ resultType: "input_required" });
    expect(round1).not.toHaveProperty("taskId");
    const round2 = (
      await send(
        server,
        "tools/call",
        {
          name: "then_task",
          arguments: {},
          inputResponses: { user_name: { action: "accept", content: { name: "Alice" } } },
          requestState: round1.requestState,
        },
        EXT_ELICIT,
      )
    ).result!;
    expect(round2).toMatchObject({ resultType: "task" });
    expect(round2).not.toHaveProperty("requestState");
    expect(round2).not.toHaveProperty("inputRequests");
    const done = await taskWhen(server, String(round2.taskId), terminal);
    expect(done).toMatchObject({
      status: "completed",
      result: { content: [{ text: "Hello, Alice" }] },
    });
  });

  it("a task past its ttlMs is gone: -32602", async () => {
    const { server } = tasksServer(new InMemoryTaskStore(), 40);
    const created = (await send(server, "tools/call", { name: "slow", arguments: { ms: 0 } }))
      .result!;
    expect(created.ttlMs).toBe(40);
    await delay(60);
    expect((await send(server, "tasks/get", { taskId: created.taskId })).error?.code).toBe(-32602);
  });
});

describe("tasks: notifications and headers", () => {
  it("a subscriptions/listen stream with taskIds receives notifications/tasks for those tasks", async () => {
    const { server } = tasksServer();
    const created = (await send(server, "tools/call", { name: "slow", arguments: { ms: 20 } }))
      .result!;
    const taskId = String(created.taskId);
    const seen: JsonRpcMessage[] = [];
    const stop = new AbortController();
    const listening = send(
      server,
      "subscriptions/listen",
      { notifications: { taskIds: [taskId] } },
      EXT,
      (m) => seen.push(m),
      stop.signal,
    );
    await taskWhen(server, taskId, terminal);
    await delay(10);
    stop.abort();
    await listening;
    expect(seen[0]).toMatchObject({
      method: "notifications/subscriptions/acknowledged",
      params: { notifications: { taskIds: [taskId] } },
    });
    const statuses = seen.filter((m) => m.method === "notifications/tasks");
    expect(statuses.at(-1)).toMatchObject({
      params: {
        taskId,
        status: "completed",
        result: { content: [{ text: "slept 20" }] },
        _meta: { "io.modelcontextprotocol/subscriptionId": expect.anything() as unknown },
      },
    });
    for (const m of statuses) expect(tasksProtocol.parseMessage(m)).toMatchObject({ ok: true });
  });

  it("listening for taskIds needs the extension (-32021)", async () => {
    const { server } = tasksServer();
    const refused = await send(
      server,
      "subscriptions/listen",
      { notifications: { taskIds: ["x"] } },
      {},
    );
    expect(refused.error?.code).toBe(-32021);
  });

  it("Mcp-Name must be the taskId on tasks/get, tasks/update and tasks/cancel (-32020), as the manifest's requests name it", () => {
    const named = (method: string) => nameParameterOf(tasksProtocol, method);
    expect(tasksProtocol.EXTENSIONS["io.modelcontextprotocol/tasks"].names).toEqual({
      "tasks/get": "taskId",
      "tasks/update": "taskId",
      "tasks/cancel": "taskId",
    });
    for (const method of ["tasks/get", "tasks/update", "tasks/cancel"]) {
      const message = request(method, { taskId: "t-1", inputResponses: {} }, 1, EXT);
      expect(requestHeaders(message, [], named(method))["mcp-name"]).toBe("t-1");
      const headers = (name?: string) => (h: string) =>
        ({
          "mcp-protocol-version": "2026-07-28",
          "mcp-method": method,
          ...(name === undefined ? {} : { "mcp-name": name }),
        })[h];
      expect(headerMismatch(message, headers("t-1"), () => [], named)).toBeUndefined();
      expect(headerMismatch(message, headers("other"), () => [], named)?.code).toBe(-32020);
      expect(headerMismatch(message, headers(), () => [], named)?.code).toBe(-32020);
      // A revision without the extension names nothing for the method: no Mcp-Name is asked for.
      expect(nameParameterOf(legacy, method)).toBeUndefined();
    }
  });
});
