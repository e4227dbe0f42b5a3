/**
 * A scaffolded project works as its README says, with nothing but npm:
 * the minimal and everything examples are scaffolded through the real
 * command line, installed from the npm registry, tested with their own
 * `npm test`, built, and started, once over HTTP (`npm start`, PORT) and
 * once over stdio (`npm run start:stdio`); each answers server/discover.
 * Real child processes, real HTTP on 127.0.0.1; slow by nature (the
 * installs take most of it).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { stripVTControlCharacters } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, tempDir } from "../helpers/run-cli.js";
import { post, protocol, request } from "../helpers/mcp-client.js";
import { freePort } from "../../scripts/shared/free-port.js";
import { projectEnv } from "../helpers/project.js";

const EXAMPLES = ["minimal", "everything"] as const;
const MINUTE = 60_000;

/** Runs a command to its end; its exit code and output. */
function run(
  command: string,
  args: readonly string[],
  cwd: string,
  timeoutMs: number,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd,
      env: projectEnv(),
      stdio: ["ignore", "pipe", "pipe"],
      timeout: timeoutMs,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** Every file under dist/ with its modification time: what a compile would change. */
function distTimes(project: string): Record<string, number> {
  const dist = join(project, "dist");
  return Object.fromEntries(
    readdirSync(dist, { recursive: true, encoding: "utf8" })
      .map((f) => [f, statSync(join(dist, f)).mtimeMs] as const)
      .sort(([a], [b]) => a.localeCompare(b)),
  );
}

const started = new Set<ChildProcess>();
/** Starts a long-running command in a process group of its own, so npm and the node it starts stop together. */
function start(
  args: readonly string[],
  cwd: string,
  env: Record<string, string> = {},
): ChildProcess {
  const child = spawn("npm", args, {
    cwd,
    env: projectEnv(env),
    stdio: ["pipe", "pipe", "pipe"],
    detached: true,
  });
  started.add(child);
  child.on("exit", () => started.delete(child));
  return child;
}
function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) {
    // The process group may outlive npm (an orphaned server): end what is left of it.
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // nothing left
    }
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    process.kill(-child.pid!, "SIGTERM");
  });
}

/** Resolves with the whole of `stream`'s text once `pattern` shows up in it. */
function waitFor(stream: NodeJS.ReadableStream, pattern: RegExp, ms: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    const timer = setTimeout(
      () => reject(new Error(`${pattern} did not show up within ${ms} ms; got:\n${text}`)),
      ms,
    );
    stream.on("data", (chunk: Buffer) => {
      text += chunk.toString("utf8");
      if (pattern.test(text)) {
        clearTimeout(timer);
        resolve(text);
      }
    });
  });
}

const projects: Record<string, string> = {};

describe("out of the box: scaffold, npm install, npm test, build, start over HTTP and stdio", () => {
  beforeAll(async () => {
    const cwd = tempDir("out-of-the-box");
    for (const example of EXAMPLES) {
      const scaffolded = await runCli(
        ["server", `${example}-server`, "--example", example, "--quiet"],
        { cwd },
      );
      expect(scaffolded.stderr).toBe("");
      expect(scaffolded.code).toBe(0);
      projects[example] = join(cwd, `${example}-server`);
    }
    const installs = await Promise.all(
      EXAMPLES.map((example) =>
        run("npm", ["install", "--no-audit", "--no-fund"], projects[example]!, 8 * MINUTE),
      ),
    );
    installs.forEach((installed, i) =>
      expect(
        installed.code,
        `npm install of ${EXAMPLES[i]}:\n${installed.stdout}${installed.stderr}`,
      ).toBe(0),
    );
  }, 10 * MINUTE);

  afterAll(async () => {
    for (const child of started) await stop(child);
  });

  it.each(EXAMPLES)(
    "%s: npm test passes",
    async (example) => {
      const tested = await run("npm", ["test"], projects[example]!, 4 * MINUTE);
      expect(tested.code, `${tested.stdout}${tested.stderr}`).toBe(0);
      const summary = stripVTControlCharacters(tested.stdout);
      expect(summary).toMatch(/Tests\s+\d+ passed \(\d+\)\n/);
      expect(summary).not.toMatch(/failed|skipped/);
    },
    5 * MINUTE,
  );

  it.each(EXAMPLES)(
    "%s: npm run build compiles to dist/",
    async (example) => {
      const built = await run("npm", ["run", "build"], projects[example]!, 3 * MINUTE);
      expect(built.code, `${built.stdout}${built.stderr}`).toBe(0);
      expect(existsSync(join(projects[example]!, "dist", "index.js"))).toBe(true);
      expect(
        existsSync(join(projects[example]!, "dist", "mcp-gen", "runtime", "transport", "http.js")),
      ).toBe(true);
    },
    4 * MINUTE,
  );

  it.each(EXAMPLES)(
    "%s: npm start serves Streamable HTTP on 127.0.0.1:$PORT",
    async (example) => {
      const port = await freePort();
      const child = start(["start"], projects[example]!, { PORT: String(port) });
      try {
        const log = await waitFor(child.stderr!, /MCP server listening on \S+\n/, 2 * MINUTE);
        expect(log).toContain(`MCP server listening on http://127.0.0.1:${port}/mcp\n`);
        const reply = await post(`http://127.0.0.1:${port}/mcp`, request("server/discover"));
        expect(reply.status).toBe(200);
        expect(reply.body.result).toMatchObject({
          supportedVersions: [protocol.PROTOCOL_VERSION],
          _meta: { "io.modelcontextprotocol/serverInfo": { name: `${example}-server` } },
        });
        expect(protocol.parseResponse(reply.body, "server/discover")).toMatchObject({ ok: true });
        const listed = await post(`http://127.0.0.1:${port}/mcp`, request("tools/list"));
        expect(listed.body).toHaveProperty(["result", "tools", 0]); // at least one tool
        // SIGTERM to npm alone reaches the server (no shell layer in between): it stops, exits 0, and leaves no orphan.
        const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
        process.kill(child.pid!, "SIGTERM");
        expect(await exited).toBe(0);
        await expect(post(`http://127.0.0.1:${port}/mcp`, request("tools/list"))).rejects.toThrow();
      } finally {
        await stop(child);
      }
    },
    4 * MINUTE,
  );

  it.each(EXAMPLES)(
    "%s: npm run start:stdio answers server/discover on stdin/stdout",
    async (example) => {
      const child = start(["run", "start:stdio"], projects[example]!);
      try {
        const answered = waitFor(
          child.stdout!,
          /\n\{"jsonrpc":"2\.0","id":"discover"[^\n]*\n/,
          2 * MINUTE,
        );
        child.stdin!.write(`${JSON.stringify(request("server/discover", {}, "discover"))}\n`);
        const stdout = await answered;
        // npm itself prints "> name@version script" banners on stdout; every other line is the server's JSON-RPC.
        const lines = stdout.split("\n").filter((line) => line !== "" && !line.startsWith("> "));
        expect(lines).toHaveLength(1);
        const response: unknown = JSON.parse(lines[0]!);
        expect(response).toMatchObject({
          result: { supportedVersions: [protocol.PROTOCOL_VERSION] },
        });
        expect(protocol.parseResponse(response, "server/discover")).toMatchObject({ ok: true });
      } finally {
        await stop(child);
      }
    },
    4 * MINUTE,
  );

  it(
    "npm run --silent start:stdio (what the README gives an MCP client) writes nothing but JSON-RPC on stdout, and compiles nothing when dist/ is current",
    async () => {
      const built = distTimes(projects.minimal!);
      const child = start(["run", "--silent", "start:stdio"], projects.minimal!);
      try {
        const answered = waitFor(child.stdout!, /"id":"discover"[^\n]*\n/, 2 * MINUTE);
        child.stdin!.write(`${JSON.stringify(request("server/discover", {}, "discover"))}\n`);
        const stdout = await answered;
        expect(stdout.startsWith('{"jsonrpc":"2.0","id":"discover","result":')).toBe(true);
        expect(stdout.split("\n").filter(Boolean)).toHaveLength(1);
        expect(distTimes(projects.minimal!)).toEqual(built);
      } finally {
        await stop(child);
      }
    },
    4 * MINUTE,
  );
});
