/**
 * Instances of the scale-out test server (test/runtime/fixtures/scale-out-server.ts)
 * as real child processes on 127.0.0.1, each on its own port: what the
 * tests of several instances sharing one Redis start and stop. The server
 * prints its URL on its first line of stdout once it listens.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { ROOT } from "./index.js";

const SCALE_OUT_SERVER = join(ROOT, "test", "runtime", "fixtures", "scale-out-server.ts");

/** A running instance. */
export interface Instance {
  readonly name: string;
  readonly proc: ChildProcess;
  /** Its MCP endpoint. */
  readonly url: string;
  /** What it wrote to stderr so far (collected only when `quiet`; otherwise it goes to the test's stderr). */
  readonly stderr: () => string;
}

/** How an instance is started. */
export interface InstanceOptions {
  /** Its name (INSTANCE), which its answers and logs carry. */
  readonly name: string;
  /** The Redis URL its tasks, changes and sessions are shared through (MCP_TASK_STORE). */
  readonly redisUrl: string;
  /** More environment: keys, leases, limits. */
  readonly env?: Readonly<Record<string, string>>;
  /** Options for node before the fixture (`--expose-gc`). */
  readonly nodeOptions?: readonly string[];
  /** Collect stderr instead of passing it through. */
  readonly quiet?: boolean;
}

/** Starts an instance and resolves once it listens; rejects with its stderr when it exits first. */
export async function startInstance(options: InstanceOptions): Promise<Instance> {
  const proc = spawn(
    process.execPath,
    [...(options.nodeOptions ?? []), "--import", "tsx", SCALE_OUT_SERVER],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        INSTANCE: options.name,
        MCP_TASK_STORE: options.redisUrl,
        ...options.env,
      },
      stdio: ["ignore", "pipe", options.quiet ? "pipe" : "inherit"],
    },
  );
  let stderr = "";
  proc.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const url = await new Promise<string>((resolve, reject) => {
    proc.stdout!.once("data", (chunk: Buffer) => resolve(chunk.toString("utf8").trim()));
    proc.once("exit", (code) =>
      reject(new Error(`instance ${options.name} exited (${code}) before it listened: ${stderr}`)),
    );
  });
  return { name: options.name, proc, url, stderr: () => stderr };
}

/** Whether the instance's process has ended. */
function ended(instance: Instance): boolean {
  return instance.proc.exitCode !== null || instance.proc.signalCode !== null;
}

/** Resolves with the instance's exit code once its process has ended. */
export function exitOf(instance: Instance): Promise<number | null> {
  if (ended(instance)) return Promise.resolve(instance.proc.exitCode);
  return new Promise((resolve) => instance.proc.once("exit", (code) => resolve(code)));
}

/** Sends the instance `signal` (SIGTERM: a graceful stop) and waits until it has ended; nothing when absent or ended. */
export async function stopInstance(
  instance: Instance | undefined,
  signal: NodeJS.Signals = "SIGTERM",
): Promise<void> {
  if (!instance || ended(instance)) return;
  const exited = exitOf(instance);
  instance.proc.kill(signal);
  await exited;
}
