/**
 * Argument completion for prompts and resource templates.
 */
import type { McpServer } from "./mcp-gen/runtime/index.js";

/** Adds this project's completion handler to `server`. */
export function addCompletions(server: McpServer): void {
  // Suggest nothing until there is something to suggest; the answer is valid either way.
  server.completions(() => ({ values: [] }));
}
