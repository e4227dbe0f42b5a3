// An instance of `npm run soak:tasks`: the built runtime (dist/) with the
// Tasks protocol, its store and change bus from MCP_TASK_STORE (Redis), and
// two tools. `job` runs as a task for a declaring client and ends as
// `mode` says: complete (after `ms`), ask (waits for an elicitation answer),
// fail (a JSON-RPC error after `ms`) or long (a minute, unless cancelled).
// `stats` (not a task) reports this process's memory after a collection,
// the tasks running here and how many jobs started and were aborted. Run
// with --expose-gc. Listens on 127.0.0.1:$PORT; tasks are kept
// $SOAK_TTL_MS.
import * as legacy from "../../dist/generated/2025-11-25/index.js";
import * as protocol from "../../dist/generated/2026-07-28+tasks/index.js";
import {
  McpError,
  McpServer,
  scaleOutFromEnvironment,
  serveHttp,
  stopOnSignals,
} from "../../dist/templates/runtime/index.js";

const NAME = process.env.INSTANCE ?? "?";
const sleep = (ms, signal) =>
  new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
  });
const text = (value) => ({ content: [{ type: "text", text: value }] });
let started = 0;
let aborted = 0;

const scaleOut = scaleOutFromEnvironment();
const server = new McpServer({
  protocol,
  legacy,
  info: { name: `soak-${NAME}`, version: "1.0.0" },
  ...scaleOut,
  tasks: { ...scaleOut.tasks, ttlMs: Number(process.env.SOAK_TTL_MS), pollIntervalMs: 50 },
});
server.tool(
  {
    name: "job",
    inputSchema: {
      type: "object",
      properties: {
        n: { type: "integer" },
        ms: { type: "integer", minimum: 0 },
        mode: { enum: ["complete", "ask", "fail", "long"] },
      },
      required: ["n", "ms", "mode"],
    },
    execution: { taskSupport: "optional" },
  },
  ({ n, ms, mode }, ctx) =>
    ctx.runAsTask(async (task) => {
      started++;
      if (mode === "ask") {
        const answer = await task.elicit("name", {
          mode: "form",
          message: `job ${n}: who?`,
          requestedSchema: { type: "object", properties: { name: { type: "string" } } },
        });
        return text(`job ${n} answered ${String(answer.content?.name)}`);
      }
      await sleep(mode === "long" ? 60_000 : ms, task.signal);
      if (task.signal.aborted) {
        aborted++;
        return text(`job ${n} aborted`);
      }
      // An application code: the error policy answers reserved codes from handlers as -32603.
      if (mode === "fail") throw new McpError(-31000, `job ${n} failed`);
      return text(`job ${n} done`);
    }),
);
server.tool({ name: "stats", inputSchema: { type: "object" } }, () => {
  globalThis.gc?.();
  const { heapUsed, rss } = process.memoryUsage();
  const stats = { heapUsed, rss, running: server.tasks?.runningCount ?? 0, started, aborted };
  return { ...text(JSON.stringify(stats)), structuredContent: stats };
});
const running = await serveHttp(server, { port: Number(process.env.PORT) });
stopOnSignals(running, { log: () => {} });
process.stdout.write(`${running.url}\n`);
