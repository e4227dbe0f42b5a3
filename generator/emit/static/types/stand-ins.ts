/**
 * What a module of `mcp-gen types` declares from a server's tools before
 * its fixed code (emit-tool-types.ts), for tool-client.ts to be
 * type-checked against: two tools, one with an outputSchema. Never copied.
 */
import type { CallToolResult } from "@modelcontextprotocol/client";

/** As tool-client.ts declares it (imported from there, the two files would import each other). */
type ToolContent = Pick<CallToolResult, "content" | "structuredContent">;

// Interfaces, as the generated types are: unlike type literals, they have no implicit index signature.
interface EchoArguments {
  text: string;
}
interface AddArguments {
  a: number;
  b: number;
}
interface AddOutput {
  sum: number;
}

export interface ToolArguments {
  echo: EchoArguments;
  add: AddArguments;
}

export interface ToolOutputs {
  add: AddOutput;
}

export const TOOLS = [
  {
    name: "echo",
    inputSchema: {
      type: "object",
      properties: { text: { type: "string" } },
      required: ["text"],
    },
  },
  {
    name: "add",
    inputSchema: {
      type: "object",
      properties: { a: { type: "number" }, b: { type: "number" } },
      required: ["a", "b"],
    },
    outputSchema: {
      type: "object",
      properties: { sum: { type: "number" } },
      required: ["sum"],
    },
  },
] as const;

export const TOOL_FORMS: ReadonlyArray<
  readonly [
    functionName: string,
    input: readonly [dialect: string, targets: readonly string[]],
    output?: readonly [dialect: string, targets: readonly string[]],
  ]
> = [
  ["echo", ["draft-2020-12", ["draft-2020-12", "draft-07"]]],
  ["add", ["draft-2020-12", ["draft-2020-12", "draft-07"]], ["draft-2020-12", ["draft-2020-12"]]],
];

export interface ToolApi {
  echo(args: ToolArguments["echo"]): Promise<ToolContent>;
  add(args: ToolArguments["add"]): Promise<ToolOutputs["add"]>;
}
