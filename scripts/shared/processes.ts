/**
 * Processes of `npm run bench:server`: free ports, the long-lived children
 * (two servers and the load generator) and how they are always stopped, and
 * the CPU accounting of live children for the "other processes" line.
 */
import { type ChildProcess, fork, spawn, type SpawnOptions } from "node:child_process";
import { readFileSync } from "node:fs";
import { connect } from "node:net";
import { now } from "./common.js";
import { sleep } from "../../test/helpers/wait.js";

/** Resolves once something accepts TCP connections on 127.0.0.1:port; rejects after `timeoutMs` or when `alive()` turns false. */
export async function waitForPort(
  port: number,
  timeoutMs: number,
  alive: () => boolean,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, "127.0.0.1");
      socket.once("connect", () => {
        socket.destroy();
        resolve(true);
      });
      socket.once("error", () => resolve(false));
    });
    if (open) return;
    if (!alive()) throw new Error(`nothing listens on port ${port}: the process exited`);
    if (Date.now() > deadline)
      throw new Error(`nothing listens on port ${port} after ${timeoutMs} ms`);
    await sleep(50);
  }
}

/** A child that runs for the whole benchmark. */
export interface Child {
  readonly name: string;
  readonly proc: ChildProcess;
  readonly pid: number;
  /** The last 8 KiB of its stdout and stderr, for error messages. */
  output(): string;
  exited: boolean;
  exitCode: number | null;
  exitSignal: NodeJS.Signals | null;
}

/**
 * Every long-lived child of the benchmark. `stopAll()` ends them (SIGTERM,
 * then SIGKILL after 2 s); an exit handler and SIGINT/SIGTERM handlers kill
 * whatever is left, so no server outlives the benchmark, also on errors.
 */
export class Children {
  private readonly tracked: Child[] = [];
  private onSignal?: (signal: NodeJS.Signals) => void;

  constructor(private readonly cleanup: () => void = () => {}) {
    process.on("exit", () => this.killNow());
    this.onSignal = (signal) => {
      process.stderr.write(
        `\nbench:server: ${signal}, stopping the servers and the load generator\n`,
      );
      this.killNow();
      this.cleanup();
      process.exit(signal === "SIGINT" ? 130 : 143);
    };
    process.on("SIGINT", this.onSignal);
    process.on("SIGTERM", this.onSignal);
    process.on("SIGHUP", this.onSignal);
  }

  private track(name: string, proc: ChildProcess): Child {
    if (proc.pid === undefined) throw new Error(`could not start ${name}`);
    let tail = "";
    const keep = (chunk: Buffer) => {
      tail = (tail + chunk.toString("utf8")).slice(-8192);
    };
    proc.stdout?.on("data", keep);
    proc.stderr?.on("data", keep);
    const child: Child = {
      name,
      proc,
      pid: proc.pid,
      output: () => tail,
      exited: false,
      exitCode: null,
      exitSignal: null,
    };
    proc.once("exit", (code, signal) => {
      child.exited = true;
      child.exitCode = code;
      child.exitSignal = signal;
    });
    this.tracked.push(child);
    return child;
  }

  /** Starts a command with its output captured (not shown unless something fails). */
  spawn(name: string, command: string, args: string[], options: SpawnOptions): Child {
    return this.track(
      name,
      spawn(command, args, { ...options, stdio: ["ignore", "pipe", "pipe"] }),
    );
  }

  /** Starts a Node module with an IPC channel. */
  fork(name: string, module: string, options: { cwd: string; env?: NodeJS.ProcessEnv }): Child {
    return this.track(
      name,
      fork(module, [], { ...options, execArgv: [], stdio: ["ignore", "pipe", "pipe", "ipc"] }),
    );
  }

  /** Every child started, running or not. */
  all(): readonly Child[] {
    return this.tracked;
  }

  /** The children still running. */
  running(): Child[] {
    return this.tracked.filter((c) => !c.exited);
  }

  /** SIGKILL to every child still running (synchronous; for exit paths). */
  killNow(): void {
    for (const c of this.running()) {
      try {
        c.proc.kill("SIGKILL");
      } catch {
        // already gone
      }
    }
  }

  /** SIGTERM to every child, SIGKILL to those still there after 2 s; resolves when all have exited. */
  async stopAll(): Promise<void> {
    const waits = this.running().map(
      (c) =>
        new Promise<void>((resolve) => {
          if (c.exited) return resolve();
          const timer = setTimeout(() => c.proc.kill("SIGKILL"), 2000);
          c.proc.once("exit", () => {
            clearTimeout(timer);
            resolve();
          });
          c.proc.kill("SIGTERM");
        }),
    );
    await Promise.all(waits);
    if (this.onSignal) {
      process.off("SIGINT", this.onSignal);
      process.off("SIGTERM", this.onSignal);
      process.off("SIGHUP", this.onSignal);
    }
  }
}

/** A request/answer exchange with a forked child (one message in flight at a time). */
export function ask<T>(child: Child, message: unknown, timeoutMs: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`${child.name} did not answer within ${timeoutMs} ms`));
    }, timeoutMs);
    const onMessage = (reply: { result?: T; error?: string }) => {
      cleanup();
      if (reply.error !== undefined) reject(new Error(`${child.name}: ${reply.error}`));
      else resolve(reply.result as T);
    };
    const onExit = () => {
      cleanup();
      reject(
        new Error(
          `${child.name} exited (${child.exitCode ?? child.exitSignal}):\n${child.output()}`,
        ),
      );
    };
    const cleanup = () => {
      clearTimeout(timer);
      child.proc.off("message", onMessage);
      child.proc.off("exit", onExit);
    };
    child.proc.on("message", onMessage);
    child.proc.once("exit", onExit);
    child.proc.send(message as never);
  });
}

/** Resolves on the child's first message (its "ready"). */
export function firstMessage(child: Child, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${child.name} did not start within ${timeoutMs} ms`)),
      timeoutMs,
    );
    child.proc.once("message", () => {
      clearTimeout(timer);
      resolve();
    });
    child.proc.once("exit", () => {
      clearTimeout(timer);
      reject(new Error(`${child.name} exited at start:\n${child.output()}`));
    });
  });
}

// ---------------------------------------------------------------- CPU of live children

/** USER_HZ on Linux: the unit of procTicks. */
export const TICKS_PER_SECOND = 100;

/** utime + stime (+ cutime + cstime with `withChildren`) of a process, in clock ticks. */
export function procTicks(pid: number | "self", withChildren: boolean): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = stat
      .slice(stat.lastIndexOf(")") + 2)
      .split(" ")
      .map(Number);
    return f[11]! + f[12]! + (withChildren ? f[13]! + f[14]! : 0);
  } catch {
    return 0;
  }
}

export interface TreeSnapshot {
  at: number;
  machineBusy: number;
  ours: number;
}

/**
 * Busy ticks of the machine, and of this process (with its waited-for
 * children) plus the given live children. Undefined off Linux.
 */
export function treeSnapshot(pids: readonly number[]): TreeSnapshot | undefined {
  try {
    const cpu = readFileSync("/proc/stat", "utf8")
      .split("\n")[0]!
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number);
    const [user, nice, system, , , irq, softirq, steal] = cpu;
    const machineBusy = user! + nice! + system! + irq! + softirq! + (steal ?? 0);
    const ours =
      procTicks("self", true) + pids.reduce((sum, pid) => sum + procTicks(pid, false), 0);
    return { at: now(), machineBusy, ours };
  } catch {
    return undefined;
  }
}

/** CPU used by processes other than this benchmark and its children, in % of one core on average. */
export function otherPercent(
  a: TreeSnapshot | undefined,
  b: TreeSnapshot | undefined,
): number | undefined {
  if (!a || !b || b.at <= a.at) return undefined;
  const other = b.machineBusy - a.machineBusy - (b.ours - a.ours);
  return Math.max(0, (100 * other) / TICKS_PER_SECOND / ((b.at - a.at) / 1e9));
}

/**
 * How often a process gave up its core because it had nothing to do
 * (voluntary_ctxt_switches in /proc/<pid>/status): each time it waits for
 * a socket and is woken later, on caches another process has used since.
 */
export function procWaits(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    return Number(/^voluntary_ctxt_switches:\s+(\d+)/m.exec(status)?.[1] ?? 0);
  } catch {
    return 0;
  }
}
