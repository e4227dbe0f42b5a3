/**
 * The code of test/scaffold/extension-jobs.test.ts's projects: the files a
 * user of the jobs extension writes (server and client), the tools.json, and
 * the blocks of docs/extensions.md's worked example they are taken from.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../helpers/index.js";

/** The TypeScript blocks of docs/extensions.md's worked example, by the heading they stand under. */
export function docBlocks(): { server: string[]; runtime: string[]; client: string[] } {
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
export function docFile(file: string): string {
  const { server, runtime } = docBlocks();
  const block = [...server, ...runtime].find((b) => b.startsWith(`// ${file}\n`));
  if (block === undefined) throw new Error(`docs/extensions.md has no block for ${file}`);
  return block.slice(`// ${file}\n`.length);
}

export const TOOLS = [
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
export const SERVER_JOBS = `import { randomUUID } from "node:crypto";

/** Jobs kept in memory: each is done at its second poll; their ids cannot be guessed. */
const jobs = new Map<string, { text: string; polls: number }>();

export function startJob(text: string): string {
  const jobId = \`job-\${randomUUID()}\`;
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

export const SERVER_TOOLS = `import type { ToolHandlers } from "./generated/tools.gen.js";
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

export const EXTENSIONS_IMPORTS = `import { protocol, type Types } from "./generated/protocol.gen.js";
import type { McpServer } from "./mcp-gen/runtime/index.js";
import { pollJob } from "./jobs.js";
`;

/** The server's src/extensions.ts: the page's, and lines that must not compile. */
export const SERVER_EXTENSIONS = `${EXTENSIONS_IMPORTS}
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
export const SERVER_RUNTIME = `import { randomUUID } from "node:crypto";
import { protocol, type Types } from "./generated/protocol.gen.js";
import {
  principalKey,
  Started,
  type Authorization,
  type McpServer,
  type ServerExtension,
} from "./mcp-gen/runtime/index.js";

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

export const CLIENT_USE = `import { createClient, type Options } from "./generated/client.gen.js";

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
export const DOC_CLIENT = `import { connectHttp } from "./mcp-gen/runtime/client.js";
import { createClient, type Options } from "./generated/client.gen.js";

export async function docExample(url: string, channel: Options["channel"], info: Options["info"]) {
${docBlocks().client.join("\n")}
}
`;

export interface ClientUse {
  renderFollowed(channel: unknown, text: string, done: string[]): Promise<string>;
  renderUnfollowed(channel: unknown, text: string): Promise<string>;
  callRaw(channel: unknown, text: string): Promise<string>;
  promptFollowed(channel: unknown, name: string, done: string[]): Promise<string>;
}
