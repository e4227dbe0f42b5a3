/**
 * The Tasks extension as a server extension (extension.ts): the same hooks
 * a project's own extension has. Its requests (tasks/get, tasks/update,
 * tasks/cancel) are served by the task runner (tasks.ts), its listen field
 * is `taskIds`, tasks/update keeps only the answers its task waits for, and
 * a tools/call of a tool whose task support allows it may become a task.
 */
import { principalKey } from "../core/exchange.js";
import { isJsonObject } from "../core/jsonrpc.js";
import type { ProtocolModule } from "../core/protocol.js";
import type { RequestContext } from "./context.js";
import type { ServerExtension } from "./extension.js";
import type { MethodHandler, ServerOptions } from "./definitions.js";
import { InMemoryTaskStore } from "./task-store.js";
import {
  DEFAULT_POLL_INTERVAL_MS,
  DEFAULT_TASK_LEASE_MS,
  DEFAULT_TASK_TTL_MS,
  declaresTasks,
  keepOutstandingResponses,
  TASKS_EXTENSION,
  TaskRunner,
  taskSupportOf,
  tasksRequired,
  type TaskHost,
} from "./tasks.js";

/** The task runner of `options.tasks` (defaults filled in, each setting checked). */
export function taskRunner(options: ServerOptions["tasks"], host: TaskHost): TaskRunner {
  const ttlMs = options?.ttlMs ?? DEFAULT_TASK_TTL_MS;
  const pollIntervalMs = options?.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
  const leaseMs = options?.leaseMs ?? DEFAULT_TASK_LEASE_MS;
  for (const [name, value] of Object.entries({ ttlMs, pollIntervalMs, leaseMs }))
    if (!Number.isSafeInteger(value) || value <= 0)
      throw new Error(`tasks.${name} must be a positive integer, not ${value}`);
  const store = options?.store ?? new InMemoryTaskStore();
  return new TaskRunner({ store, ttlMs, pollIntervalMs, leaseMs }, host);
}

/**
 * The Tasks extension of a server whose tasks `runner` runs, serving those
 * of its requests the revision has (a draft revision may have only some).
 */
export function tasksExtension(runner: TaskRunner, protocol: ProtocolModule): ServerExtension {
  // Each request reaches only the tasks of whom it acts for (tasks.md, security: auth binding).
  const methods: Record<string, MethodHandler> = {
    "tasks/get": (params, ctx) => runner.get(String(params.taskId), askerOf(ctx)),
    "tasks/update": async (params, ctx) => {
      const responses = isJsonObject(params.inputResponses) ? params.inputResponses : {};
      await runner.update(String(params.taskId), responses, askerOf(ctx));
      return {};
    },
    "tasks/cancel": async (params, ctx) => {
      await runner.cancel(String(params.taskId), askerOf(ctx));
      return {};
    },
  };
  return {
    id: TASKS_EXTENSION,
    methods: Object.fromEntries(
      Object.entries(methods).filter(([method]) => Object.hasOwn(protocol.METHODS, method)),
    ),
    listenFields: ["taskIds"],
    prepare: { "tasks/update": (message) => keepOutstandingResponses(runner, message) },
    checkTool: (definition) => void taskSupportOf(definition),
    offerToolCall: ({ tool, ctx, finish }) => {
      const support = taskSupportOf(tool);
      if (support === "forbidden" || ctx.era !== "modern") return undefined;
      if (!declaresTasks(ctx.clientCapabilities)) {
        // tasks.md: a tool that runs only as a task refuses a client without the extension.
        if (support === "required")
          throw tasksRequired(
            `Tool ${tool.name} runs only as a task: declare the ${TASKS_EXTENSION} extension in the request's client capabilities`,
          );
        return undefined;
      }
      return (work) => runner.start(work, ctx, finish);
    },
    stop: (graceMs) => runner.stop(graceMs),
    close: async () => {
      runner.close();
      await runner.settings.store.close();
    },
  };
}

/** Whom a task request acts for: its authorization's principal (undefined without authorization). */
function askerOf(ctx: RequestContext): string | undefined {
  return principalKey(ctx.authorization);
}
