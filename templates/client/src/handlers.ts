/**
 * How this client answers a server that asks for input while it works on a
 * request (elicitation: ask the user; sampling: ask a model; roots: which
 * folders to share). Each handler you keep is declared to servers as a
 * capability; a server may only ask for what is declared. The answers are
 * checked against the protocol's schema before they are sent.
 */
import type { Inputs } from "./generated/client.gen.js";
import type { InputHandlers } from "./mcp-gen/runtime/client.js";

export const handlers: InputHandlers<Inputs> = {
  /**
   * A form to fill in (or, in url mode, a page to open). `context.defaults`
   * holds the form's default values; fields an accepted answer leaves out
   * are filled with them.
   */
  elicitation: (params) => {
    // Show params.message and the fields of params.requestedSchema to the user, then
    // answer { action: "accept", content: { ... } }, or { action: "decline" } / { action: "cancel" }.
    process.stderr.write(`the server asks: ${params.message} (declined: no user to ask yet)\n`);
    return { action: "decline" };
  },
  // sampling: async (params) => ({ role: "assistant", content: { type: "text", text: "..." }, model: "my-model" }),
  // roots: () => ({ roots: [{ uri: "file:///home/me/project", name: "project" }] }),
};
