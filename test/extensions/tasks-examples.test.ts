/**
 * The Tasks extension end to end, on the examples of its specification
 * (tasks.md): every ```json block that is a complete JSON-RPC message
 * validates with generated/2026-07-28+tasks (requests that leave out the
 * `_meta` request metadata for brevity get it first), mutated copies are
 * rejected, and "task" is a resultType only when the extension is merged.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as core from "../../generated/2026-07-28/index.js";
import * as mcp from "../../generated/2026-07-28+tasks/index.js";
import { SCHEMA_DIR } from "../helpers/index.js";

/** A JSON-RPC message of tasks.md, as far as these tests read it (the generated parsers check all of it). */
interface Message {
  readonly [key: string]: unknown;
  readonly jsonrpc?: unknown;
  readonly id?: string | number | null;
  readonly method?: string;
  readonly params?: { readonly [key: string]: unknown; readonly _meta?: object };
  readonly result?: { readonly [key: string]: unknown; readonly resultType?: string };
  readonly error?: { readonly code?: unknown };
}

interface Example {
  readonly line: number;
  readonly message: Message;
  /** For responses: the method answered, from the request just before with the same id, or tools/call for a task. */
  readonly method?: string;
}

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {
    extensions: { "io.modelcontextprotocol/tasks": {} },
  },
};

/** The ```json blocks of tasks.md that are JSON-RPC messages, in document order. */
function examples(): Example[] {
  const text = readFileSync(join(SCHEMA_DIR, "extensions", "tasks", "tasks.md"), "utf8");
  const out: Example[] = [];
  const lastRequest = new Map<string | number | null, string>();
  for (const match of text.matchAll(/```json\n([\s\S]*?)```/g)) {
    const message = JSON.parse(match[1]!) as Message;
    if (message.jsonrpc !== "2.0") continue;
    const line = text.slice(0, match.index).split("\n").length;
    if (typeof message.method === "string" && message.id !== undefined)
      lastRequest.set(message.id, message.method);
    const method =
      message.result !== undefined
        ? message.result.resultType === "task"
          ? "tools/call"
          : lastRequest.get(message.id ?? null)
        : undefined;
    out.push({ line, message, ...(method ? { method } : {}) });
  }
  return out;
}

/** A request as it goes on the wire: with the per-request `_meta` the examples leave out. */
function withMeta(message: Message): Message {
  if (typeof message.method !== "string" || !("id" in message)) return message;
  return {
    ...message,
    params: { ...message.params, _meta: { ...META, ...(message.params?._meta ?? {}) } },
  };
}

const all = examples();
const name = (e: Example) =>
  `tasks.md:${e.line} ${e.message.method ?? (e.method ? `${e.method} result (${e.message.result?.resultType})` : "error")}`;

describe("tasks.md examples", () => {
  it("finds the JSON-RPC examples", () => {
    expect(all.length).toBe(21);
    expect(all.filter((e) => "result" in e.message).every((e) => e.method !== undefined)).toBe(
      true,
    );
  });

  it.each(all.map((e) => [name(e), e] as const))("%s validates", (_name, e) => {
    const message = withMeta(e.message);
    const parsed = e.method
      ? mcp.parseResponse(message, e.method as "tools/call")
      : mcp.parseMessage(message);
    expect(parsed).toMatchObject({ ok: true });
    if (message.error?.code === -32021)
      expect(mcp.validate("MissingRequiredClientCapabilityError", message)).toEqual({ ok: true });
  });
});

describe("mutated tasks.md examples are rejected", () => {
  const requests = all.filter((e) => typeof e.message.method === "string" && "id" in e.message);
  const results = all.filter((e) => e.method !== undefined);

  it.each(requests.map((e) => [name(e), e] as const))(
    "%s: wrong jsonrpc, a params field of the wrong type",
    (_name, e) => {
      const message = withMeta(e.message);
      expect(mcp.parseMessage({ ...message, jsonrpc: "1.0" })).toMatchObject({
        ok: false,
        error: { code: -32600 },
      });
      const field = Object.keys(message.params ?? {}).find((k) => k !== "_meta")!;
      expect(
        mcp.parseMessage({ ...message, params: { ...message.params, [field]: 42 } }),
      ).toMatchObject({ ok: false, error: { code: -32602, data: { path: `/params/${field}` } } });
    },
  );

  it.each(results.map((e) => [name(e), e] as const))(
    "%s: a required field removed, an unknown status, an unrecognized resultType",
    (_name, e) => {
      const { message, method } = e as Required<Example>;
      const result = message.result!;
      const hasTask = "taskId" in result;
      if (hasTask) {
        const { taskId: _t, ...noId } = result;
        expect(
          mcp.parseResponse({ ...message, result: noId }, method as "tools/call"),
        ).toMatchObject({ ok: false, error: { code: -32602 } });
        expect(
          mcp.parseResponse(
            { ...message, result: { ...result, status: "paused" } },
            method as "tools/call",
          ),
        ).toMatchObject({ ok: false, error: { code: -32602 } });
      }
      expect(
        mcp.parseResponse(
          { ...message, result: { ...result, resultType: "postponed" } },
          method as "tools/call",
        ),
      ).toMatchObject({
        ok: false,
        error: { code: -32602, data: { path: "/result/resultType" } },
      });
    },
  );
});

describe('resultType "task" exists only with the extension', () => {
  const task = all.find((e) => e.method === "tools/call")!.message;

  it("the merged revision accepts a task result for tools/call; the core revision does not", () => {
    expect(mcp.parseResponse(task, "tools/call")).toMatchObject({ ok: true });
    expect(core.parseResponse(task, "tools/call")).toMatchObject({
      ok: false,
      error: {
        code: -32602,
        data: { path: "/result/resultType", allowed: ["input_required", "complete"] },
      },
    });
    expect(mcp.resultTypeOf(task.result)).toBe("task");
    expect(core.resultTypeOf(task.result)).toBeUndefined();
    expect(mcp.RESULT_TYPES).toEqual(["complete", "input_required", "task"]);
  });

  it("a task result is only for the methods the extension names", () => {
    expect(mcp.parseResponse(task, "tools/list")).toMatchObject({
      ok: false,
      error: { code: -32602 },
    });
    expect(mcp.METHODS["tools/call"].results).toEqual({
      input_required: "InputRequiredResult",
      complete: "CallToolResult",
      task: "CreateTaskResult",
    });
  });

  it("tasks/* and notifications/tasks are typed, validated methods", () => {
    expect(mcp.METHODS["tasks/get"]).toMatchObject({
      direction: "client-to-server",
      request: "GetTaskRequest",
      results: { complete: "GetTaskResult" },
    });
    expect(mcp.METHODS["tasks/update"].request).toBe("UpdateTaskRequest");
    expect(mcp.METHODS["tasks/cancel"].request).toBe("CancelTaskRequest");
    expect(mcp.NOTIFICATIONS["notifications/tasks"]).toMatchObject({
      direction: "server-to-client",
      notification: "TaskStatusNotification",
    });
    // 2025-11-25 had a tasks/get of its own, in core.
    expect(mcp.METHOD_AVAILABILITY["tasks/get"]).toEqual(["2025-11-25", "2026-07-28"]);
    expect(mcp.METHOD_AVAILABILITY["tasks/update"]).toEqual(["2026-07-28"]);
    expect("tasks/get" in core.METHODS).toBe(false);
  });

  it("capabilities.extensions[io.modelcontextprotocol/tasks] is checked against the extension's capability", () => {
    const caps = (settings: unknown) => ({
      extensions: { "io.modelcontextprotocol/tasks": settings },
    });
    expect(mcp.validate("ClientCapabilities", caps({}))).toEqual({ ok: true });
    expect(mcp.validate("ClientCapabilities", caps({ unexpected: 1 })).ok).toBe(false);
    expect(core.validate("ClientCapabilities", caps({ unexpected: 1 }))).toEqual({ ok: true });
  });
});
