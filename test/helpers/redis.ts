/**
 * A real redis-server for the tests, benches and soaks that need one: started on a free
 * loopback port with persistence off (`--save ""`, no append-only file,
 * its working folder a temporary one), stopped and removed afterwards.
 *
 * Without redis-server on the PATH these tests fail with a message that
 * says how to install it (Debian: `apt-get install -y redis-server`). A
 * developer who cannot install it runs the rest with
 * MCP_GEN_SKIP_REDIS=1: the Redis tests then show as skipped. CI
 * (`CI` set) refuses that variable, so a run without Redis never passes.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../../scripts/free-port.js";

/** Whether the Redis tests are skipped on purpose (MCP_GEN_SKIP_REDIS=1, never in CI). */
export const SKIP_REDIS = (() => {
  if (process.env.MCP_GEN_SKIP_REDIS !== "1") return false;
  if (process.env.CI)
    throw new Error(
      "MCP_GEN_SKIP_REDIS=1 is not allowed in CI: install redis-server (apt-get install -y redis-server)",
    );
  return true;
})();

/** A running redis-server. */
export interface RedisServer {
  /** `redis://127.0.0.1:<port>/0`. */
  readonly url: string;
  readonly port: number;
  /** Stops the server and removes its folder. */
  stop(): Promise<void>;
}

/** Whether redis-server answers PING on `port`. */
function pong(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once("error", () => done(false));
    socket.connect(port, "127.0.0.1", () => socket.write("PING\r\n"));
    socket.once("data", (data) => done(data.toString().startsWith("+PONG")));
  });
}

/** Whether Debian's redis-server is on the PATH. */
export function redisServerInstalled(): boolean {
  const found = spawnSync("redis-server", ["--version"], { encoding: "utf8" });
  return !found.error && found.status === 0;
}

/**
 * Starts a redis-server (for one test file, a bench or a soak); throws with
 * how to install it when it is missing.
 */
export async function startRedis(): Promise<RedisServer> {
  if (!redisServerInstalled())
    throw new Error(
      "redis-server is not installed: the Redis tests need it (Debian: apt-get install -y redis-server). " +
        "To run the other tests without it, set MCP_GEN_SKIP_REDIS=1 (not allowed in CI).",
    );
  const dir = mkdtempSync(join(tmpdir(), "mcp-gen-redis-"));
  const port = await freePort();
  const child: ChildProcess = spawn(
    "redis-server",
    [
      "--port",
      String(port),
      "--bind",
      "127.0.0.1",
      "--save",
      "",
      "--appendonly",
      "no",
      "--dir",
      dir,
    ],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  for (let i = 0; i < 100; i++) {
    if (await pong(port)) return { url: `redis://127.0.0.1:${port}/0`, port, stop };
    if (child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await stop();
  throw new Error(`redis-server did not start on 127.0.0.1:${port}: ${stderr}`);
}
