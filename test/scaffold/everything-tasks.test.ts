/**
 * `mcp-gen server --example everything --extension tasks`: the example
 * gains the tools the official suite's tasks scenarios call, each with its
 * task support in tools.json and its handler in src/task-tools.ts; the
 * project compiles, and its server runs them as tasks over real HTTP.
 * Without the extension the example has none of them. The client runtime
 * follows those tasks to their end (McpClient.awaitTask): polling,
 * answering input requests with its typed handlers through tasks/update,
 * and cancelling with an AbortSignal.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, tempDir } from "../helpers/run-cli.js";
import { importFromProject, type ProjectRuntime, type ProjectServer } from "../helpers/index.js";
import * as tasksProtocol from "../../generated/2026-07-28+tasks/index.js";
import {
  connectHttp,
  McpClient,
  RemoteError,
  TASKS_CAPABILITIES,
} from "../../templates/runtime/client.js";
import { post, request } from "../helpers/mcp-client.js";
import { compileProject } from "../helpers/typecheck.js";
import { linkNodeModules } from "../helpers/project.js";
import { sleep } from "../helpers/wait.js";

const TASK_TOOLS = [
  "greet",
  "slow_compute",
  "failing_job",
  "protocol_error_job",
  "confirm_delete",
  "multi_input",
  "test_tool_with_task",
];
const EXT = { extensions: { "io.modelcontextprotocol/tasks": {} } };
let project: string;
let plain: string;

beforeAll(async () => {
  const cwd = tempDir("scaffold-everything-tasks");
  for (const [dir, extra] of [
    ["with", ["--extension", "tasks"]],
    ["without", []],
  ] as const) {
    const run = await runCli(["server", dir, "--example", "everything", ...extra, "--quiet"], {
      cwd,
    });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
  }
  project = join(cwd, "with");
  plain = join(cwd, "without");
  linkNodeModules(project);
});

const names = (dir: string) =>
  (JSON.parse(readFileSync(join(dir, "tools.json"), "utf8")) as Array<{ name: string }>).map(
    (t) => t.name,
  );

describe("--example everything --extension tasks: the files", () => {
  it("tools.json ends with the task tools, each with its task support", () => {
    const tools = JSON.parse(readFileSync(join(project, "tools.json"), "utf8")) as Array<{
      name: string;
      execution?: { taskSupport: string };
    }>;
    expect(tools.slice(-TASK_TOOLS.length).map((t) => t.name)).toEqual(TASK_TOOLS);
    const support = Object.fromEntries(tools.map((t) => [t.name, t.execution?.taskSupport]));
    expect(support).toMatchObject({
      greet: undefined,
      slow_compute: "optional",
      failing_job: "required",
      test_tool_with_task: "required",
    });
    expect(names(plain)).not.toContain("slow_compute");
    expect(names(plain).length).toBe(tools.length - TASK_TOOLS.length);
  });

  it("src/task-tools.ts holds their handlers; without the extension it holds none", () => {
    expect(readFileSync(join(project, "src", "task-tools.ts"), "utf8")).toContain("ctx.runAsTask(");
    expect(readFileSync(join(plain, "src", "task-tools.ts"), "utf8")).toContain(
      "export type TaskToolName = never;",
    );
  });

  it("the project compiles under --strict", () => {
    expect(compileProject(project).errors).toEqual([]);
  });
});

describe("--example everything --extension tasks: the server", () => {
  let url: string;
  let close: () => Promise<void>;

  beforeAll(async () => {
    const [runtime, { createServer }] = await Promise.all([
      importFromProject<ProjectRuntime>(project, "src/mcp-gen/runtime/index.ts"),
      importFromProject<ProjectServer>(project, "src/server.ts"),
    ]);
    ({ url, close } = await runtime.serveHttp(createServer(), { port: 0 }));
  });
  afterAll(async () => close?.());

  const call = async (
    name: string,
    args: Record<string, unknown>,
    caps: Record<string, unknown> = EXT,
  ) => (await post(url, request("tools/call", { name, arguments: args }, 1, caps))).body;

  it("slow_compute is a task for a declaring client, then completes; at once for the others", async () => {
    const created = (await call("slow_compute", { seconds: 0, label: "x" })).result as Record<
      string,
      unknown
    >;
    expect(created).toMatchObject({ resultType: "task", status: "working" });
    let task: Record<string, unknown> = {};
    for (let i = 0; i < 50 && task.status !== "completed"; i++) {
      task = (await post(url, request("tasks/get", { taskId: created.taskId }, 2, EXT))).body
        .result as Record<string, unknown>;
      await sleep(20);
    }
    expect(task).toMatchObject({ status: "completed", result: { content: [{ type: "text" }] } });
    expect((await call("slow_compute", { seconds: 0, label: "x" }, {})).result).toMatchObject({
      resultType: "complete",
    });
  });

  describe("followed by the client runtime", () => {
    const asked: string[] = [];
    let client: McpClient;
    beforeAll(() => {
      client = new McpClient({
        protocol: tasksProtocol,
        channel: connectHttp(url),
        info: { name: "tasks-client", version: "1.0.0" },
        capabilities: TASKS_CAPABILITIES,
        handlers: {
          elicitation: (params, { key }) => {
            asked.push(`${key}: ${String(params.message)}`);
            return { action: "accept", content: { confirm: true, name: key } };
          },
        },
      });
    });
    afterAll(async () => client?.close());

    it("awaits a task's result, polling at its pollIntervalMs", async () => {
      const handle = await client.callTool("slow_compute", { seconds: 0.2, label: "polled" });
      expect(handle).toMatchObject({ resultType: "task" });
      const statuses: unknown[] = [];
      const result = await client.awaitTask(handle, { onStatus: (t) => statuses.push(t.status) });
      expect(result).toMatchObject({
        content: [{ type: "text", text: "polled: computed in 0.2 s" }],
      });
      expect(statuses.at(-1)).toBe("completed");
    });

    it("answers input requests with the same typed handlers as MRTR, each through tasks/update", async () => {
      asked.length = 0;
      const multi = await client.awaitTask(await client.callTool("multi_input", {}));
      expect(multi).toMatchObject({ content: [{ text: "Received first and second" }] });
      expect(asked.sort()).toEqual(["first: First input", "second: Second input"]);
      const deleted = await client.awaitTask(
        await client.callTool("confirm_delete", { filename: "a.txt" }),
      );
      expect(deleted).toMatchObject({ content: [{ text: "Deleted a.txt" }] });
    });

    it("a tool error completes the task; a failed task rejects with its JSON-RPC error", async () => {
      const failing = await client.awaitTask(await client.callTool("failing_job", {}));
      expect(failing).toMatchObject({ isError: true });
      const failed = client.awaitTask(await client.callTool("protocol_error_job", {}));
      await expect(failed).rejects.toBeInstanceOf(RemoteError);
      await expect(failed).rejects.toMatchObject({ code: -31000 });
    });

    it("an AbortSignal stops waiting and cancels the task", async () => {
      const handle = await client.callTool("slow_compute", { seconds: 60, label: "stopped" });
      const controller = new AbortController();
      setTimeout(() => controller.abort(new Error("no longer needed")), 100);
      await expect(client.awaitTask(handle, { signal: controller.signal })).rejects.toThrow(
        "no longer needed",
      );
      const task = await client.request("tasks/get", { taskId: handle.taskId });
      expect(task).toMatchObject({ status: "cancelled" });
    });
  });

  it("failing_job refuses a client without the extension with -32021", async () => {
    expect((await call("failing_job", {}, {})).error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: EXT },
    });
  });
});
