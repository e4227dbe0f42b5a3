/**
 * A user's own extension at run time, end to end: test/fixtures/ext-jobs
 * (`com.example/jobs`: tools/call may answer resultType "deferred" with a
 * job handle, `jobs/get` polls it, `notifications/jobs/done` announces the
 * end, error code JOB_NOT_FOUND). A server and a client are scaffolded
 * with it; the user code (extension-jobs-code.ts) is what a user writes, with no cast: a tool
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
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixture, runCli, tempDir } from "../helpers/run-cli.js";
import { importFromProject, type ProjectRuntime, type ProjectServer } from "../helpers/index.js";
import { openStream, post, request } from "../helpers/mcp-client.js";
import { linkNodeModules, projectEnv } from "../helpers/project.js";
import { compileProject } from "../helpers/typecheck.js";
import {
  CLIENT_USE,
  docBlocks,
  docFile,
  DOC_CLIENT,
  EXTENSIONS_IMPORTS,
  SERVER_EXTENSIONS,
  SERVER_JOBS,
  SERVER_RUNTIME,
  SERVER_TOOLS,
  TOOLS,
  type ClientUse,
} from "./extension-jobs-code.js";

const MINUTE = 60_000;
const TSX = pathToFileURL(createRequire(import.meta.url).resolve("tsx/esm")).href;
const JOBS = fixture("ext-jobs");
const DECLARES_JOBS = { extensions: { "com.example/jobs": {} } };

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
    expect(done).toEqual([expect.stringMatching(/^job-[0-9a-f-]{36}$/)]);
  });

  it("without a continuation the caller gets the job handle", async () => {
    expect(await use.renderUnfollowed(client.connectHttp(url), "b")).toMatch(
      /^job job-[0-9a-f-]{36}$/,
    );
    expect(await use.callRaw(client.connectHttp(url), "c")).toMatch(/^job-[0-9a-f-]{36}$/);
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

  it("jobs/get mirrors its jobId into Mcp-Name, as the manifest's requests name it: a mismatch or a missing header is -32020", async () => {
    const get = request("jobs/get", { jobId: "nope" }, 1, DECLARES_JOBS);
    const other = await post(url, get, { "mcp-name": "job-1" });
    expect(other.body.error).toMatchObject({
      code: -32020,
      message: expect.stringContaining('Mcp-Name header "job-1"') as unknown,
    });
    expect((await post(url, get, { "mcp-name": undefined })).body.error).toMatchObject({
      code: -32020,
      message: "Header mismatch: the Mcp-Name header is missing",
    });
    expect((await post(url, get)).body.error).toMatchObject({ code: -31001 });
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

  /** Tokens and whom each acts for: authorization without an authorization server. */
  const PEOPLE: Record<string, { subject: string }> = {
    alice: { subject: "alice" },
    bob: { subject: "bob" },
  };

  beforeAll(async () => {
    const { runtime, protocol } = await serverModules();
    const { jobsRuntime } = await importFromProject<{
      jobsRuntime: (server: object) => unknown;
    }>(serverDir, "src/jobs-runtime.ts");
    const server = new runtime.McpServer({ protocol, info: { name: "rt", version: "1.0.0" } });
    jobsRuntime(server);
    ({ url, close } = await runtime.serveHttp(server, {
      port: 0,
      authorization: {
        metadata: () => undefined,
        authenticate: (req) => {
          const who = PEOPLE[/^Bearer (.+)$/.exec(req.header("authorization") ?? "")?.[1] ?? ""];
          return Promise.resolve(
            who
              ? { ...who, scopes: [], claims: {} }
              : { kind: "body" as const, status: 401, headers: {}, body: "" },
          );
        },
        authorize: () => undefined,
      },
    }));
  });
  afterAll(async () => close?.());

  const as = (who: string) => ({ authorization: `Bearer ${who}` });
  const listen = (who: string, jobIds: string[], capabilities: Record<string, unknown>, id = 5) =>
    openStream(
      url,
      request("subscriptions/listen", { notifications: { jobIds } }, id, capabilities),
      as(who),
    );
  const slow = async (who: string, text: string) => {
    const call = await post(
      url,
      request("tools/call", { name: "slow", arguments: { text, ms: 500 } }, 1, DECLARES_JOBS),
      as(who),
    );
    expect(call.body.result).toMatchObject({ resultType: "deferred" });
    return String((call.body.result as { jobId: string }).jobId);
  };

  it("a declaring client's call becomes a job with an id no one can guess: the listen stream that asked for it hears it is done, and jobs/get has its result", async () => {
    const jobId = await slow("alice", "x");
    expect(jobId).toMatch(/^[0-9a-f-]{36}$/);
    const stream = await listen("alice", [jobId], DECLARES_JOBS);
    expect(await stream.next()).toMatchObject({
      method: "notifications/subscriptions/acknowledged",
      params: { notifications: { jobIds: [jobId] } },
    });
    expect(await stream.next(5_000)).toEqual({
      jsonrpc: "2.0",
      method: "notifications/jobs/done",
      params: { jobId, _meta: { "io.modelcontextprotocol/subscriptionId": 5 } },
    });
    stream.close();
    const job = await post(url, request("jobs/get", { jobId }, 2, DECLARES_JOBS), as("alice"));
    expect(job.body.result).toMatchObject({
      resultType: "complete",
      status: "done",
      result: { content: [{ type: "text", text: "slow x" }] },
    });
  });

  it("another client gets for the job what an unknown job gets: -31001 from jobs/get, a listen acknowledged without it that hears nothing", async () => {
    const jobId = await slow("alice", "secret");
    const stranger = await listen("bob", [jobId], DECLARES_JOBS, 6);
    expect(await stranger.next()).toMatchObject({
      method: "notifications/subscriptions/acknowledged",
      params: { notifications: { jobIds: [] } },
    });
    const theirs = await post(url, request("jobs/get", { jobId }, 3, DECLARES_JOBS), as("bob"));
    const none = await post(
      url,
      request("jobs/get", { jobId: "00000000-0000-4000-8000-000000000000" }, 3, DECLARES_JOBS),
      as("bob"),
    );
    expect(theirs.body.error).toMatchObject({ code: -31001, data: { jobId } });
    expect(none.body.error).toMatchObject({ code: -31001 });
    await expect(stranger.next(1_500)).rejects.toThrow(/no message/);
    stranger.close();
  });

  it("a client without the extension: the call runs at once, and a listen for jobIds is -32021 naming it", async () => {
    const call = await post(
      url,
      request("tools/call", { name: "slow", arguments: { text: "y" } }),
      as("alice"),
    );
    expect(call.body.result).toMatchObject({
      resultType: "complete",
      content: [{ type: "text", text: "slow y" }],
    });
    const refused = await post(
      url,
      request("subscriptions/listen", { notifications: { jobIds: ["job-1"] } }, 6),
      as("alice"),
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
      expect(await use.renderUnfollowed(await spawnServer(), "x")).toMatch(
        /^job job-[0-9a-f-]{36}$/,
      );
    },
    MINUTE,
  );
});
