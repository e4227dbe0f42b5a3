/**
 * `mcp-gen server --extension`: a known extension (tasks) and one of the
 * user's own (test/fixtures/ext-echo, given by path). mcp-gen.json records
 * the known one by name and the other relative to the project; the
 * protocol folder is named after the manifests; the project compiles; the
 * server declares both under capabilities.extensions and answers their
 * methods (validated params; the runtime serves the Tasks requests, a stub
 * of the user's extension says it is not written yet, and refuses a client
 * that does not declare the extension with -32021); the project
 * regenerates from its own folder.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixture, runCli, tempDir } from "../helpers/run-cli.js";
import {
  importFromProject,
  ROOT,
  type ProjectRuntime,
  type ProjectServer,
} from "../helpers/index.js";
import { post, request } from "../helpers/mcp-client.js";
import { compileProject } from "../helpers/typecheck.js";
import { linkNodeModules } from "../helpers/project.js";

const ECHO = fixture("ext-echo");
const TASKS = { extensions: { "io.modelcontextprotocol/tasks": {} } };
const ECHO_DECLARED = { extensions: { "com.example/echo": {} } };
let project: string;

beforeAll(async () => {
  const cwd = tempDir("scaffold-ext");
  const run = await runCli(
    [
      "server",
      "proj",
      "--extension",
      "io.modelcontextprotocol/tasks",
      "--extension",
      ECHO,
      "--quiet",
    ],
    { cwd },
  );
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  project = join(cwd, "proj");
  linkNodeModules(project);
});

const read = (path: string) => readFileSync(join(project, path), "utf8");

describe("--extension: the files", () => {
  it("records a known extension by name and a path relative to the project", () => {
    expect(JSON.parse(read("mcp-gen.json"))).toHaveProperty("extensions", [
      "tasks",
      relative(project, ECHO),
    ]);
  });

  it("names the protocol folder after the manifests, not the arguments", () => {
    expect(
      readdirSync(join(project, "src", "generated"), { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name),
    ).toEqual(["2025-11-25", "2026-07-28+tasks+echo"]);
    expect(read("src/generated/protocol.gen.ts")).toContain(
      'export * as protocol from "./2026-07-28+tasks+echo/index.js";',
    );
  });

  it("the generated module lists both extensions in EXTENSIONS", () => {
    const source = read("src/generated/2026-07-28+tasks+echo/protocol.gen.ts");
    expect(source).toContain(
      '"io.modelcontextprotocol/tasks": {\n    id: "io.modelcontextprotocol/tasks",\n    name: "tasks",',
    );
    expect(source).toContain('capability: { definition: "EchoCapability", sides: ["server"] }');
  });

  it("src/extensions.ts declares each server-side capability, typed, and a stub per client request the runtime does not serve", () => {
    const source = read("src/extensions.ts");
    expect(source).toContain(
      '"io.modelcontextprotocol/tasks": {} satisfies protocol.TasksExtensionCapability,',
    );
    expect(source).toContain('"com.example/echo": {} satisfies protocol.EchoCapability,');
    expect([...source.matchAll(/server\.method\("([^"]+)"/g)].map((m) => m[1])).toEqual([
      "echo/say",
    ]);
  });

  it("the project compiles", () => {
    expect(compileProject(project).errors).toEqual([]);
  });
});

describe("--extension: the server", () => {
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

  it("declares the extensions under capabilities.extensions in server/discover", async () => {
    const reply = await post(url, request("server/discover"));
    expect(reply.body).toHaveProperty(["result", "capabilities", "extensions"], {
      "io.modelcontextprotocol/tasks": {},
      "com.example/echo": {},
    });
  });

  it("validates an extension request's params against the extension's schema", async () => {
    const reply = await post(url, request("tasks/get", {}, 1, TASKS));
    expect(reply.status).toBe(400);
    expect(reply.body.error).toMatchObject({ code: -32602, data: { path: "/params/taskId" } });
  });

  it.each(["tasks/get", "tasks/cancel"])(
    "the runtime serves %s: -32021 without the extension, -32602 for an unknown task",
    async (method) => {
      const without = await post(url, request(method, { taskId: "t-1" }));
      expect(without.body.error).toMatchObject({ code: -32021 });
      const unknown = await post(url, request(method, { taskId: "t-1" }, 1, TASKS));
      expect(unknown.body.error).toMatchObject({ code: -32602, message: "Unknown task: t-1" });
    },
  );

  it("the stub of echo/say answers that it is not implemented yet", async () => {
    const reply = await post(url, request("echo/say", { text: "hi" }, 1, ECHO_DECLARED));
    expect(reply.body.error).toEqual({ code: -32603, message: "echo/say is not implemented yet" });
  });

  it("echo/say is -32021 naming the extension for a client that does not declare it", async () => {
    const reply = await post(url, request("echo/say", { text: "hi" }));
    expect(reply.body.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: ECHO_DECLARED },
    });
  });
});

describe("--extension: regeneration", () => {
  it("the project regenerates from its own folder and is up to date", async () => {
    const run = await runCli(["generate", "--check"], { cwd: project });
    expect(run.stderrLines.at(-1)).not.toMatch(/stale/);
    expect(run.code).toBe(0);
  });

  it("a project with only known extensions gets mcp-gen's committed module", async () => {
    const cwd = tempDir("scaffold-tasks");
    expect(
      (await runCli(["server", "proj", "--extension", "tasks", "--quiet"], { cwd })).code,
    ).toBe(0);
    const folder = join(cwd, "proj", "src", "generated", "2026-07-28+tasks");
    const committed = join(ROOT, "generated", "2026-07-28+tasks");
    for (const file of readdirSync(committed)) {
      const withoutRegenerate = (text: string) => text.replace(/^ \* Regenerate: .*$/m, "");
      expect(withoutRegenerate(readFileSync(join(folder, file), "utf8")), file).toBe(
        withoutRegenerate(readFileSync(join(committed, file), "utf8")),
      );
    }
  });
});
