/**
 * A server scaffolded for Bun, Deno and Cloudflare Workers runs on that
 * runtime: each target is scaffolded (`--target`, the everything example)
 * through the real command line, installed from the npm registry, built
 * with its own `npm run build`, and started as its README says (Bun on the
 * bundle, Deno with `deno task start`, the Worker in workerd with
 * `wrangler dev`). Then, over real HTTP on 127.0.0.1: server/discover; a
 * tools/call whose handler asks for input, answered in a second round
 * (Multi Round-Trip Requests, requestState sealed with node:crypto); and a
 * 2025-11-25 client: initialize, tools/list and tools/call on its session;
 * on Bun and Deno also stdio (server/discover, exit 0 when stdin closes).
 * bun and deno come from the npm registry into a shared cache
 * (helpers/runtimes.ts), wrangler as the Worker project's devDependency.
 * Every process is started in a group of its own and stopped after.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../scripts/shared/free-port.js";
import { installShared } from "../helpers/installs.js";
import { LineReader, post, request } from "../helpers/mcp-client.js";
import { projectEnv } from "../helpers/project.js";
import { runCli, tempDir } from "../helpers/run-cli.js";
import { runtimeBinary, RUNTIME_VERSIONS } from "../helpers/runtimes.js";

const MINUTE = 60_000;
const TARGETS = ["bun", "deno", "workers"] as const;
type Target = (typeof TARGETS)[number];
/** The same key on every runtime, so a round's state is sealed the way a deployment's is. */
const STATE_KEY = "5f0c2b7e9a41d36c88e1f4a07b2d95c3e6a18f70d4b29c51a3e8f6071c9d2b4a";

const started = new Set<ChildProcess>();
/** Timings (ms) of each step, printed at the end for the record. */
const timings: Record<string, number> = {};

/** Runs a command in a process group of its own; resolves with its exit code and output. */
function run(
  command: string,
  args: readonly string[],
  cwd: string,
  env: Record<string, string>,
  timeoutMs: number,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env: projectEnv(env), timeout: timeoutMs });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    child.on("close", (code) => resolve({ code, output }));
  });
}

/** Starts a server in a process group of its own; resolves once its output matches `ready`. */
function startServer(
  command: string,
  args: readonly string[],
  cwd: string,
  env: Record<string, string>,
  ready: RegExp,
): Promise<ChildProcess> {
  const child = spawn(command, args, { cwd, env: projectEnv(env), detached: true });
  started.add(child);
  child.on("exit", () => started.delete(child));
  return new Promise((resolve, reject) => {
    let output = "";
    const timer = setTimeout(
      () => reject(new Error(`no ${ready} within 90 s:\n${output}`)),
      90_000,
    );
    const onData = (chunk: Buffer) => {
      output += chunk.toString("utf8");
      if (ready.test(output)) {
        clearTimeout(timer);
        resolve(child);
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before it was ready:\n${output}`));
    });
  });
}

/** Ends a server's whole process group (npm, wrangler and workerd, deno and its task). */
function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once("exit", () => resolve());
  });
  try {
    process.kill(-child.pid!, "SIGTERM");
  } catch {
    // already gone
  }
  const force = setTimeout(() => {
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // already gone
    }
  }, 5000);
  return exited.then(() => clearTimeout(force));
}

/** How each target is built and started: its scripts, with the runtime's binary on PATH. */
async function launch(target: Target, project: string, port: number): Promise<ChildProcess> {
  const base = { MCP_REQUEST_STATE_KEY: STATE_KEY, PORT: String(port) };
  if (target === "workers") {
    const wrangler = join(project, "node_modules", ".bin", "wrangler");
    return startServer(
      wrangler,
      [
        "dev",
        "--ip",
        "127.0.0.1",
        "--port",
        String(port),
        "--var",
        `MCP_REQUEST_STATE_KEY:${STATE_KEY}`,
      ],
      project,
      { ...base, ...WRANGLER_ENV },
      /Ready on http/,
    );
  }
  const binary = await runtimeBinary(target);
  const env = {
    ...base,
    DENO_NO_UPDATE_CHECK: "1",
    PATH: `${dirname(binary)}:${process.env.PATH ?? ""}`,
  };
  return target === "bun"
    ? startServer(binary, ["dist/index.js"], project, env, /MCP server listening on/)
    : startServer(binary, ["task", "start"], project, env, /MCP server listening on/);
}

/** The environment a target's build gets: its runtime on PATH. */
async function buildEnv(target: Target): Promise<Record<string, string>> {
  if (target === "workers") return WRANGLER_ENV;
  return { PATH: `${dirname(await runtimeBinary(target))}:${process.env.PATH ?? ""}` };
}

const projects: Partial<Record<Target, string>> = {};
/** wrangler's settings: no metrics, and its update check's cache in a folder of this test's. */
let WRANGLER_ENV: Record<string, string>;

beforeAll(async () => {
  const cwd = tempDir("runtimes");
  WRANGLER_ENV = { WRANGLER_SEND_METRICS: "false", CI: "true", TMPDIR: tempDir("wrangler-tmp") };
  for (const target of TARGETS) {
    const scaffolded = await runCli(
      ["server", target, "--target", target, "--example", "everything", "--quiet"],
      { cwd },
    );
    expect(scaffolded.stderr).toBe("");
    projects[target] = join(cwd, target);
  }
  const began = Date.now();
  await Promise.all([
    ...TARGETS.map((target) => installShared(projects[target]!)),
    runtimeBinary("bun"),
    runtimeBinary("deno"),
  ]);
  timings["installs (npm install of the projects, bun and deno when not cached)"] =
    Date.now() - began;
}, 10 * MINUTE);

afterAll(async () => {
  await Promise.all([...started].map(stop));
  console.log(
    `runtimes (bun ${RUNTIME_VERSIONS.bun}, deno ${RUNTIME_VERSIONS.deno}, wrangler 4.86.0):\n${Object.entries(
      timings,
    )
      .map(([step, ms]) => `  ${step}: ${(ms / 1000).toFixed(1)} s`)
      .join("\n")}`,
  );
});

describe.each(TARGETS)("%s: scaffolded, built, run on its runtime", (target) => {
  let url: string;

  beforeAll(async () => {
    const project = projects[target]!;
    let began = Date.now();
    const built = await run("npm", ["run", "build"], project, await buildEnv(target), 4 * MINUTE);
    expect(built.code, built.output).toBe(0);
    expect(existsSync(join(project, "dist"))).toBe(true);
    timings[`${target}: npm run build`] = Date.now() - began;
    const port = await freePort();
    began = Date.now();
    await launch(target, project, port);
    timings[`${target}: start until ready`] = Date.now() - began;
    url = `http://127.0.0.1:${port}/mcp`;
  }, 6 * MINUTE);

  it("answers server/discover", async () => {
    const reply = await post(url, request("server/discover"));
    expect(reply.status).toBe(200);
    expect(reply.body).toHaveProperty(["result", "supportedVersions"], ["2026-07-28"]);
  });

  it("runs a tools/call that asks for input over two rounds (MRTR)", async () => {
    const capabilities = { elicitation: { form: {} } };
    const call = (extra: Record<string, unknown>) =>
      post(
        url,
        request(
          "tools/call",
          { name: "test_elicitation", arguments: { message: "Who are you?" }, ...extra },
          2,
          capabilities,
        ),
      );
    const first = await call({});
    expect(first.status).toBe(200);
    const round = first.body.result as {
      resultType: string;
      requestState: string;
      inputRequests: Record<string, { method: string; params: { message: string } }>;
    };
    expect(round.resultType).toBe("input_required");
    expect(round.inputRequests.user_information).toMatchObject({
      method: "elicitation/create",
      params: { message: "Who are you?" },
    });
    const second = await call({
      inputResponses: {
        user_information: {
          action: "accept",
          content: { username: "ada", email: "ada@example.com" },
        },
      },
      requestState: round.requestState,
    });
    expect(second.body.result).toMatchObject({
      resultType: "complete",
      content: [
        {
          type: "text",
          text: 'User response: action=accept, content={"username":"ada","email":"ada@example.com"}',
        },
      ],
    });
  });

  it.runIf(target !== "workers")(
    "serves stdio: server/discover answered on stdout, and exits 0 when stdin closes",
    async () => {
      const binary = await runtimeBinary(target as "bun" | "deno");
      const args = target === "bun" ? ["dist/index.js", "--stdio"] : ["task", "start:stdio"];
      const child = spawn(binary, args, {
        cwd: projects[target]!,
        env: projectEnv({ MCP_REQUEST_STATE_KEY: STATE_KEY, DENO_NO_UPDATE_CHECK: "1" }),
        detached: true,
      });
      started.add(child);
      const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
      const lines = new LineReader(child.stdout);
      child.stdin.write(`${JSON.stringify(request("server/discover"))}\n`);
      const answer = await lines.next(30_000);
      expect(answer).toHaveProperty(["result", "supportedVersions"], ["2026-07-28"]);
      child.stdin.end();
      expect(await exited).toBe(0);
      started.delete(child);
    },
    60_000,
  );

  it("serves a 2025-11-25 client: initialize, tools/list and tools/call on its session", async () => {
    const legacyPost = (message: Record<string, unknown>, session?: string) =>
      post(url, message, {
        "mcp-protocol-version": session ? "2025-11-25" : undefined,
        "mcp-method": undefined,
        "mcp-name": undefined,
        ...(session ? { "mcp-session-id": session } : {}),
      });
    const init = await legacyPost({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "legacy-client", version: "1.0.0" },
      },
    });
    expect(init.status).toBe(200);
    expect(init.body).toHaveProperty(["result", "protocolVersion"], "2025-11-25");
    const session = init.headers.get("mcp-session-id");
    expect(session).toMatch(/^[\x21-\x7e]+$/);
    const initialized = await legacyPost(
      { jsonrpc: "2.0", method: "notifications/initialized" },
      session!,
    );
    expect(initialized.status).toBe(202);
    const listed = await legacyPost({ jsonrpc: "2.0", id: 2, method: "tools/list" }, session!);
    const names = (listed.body.result as { tools: Array<{ name: string }> }).tools.map(
      (t) => t.name,
    );
    expect(names).toContain("test_simple_text");
    const called = await legacyPost(
      {
        jsonrpc: "2.0",
        id: 3,
        method: "tools/call",
        params: { name: "test_simple_text", arguments: {} },
      },
      session!,
    );
    expect(called.status).toBe(200);
    expect(called.body).toMatchObject({
      id: 3,
      result: { content: [{ type: "text", text: expect.any(String) as unknown }] },
    });
  });
});
