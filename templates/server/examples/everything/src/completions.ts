/**
 * Argument completion of the "everything" example: suggests nothing, but
 * answers every completion request with a valid, empty completion.
 */
import type { McpServer } from "./mcp-gen/runtime/index.js";

/** Adds the example's completion handler to `server`. */
export function addCompletions(server: McpServer): void {
  server.completions(() => ({ values: [], total: 0, hasMore: false }));
}
