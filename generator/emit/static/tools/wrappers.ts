/**
 * The fixed code of a client's tools module (tools.gen.ts) without the
 * Tasks extension: the type of its tool functions. mcp-gen copies what
 * follows the marker line as it is written (emit-tools.ts), after the parts
 * it makes from tools.json; what comes before stands in for those parts and
 * the module's imports, so the code is type-checked with mcp-gen's own.
 */
import type { CallToolOptions, TypedToolResult } from "../../../../templates/runtime/client.js";
import type * as protocol from "../../../../generated/2026-07-28+tasks/index.js";
import type { ToolArguments, ToolOutputs } from "./stand-ins.js";

// mcp-gen copies this file from here on.
/**
 * A function per tool of tools.json, typed by its schemas: the arguments are checked against the tool's inputSchema before anything is sent, and structuredContent against its outputSchema on return. `Unfollowed` is the extension results the client has no continuation for: the function resolves with those as the server sent them, discriminated from the tool's result by resultType.
 */
export type ToolWrappers<Unfollowed = never> = {
  readonly [K in keyof ToolArguments]: (
    args: ToolArguments[K],
    options?: CallToolOptions,
  ) => Promise<
    | TypedToolResult<protocol.CallToolResult, K extends keyof ToolOutputs ? ToolOutputs[K] : unknown>
    | Unfollowed
  >;
};
