/**
 * A real redis-server for the tests, benches and soaks that need one: started on a free
 * loopback port with persistence off (`--save ""`, no append-only file,
 * its working folder a temporary one), stopped and removed afterwards.
 * With `{ persistence: true }` it keeps an append-only file, so that data
 * survives `halt` and `restart`; `pause` and `resume` stop and continue the
 * process (SIGSTOP, SIGCONT): connected, but not answering.
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
import { freePort } from "../../scripts/shared/free-port.js";
import { sleep } from "./wait.js";

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
  /** The process id of redis-server (changes with `restart`), for CPU accounting. */
  readonly pid: number;
  /** Freezes the process (SIGSTOP): connections stay open, nothing is answered. */
  pause(): void;
  /** Lets a paused process go on (SIGCONT). */
  resume(): void;
  /** Shuts the server down (SIGTERM), keeping its folder: with persistence, its data is on disk. */
  halt(): Promise<void>;
  /** Starts it again on the same port and folder after `halt` (with persistence, with its data). */
  restart(): Promise<void>;
  /** Stops the server and removes its folder. */
  stop(): Promise<void>;
}

/** How a test's redis-server is started. */
export interface RedisStartOptions {
  /** Keep an append-only file (fsync on every write), so data survives a halt and restart. */
  readonly persistence?: boolean;
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
export async function startRedis(options: RedisStartOptions = {}): Promise<RedisServer> {
  if (!redisServerInstalled())
    throw new Error(
      "redis-server is not installed: the Redis tests need it (Debian: apt-get install -y redis-server). " +
        "To run the other tests without it, set MCP_GEN_SKIP_REDIS=1 (not allowed in CI).",
    );
  const dir = mkdtempSync(join(tmpdir(), "mcp-gen-redis-"));
  const port = await freePort();
  const persistence = options.persistence
    ? ["--appendonly", "yes", "--appendfsync", "always"]
    : ["--appendonly", "no"];
  const args = ["--port", String(port), "--bind", "127.0.0.1", "--save", "", ...persistence];
  let child = await launch([...args, "--dir", dir], port).catch((error: unknown) => {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  });
  const halt = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGCONT"); // a paused server only handles SIGTERM once it runs
    child.kill("SIGTERM");
    await exited;
  };
  return {
    url: `redis://127.0.0.1:${port}/0`,
    port,
    get pid() {
      return child.pid ?? 0;
    },
    pause: () => child.kill("SIGSTOP"),
    resume: () => child.kill("SIGCONT"),
    halt,
    restart: async () => {
      await halt();
      child = await launch([...args, "--dir", dir], port);
    },
    stop: async () => {
      await halt();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Spawns redis-server with `args` and resolves once it answers PING on `port`. */
async function launch(args: readonly string[], port: number): Promise<ChildProcess> {
  const child: ChildProcess = spawn("redis-server", args, { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  for (let i = 0; i < 100; i++) {
    if (await pong(port)) return child;
    if (child.exitCode !== null) break;
    await sleep(50);
  }
  if (child.exitCode === null) {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  }
  throw new Error(`redis-server did not start on 127.0.0.1:${port}: ${stderr}`);
}
