/**
 * The client side of the Tasks extension (io.modelcontextprotocol/tasks):
 * a tools/call answered with a task handle (resultType "task") is followed
 * to its end. The task is polled with `tasks/get` at the pollIntervalMs
 * the server suggests; the input requests it waits for are answered, each
 * key once, by the same typed handlers that answer Multi Round-Trip
 * Requests, and sent with `tasks/update`; an AbortSignal stops following
 * it and sends `tasks/cancel`.
 */
import { Codes, McpError, RemoteError } from "../core/errors.js";
import { isJsonObject, type JsonRpcErrorObject } from "../core/jsonrpc.js";

/** The extension's identifier, to declare under `capabilities.extensions`. */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

/** The client capabilities that declare the extension (merge into ClientOptions.capabilities). */
export const TASKS_CAPABILITIES = { extensions: { [TASKS_EXTENSION]: {} } } as const;

/** How a task is followed. */
export interface AwaitTaskOptions {
  /** Stops following the task; the task is cancelled with tasks/cancel. */
  readonly signal?: AbortSignal;
  /** Called with the task each time it is polled (its status, statusMessage, inputRequests). */
  readonly onStatus?: (task: Readonly<Record<string, unknown>>) => void;
  /** The poll interval when the server suggests none (default 1000 ms). */
  readonly pollIntervalMs?: number;
}

/** What following a task needs of its client. */
export interface TaskPeer {
  request(
    method: string,
    params: Readonly<Record<string, unknown>>,
    options: { readonly signal?: AbortSignal },
  ): Promise<Record<string, unknown>>;
  /** Answers input requests with the client's handlers, keyed as the server keyed them. */
  answer(
    requests: Record<string, unknown>,
    signal: AbortSignal | undefined,
  ): Promise<Record<string, unknown>>;
}

/** Whether a result is a task handle (a CreateTaskResult). */
export function isTaskHandle(
  result: Readonly<Record<string, unknown>>,
): result is Readonly<Record<string, unknown>> & { readonly taskId: string } {
  return result.resultType === "task" && typeof result.taskId === "string";
}

/**
 * Follows the task of `handle` to its end. Resolves with its result when
 * it completed (a tool error, `isError: true`, is a result too); rejects
 * with a RemoteError carrying the task's error when it failed, an McpError
 * when it was cancelled, and the signal's reason when `signal` fired
 * (after sending tasks/cancel).
 */
export async function awaitTask(
  peer: TaskPeer,
  handle: Readonly<Record<string, unknown>>,
  options: AwaitTaskOptions = {},
): Promise<Record<string, unknown>> {
  if (!isTaskHandle(handle))
    throw new McpError(Codes.InvalidParams, "awaitTask needs a CreateTaskResult (resultType task)");
  const { taskId } = handle;
  const { signal } = options;
  const answered = new Set<string>();
  let interval = pollInterval(handle, options.pollIntervalMs ?? 1000);
  try {
    for (;;) {
      signal?.throwIfAborted();
      const task = await peer.request("tasks/get", { taskId }, { signal });
      options.onStatus?.(task);
      interval = pollInterval(task, interval);
      switch (task.status) {
        case "completed":
          return isJsonObject(task.result) ? task.result : {};
        case "failed":
          throw new RemoteError(errorOf(task.error));
        case "cancelled":
          throw new McpError(
            Codes.InternalError,
            `task ${taskId} was cancelled${typeof task.statusMessage === "string" ? `: ${task.statusMessage}` : ""}`,
            { taskId },
          );
        case "input_required": {
          const requests = isJsonObject(task.inputRequests) ? task.inputRequests : {};
          // Each key is answered once, even when a poll shows it again before the update is applied.
          const fresh = Object.fromEntries(
            Object.entries(requests).filter(([key]) => !answered.has(key)),
          );
          if (Object.keys(fresh).length > 0) {
            const responses = await peer.answer(fresh, signal);
            for (const key of Object.keys(responses)) answered.add(key);
            await peer.request("tasks/update", { taskId, inputResponses: responses }, { signal });
            continue;
          }
        }
      }
      await sleep(interval, signal);
    }
  } catch (error) {
    if (signal?.aborted) {
      // Best effort: the caller stopped waiting, so the server may stop working.
      await peer.request("tasks/cancel", { taskId }, {}).catch(() => undefined);
      throw signal.reason;
    }
    throw error;
  }
}

function pollInterval(task: Readonly<Record<string, unknown>>, fallback: number): number {
  const value = task.pollIntervalMs;
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : fallback;
}

function errorOf(value: unknown): JsonRpcErrorObject {
  if (isJsonObject(value) && typeof value.code === "number" && typeof value.message === "string")
    return value as unknown as JsonRpcErrorObject;
  return { code: Codes.InternalError, message: "the task failed without an error object" };
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(signal!.reason as Error);
    };
    signal?.addEventListener("abort", stop, { once: true });
  });
}
