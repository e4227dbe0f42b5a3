/**
 * Signing in locally, as a newcomer does it: `mcp-gen server --auth` and
 * `mcp-gen client --auth` scaffolded through the real command line and
 * installed from the npm registry; in the server, `npm run auth:dev` (the
 * development authorization server) and `npm run dev`; in the client,
 * `npm run -s mcp -- <url> call echo ...`, whose printed sign-in address is
 * followed here as a browser would (plain HTTP, cookies kept, every
 * redirect followed to the client's loopback listener: `dev-user` signs in
 * without a prompt). The tool answers; a second call reuses the kept grant
 * without a sign-in; a request without a token gets 401 and the challenge.
 * Real child processes (each command in a process group of its own), real
 * HTTP on 127.0.0.1, free ports given as PORT and MCP_AUTH_DEV_PORT.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../scripts/shared/free-port.js";
import { signInAndConsent } from "../helpers/authorization-server.js";
import { headersFor, raw, request } from "../helpers/mcp-client.js";
import { projectEnv } from "../helpers/project.js";
import { runCli, tempDir } from "../helpers/run-cli.js";
import { until } from "../helpers/wait.js";

const MINUTE = 60_000;

const started = new Set<ChildProcess>();

/** Starts `npm args` in `cwd` in a process group of its own, its output collected. */
function npm(args: readonly string[], cwd: string, env: Record<string, string> = {}) {
  const child = spawn("npm", args, {
    cwd,
    env: projectEnv(env),
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  started.add(child);
  const output = { stdout: "", stderr: "" };
  child.stdout.on("data", (chunk: Buffer) => (output.stdout += chunk.toString("utf8")));
  child.stderr.on("data", (chunk: Buffer) => (output.stderr += chunk.toString("utf8")));
  const exited = new Promise<number>((resolve) =>
    child.on("close", (code) => {
      started.delete(child);
      resolve(code ?? -1);
    }),
  );
  return { child, output, exited };
}

/** Stops a command's whole process group (npm and what it started). */
async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise<void>((resolve) => child.once("close", () => resolve()));
  try {
    process.kill(-child.pid!, "SIGTERM");
  } catch {
    return;
  }
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // already gone
    }
  }, 5000);
  await exited;
  clearTimeout(timer);
}

/** Resolves once `read()` matches `pattern`; fails with what was read after `ms`. */
function waitFor(read: () => string, pattern: RegExp, ms: number): Promise<RegExpMatchArray> {
  return until(() => read().match(pattern), {
    what: `${pattern} in the output`,
    timeoutMs: ms,
    everyMs: 100,
    detail: read,
  });
}

/**
 * The client's command line: every sign-in address it prints on stderr is
 * browsed; resolves with its exit code, output and the addresses.
 */
async function runClient(project: string, args: readonly string[], tokenDir: string) {
  const run = npm(["run", "-s", "mcp", "--", ...args], project, { MCP_TOKEN_DIR: tokenDir });
  const signIns: string[] = [];
  const browsing: Promise<void>[] = [];
  run.child.stderr.on("data", (chunk: Buffer) => {
    for (const match of chunk.toString("utf8").matchAll(/^\s+(http:\/\/\S+)$/gm)) {
      signIns.push(match[1]!);
      browsing.push(signInAndConsent(new URL(match[1]!)));
    }
  });
  const timer = setTimeout(() => void stop(run.child), 3 * MINUTE);
  const code = await run.exited;
  clearTimeout(timer);
  await Promise.all(browsing);
  return { code, ...run.output, signIns };
}

describe("two commands: npm run auth:dev and npm run dev in an --auth server, then its --auth client signs in", () => {
  const projects = { server: "", client: "" };
  let url: string;
  let issuer: string;
  let tokenDir: string;
  let devServer: ReturnType<typeof npm>;
  let authDev: ReturnType<typeof npm>;

  beforeAll(async () => {
    const cwd = tempDir("auth-dev");
    for (const [kind, name] of [
      ["server", "srv"],
      ["client", "cli"],
    ] as const) {
      const made = await runCli([kind, name, "--auth", "--quiet"], { cwd });
      expect(made.code, made.stderr).toBe(0);
      projects[kind] = join(cwd, name);
    }
    tokenDir = join(cwd, "tokens");
    const installs = await Promise.all(
      [projects.server, projects.client].map(async (dir) => {
        const install = npm(["install", "--no-audit", "--no-fund"], dir);
        return { code: await install.exited, ...install.output };
      }),
    );
    for (const install of installs) expect(install.code, install.stderr).toBe(0);
  }, 12 * MINUTE);

  afterAll(async () => {
    for (const child of [...started]) await stop(child);
  });

  it(
    "the server side: npm run auth:dev, then npm run dev, which serves pointed at it",
    async () => {
      const asPort = await freePort();
      const port = await freePort();
      url = `http://127.0.0.1:${port}/mcp`;
      const began = Date.now();
      authDev = npm(["run", "auth:dev"], projects.server, {
        MCP_AUTH_DEV_PORT: String(asPort),
      });
      await waitFor(() => authDev.output.stderr, /Ctrl-C to stop/, MINUTE);
      issuer = `http://127.0.0.1:${asPort}`;
      expect(authDev.output.stderr).toContain(`MCP_AUTH_ISSUER=${issuer}`);
      expect(existsSync(join(projects.server, ".auth-dev", "keys.json"))).toBe(true);
      devServer = npm(["run", "dev"], projects.server, { PORT: String(port) });
      await waitFor(() => devServer.output.stderr, /MCP server listening on/, 2 * MINUTE);
      expect(devServer.output.stderr).toContain(`authorization server: ${issuer}`);
      console.log(`auth-dev e2e: both server commands up in ${Date.now() - began} ms`);
    },
    4 * MINUTE,
  );

  it(
    "the client signs in (dev-user, no password) and calls a tool; a second call needs no sign-in",
    async () => {
      const began = Date.now();
      const first = await runClient(
        projects.client,
        [url, "call", "echo", JSON.stringify({ text: "signed in" })],
        tokenDir,
      );
      expect(first.code, `${first.stdout}${first.stderr}`).toBe(0);
      expect(first.signIns).toHaveLength(1);
      expect(new URL(first.signIns[0]!).origin).toBe(issuer);
      expect(first.stdout).toContain("signed in");
      expect(authDev.output.stderr).toMatch(/dev-user granted client \S+ "mcp" for http:\/\/127/);
      console.log(`auth-dev e2e: the client's sign-in and tool call took ${Date.now() - began} ms`);

      const again = await runClient(
        projects.client,
        [url, "call", "echo", JSON.stringify({ text: "again" })],
        tokenDir,
      );
      expect(again.code, `${again.stdout}${again.stderr}`).toBe(0);
      expect(again.signIns).toEqual([]);
      expect(again.stdout).toContain("again");
    },
    4 * MINUTE,
  );

  it("a request without a token gets 401 and the challenge that leads to the sign-in", async () => {
    const list = request("tools/list");
    const reply = await raw(url, { headers: headersFor(list), body: JSON.stringify(list) });
    expect(reply.status).toBe(401);
    expect(reply.headers["www-authenticate"]).toBe(
      `Bearer resource_metadata="${new URL("/.well-known/oauth-protected-resource/mcp", url).href}", scope="mcp"`,
    );
    const metadata = (await (
      await fetch(new URL("/.well-known/oauth-protected-resource/mcp", url))
    ).json()) as Record<string, unknown>;
    expect(metadata).toMatchObject({ resource: url, authorization_servers: [issuer] });
  });

  it("stopping npm run auth:dev removes the server's settings; keys and the registration stay", async () => {
    await stop(authDev.child);
    const folder = join(projects.server, ".auth-dev");
    // npm may close before the server it started has finished stopping.
    await waitFor(() => (existsSync(join(folder, "server.env")) ? "" : "gone"), /gone/, 10_000);
    expect(existsSync(join(folder, "keys.json"))).toBe(true);
    expect(
      Object.keys(JSON.parse(readFileSync(join(folder, "clients.json"), "utf8")) as object),
    ).toHaveLength(1);
    expect(readFileSync(join(folder, ".gitignore"), "utf8")).toContain("*");
  });
});
