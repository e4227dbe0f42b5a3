/**
 * `mcp-gen server --example everything --extension tasks`: the example
 * gains the tools the official suite's tasks scenarios call, each with its
 * task support in tools.json and its handler in src/task-tools.ts; the
 * project compiles, and its server runs them as tasks over real HTTP.
 * Without the extension the example has none of them.
 */
import { execFile } from "node:child_process";
import { readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, tempDir } from "../cli/run-cli.js";
import { importFromProject, ROOT, type ProjectRuntime, type ProjectServer } from "../helpers.js";
import { post, request } from "../runtime/mcp-client.js";

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
  symlinkSync(join(ROOT, "node_modules"), join(project, "node_modules"), "dir");
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

  it("the project compiles under --strict", async () => {
    const result = await new Promise<{ code: number; out: string }>((resolve) => {
      execFile(
        process.execPath,
        [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", project, "--noEmit"],
        { cwd: project },
        (error, stdout) => resolve({ code: error ? Number(error.code) : 0, out: stdout }),
      );
    });
    expect(result).toEqual({ code: 0, out: "" });
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
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(task).toMatchObject({ status: "completed", result: { content: [{ type: "text" }] } });
    expect((await call("slow_compute", { seconds: 0, label: "x" }, {})).result).toMatchObject({
      resultType: "complete",
    });
  });

  it("failing_job refuses a client without the extension with -32021", async () => {
    expect((await call("failing_job", {}, {})).error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: EXT },
    });
  });
});
