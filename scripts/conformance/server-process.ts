/**
 * The server under test: its URL, whether its port is open, and, with --start, the process that
 * serves it (started in a process group of its own, stopped with everything it spawned).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { closeSync, openSync } from "node:fs";
import { createConnection } from "node:net";
import { ConformanceError, tail } from "./suite.js";
import { sleep } from "../../test/helpers/wait.js";

/** Host and port of an http(s) URL (the port defaults by scheme). */
export function endpointOf(url: string): { host: string; port: number } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConformanceError(`--url ${url}: not a URL (e.g. http://127.0.0.1:3000/mcp)`, 2);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new ConformanceError(`--url ${url}: the suite speaks http or https only`, 2);
  }
  const port = parsed.port ? Number(parsed.port) : parsed.protocol === "https:" ? 443 : 80;
  return { host: parsed.hostname.replace(/^\[(.*)\]$/, "$1"), port };
}

/** Whether something accepts TCP connections at host:port (within `timeoutMs`). */
export function portOpen(host: string, port: number, timeoutMs = 2000): Promise<boolean> {
  return new Promise((done) => {
    const socket = createConnection({ host, port });
    const finish = (open: boolean) => {
      socket.destroy();
      done(open);
    };
    socket.setTimeout(timeoutMs, () => finish(false));
    socket.once("connect", () => finish(true));
    socket.once("error", () => finish(false));
  });
}

/** A server started with --start. */
export interface StartedServer {
  pid: number;
  log: string;
  /** Stops the server's whole process group: TERM, then KILL after a grace period. */
  stop(): Promise<void>;
  /** Sends KILL to the group at once; for exit paths that cannot wait. */
  killNow(): void;
}

/**
 * Starts `command` (sh -c) in its own process group, with its output in `log`, and resolves once
 * the URL's port accepts connections. Rejects, after stopping the group, if the command exits
 * first, the port stays closed for `timeoutMs`, or `signal` aborts.
 */
export async function startServer(
  command: string,
  url: string,
  options: { log: string; timeoutMs: number; signal?: AbortSignal },
): Promise<StartedServer> {
  const { host, port } = endpointOf(url);
  const fd = openSync(options.log, "w");
  // detached makes the shell a process-group leader, so stopping the group also reaches whatever
  // it spawned (npx → tsx → node), which killing the shell alone would leave running.
  const child = spawn(command, { shell: true, detached: true, stdio: ["ignore", fd, fd] });
  closeSync(fd);
  child.unref();
  if (child.pid === undefined) {
    await once(child, "error").catch(() => undefined);
    throw new ConformanceError(`--start: could not run ${command}`, 2);
  }
  const server = processGroup(child.pid, options.log);
  try {
    await waitForPort(host, port, child, options);
  } catch (error) {
    await server.stop();
    throw error;
  }
  return server;
}

/** Polls the port until it opens; fails fast when the server process has already exited. */
async function waitForPort(
  host: string,
  port: number,
  child: ChildProcess,
  options: { log: string; timeoutMs: number; signal?: AbortSignal },
): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    options.signal?.throwIfAborted();
    if (await portOpen(host, port, 500)) return;
    if (child.exitCode !== null || child.signalCode !== null) {
      const status = child.exitCode ?? child.signalCode;
      throw new ConformanceError(
        `--start: the server exited (${status}) before ${host}:${port} opened; its log ends:\n${tail(options.log)}`,
        2,
      );
    }
    if (Date.now() > deadline) {
      throw new ConformanceError(
        `--start: ${host}:${port} not open after ${options.timeoutMs} ms; the server log ends:\n${tail(options.log)}`,
        2,
      );
    }
    await sleep(250);
  }
}

/** Stop handles for the process group led by `pid`. */
function processGroup(pid: number, log: string): StartedServer {
  const signalGroup = (signal: NodeJS.Signals | 0): boolean => {
    try {
      process.kill(-pid, signal);
      return true;
    } catch {
      return false; // ESRCH: no process of the group is left
    }
  };
  return {
    pid,
    log,
    async stop() {
      if (!signalGroup("SIGTERM")) return;
      for (let i = 0; i < 50 && signalGroup(0); i++) await sleep(100);
      signalGroup("SIGKILL");
    },
    killNow: () => void signalGroup("SIGKILL"),
  };
}
