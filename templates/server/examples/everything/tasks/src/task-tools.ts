/**
 * The tools the Tasks extension's conformance scenarios call. Each
 * declares its task support in tools.json (`execution.taskSupport`) and
 * puts its work in `ctx.runAsTask`: for a client that declared the
 * extension the call is answered with a CreateTaskResult and the work
 * runs in the background; for any other client the same work runs at once
 * (an optional tool) or the call is refused with -32021 (a required one).
 */
import type { ToolHandlers } from "./generated/tools.gen.js";
import { McpError, type ElicitAnswer } from "./mcp-gen/runtime/index.js";

/** The names of the task tools. */
export type TaskToolName =
  | "greet"
  | "slow_compute"
  | "failing_job"
  | "protocol_error_job"
  | "confirm_delete"
  | "multi_input"
  | "test_tool_with_task";

/** The error protocol_error_job fails with: an application's code, outside JSON-RPC's reserved -32768..-32000. */
const BACKEND_UNAVAILABLE = -31000;

const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });

/** Waits `ms`, or less when `signal` fires (a cancelled task stops sleeping). */
const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
  });

/** A form asking for a name and a confirmation; nothing required, so partial answers are accepted. */
const NAME_AND_CONFIRM = {
  type: "object",
  properties: { name: { type: "string" }, confirm: { type: "boolean" } },
};

const nameOf = (answer: ElicitAnswer) =>
  typeof answer.content?.name === "string" ? answer.content.name : "someone";

/** Their handlers. */
export const taskTools: Pick<ToolHandlers, TaskToolName> = {
  greet: ({ name }) => text(`Hello, ${name}!`),

  slow_compute: ({ seconds, label }, ctx) =>
    ctx.runAsTask(async (task) => {
      await sleep(seconds * 1000, task.signal);
      return text(`${label}: computed in ${seconds} s`);
    }),

  failing_job: (_args, ctx) =>
    ctx.runAsTask(async (task) => {
      await sleep(500, task.signal);
      return { ...text("The job failed: the input could not be processed."), isError: true };
    }),

  protocol_error_job: (_args, ctx) =>
    ctx.runAsTask(async (task) => {
      await sleep(200, task.signal);
      throw new McpError(BACKEND_UNAVAILABLE, "The job stopped: its backend is unavailable");
    }),

  confirm_delete: ({ filename }, ctx) =>
    ctx.runAsTask(async (task) => {
      const answer = await task.elicit("confirm", {
        mode: "form",
        message: `Delete ${filename}?`,
        requestedSchema: { type: "object", properties: { confirm: { type: "boolean" } } },
      });
      const confirmed = answer.action === "accept" && answer.content?.confirm !== false;
      return text(confirmed ? `Deleted ${filename}` : `Kept ${filename}`);
    }),

  multi_input: (_args, ctx) =>
    ctx.runAsTask(async (task) => {
      // Both asked at once: the task waits for two input requests, answered one by one.
      const [first, second] = await Promise.all([
        task.elicit("first", {
          mode: "form",
          message: "First input",
          requestedSchema: NAME_AND_CONFIRM,
        }),
        task.elicit("second", {
          mode: "form",
          message: "Second input",
          requestedSchema: NAME_AND_CONFIRM,
        }),
      ]);
      return text(`Received ${nameOf(first)} and ${nameOf(second)}`);
    }),

  test_tool_with_task: async (_args, ctx) => {
    // First a Multi Round-Trip Request round, then the rest as a task.
    const answer = await ctx.elicit("user_name", {
      mode: "form",
      message: "What is your name?",
      requestedSchema: NAME_AND_CONFIRM,
    });
    return ctx.runAsTask(() => text(`Hello, ${nameOf(answer)}! Your task is done.`));
  },
};
