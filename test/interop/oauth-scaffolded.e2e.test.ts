/**
 * A scaffolded `--auth` client against a scaffolded `--auth` server, with
 * oidc-provider as the authorization server, all on 127.0.0.1. The client
 * is the project's own command line (`node dist/cli.js`, a child process):
 * it prints the sign-in address on stderr, which a headless browser here
 * follows (login and consent automated) to the client's loopback listener.
 * It signs in and lists the tools; a second run reuses the grant it kept
 * in its token folder (refreshed: the token has expired), is refused
 * `tools/call` for a scope it lacks, steps up and calls the tool.
 */
import { spawn } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, tempDir } from "../helpers/run-cli.js";
import { freePort } from "../../scripts/shared/free-port.js";
import {
  signInAndConsent,
  startAuthorizationServer,
  type TestAuthorizationServer,
} from "../helpers/authorization-server.js";
import { importFromProject, type ProjectServer } from "../helpers/index.js";
import type * as Auth from "../../templates/runtime/auth/index.js";
import type * as Runtime from "../../templates/runtime/index.js";
import { linkNodeModules } from "../helpers/project.js";
import { compileProject } from "../helpers/typecheck.js";
import { sleep } from "../helpers/wait.js";

/** Runs the client's command line; every sign-in address it prints is browsed. */
function runClient(
  project: string,
  args: readonly string[],
  tokenDir: string,
): Promise<{ code: number; stdout: string; stderr: string; signIns: string[] }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["dist/cli.js", ...args], {
      cwd: project,
      env: { PATH: process.env.PATH, MCP_TOKEN_DIR: tokenDir },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    const signIns: string[] = [];
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      for (const match of chunk.toString().matchAll(/^\s+(http:\/\/\S+)$/gm)) {
        signIns.push(match[1]!);
        void signInAndConsent(new URL(match[1]!)).catch(reject);
      }
    });
    const timer = setTimeout(() => child.kill(), 60_000);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr, signIns });
    });
  });
}

describe("a scaffolded --auth client and a scaffolded --auth server, with oidc-provider", () => {
  let as: TestAuthorizationServer;
  let running: Runtime.RunningHttpServer;
  let client: string;
  let url: string;
  let tokenDir: string;

  beforeAll(async () => {
    const cwd = tempDir("oauth-scaffolded");
    for (const args of [
      ["server", "srv", "--auth", "--transport", "http"],
      ["client", "cli", "--auth"],
    ]) {
      const run = await runCli([...args, "--quiet"], { cwd });
      expect(run.code, run.stderr).toBe(0);
    }
    const server = join(cwd, "srv");
    client = join(cwd, "cli");
    tokenDir = join(cwd, "tokens");
    linkNodeModules(client);
    linkNodeModules(server);
    expect(compileProject(client, { emit: true }).errors).toEqual([]);

    const port = await freePort();
    url = `http://127.0.0.1:${port}/mcp`;
    as = await startAuthorizationServer({
      resources: [url],
      scopes: ["mcp", "mcp:write"],
      accessTokenTTL: 2,
    });
    const [runtime, auth, { createServer: createMcpServer }, { authDefaults }] = await Promise.all([
      importFromProject<typeof Runtime>(server, "src/mcp-gen/runtime/index.ts"),
      importFromProject<typeof Auth>(server, "src/mcp-gen/runtime/auth/index.ts"),
      importFromProject<ProjectServer>(server, "src/server.ts"),
      importFromProject<{ authDefaults: Auth.AuthDefaults }>(server, "src/generated/auth.gen.ts"),
    ]);
    const options = auth.authSettingsFromEnvironment(authDefaults, url, {
      MCP_AUTH_ISSUER: as.issuer,
    });
    running = await runtime.serveHttp(createMcpServer(), {
      port,
      authorization: auth.bearerAuthorization({
        ...options,
        // Calling a tool needs more than the project's "mcp": a scope to step up to.
        scopes: { always: ["mcp"], methods: { "tools/call": ["mcp:write"] }, tools: {} },
        onError: () => {},
      }),
    });
  }, 180_000);
  afterAll(async () => {
    await running?.close();
    await as?.close();
  });

  it("signs in from the command line and lists the tools; the grant is kept in a 0600 file", async () => {
    const run = await runClient(client, [url, "list-tools"], tokenDir);
    expect(run.code, run.stderr).toBe(0);
    expect(run.signIns).toHaveLength(1);
    expect(JSON.parse(run.stdout)).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: "echo" })]),
    );
    const files = readdirSync(tokenDir);
    expect(files).toHaveLength(1);
    expect(statSync(join(tokenDir, files[0]!)).mode & 0o777).toBe(0o600);
  }, 90_000);

  it("a new run reuses the kept grant (refreshed), steps up for tools/call and calls the tool", async () => {
    await sleep(2500); // the kept access token has expired
    const tokensBefore = as.requests.get("/token") ?? 0;
    const run = await runClient(client, [url, "call", "echo", '{"text":"hi"}'], tokenDir);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("hi");
    // One sign-in only, for the wider scope: the first request went with the refreshed grant.
    expect(run.signIns).toHaveLength(1);
    expect(new URL(run.signIns[0]!).searchParams.get("scope")?.split(" ")).toEqual(
      expect.arrayContaining(["mcp", "mcp:write"]),
    );
    expect(as.requests.get("/token")! - tokensBefore).toBeGreaterThanOrEqual(2); // refresh, then the code
    expect(as.requests.get("/reg")).toBe(1);
  }, 90_000);
});
