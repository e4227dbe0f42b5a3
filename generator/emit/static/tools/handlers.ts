/**
 * The fixed code of a server's tools module (tools.gen.ts): the handler
 * types, missingHandlers and registerTools. mcp-gen copies what follows the
 * marker line as it is written (emit-tools.ts), after the parts it makes
 * from tools.json; what comes before stands in for those parts and the
 * module's imports, so the code is type-checked with mcp-gen's own.
 */
/* eslint-disable @typescript-eslint/no-redundant-type-constituents -- ExtensionToolResult is never when no extension adds a result to tools/call, as here */
import type {
  McpServer,
  RequestContext,
  SchemaCheck,
  Started,
  ToolResult,
} from "../../../../templates/runtime/index.js";
import type * as protocol from "../../../../generated/2026-07-28+tasks/index.js";
import type { ToolArguments, ToolOutputs } from "./stand-ins.js";

/** As protocol.gen.ts declares it. */
interface Types {
  readonly params: protocol.ParamsByMethod;
  readonly results: protocol.ResultByMethod;
  readonly notifications: protocol.NotificationParamsByMethod;
}

declare const TOOLS: ReadonlyArray<{
  readonly name: keyof ToolArguments;
  readonly inputSchema: { readonly type: "object" };
}>;
declare const TOOL_CHECKS: {
  readonly [name: string]: { readonly arguments: SchemaCheck; readonly output?: SchemaCheck };
};

// mcp-gen copies this file from here on.
/**
 * What the handler of a tool with an outputSchema returns: structuredContent of that type, or a tool execution error (isError: true), which needs none.
 */
export type TypedToolResult<S> =
  | (Omit<ToolResult, "structuredContent" | "isError"> & {
      readonly structuredContent: S;
      readonly isError?: false;
    })
  | (Omit<ToolResult, "structuredContent" | "isError"> & {
      readonly structuredContent?: S;
      readonly isError: true;
    });

/**
 * What the handler of tool K returns.
 */
export type ToolResultOf<K extends keyof ToolArguments> = K extends keyof ToolOutputs
  ? TypedToolResult<ToolOutputs[K]>
  : ToolResult;

/**
 * The results the revision's extensions add to tools/call (their resultType selects their definition), which a tool handler may return instead of the tool's own; Tasks results come from `ctx.runAsTask`. The runtime sends one only to a client whose capabilities declare its extension (-32021 otherwise): a handler that can fall back asks `ctx.declares(id)`.
 */
export type ExtensionToolResult = Exclude<
  protocol.ResultOf<"tools/call">,
  { readonly resultType: "complete" | "input_required" | "task" }
>;

/**
 * A handler for every tool of tools.json, typed by its schemas: it returns the tool's result, what `ctx.runAs` returned when an extension took the call's work (`ctx.runAsTask`: a task of the Tasks extension), or a result an extension adds to tools/call.
 */
export type ToolHandlers = {
  readonly [K in keyof ToolArguments]: (
    args: ToolArguments[K],
    ctx: RequestContext<Types>,
  ) =>
    | ToolResultOf<K>
    | Started
    | ExtensionToolResult
    | Promise<ToolResultOf<K> | Started | ExtensionToolResult>;
};

/**
 * The tools of tools.json that `handlers` has no handler for (plain JavaScript, or a cast, can leave one out; the project's tests check this).
 */
export function missingHandlers(handlers: Partial<Record<string, unknown>>): string[] {
  const handlerOf = (name: string) => (Object.hasOwn(handlers, name) ? handlers[name] : undefined);
  return TOOLS.filter((t) => typeof handlerOf(t.name) !== "function").map((t) => t.name);
}

/**
 * Registers every tool of tools.json on `server`, with its handler; arguments are checked against the tool's inputSchema before the handler runs.
 */
export function registerTools(server: McpServer, handlers: ToolHandlers): void {
  for (const definition of TOOLS) {
    // A missing handler is registered as such: its calls answer a tool execution error that names it.
    const handler = (Object.hasOwn(handlers, definition.name) ? handlers[definition.name] : undefined) as
      | ((
          args: never,
          ctx: RequestContext<Types>,
        ) =>
          | ToolResult
          | Started
          | ExtensionToolResult
          | Promise<ToolResult | Started | ExtensionToolResult>)
      | undefined;
    const checks = TOOL_CHECKS[definition.name]!;
    server.tool(definition, handler as never, {
      checkArguments: checks.arguments,
      ...(checks.output ? { checkOutput: checks.output } : {}),
    });
  }
}
