/**
 * Operations (templates/runtime/transport: node.ts, signals.ts, http.ts):
 * SIGTERM and SIGINT stop a server in a real child process gracefully
 * (requests under way finish, streams end, exit 0; past the deadline the
 * rest are cut and the exit code is 1); the health endpoint; the opt-in
 * access log, which never shows arguments or tokens.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  McpHttpHandler,
  RequestStateCodec,
  serveHttp,
  type AccessEntry,
} from "../../../templates/runtime/index.js";
import { ROOT } from "../../helpers/index.js";
import { openStream, post, raw, request, testServer } from "../../helpers/mcp-client.js";
import { sleep } from "../../helpers/wait.js";

/** Starts the fixture server; resolves with it and its URL. */
async function child(
  env: Record<string, string> = {},
): Promise<{ proc: ChildProcess; url: string }> {
  const proc = spawn(
    process.execPath,
    ["--import", "tsx", join(ROOT, "test", "runtime", "fixtures", "http-server.ts")],
    {
      cwd: ROOT,
      env: { ...process.env, MCP_REQUEST_STATE_KEY: randomBytes(32).toString("hex"), ...env },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  const url = await new Promise<string>((resolve, reject) => {
    proc.stdout.once("data", (chunk: Buffer) => resolve(chunk.toString("utf8").trim()));
    proc.once("exit", (code) => reject(new Error(`the server exited (${code})`)));
  });
  return { proc, url };
}

function exitOf(proc: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (proc.exitCode !== null) resolve(proc.exitCode);
    else proc.once("exit", (code) => resolve(code));
  });
}

const slow = (ms: number, id = 1) => request("tools/call", { name: "slow", arguments: { ms } }, id);

describe("graceful shutdown", () => {
  it.each(["SIGTERM", "SIGINT"] as const)(
    "%s: a request under way finishes, a listen stream ends, new connections are refused, exit 0",
    { timeout: 30_000 },
    async (signal) => {
      const { proc, url } = await child();
      try {
        const stream = await openStream(
          url,
          request("subscriptions/listen", { notifications: { toolsListChanged: true } }),
        );
        await stream.next(); // the acknowledgment
        const call = post(url, slow(1500));
        await sleep(300);
        const started = Date.now();
        proc.kill(signal);
        const reply = await call;
        expect(reply.status).toBe(200);
        expect(reply.body).toMatchObject({ result: { content: [{ text: "slept 1500" }] } });
        await stream.ended;
        expect(await exitOf(proc)).toBe(0);
        expect(Date.now() - started).toBeLessThan(5000);
        await expect(post(url, slow(1))).rejects.toThrow();
      } finally {
        proc.kill("SIGKILL");
      }
    },
  );

  it(
    "past MCP_SHUTDOWN_TIMEOUT_MS the requests still under way are cut and the exit code is 1",
    { timeout: 30_000 },
    async () => {
      const { proc, url } = await child({ MCP_SHUTDOWN_TIMEOUT_MS: "500" });
      try {
        const call = post(url, slow(20_000)).catch((error: unknown) => error);
        await sleep(300);
        const started = Date.now();
        proc.kill("SIGTERM");
        expect(await exitOf(proc)).toBe(1);
        expect(Date.now() - started).toBeLessThan(3000);
        expect(await call).toBeInstanceOf(Error);
      } finally {
        proc.kill("SIGKILL");
      }
    },
  );

  it("while stopping, the health endpoint answers 503 and a new request on an open connection 503", async () => {
    const running = await serveHttp(testServer(), { port: 0 });
    const base = running.url.replace(/\/mcp$/, "");
    expect(await raw(`${base}/health`, { method: "GET" })).toMatchObject({
      status: 200,
      text: '{"status":"ok"}',
    });
    const stopping = running.shutdown(2000);
    // The listener no longer accepts connections; the core answers what still reaches it.
    const handler = new McpHttpHandler(testServer());
    handler.stop();
    const req = {
      path: "/health",
      method: "GET",
      header: () => "localhost",
      body: "",
      signal: new AbortController().signal,
    };
    expect(await handler.handle(req)).toMatchObject({ status: 503, body: '{"status":"stopping"}' });
    expect(await handler.handle({ ...req, path: "/mcp", method: "POST" })).toMatchObject({
      status: 503,
    });
    expect(await stopping).toBe(true);
  });
});

describe("health endpoint", () => {
  it("answers GET /health with 200 before the Host check (a balancer probes by address); other methods 405", async () => {
    const running = await serveHttp(testServer(), { port: 0 });
    try {
      const health = running.url.replace(/\/mcp$/, "/health");
      const reply = await raw(health, { method: "GET", headers: { host: "10.0.0.5:3000" } });
      expect(reply.status).toBe(200);
      expect(JSON.parse(reply.text)).toEqual({ status: "ok" });
      expect((await raw(health, { method: "POST", body: "{}" })).status).toBe(405);
    } finally {
      await running.close();
    }
  });

  it("healthPath: null turns it off (404 like any other path)", async () => {
    const running = await serveHttp(testServer(), { port: 0, healthPath: null });
    try {
      expect((await raw(running.url.replace(/\/mcp$/, "/health"), { method: "GET" })).status).toBe(
        404,
      );
    } finally {
      await running.close();
    }
  });
});

describe("access log", () => {
  it("one entry per request: method, tool, status, duration; never arguments or tokens", async () => {
    const entries: AccessEntry[] = [];
    const server = testServer({ requestState: new RequestStateCodec(randomBytes(32)) });
    server.tool({ name: "echo", inputSchema: { type: "object" } }, (args) => ({
      content: [{ type: "text", text: String(args.text) }],
    }));
    const running = await serveHttp(server, { port: 0, accessLog: (e) => entries.push(e) });
    try {
      await post(
        running.url,
        request("tools/call", { name: "echo", arguments: { text: "secret-argument" } }),
        { authorization: "Bearer secret-token" },
      );
      await post(running.url, request("tools/list"));
      await post(running.url, "{", {});
      await sleep(50);
      expect(
        entries.map(({ http, method, name, status }) => ({ http, method, name, status })),
      ).toEqual([
        { http: "POST", method: "tools/call", name: "echo", status: 200 },
        { http: "POST", method: "tools/list", name: undefined, status: 200 },
        { http: "POST", method: undefined, name: undefined, status: 400 },
      ]);
      for (const entry of entries) {
        expect(typeof entry.durationMs).toBe("number");
        expect(entry.time).toMatch(/^\d{4}-\d\d-\d\dT/);
      }
      const text = JSON.stringify(entries);
      expect(text).not.toContain("secret-argument");
      expect(text).not.toContain("secret-token");
    } finally {
      await running.close();
    }
  });
});
