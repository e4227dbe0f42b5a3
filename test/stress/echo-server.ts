/**
 * A small server for the load and robustness tests, run as a child
 * process (so a crash would show): one `echo` tool, served over HTTP on
 * 127.0.0.1; prints its URL on stdout.
 */
import * as protocol from "../../generated/2026-07-28/index.js";
import * as legacy from "../../generated/2025-11-25/index.js";
import { McpServer, serveHttp, type SchemaCheck } from "../../templates/runtime/index.js";

const checkArguments: SchemaCheck = (value) =>
  typeof (value as { text?: unknown }).text === "string"
    ? { ok: true }
    : { ok: false, errors: [{ path: "/text", message: "must be string" }] };

const server = new McpServer({ protocol, legacy, info: { name: "load-test", version: "1.0.0" } });
server.tool(
  {
    name: "echo",
    description: "Answers with its text",
    inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  },
  (args) => ({ content: [{ type: "text", text: String(args.text) }] }),
  { checkArguments },
);
const { url } = await serveHttp(server, {
  port: Number(process.env.PORT ?? 0),
  maxBodyBytes: 1024 * 1024,
});
process.stdout.write(`${url}\n`);
