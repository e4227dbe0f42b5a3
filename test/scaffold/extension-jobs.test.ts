/**
 * A user's own extension at run time, end to end: test/fixtures/ext-jobs
 * (`com.example/jobs`: tools/call may answer resultType "deferred" with a
 * job handle, `jobs/get` polls it, `notifications/jobs/done` announces the
 * end, error code JOB_NOT_FOUND). A server and a client are scaffolded
 * with it; the user code below is what a user writes, with no cast: a tool
 * handler returning the extension's result (falling back to a core result
 * for a client without the extension), a typed `jobs/get` handler that
 * sends the typed notification, and a client continuation that polls the
 * job (and throws the extension's JOB_NOT_FOUND through its generated,
 * typed builder). Both projects compile under --strict (with compile-fail lines that
 * prove the typing), and talk over HTTP and stdio. The same continuation
 * follows a prompt the server answers with a job handle: `rpc.promptsGet`
 * resolves with the prompt's final result. A client that does not declare
 * the extension never receives its results.
 *
 * The extension's run-time part (server.use, as the runtime serves Tasks)
 * makes a declaring client's call a job through ctx.runAs, serves
 * jobs/get, and notifies the listen streams that asked for the job.
 *
 * docs/extensions.md's worked example is this code: its server's
 * src/extensions.ts is taken from the page and runs in every test below,
 * its src/jobs-runtime.ts is the run-time part the tests of server.use run,
 * and its src/tools.ts and client blocks are compiled in projects of their
 * own (the page's tools.json has only `render`), so the page cannot drift
 * from what works.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixture, runCli, tempDir } from "../helpers/run-cli.js";
import { ROOT } from "../helpers/index.js";
import { importFromProject, type ProjectRuntime, type ProjectServer } from "../helpers/index.js";
import { openStream, post, request } from "../helpers/mcp-client.js";
import { linkNodeModules, projectEnv } from "../helpers/project.js";
import { compileProject } from "../helpers/typecheck.js";

const MINUTE = 60_000;
const TSX = pathToFileURL(createRequire(import.meta.url).resolve("tsx/esm")).href;
const JOBS = fixture("ext-jobs");
const DECLARES_JOBS = { extensions: { "com.example/jobs": {} } };

/** The TypeScript blocks of docs/extensions.md's worked example, by the heading they stand under. */
function docBlocks(): { server: string[]; runtime: string[]; client: string[] } {
  const page = readFileSync(join(ROOT, "docs", "extensions.md"), "utf8");
  const start = page.indexOf("## Worked example: your own extension at run time");
  const end = page.indexOf("\n## ", start + 1);
  const section = page.slice(start, end < 0 ? undefined : end);
  const blocks = (heading: string) => {
    const from = section.indexOf(`### ${heading}`);
    const to = section.indexOf("\n### ", from + 1);
    const part = section.slice(from, to < 0 ? undefined : to);
    return [...part.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
  };
  return {
    server: blocks("The server"),
    runtime: blocks("The run-time part of an extension"),
    client: blocks("The client"),
  };
}

/** The page's server block that starts with `// <file>`, without that line. */
function docFile(file: string): string {
  const { server, runtime } = docBlocks();
  const block = [...server, ...runtime].find((b) => b.startsWith(`// ${file}\n`));
  if (block === undefined) throw new Error(`docs/extensions.md has no block for ${file}`);
  return block.slice(`// ${file}\n`.length);
}

const TOOLS = [
  {
    name: "render",
    description: "Renders text; a long render becomes a job.",
    inputSchema: {
      type: "object",
      properties: { text: { type: "string" } },
      required: ["text"],
      additionalProperties: false,
    },
  },
  {
    name: "render_job_only",
    description: "Renders text, always as a job (no core fallback).",
    inputSchema: {
      type: "object",
      properties: { text: { type: "string" } },
      required: ["text"],
      additionalProperties: false,
    },
  },
];

/** The server's jobs: each is done at its second poll. */
const SERVER_JOBS = `/** Jobs kept in memory: each is done at its second poll. */
const jobs = new Map<string, { text: string; polls: number }>();
let next = 0;

export function startJob(text: string): string {
  const jobId = \`job-\${++next}\`;
  jobs.set(jobId, { text, polls: 0 });
  return jobId;
}

export function pollJob(jobId: string): { text: string; done: boolean } | undefined {
  const job = jobs.get(jobId);
  if (!job) return undefined;
  job.polls += 1;
  return { text: job.text, done: job.polls >= 2 };
}
`;

const SERVER_TOOLS = `import type { ToolHandlers } from "./generated/tools.gen.js";
import { startJob } from "./jobs.js";

export const tools: ToolHandlers = {
  // Falls back to core behaviour for a client that does not declare the extension.
  render: (args, ctx) =>
    ctx.declares("com.example/jobs")
      ? { resultType: "deferred", jobId: startJob(args.text), pollIntervalMs: 5 }
      : { content: [{ type: "text", text: \`rendered \${args.text} at once\` }] },
  // Answers with the extension's result whoever asks: the runtime refuses it to a client without it.
  render_job_only: (args) => ({ resultType: "deferred", jobId: startJob(args.text) }),
};

export const wrongToolResult: ToolHandlers["render"] = () =>
  // @ts-expect-error: a deferred result needs its jobId
  ({ resultType: "deferred" });
`;

const EXTENSIONS_IMPORTS = `import { protocol, type Types } from "./generated/protocol.gen.js";
import type { McpServer } from "./mcp-gen/runtime/index.js";
import { pollJob } from "./jobs.js";
`;

/** The server's src/extensions.ts: the page's, and lines that must not compile. */
const SERVER_EXTENSIONS = `${EXTENSIONS_IMPORTS}
${docFile("src/extensions.ts")}
export function wrongUses(server: McpServer<Types>): void {
  server.method("jobs/get", async (params, ctx) => {
    // @ts-expect-error: jobId is a string
    const jobId: number = params.jobId;
    // @ts-expect-error: the notification's params need a jobId
    ctx.notify("notifications/jobs/done", { job: jobId });
    return { status: "running" };
  });
  // @ts-expect-error: status is "running" or "done"
  server.method("jobs/get", async () => ({ status: "lost" }));
  // @ts-expect-error: JOB_NOT_FOUND's data is the jobId, as its error definition says
  throw protocol.jobsErrors.jobNotFound({ job: 1 });
}

/** prompts/get may answer "deferred" (the manifest's returns), resources/read may not. */
export function promptsAndResources(server: McpServer<Types>): void {
  server.prompt({ name: "later" }, () => ({ resultType: "deferred", jobId: "job-9" }));
  server.prompt({ name: "now" }, () => ({ messages: [] }));
  // @ts-expect-error: a deferred result needs its jobId
  server.prompt({ name: "broken" }, () => ({ resultType: "deferred" }));
  // @ts-expect-error: no merged extension adds "queued" to prompts/get
  server.prompt({ name: "other" }, () => ({ resultType: "queued", id: "x" }));
  // @ts-expect-error: no merged extension adds a result to resources/read
  server.resource({ uri: "x://a", name: "a" }, () => ({ resultType: "deferred", jobId: "j" }));
}
`;

/**
 * The extension's run-time part, as the Tasks extension's is written
 * (server.use): a tool call of a declaring client becomes a job through
 * ctx.runAs, jobs/get is its own method, and listen streams that ask for a
 * job under its field jobIds hear when it is done.
 */
const SERVER_RUNTIME = `import type { Types } from "./generated/protocol.gen.js";
import { Started, type McpServer, type ServerExtension } from "./mcp-gen/runtime/index.js";

${docFile("src/jobs-runtime.ts")}
export const wrongExtension: ServerExtension<Types> = {
  id: JOBS,
  methods: {
    // @ts-expect-error: status is "running" or "done"
    "jobs/get": () => ({ status: "lost" }),
  },
};

export function wrongNotification(server: McpServer<Types>): void {
  // @ts-expect-error: the notification's params need a jobId
  server.notifyListeners("notifications/jobs/done", { job: 1 }, { field: "jobIds", key: "job-1" });
}
`;

const CLIENT_USE = `import { createClient, type Options } from "./generated/client.gen.js";

/** A client that follows "deferred" results by polling jobs/get, and reports finished jobs. */
export function followingClient(channel: Options["channel"], done: string[]) {
  return createClient({
    channel,
    info: { name: "jobs-test", version: "1.0.0" },
    continuations: {
      deferred: async (handle, { rpc }) => {
        for (;;) {
          const job = await rpc.jobsGet({ jobId: handle.jobId });
          if (job.status === "done") return job.result ?? {};
          await new Promise((resolve) => setTimeout(resolve, handle.pollIntervalMs ?? 5));
        }
      },
    },
    notifications: { "notifications/jobs/done": (params) => done.push(params.jobId) },
  });
}

/** Renders with the continuation: the wrapper resolves with the tool's final result. */
export async function renderFollowed(channel: Options["channel"], text: string, done: string[]): Promise<string> {
  const client = followingClient(channel, done);
  try {
    const result = await client.tools.render({ text });
    return result.content.map((block) => (block.type === "text" ? block.text : block.type)).join("");
  } finally {
    await client.close();
  }
}

/** Renders without a continuation: the caller gets the job handle, typed, and must narrow. */
export async function renderUnfollowed(channel: Options["channel"], text: string): Promise<string> {
  const client = createClient({ channel, info: { name: "jobs-test", version: "1.0.0" } });
  try {
    const result = await client.tools.render({ text });
    if (result.resultType === "deferred") return \`job \${result.jobId}\`;
    return result.content.length === 0 ? "" : "content";
  } finally {
    await client.close();
  }
}

/** Gets a prompt with the continuation: rpc.promptsGet resolves with the prompt's final result, read without narrowing. */
export async function promptFollowed(channel: Options["channel"], name: string, done: string[]): Promise<string> {
  const client = followingClient(channel, done);
  try {
    const result = await client.rpc.promptsGet({ name });
    // @ts-expect-error: the job handle was followed, so the result never is one
    if (result.resultType === "deferred") return result.jobId;
    return result.messages.map((message) => (message.content.type === "text" ? message.content.text : "")).join("");
  } finally {
    await client.close();
  }
}

/** rpc.toolsCall answers with the union of what tools/call may return. */
export async function callRaw(channel: Options["channel"], text: string): Promise<string> {
  const client = createClient({ channel, info: { name: "jobs-test", version: "1.0.0" } });
  try {
    const result = await client.rpc.toolsCall({ name: "render", arguments: { text } });
    return result.resultType === "deferred" ? result.jobId : String(result.content.length);
  } finally {
    await client.close();
  }
}

/** Never called: each line fails to compile, as it should. */
export async function wrongUses(channel: Options["channel"]): Promise<void> {
  const client = createClient({ channel, info: { name: "jobs-test", version: "1.0.0" } });
  const wrapped = await client.tools.render({ text: "x" });
  // @ts-expect-error: a deferred result has no content: narrow by resultType first
  void wrapped.content.length;
  const raw = await client.rpc.toolsCall({ name: "render", arguments: { text: "x" } });
  // @ts-expect-error: the union's content is not there without narrowing
  void raw.content.length;
  // @ts-expect-error: this project has no Tasks extension, so tools/call never answers "task"
  if (raw.resultType === "task") return;
  // @ts-expect-error: jobId is a string
  await client.rpc.jobsGet({ jobId: 1 });
  const prompt = await client.rpc.promptsGet({ name: "later" });
  // @ts-expect-error: without a continuation for "deferred" the prompt may be a job handle: narrow by resultType first
  void prompt.messages.length;
}

export function wrongContinuation(channel: Options["channel"]) {
  return createClient({
    channel,
    info: { name: "jobs-test", version: "1.0.0" },
    continuations: {
      // @ts-expect-error: a deferred handle has a jobId, no taskId
      deferred: async (handle) => ({ content: [], id: handle.taskId }),
    },
  });
}

export function wrongNotificationHandler(channel: Options["channel"]) {
  return createClient({
    channel,
    info: { name: "jobs-test", version: "1.0.0" },
    notifications: {
      "notifications/jobs/done": (params) =>
        // @ts-expect-error: notifications/jobs/done carries a jobId, no job
        void params.job,
    },
  });
}
`;

/** The page's client blocks, in a function that gives them the names they use. */
const DOC_CLIENT = `import { connectHttp } from "./mcp-gen/runtime/client.js";
import { createClient, type Options } from "./generated/client.gen.js";

export async function docExample(url: string, channel: Options["channel"], info: Options["info"]) {
${docBlocks().client.join("\n")}
}
`;

interface ClientUse {
  renderFollowed(channel: unknown, text: string, done: string[]): Promise<string>;
  renderUnfollowed(channel: unknown, text: string): Promise<string>;
  callRaw(channel: unknown, text: string): Promise<string>;
  promptFollowed(channel: unknown, name: string, done: string[]): Promise<string>;
}
type ClientRuntime = typeof import("../../templates/runtime/client.js");

let serverDir: string;

/** The server project's runtime and its generated protocol module, as its own code imports them. */
async function serverModules() {
  const [runtime, { protocol }] = await Promise.all([
    importFromProject<ProjectRuntime>(serverDir, "src/mcp-gen/runtime/index.ts"),
    importFromProject<{ protocol: ProjectRuntime["McpServer"]["prototype"]["protocol"] }>(
      serverDir,
      "src/generated/protocol.gen.ts",
    ),
  ]);
  return { runtime, protocol };
}
let clientDir: string;
/** A server of the page's own tools.json (only `render`), with the page's src/tools.ts. */
let docServerDir: string;

beforeAll(async () => {
  const cwd = tempDir("ext-jobs");
  const toolsFile = join(cwd, "tools.json");
  writeFileSync(toolsFile, JSON.stringify(TOOLS));
  const docToolsFile = join(cwd, "doc-tools.json");
  writeFileSync(docToolsFile, JSON.stringify(TOOLS.filter((t) => t.name === "render")));
  const made = await Promise.all([
    runCli(["server", "srv", "--extension", JOBS, "--tools", toolsFile, "--quiet"], { cwd }),
    runCli(["client", "cli", "--extension", JOBS, "--tools", toolsFile, "--quiet"], { cwd }),
    runCli(["server", "doc", "--extension", JOBS, "--tools", docToolsFile, "--quiet"], { cwd }),
  ]);
  for (const run of made) expect(run.code, run.stderr).toBe(0);
  serverDir = join(cwd, "srv");
  clientDir = join(cwd, "cli");
  docServerDir = join(cwd, "doc");
  for (const dir of [serverDir, clientDir, docServerDir]) linkNodeModules(dir);
  writeFileSync(join(docServerDir, "src", "jobs.ts"), SERVER_JOBS);
  writeFileSync(
    join(docServerDir, "src", "tools.ts"),
    `import type { ToolHandlers } from "./generated/tools.gen.js";\nimport { startJob } from "./jobs.js";\n\n${docFile("src/tools.ts")}`,
  );
  writeFileSync(
    join(docServerDir, "src", "extensions.ts"),
    `${EXTENSIONS_IMPORTS}\n${docFile("src/extensions.ts")}`,
  );
  writeFileSync(join(clientDir, "src", "doc-example.ts"), DOC_CLIENT);
  writeFileSync(join(serverDir, "src", "jobs.ts"), SERVER_JOBS);
  writeFileSync(join(serverDir, "src", "tools.ts"), SERVER_TOOLS);
  writeFileSync(join(serverDir, "src", "extensions.ts"), SERVER_EXTENSIONS);
  writeFileSync(join(serverDir, "src", "jobs-runtime.ts"), SERVER_RUNTIME);
  writeFileSync(join(clientDir, "src", "jobs-use.ts"), CLIENT_USE);
}, 2 * MINUTE);

describe("the projects compile under --strict with no cast in user code", () => {
  it("the server: a tool handler returns the extension's result, jobs/get is typed", () => {
    expect(compileProject(serverDir).errors).toEqual([]);
  });

  it("the client: continuations typed by the definition, results discriminated by resultType", () => {
    // Its src/doc-example.ts is the page's client code.
    expect(compileProject(clientDir).errors).toEqual([]);
  });

  it("docs/extensions.md's server code, as the page shows it", () => {
    expect(docBlocks().server).toHaveLength(2);
    expect(docBlocks().runtime).toHaveLength(1);
    expect(docBlocks().client).toHaveLength(2);
    expect(compileProject(docServerDir).errors).toEqual([]);
  });
});

describe("over HTTP", () => {
  let url: string;
  let close: () => Promise<void>;
  let client: ClientRuntime;
  let use: ClientUse;

  beforeAll(async () => {
    const [runtime, { createServer }] = await Promise.all([
      importFromProject<ProjectRuntime>(serverDir, "src/mcp-gen/runtime/index.ts"),
      importFromProject<ProjectServer>(serverDir, "src/server.ts"),
    ]);
    ({ url, close } = await runtime.serveHttp(createServer(), { port: 0 }));
    [client, use] = await Promise.all([
      importFromProject<ClientRuntime>(clientDir, "src/mcp-gen/runtime/client.ts"),
      importFromProject<ClientUse>(clientDir, "src/jobs-use.ts"),
    ]);
  });
  afterAll(async () => close?.());

  it("a client with a continuation gets the tool's final result, and the typed notification", async () => {
    const done: string[] = [];
    expect(await use.renderFollowed(client.connectHttp(url), "a page", done)).toBe(
      "rendered a page",
    );
    expect(done).toEqual([expect.stringMatching(/^job-\d+$/)]);
  });

  it("without a continuation the caller gets the job handle", async () => {
    expect(await use.renderUnfollowed(client.connectHttp(url), "b")).toMatch(/^job job-\d+$/);
    expect(await use.callRaw(client.connectHttp(url), "c")).toMatch(/^job-\d+$/);
  });

  it("a client that does not declare the extension gets the core result where the handler falls back", async () => {
    const reply = await post(
      url,
      request("tools/call", { name: "render", arguments: { text: "d" } }),
    );
    expect(reply.body.result).toMatchObject({
      resultType: "complete",
      content: [{ type: "text", text: "rendered d at once" }],
    });
  });

  it("and -32021 naming the extension where the handler answers with the extension's result anyway", async () => {
    const reply = await post(
      url,
      request("tools/call", { name: "render_job_only", arguments: { text: "e" } }),
    );
    expect(reply.body.result).toBeUndefined();
    expect(reply.body.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: DECLARES_JOBS },
    });
    const declared = await post(
      url,
      request(
        "tools/call",
        { name: "render_job_only", arguments: { text: "e" } },
        1,
        DECLARES_JOBS,
      ),
    );
    expect(declared.body.result).toMatchObject({ resultType: "deferred" });
  });

  it("jobs/get is refused with -32021 to a client without the extension, before the handler runs and before its params are checked, as Tasks' methods are", async () => {
    const reply = await post(url, request("jobs/get", { jobId: "job-1" }));
    expect(reply.body.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: DECLARES_JOBS },
    });
    const invalid = await post(url, request("jobs/get", {}));
    expect(invalid.body.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: DECLARES_JOBS },
    });
  });

  it("jobs/get validates its params, and answers the extension's error code", async () => {
    const invalid = await post(url, request("jobs/get", {}, 1, DECLARES_JOBS));
    expect(invalid.body.error).toMatchObject({ code: -32602, data: { path: "/params/jobId" } });
    const unknown = await post(url, request("jobs/get", { jobId: "nope" }, 1, DECLARES_JOBS));
    expect(unknown.body.error).toEqual({
      code: -31001,
      message: "No job nope",
      data: { jobId: "nope" },
    });
  });
});

describe('"undeclared": "fallback" in the manifest', () => {
  it("an extension result that reaches a client without the extension is the server's bug: -32603, logged", async () => {
    const { runtime, protocol } = await serverModules();
    const jobs = protocol.EXTENSIONS!["com.example/jobs"]!;
    expect(jobs.undeclared).toBe("refuse"); // as the manifest says
    const logged: string[] = [];
    const server = new runtime.McpServer({
      protocol: {
        ...protocol,
        EXTENSIONS: { "com.example/jobs": { ...jobs, undeclared: "fallback" } },
      },
      info: { name: "fallback", version: "1.0.0" },
      onError: (error) => logged.push(String(error)),
    }).tool({ name: "render", inputSchema: { type: "object" } }, () => ({
      resultType: "deferred",
      jobId: "job-1",
    }));
    const { url, close } = await runtime.serveHttp(server, { port: 0 });
    try {
      const call = (capabilities: Record<string, unknown>) =>
        post(url, request("tools/call", { name: "render", arguments: {} }, 1, capabilities));
      expect((await call({})).body.error).toEqual({ code: -32603, message: "Internal error" });
      expect(logged).toEqual([
        expect.stringContaining('the handler must check ctx.declares("com.example/jobs") first'),
      ]);
      expect((await call(DECLARES_JOBS)).body.result).toMatchObject({
        resultType: "deferred",
        jobId: "job-1",
      });
    } finally {
      await close();
    }
  });
});

describe("the extension's notification", () => {
  it("ctx.notify sends it only to a client that declares the extension; to another it is dropped, and notify says so", async () => {
    const { runtime, protocol } = await serverModules();
    const sent: boolean[] = [];
    const server = new runtime.McpServer({ protocol, info: { name: "n", version: "1.0.0" } }).tool(
      { name: "announce", inputSchema: { type: "object" } },
      (_args, ctx) => {
        sent.push(ctx.notify("notifications/jobs/done", { jobId: "job-7" }));
        return { content: [] };
      },
    );
    const { url, close } = await runtime.serveHttp(server, { port: 0 });
    const call = (capabilities: Record<string, unknown>) =>
      post(url, request("tools/call", { name: "announce", arguments: {} }, 1, capabilities));
    try {
      const undeclared = await call({});
      expect(undeclared.body.result).toMatchObject({ content: [] });
      expect(undeclared.text).not.toContain("notifications/jobs/done");
      const declared = await call(DECLARES_JOBS);
      expect(declared.body.result).toMatchObject({ content: [] });
      expect(declared.text).toContain("notifications/jobs/done");
      expect(sent).toEqual([false, true]);
    } finally {
      await close();
    }
  });
});

describe("another core method the extension returns for", () => {
  /** Prompts answering with a job handle: job-9, which jobs/get reports running, then done with the prompt's result; and one the schema refuses. */
  async function promptServer(onError: (error: unknown) => void) {
    const { runtime, protocol } = await serverModules();
    let polls = 0;
    const info = { name: "p", version: "1.0.0" };
    const server = new runtime.McpServer({ protocol, info, onError })
      .prompt({ name: "later" }, () => ({ resultType: "deferred", jobId: "job-9" }))
      .prompt({ name: "broken" }, () => ({ resultType: "deferred", jobId: "" }))
      .method("jobs/get", (params) => {
        expect(params.jobId).toBe("job-9");
        polls += 1;
        if (polls < 2) return { status: "running" };
        const text = { type: "text", text: "the prompt, once its job is done" };
        return { status: "done", result: { messages: [{ role: "user", content: text }] } };
      });
    return runtime.serveHttp(server, { port: 0 });
  }

  it("a prompt handler's extension result is checked and negotiated like a tool's", async () => {
    const logged: string[] = [];
    const { url, close } = await promptServer((error) => logged.push(String(error)));
    const get = (name: string, capabilities: Record<string, unknown>) =>
      post(url, request("prompts/get", { name }, 1, capabilities));
    try {
      expect((await get("later", DECLARES_JOBS)).body.result).toMatchObject({
        resultType: "deferred",
        jobId: "job-9",
      });
      expect((await get("later", {})).body.error).toMatchObject({ code: -32021 });
      // DeferredResult.jobId has minLength 1: the result is checked before it is sent.
      expect((await get("broken", DECLARES_JOBS)).body.error).toMatchObject({ code: -32603 });
      expect(logged).toEqual([expect.stringContaining("/jobId must be at least 1 characters")]);
    } finally {
      await close();
    }
  });

  it("a scaffolded client's rpc.promptsGet follows the job with its continuation to the prompt's result", async () => {
    const [client, use] = await Promise.all([
      importFromProject<ClientRuntime>(clientDir, "src/mcp-gen/runtime/client.ts"),
      importFromProject<ClientUse>(clientDir, "src/jobs-use.ts"),
    ]);
    const { url, close } = await promptServer(() => undefined);
    try {
      expect(await use.promptFollowed(client.connectHttp(url), "later", [])).toBe(
        "the prompt, once its job is done",
      );
    } finally {
      await close();
    }
  });
});

describe("the extension's run-time part (server.use), served as the Tasks extension's is", () => {
  let url: string;
  let close: () => Promise<void>;

  beforeAll(async () => {
    const { runtime, protocol } = await serverModules();
    const { jobsRuntime } = await importFromProject<{
      jobsRuntime: (server: object) => unknown;
    }>(serverDir, "src/jobs-runtime.ts");
    const server = new runtime.McpServer({ protocol, info: { name: "rt", version: "1.0.0" } });
    jobsRuntime(server);
    ({ url, close } = await runtime.serveHttp(server, { port: 0 }));
  });
  afterAll(async () => close?.());

  const listen = (jobIds: string[], capabilities: Record<string, unknown>) =>
    openStream(
      url,
      request("subscriptions/listen", { notifications: { jobIds } }, 5, capabilities),
    );

  it("a declaring client's call becomes a job: the listen stream that asked for it hears it is done, and jobs/get has its result", async () => {
    const stream = await listen(["job-1"], DECLARES_JOBS);
    expect(await stream.next()).toMatchObject({
      method: "notifications/subscriptions/acknowledged",
      params: { notifications: { jobIds: ["job-1"] } },
    });
    const call = await post(
      url,
      request("tools/call", { name: "slow", arguments: { text: "x" } }, 1, DECLARES_JOBS),
    );
    expect(call.body.result).toMatchObject({ resultType: "deferred", jobId: "job-1" });
    expect(await stream.next(5_000)).toEqual({
      jsonrpc: "2.0",
      method: "notifications/jobs/done",
      params: { jobId: "job-1", _meta: { "io.modelcontextprotocol/subscriptionId": 5 } },
    });
    stream.close();
    const job = await post(url, request("jobs/get", { jobId: "job-1" }, 2, DECLARES_JOBS));
    expect(job.body.result).toMatchObject({
      resultType: "complete",
      status: "done",
      result: { content: [{ type: "text", text: "slow x" }] },
    });
  });

  it("a client without the extension: the call runs at once, and a listen for jobIds is -32021 naming it", async () => {
    const call = await post(url, request("tools/call", { name: "slow", arguments: { text: "y" } }));
    expect(call.body.result).toMatchObject({
      resultType: "complete",
      content: [{ type: "text", text: "slow y" }],
    });
    const refused = await post(
      url,
      request("subscriptions/listen", { notifications: { jobIds: ["job-1"] } }, 6),
    );
    expect(refused.body.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: DECLARES_JOBS },
    });
  });
});

describe("over stdio", () => {
  let client: ClientRuntime;
  let use: ClientUse;

  beforeAll(async () => {
    [client, use] = await Promise.all([
      importFromProject<ClientRuntime>(clientDir, "src/mcp-gen/runtime/client.ts"),
      importFromProject<ClientUse>(clientDir, "src/jobs-use.ts"),
    ]);
  });

  const spawnServer = () =>
    client.spawnStdio({
      command: process.execPath,
      args: ["--import", TSX, "src/index.ts", "--stdio"],
      cwd: serverDir,
      env: projectEnv(),
    });

  it(
    "the continuation follows the job to its result, and the notification arrives",
    async () => {
      const done: string[] = [];
      expect(await use.renderFollowed(await spawnServer(), "over stdio", done)).toBe(
        "rendered over stdio",
      );
      expect(done).toHaveLength(1);
    },
    MINUTE,
  );

  it(
    "without a continuation the job handle comes back",
    async () => {
      expect(await use.renderUnfollowed(await spawnServer(), "x")).toMatch(/^job job-\d+$/);
    },
    MINUTE,
  );
});
