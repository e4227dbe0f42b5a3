/**
 * The helper thread's entry point: runs {@link TASKS} sent by
 * helper-thread.ts and posts back each result or error, in plain data.
 * Between tasks it loads what the next one will need.
 */
import { parentPort } from "node:worker_threads";
import { McpGenError } from "../diagnostics.js";
import { PRELOADS, TASKS, type TaskName } from "./tasks.js";
import type { TaskReply, TaskRequest } from "./helper-thread.js";

const port = parentPort!;
const preloads = [...PRELOADS];
let loading = preloadNext();

port.on("message", (request: TaskRequest) => void answer(request));

/** Posts the reply to one task, then starts loading what the next one will need. */
async function answer({ id, name, input }: TaskRequest): Promise<void> {
  port.postMessage(await run(id, name, input));
  loading = loading.then(preloadNext);
}

async function run(id: number, name: TaskName, input: unknown): Promise<TaskReply> {
  try {
    await loading;
    const task = TASKS[name] as (input: unknown) => Promise<unknown>;
    return { id, value: await task(input) };
  } catch (error) {
    if (error instanceof McpGenError) return { id, diagnostics: error.diagnostics };
    const e = error instanceof Error ? error : new Error(String(error));
    return { id, failure: { message: e.message, stack: e.stack ?? e.message } };
  }
}

/** Never fails: a module that does not load is reported by the task that needs it. */
async function preloadNext(): Promise<void> {
  await preloads
    .shift()?.()
    .catch(() => undefined);
}
