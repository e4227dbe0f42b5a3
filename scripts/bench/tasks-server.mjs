// A server of the tasks case of `npm run bench:server`: the built runtime
// (dist/) with the Tasks protocol and one tool, `job`, that runs as a task
// for a declaring client and completes at once. Its store comes from
// MCP_TASK_STORE (memory or a Redis URL); tasks are kept 60 s. Listens on
// 127.0.0.1:$PORT.
import * as legacy from "../../dist/generated/2025-11-25/index.js";
import * as protocol from "../../dist/generated/2026-07-28+tasks/index.js";
import {
  McpServer,
  scaleOutFromEnvironment,
  serveHttp,
  stopOnSignals,
} from "../../dist/templates/runtime/index.js";

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
  (args, ctx) => ctx.runAsTask(() => ({ content: [{ type: "text", text: `job ${args.n} done` }] })),
);
const running = await serveHttp(server, { port: Number(process.env.PORT) });
stopOnSignals(running, { log: () => {} });
process.stdout.write(`${running.url}\n`);
