/**
 * Prompts: `server.prompt` with its arguments; required arguments are
 * checked before the handler runs.
 */
import { NotImplemented, type McpServer } from "./mcp-gen/runtime/index.js";

/** Adds this project's prompts to `server`. */
export function addPrompts(server: McpServer): void {
  server.prompt(
    {
      name: "example_prompt",
      title: "Example prompt",
      description: "A prompt to fill in",
      arguments: [{ name: "topic", description: "What the prompt is about", required: true }],
    },
    () => {
      throw new NotImplemented("prompt example_prompt");
    },
  );
}
