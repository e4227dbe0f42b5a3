/**
 * One helper thread for the CPU-heavy tasks of generation: reading
 * schema.ts with ts-morph, which runs on a second core while the main
 * thread parses schema.json and compiles the validators (see generate()),
 * and compiling validators when that early result cannot be used.
 * Results are the same bytes wherever a task runs.
 *
 * The thread exists only when mcp-gen runs as compiled JavaScript (the
 * worker module is a .js file beside this one) and MCP_GEN_THREADS is not
 * `0`; otherwise, as under a TypeScript loader, tasks run in-process.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { McpGenError, type Diagnostic } from "../diagnostics.js";
import { TASKS, type TaskInput, type TaskName, type TaskOutput } from "./tasks.js";

/** A task sent to the helper thread. */
export interface TaskRequest {
  readonly id: number;
  readonly name: TaskName;
  readonly input: unknown;
}

/** The helper thread's answer: a value, the diagnostics of a McpGenError, or any other failure. */
export type TaskReply =
  | { readonly id: number; readonly value: unknown }
  | { readonly id: number; readonly diagnostics: readonly Diagnostic[] }
  | { readonly id: number; readonly failure: { readonly message: string; readonly stack: string } };

/** How long an idle helper thread is kept (it holds ts-morph and ajv, a few hundred MB) for the next run in the same process. */
const IDLE_MS = 2_000;

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

class HelperThread {
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(url: URL) {
    this.worker = new Worker(url);
    this.worker.on("message", (reply: TaskReply) => this.settle(reply));
    this.worker.on("error", (error) => this.failAll(error));
    this.worker.on("exit", (code) =>
      this.failAll(
        new Error(`mcp-gen's helper thread exited (code ${code}) with tasks unfinished`),
      ),
    );
    // Not yet on the idle timer: started early, it is still loading for a first task that is on its way.
    this.worker.unref();
  }

  run(name: TaskName, input: unknown): Promise<unknown> {
    clearTimeout(this.idleTimer);
    // Referenced while a task runs, so the process waits for it.
    this.worker.ref();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, name, input } satisfies TaskRequest);
    });
  }

  private settle(reply: TaskReply): void {
    const pending = this.pending.get(reply.id);
    if (!pending) return;
    this.pending.delete(reply.id);
    if ("value" in reply) pending.resolve(reply.value);
    else if ("diagnostics" in reply) pending.reject(new McpGenError(reply.diagnostics));
    else
      pending.reject(
        Object.assign(new Error(reply.failure.message), { stack: reply.failure.stack }),
      );
    if (this.pending.size === 0) this.becomeIdle();
  }

  private failAll(error: Error): void {
    for (const pending of this.pending.values()) pending.reject(error);
    this.pending.clear();
    if (helper === this) helper = undefined;
  }

  /** After a task: never keeps the process alive when idle, and goes away if not used again soon. */
  private becomeIdle(): void {
    this.worker.unref();
    this.idleTimer = setTimeout(() => {
      if (helper === this) helper = undefined;
      void this.worker.terminate();
    }, IDLE_MS).unref();
  }
}

let helper: HelperThread | undefined;

/** The compiled worker module, or undefined when tasks must run in-process. */
function workerUrl(): URL | undefined {
  if (process.env.MCP_GEN_THREADS === "0") return undefined;
  const url = new URL("./worker.js", import.meta.url);
  return import.meta.url.endsWith(".js") && existsSync(fileURLToPath(url)) ? url : undefined;
}

/**
 * Starts the helper thread, which begins loading ts-morph and ajv at once.
 * The CLI calls this before loading anything else; the library starts the
 * thread on its first task otherwise. Does nothing when there is no thread.
 */
export function startHelperThread(): void {
  if (helper) return;
  const url = workerUrl();
  if (url) helper = new HelperThread(url);
}

/** Runs a task on the helper thread when there is one, in-process otherwise. */
export async function runTask<N extends TaskName>(
  name: N,
  input: TaskInput<N>,
): Promise<TaskOutput<N>> {
  startHelperThread();
  if (!helper) return (TASKS[name] as (input: TaskInput<N>) => Promise<TaskOutput<N>>)(input);
  return helper.run(name, input) as Promise<TaskOutput<N>>;
}
