/**
 * The runtime's server, for `mcp-gen upgrade`, which checks the messages
 * the runtime builds against the target revision (upgrade/runtime-check.ts).
 * Part of the generator's one door into the runtime (see rules.ts).
 */
export { InMemoryTaskStore, McpServer } from "../../templates/runtime/index.js";
