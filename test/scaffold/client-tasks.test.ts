/**
 * A scaffolded client of a scaffolded Tasks server, end to end: `mcp-gen
 * server --example everything --extension tasks` runs in a child process
 * over real HTTP on 127.0.0.1, `mcp-gen client --from-server` lists its
 * tools (some of which declare execution.taskSupport, so the project takes
 * the Tasks extension by itself), and the project's typed tool wrappers
 * call them: a task is followed to its result, a task that asks for input
 * is answered by the project's handlers, a task is cancelled through an
 * AbortSignal. The project compiles under --strict, with a file of ours
 * that uses the wrappers' task options, and regenerates to the same files.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, tempDir } from "../helpers/run-cli.js";
import { importFromProject } from "../helpers/index.js";
import { linkNodeModules, projectEnv, runNode } from "../helpers/project.js";
import { compileProject } from "../helpers/typecheck.js";

const MINUTE = 60_000;
const TSX = pathToFileURL(createRequire(import.meta.url).resolve("tsx/esm")).href;

/** Starts the server project over HTTP on a port of the system's choosing; resolves with its URL. */
function startServer(project: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ["--import", TSX, "src/index.ts"], {
    cwd: project,
    env: { ...projectEnv(), PORT: "0" },
    stdio: ["ignore", "ignore", "pipe"],
  });
  return new Promise((resolve, reject) => {
    let log = "";
    child.stderr.on("data", (chunk: Buffer) => {
      log += chunk.toString("utf8");
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(log)?.[1];
      if (url) resolve({ child, url });
    });
    child.once("exit", (code) => reject(new Error(`the server exited (${code}):\n${log}`)));
  });
}

/** A file of ours in the client project: it compiles only if the wrappers take the task options. */
const TYPED_USE = `import { connect } from "./index.js";

export async function typedUse(url: string, signal: AbortSignal): Promise<string> {
  const client = await connect({ url });
  const seen: string[] = [];
  const result = await client.tools.slow_compute(
    { seconds: 1, label: "typed" },
    { signal, onTask: (handle) => seen.push(handle.taskId), onStatus: (task) => seen.push(String(task.status)) },
  );
  // @ts-expect-error: seconds is a number in the tool's inputSchema
  await client.tools.slow_compute({ seconds: "1", label: "x" });
  await client.close();
  return result.content.map((block) => block.type).join(",") + seen.join(",");
}
`;

/** What the test reads of the client project's index. */
interface ClientProject {
  connect(
    address: { url: string },
    options?: Record<string, unknown>,
  ): Promise<{
    tools: Record<
      string,
      (args: Record<string, unknown>, options?: Record<string, unknown>) => Promise<unknown>
    >;
    rpc: Record<string, (params?: Record<string, unknown>) => Promise<Record<string, unknown>>>;
    close(): Promise<void>;
  }>;
}

let cwd: string;
let clientDir: string;
let server: ChildProcess | undefined;
let url: string;

beforeAll(async () => {
  cwd = tempDir("client-tasks");
  const made = await runCli(
    ["server", "srv", "--example", "everything", "--extension", "tasks", "--quiet"],
    { cwd },
  );
  expect(made.code, made.stderr).toBe(0);
  const serverDir = join(cwd, "srv");
  linkNodeModules(serverDir);
  ({ child: server, url } = await startServer(serverDir));
  const client = await runCli(["client", "cli", "--from-server", url, "--quiet"], { cwd });
  expect(client.code, client.stderr).toBe(0);
  clientDir = join(cwd, "cli");
  linkNodeModules(clientDir);
}, 4 * MINUTE);

afterAll(() => {
  server?.kill();
});

describe("a client project made from a server whose tools run as tasks", () => {
  it("takes the Tasks extension by itself, and declares it", () => {
    const settings = JSON.parse(readFileSync(join(clientDir, "mcp-gen.json"), "utf8")) as {
      extensions: string[];
    };
    expect(settings.extensions).toEqual(["tasks"]);
    const client = readFileSync(join(clientDir, "src", "generated", "client.gen.ts"), "utf8");
    expect(client).toContain(
      'const EXTENSION_SETTINGS: { readonly [id: string]: Readonly<Record<string, unknown>> } = {\n  "io.modelcontextprotocol/tasks": {}\n};',
    );
    expect(client).toContain(
      "declaringExtensions(\n    options.capabilities,\n    protocol.EXTENSIONS,\n    EXTENSION_SETTINGS,\n  )",
    );
    // Its tool functions follow tasks because the revision module it imports has the extension.
    expect(client).toContain("followTasks: FOLLOWS_TASKS,");
    const revision = readFileSync(
      join(clientDir, "src", "generated", "2026-07-28+tasks", "protocol.gen.ts"),
      "utf8",
    );
    expect(revision.slice(revision.indexOf("export const EXTENSIONS"))).toMatch(
      /^export const EXTENSIONS = \{\n {2}"io\.modelcontextprotocol\/tasks": \{/,
    );
  });

  it(
    "compiles under --strict, with code that uses the wrappers' task options",
    () => {
      writeFileSync(join(clientDir, "src", "typed-use.ts"), TYPED_USE);
      expect(compileProject(clientDir).errors).toEqual([]);
    },
    3 * MINUTE,
  );

  it("regenerates to the same files", async () => {
    const run = await runCli(["generate", "--check", "--quiet"], { cwd: clientDir });
    expect(run.code, run.stderr).toBe(0);
  });
});

describe("its typed tool wrappers against the server", () => {
  type Connected = Awaited<ReturnType<ClientProject["connect"]>>;
  let client: Connected;
  const asked: string[] = [];
  let confirm = true;

  beforeAll(async () => {
    const project = await importFromProject<ClientProject>(clientDir, "src/index.ts");
    client = await project.connect(
      { url },
      {
        handlers: {
          elicitation: (params: { message: string }, { key }: { key: string }) => {
            asked.push(`${key}: ${params.message}`);
            return { action: "accept", content: { confirm, name: key } };
          },
        },
      },
    );
  }, MINUTE);
  afterAll(async () => client?.close());

  it("a call the server runs as a task resolves with the task's result", async () => {
    const handles: string[] = [];
    const statuses: unknown[] = [];
    const result = await client.tools.slow_compute!(
      { seconds: 0.2, label: "awaited" },
      {
        onTask: (handle: { taskId: string }) => handles.push(handle.taskId),
        onStatus: (task: { status: string }) => statuses.push(task.status),
      },
    );
    expect(result).toMatchObject({
      content: [{ type: "text", text: "awaited: computed in 0.2 s" }],
    });
    expect(handles).toHaveLength(1);
    expect(statuses.at(-1)).toBe("completed");
    expect(await client.rpc.tasksGet!({ taskId: handles[0]! })).toMatchObject({
      status: "completed",
    });
  });

  it("a tool that is not a task answers at once", async () => {
    expect(await client.tools.greet!({ name: "Ada" })).toMatchObject({
      content: [{ type: "text", text: "Hello, Ada!" }],
    });
  });

  it("a task that asks for input is answered by the project's handlers", async () => {
    asked.length = 0;
    confirm = true;
    expect(await client.tools.confirm_delete!({ filename: "a.txt" })).toMatchObject({
      content: [{ text: "Deleted a.txt" }],
    });
    confirm = false;
    expect(await client.tools.confirm_delete!({ filename: "b.txt" })).toMatchObject({
      content: [{ text: "Kept b.txt" }],
    });
    expect(asked).toEqual(["confirm: Delete a.txt?", "confirm: Delete b.txt?"]);
    asked.length = 0;
    expect(await client.tools.multi_input!({})).toMatchObject({
      content: [{ text: "Received first and second" }],
    });
    expect(asked.sort()).toEqual(["first: First input", "second: Second input"]);
  });

  it("an AbortSignal cancels the task", async () => {
    const controller = new AbortController();
    let taskId = "";
    const call = client.tools.slow_compute!(
      { seconds: 60, label: "stopped" },
      {
        signal: controller.signal,
        onTask: (handle: { taskId: string }) => {
          taskId = handle.taskId;
          setTimeout(() => controller.abort(new Error("no longer needed")), 100);
        },
      },
    );
    await expect(call).rejects.toThrow("no longer needed");
    expect(await client.rpc.tasksGet!({ taskId })).toMatchObject({ status: "cancelled" });
  });

  it("a tool error is a result; a failed task rejects with its JSON-RPC error", async () => {
    expect(await client.tools.failing_job!({})).toMatchObject({ isError: true });
    await expect(client.tools.protocol_error_job!({})).rejects.toMatchObject({
      code: -31000,
      message: "The job stopped: its backend is unavailable",
    });
  });

  it(
    "the project's command line follows a task to its result",
    async () => {
      const run = await runNode(
        [
          "--import",
          TSX,
          "src/cli.ts",
          url,
          "call",
          "slow_compute",
          JSON.stringify({ seconds: 0.1, label: "cli" }),
        ],
        clientDir,
      );
      expect(run.code, run.stderr).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({
        content: [{ type: "text", text: "cli: computed in 0.1 s" }],
      });
    },
    MINUTE,
  );
});
