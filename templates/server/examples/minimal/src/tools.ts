/**
 * Tool handlers, one per tool of tools.json, typed by its schemas
 * (src/generated/tools.gen.ts). Arguments are checked against the tool's
 * inputSchema before its handler runs. Ask the client for input with
 * `ctx.elicit`, `ctx.sample` and `ctx.listRoots`; report progress with
 * `ctx.progress` and log with `ctx.log`.
 */
import type { ToolHandlers } from "./generated/tools.gen.js";

export const tools: ToolHandlers = {
  echo: ({ text }) => ({ content: [{ type: "text", text }] }),
};
