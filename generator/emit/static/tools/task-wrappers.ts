/**
 * The fixed code of a client's tools module (tools.gen.ts) with the Tasks
 * extension: the type of its tool functions, which follow a task to its
 * result. mcp-gen copies what follows the marker line as it is written
 * (emit-tools.ts), after the parts it makes from tools.json; what comes
 * before stands in for those parts and the module's imports, so the code is
 * type-checked with mcp-gen's own.
 */
import type { TaskCallOptions, TypedToolResult } from "../../../../templates/runtime/client.js";
import type * as protocol from "../../../../generated/2026-07-28+tasks/index.js";
import type { ToolArguments, ToolOutputs } from "./stand-ins.js";

// mcp-gen copies this file from here on.
/**
 * A function per tool of tools.json, typed by its schemas: the arguments are checked against the tool's inputSchema before anything is sent. A call the server runs as a task (Tasks extension) is followed to its end: polled, its input requests answered by the client's handlers, cancelled when `options.signal` fires; the function resolves with the tool's result either way, its structuredContent checked against the outputSchema. `Unfollowed` is the results of other extensions the client has no continuation for, as the server sent them.
 */
export type ToolWrappers<Unfollowed = never> = {
  readonly [K in keyof ToolArguments]: (
    args: ToolArguments[K],
    options?: TaskCallOptions,
  ) => Promise<
    | TypedToolResult<protocol.CallToolResult, K extends keyof ToolOutputs ? ToolOutputs[K] : unknown>
    | Unfollowed
  >;
};
