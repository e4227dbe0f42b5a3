// A server of the tasks case of `npm run bench:server`: the built runtime
// (dist/) with the Tasks protocol and one tool, `job`, that runs as a task
// for a declaring client and completes at once. Its store comes from
// MCP_TASK_STORE (memory or a Redis URL); tasks are kept 60 s. Listens on
// 127.0.0.1:$PORT.
//
// With PORT2 set, a second instance runs in the same process on
// 127.0.0.1:$PORT2, with stores, connections and subscriptions of its own
// (everything a second process would have but the process): the case
// compares it with two processes, to tell the runtime's own cost of
// sharing tasks between instances from what a second process costs on
// this machine.
import * as legacy from "../../dist/generated/2025-11-25/index.js";
import * as protocol from "../../dist/generated/2026-07-28+tasks/index.js";
import {
  McpServer,
  scaleOutFromEnvironment,
  serveHttp,
  stopOnSignals,
} from "../../dist/templates/runtime/index.js";

async function instance(port) {
  const scaleOut = scaleOutFromEnvironment();
  const server = new McpServer({
    protocol,
    legacy,
    info: { name: "bench-tasks", version: "1.0.0" },
    ...scaleOut,
    tasks: { ...scaleOut.tasks, ttlMs: 60_000, pollIntervalMs: 10 },
  });
  server.tool(
    {
      name: "job",
      inputSchema: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] },
      execution: { taskSupport: "optional" },
    },
    (args, ctx) =>
      ctx.runAsTask(() => ({ content: [{ type: "text", text: `job ${args.n} done` }] })),
  );
  return serveHttp(server, { port });
}

const ports = [process.env.PORT, process.env.PORT2].filter((port) => port !== undefined);
const running = [];
for (const port of ports) running.push(await instance(Number(port)));
stopOnSignals(
  {
    shutdown: async () =>
      (await Promise.all(running.map((each) => each.shutdown()))).every(Boolean),
  },
  { log: () => {} },
);
for (const each of running) process.stdout.write(`${each.url}\n`);
