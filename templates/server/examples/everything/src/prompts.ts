/**
 * The prompts of the "everything" example.
 */
import type { McpServer, PromptMessage } from "./mcp-gen/runtime/index.js";
import { PNG } from "./tools.js";

const user = (text: string): PromptMessage => ({ role: "user", content: { type: "text", text } });

/** Adds the example's prompts to `server`. */
export function addPrompts(server: McpServer): void {
  server.prompt(
    {
      name: "test_simple_prompt",
      title: "Simple Prompt",
      description: "A simple prompt without arguments",
    },
    () => ({ messages: [user("This is a simple prompt for testing.")] }),
  );
  server.prompt(
    {
      name: "test_prompt_with_arguments",
      title: "Prompt With Arguments",
      description: "A prompt with required arguments",
      arguments: [
        { name: "arg1", description: "First test argument", required: true },
        { name: "arg2", description: "Second test argument", required: true },
      ],
    },
    ({ arg1, arg2 }) => ({
      messages: [user(`Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`)],
    }),
  );
  server.prompt(
    {
      name: "test_prompt_with_embedded_resource",
      title: "Prompt With Embedded Resource",
      description: "A prompt that includes an embedded resource",
      arguments: [
        { name: "resourceUri", description: "URI of the resource to embed", required: true },
      ],
    },
    ({ resourceUri }) => ({
      messages: [
        {
          role: "user",
          content: {
            type: "resource",
            resource: {
              uri: resourceUri,
              mimeType: "text/plain",
              text: "Embedded resource content for testing.",
            },
          },
        },
        user("Please process the embedded resource above."),
      ],
    }),
  );
  server.prompt(
    {
      name: "test_prompt_with_image",
      title: "Prompt With Image",
      description: "A prompt that includes an image",
    },
    () => ({
      messages: [
        { role: "user", content: { type: "image", data: PNG, mimeType: "image/png" } },
        user("Please analyze the image above."),
      ],
    }),
  );
  server.prompt(
    {
      name: "test_input_required_result_prompt",
      title: "Prompt With Input",
      description: "Multi round-trip: asks the user for context, then builds the prompt",
    },
    async (_args, ctx) => {
      const answer = await ctx.elicit("user_context", {
        mode: "form",
        message: "What context should the prompt use?",
        requestedSchema: {
          type: "object",
          properties: { context: { type: "string" } },
          required: ["context"],
        },
      });
      return { messages: [user(`Use the following context: ${String(answer.content?.context)}`)] };
    },
  );
}
