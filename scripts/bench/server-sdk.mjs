// The reference server of `npm run bench:server`: the official TypeScript SDK v2
// (@modelcontextprotocol/server, as installed in this repository) serving one
// tool, `echo` ({ text: string } -> one text content with that text), over
// Streamable HTTP for 2026-07-28 on plain node:http at 127.0.0.1:$PORT/mcp.
//
// It is the SDK's documented HTTP path (docs/serving/http.md of the SDK), with
// the options that make it cheapest for this traffic:
//   - createMcpHandler(factory, { responseMode: "json", legacy: "reject" }):
//     one JSON body per request, never an SSE upgrade; 2025-era (initialize)
//     traffic refused, so no legacy classification work;
//   - toNodeHandler() from @modelcontextprotocol/node on node:http, behind the
//     localhostHostValidation() / localhostOriginValidation() guards the docs
//     put in front of it (our server checks Host and Origin too);
//   - SDK_VARIANT=mcpserver (default): McpServer + registerTool with a zod
//     input schema, built once outside the per-request factory;
//     SDK_VARIANT=lowlevel: the low-level Server (docs/advanced/low-level-server.md)
//     with a JSON Schema literal, checking the argument by hand.
//
//   - BENCH_TOOLS=<n> (lowlevel only): tools/list answers `echo` and n more tools
//     shaped like real ones (several typed, described arguments, half with an
//     outputSchema, annotations), all on one page: the list case of bench:client.
//
//   PORT=3930 node scripts/bench/server-sdk.mjs
import { createServer } from "node:http";

import {
  localhostHostValidation,
  localhostOriginValidation,
  toNodeHandler,
} from "@modelcontextprotocol/node";
import { createMcpHandler, McpServer, Server } from "@modelcontextprotocol/server";
import * as z from "zod/v4";

const PORT = Number(process.env.PORT);
if (!Number.isInteger(PORT) || PORT <= 0) throw new Error("server-sdk: set PORT");
const VARIANT = process.env.SDK_VARIANT ?? "mcpserver";
if (VARIANT !== "mcpserver" && VARIANT !== "lowlevel")
  throw new Error(`server-sdk: unknown SDK_VARIANT ${VARIANT}`);
const info = { name: "echo-bench-sdk", version: "1.0.0" };

// Built once, outside the factory, as the SDK docs advise ("keep the factory cheap").
const echoInput = z.object({ text: z.string() });

function mcpServerFactory() {
  const server = new McpServer(info);
  server.registerTool(
    "echo",
    { description: "Echo the text back", inputSchema: echoInput },
    async ({ text }) => ({
      content: [{ type: "text", text }],
    }),
  );
  return server;
}

const echoTool = {
  name: "echo",
  description: "Echo the text back",
  inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
};
/** Tool `i` of the list case: a realistic shape, different for every i. */
function listedTool(i) {
  const tool = {
    name: `tool_${i}`,
    title: `Tool ${i}`,
    description: `Looks up record ${i} in the catalogue and returns what it finds, filtered and sorted.`,
    inputSchema: {
      type: "object",
      properties: {
        query: { type: "string", description: "What to look for", minLength: 1 },
        limit: { type: "integer", minimum: 1, maximum: 100, description: "How many results" },
        order: { type: "string", enum: ["asc", "desc"], description: "Sort order" },
        tags: { type: "array", items: { type: "string" }, description: "Only these tags" },
      },
      required: ["query"],
    },
    annotations: { readOnlyHint: true, openWorldHint: i % 3 === 0 },
  };
  if (i % 2 === 0)
    tool.outputSchema = {
      type: "object",
      properties: {
        total: { type: "integer" },
        items: {
          type: "array",
          items: {
            type: "object",
            properties: { id: { type: "string" }, score: { type: "number" } },
            required: ["id"],
          },
        },
      },
      required: ["total", "items"],
    };
  return tool;
}
const listedTools = [
  echoTool,
  ...Array.from({ length: Number(process.env.BENCH_TOOLS ?? 0) }, (_, i) => listedTool(i)),
];

function lowLevelFactory() {
  const server = new Server(info, { capabilities: { tools: {} } });
  // ttlMs and cacheScope: 2026-07-28 requires both on a list result ("0": do not keep it).
  server.setRequestHandler("tools/list", async () => ({
    tools: listedTools,
    ttlMs: 0,
    cacheScope: "public",
  }));
  server.setRequestHandler("tools/call", async (request) => {
    const { name, arguments: args } = request.params;
    if (name !== "echo")
      return { isError: true, content: [{ type: "text", text: `Unknown tool: ${name}` }] };
    if (typeof args?.text !== "string")
      return { isError: true, content: [{ type: "text", text: "text must be a string" }] };
    return { content: [{ type: "text", text: args.text }] };
  });
  return server;
}

const handler = createMcpHandler(VARIANT === "lowlevel" ? lowLevelFactory : mcpServerFactory, {
  legacy: "reject",
  responseMode: "json",
  onerror: (error) => console.error("server-sdk: handler error:", error),
});
const nodeHandler = toNodeHandler(handler);
const validateHost = localhostHostValidation();
const validateOrigin = localhostOriginValidation();

const http = createServer({ keepAliveTimeout: 65_000 }, (req, res) => {
  if (!validateHost(req, res) || !validateOrigin(req, res)) return;
  void nodeHandler(req, res);
});
http.listen(PORT, "127.0.0.1", () => {
  console.error(`server-sdk (${VARIANT}) listening on http://127.0.0.1:${PORT}/mcp`);
});
process.on("SIGTERM", () => {
  void handler.close().finally(() => process.exit(0));
  setTimeout(() => process.exit(0), 1000).unref();
});
