/**
 * The tools of the "everything" example: one per behaviour the official
 * MCP conformance suite exercises. Each handler is typed from tools.json
 * (src/generated/tools.gen.ts) and runs unchanged for 2026-07-28 clients
 * (input through Multi Round-Trip Requests) and 2025-11-25 clients (input
 * through server-to-client requests).
 */
import type { ToolHandlers } from "./generated/tools.gen.js";
import type { RequestContext } from "./mcp-gen/runtime/index.js";
import { taskTools, type TaskToolName } from "./task-tools.js";

/** A 1×1 PNG. */
export const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
/** A silent WAV. */
export const WAV = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";

const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });
const delay = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
  });

const NAME_FORM = { type: "object", properties: { name: { type: "string" } }, required: ["name"] };

/** Asks for a name (round 1), then greets (round 2). */
async function greet(ctx: RequestContext) {
  const answer = await ctx.elicit("user_name", {
    mode: "form",
    message: "What is your name?",
    requestedSchema: NAME_FORM,
  });
  return text(`Hello, ${String(answer.content?.name ?? "stranger")}!`);
}

/** The tools every variant of the example has (the Tasks extension adds those of task-tools.ts). */
const everything: Omit<ToolHandlers, TaskToolName> = {
  test_simple_text: () => text("This is a simple text response for testing."),

  test_image_content: () => ({ content: [{ type: "image", data: PNG, mimeType: "image/png" }] }),

  test_audio_content: () => ({ content: [{ type: "audio", data: WAV, mimeType: "audio/wav" }] }),

  test_embedded_resource: () => ({
    content: [
      {
        type: "resource",
        resource: {
          uri: "test://embedded-resource",
          mimeType: "text/plain",
          text: "This is an embedded resource content.",
        },
      },
    ],
  }),

  test_multiple_content_types: () => ({
    content: [
      { type: "text", text: "Multiple content types test:" },
      { type: "image", data: PNG, mimeType: "image/png" },
      {
        type: "resource",
        resource: {
          uri: "test://mixed-content-resource",
          mimeType: "application/json",
          text: JSON.stringify({ test: "data", value: 123 }),
        },
      },
    ],
  }),

  test_error_handling: () => ({
    ...text("This tool intentionally returns an error for testing"),
    isError: true,
  }),

  test_tool_with_progress: async (_args, ctx) => {
    for (const step of [0, 50, 100]) {
      ctx.progress(step, 100, `Completed step ${step} of 100`);
      if (step < 100) await delay(50, ctx.signal);
    }
    return text(String(ctx.meta.progressToken ?? "no progress token"));
  },

  test_tool_with_logging: async (_args, ctx) => {
    for (const message of [
      "Tool execution started",
      "Tool processing data",
      "Tool execution completed",
    ]) {
      ctx.log("info", message);
      await delay(50, ctx.signal);
    }
    return text("Tool with logging executed successfully");
  },

  test_sampling: async ({ prompt }, ctx) => {
    const answer = await ctx.sample("completion", {
      messages: [{ role: "user", content: { type: "text", text: prompt } }],
      maxTokens: 100,
    });
    const content = answer.content as { type?: string; text?: string } | undefined;
    return text(
      `LLM response: ${content?.type === "text" ? content.text : JSON.stringify(answer.content)}`,
    );
  },

  test_elicitation: async ({ message }, ctx) => {
    const answer = await ctx.elicit("user_information", {
      mode: "form",
      message,
      requestedSchema: {
        type: "object",
        properties: {
          username: { type: "string", description: "User's response" },
          email: { type: "string", description: "User's email address" },
        },
        required: ["username", "email"],
      },
    });
    return text(
      `User response: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`,
    );
  },

  test_elicitation_sep1034_defaults: async (_args, ctx) => {
    const answer = await ctx.elicit("defaults", {
      mode: "form",
      message: "Please review and update the form fields with defaults",
      requestedSchema: {
        type: "object",
        properties: {
          name: { type: "string", description: "User name", default: "John Doe" },
          age: { type: "integer", description: "User age", default: 30 },
          score: { type: "number", description: "User score", default: 95.5 },
          status: {
            type: "string",
            description: "User status",
            enum: ["active", "inactive", "pending"],
            default: "active",
          },
          verified: { type: "boolean", description: "Verification status", default: true },
        },
        required: [],
      },
    });
    return text(
      `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`,
    );
  },

  test_elicitation_sep1330_enums: async (_args, ctx) => {
    const options = (prefix: string, titles: string[]) =>
      titles.map((title, i) => ({ const: `${prefix}${i + 1}`, title }));
    const answer = await ctx.elicit("enums", {
      mode: "form",
      message: "Please select options from the enum fields",
      requestedSchema: {
        type: "object",
        properties: {
          untitledSingle: {
            type: "string",
            description: "Select one option",
            enum: ["option1", "option2", "option3"],
          },
          titledSingle: {
            type: "string",
            description: "Select one option with titles",
            oneOf: options("value", ["First Option", "Second Option", "Third Option"]),
          },
          legacyEnum: {
            type: "string",
            description: "Select one option (legacy)",
            enum: ["opt1", "opt2", "opt3"],
            enumNames: ["Option One", "Option Two", "Option Three"],
          },
          untitledMulti: {
            type: "array",
            description: "Select multiple options",
            minItems: 1,
            maxItems: 3,
            items: { type: "string", enum: ["option1", "option2", "option3"] },
          },
          titledMulti: {
            type: "array",
            description: "Select multiple options with titles",
            minItems: 1,
            maxItems: 3,
            items: { anyOf: options("value", ["First Choice", "Second Choice", "Third Choice"]) },
          },
        },
        required: [],
      },
    });
    return text(
      `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`,
    );
  },

  test_missing_capability: async (_args, ctx) => {
    const answer = await ctx.sample("llm_answer", {
      messages: [{ role: "user", content: { type: "text", text: "Say hello" } }],
      maxTokens: 20,
    });
    return text(`LLM said: ${JSON.stringify(answer.content)}`);
  },

  test_streaming_elicitation: () =>
    text("stream observed: result frames only, no top-level requests"),

  test_logging_tool: (_args, ctx) => {
    ctx.log("info", "test_logging_tool ran");
    return text("logged at info (delivered only when the request set a log level)");
  },

  test_trigger_tool_change: (_args, ctx) => {
    ctx.changed({ kind: "tools" });
    return text("tools_list_changed published");
  },

  test_trigger_prompt_change: (_args, ctx) => {
    ctx.changed({ kind: "prompts" });
    return text("prompts_list_changed published");
  },

  test_x_mcp_header: ({ region }) => text(`region: ${region}`),

  json_schema_2020_12_tool: (args) => text(`received: ${JSON.stringify(args)}`),

  test_input_required_result_elicitation: (_args, ctx) => greet(ctx),

  test_input_required_result_sampling: async (_args, ctx) => {
    const answer = await ctx.sample("capital_question", {
      messages: [
        { role: "user", content: { type: "text", text: "What is the capital of France?" } },
      ],
      maxTokens: 100,
    });
    return text(`The client's LLM answered: ${JSON.stringify(answer.content)}`);
  },

  test_input_required_result_list_roots: async (_args, ctx) => {
    const { roots } = await ctx.listRoots("client_roots");
    return text(
      `The client has ${roots.length} root(s): ${roots.map((r) => String(r.uri)).join(", ")}`,
    );
  },

  test_input_required_result_request_state: async (_args, ctx) => {
    ctx.state.startedAt = ctx.state.startedAt ?? "round-1";
    const answer = await ctx.elicit("confirm", {
      mode: "form",
      message: "Confirm to continue",
      requestedSchema: {
        type: "object",
        properties: { ok: { type: "boolean" } },
        required: ["ok"],
      },
    });
    return text(
      `state-ok: confirmed=${String(answer.content?.ok)} (state from ${String(ctx.state.startedAt)})`,
    );
  },

  test_input_required_result_multiple_inputs: async (_args, ctx) => {
    const [name, greeting, roots] = await Promise.all([
      ctx.elicit("user_name", {
        mode: "form",
        message: "What is your name?",
        requestedSchema: NAME_FORM,
      }),
      ctx.sample("greeting", {
        messages: [{ role: "user", content: { type: "text", text: "Generate a short greeting" } }],
        maxTokens: 50,
      }),
      ctx.listRoots("client_roots"),
    ]);
    return text(
      `name=${String(name.content?.name)}; greeting=${JSON.stringify(greeting.content)}; roots=${roots.roots.length}`,
    );
  },

  test_input_required_result_multi_round: async (_args, ctx) => {
    const first = await ctx.elicit("step1", {
      mode: "form",
      message: "What is your name?",
      requestedSchema: NAME_FORM,
    });
    const second = await ctx.elicit("step2", {
      mode: "form",
      message: "What is your favourite colour?",
      requestedSchema: {
        type: "object",
        properties: { color: { type: "string" } },
        required: ["color"],
      },
    });
    return text(
      `Multi-round complete: ${String(first.content?.name)} likes ${String(second.content?.color)}`,
    );
  },

  test_input_required_result_tampered_state: async (_args, ctx) => {
    const answer = await ctx.elicit("confirm", {
      mode: "form",
      message: "Confirm to continue",
      requestedSchema: {
        type: "object",
        properties: { ok: { type: "boolean" } },
        required: ["ok"],
      },
    });
    return text(`confirmed=${String(answer.content?.ok)}`);
  },

  test_input_required_result_capabilities: async (_args, ctx) => {
    // Ask only for what this request's client declared it can do.
    if (ctx.clientCapabilities.elicitation !== undefined) return greet(ctx);
    if (ctx.clientCapabilities.sampling !== undefined) {
      const answer = await ctx.sample("greeting", {
        messages: [{ role: "user", content: { type: "text", text: "Generate a short greeting" } }],
        maxTokens: 50,
      });
      return text(`greeting: ${JSON.stringify(answer.content)}`);
    }
    if (ctx.clientCapabilities.roots !== undefined) {
      const { roots } = await ctx.listRoots("client_roots");
      return text(`roots: ${roots.length}`);
    }
    return text("The client declared no input capability, so nothing was asked.");
  },
};

export const tools: ToolHandlers = { ...everything, ...taskTools };
