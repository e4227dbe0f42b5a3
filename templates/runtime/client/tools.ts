/**
 * A server's tools as a client keeps them: which of their parameters are
 * mirrored into `Mcp-Param-*` headers, and which tools a Streamable HTTP
 * client must leave out because an `x-mcp-header` annotation breaks the
 * spec's rules (spec: Streamable HTTP, custom headers: "exclude the invalid
 * tool from the result of tools/list" and log a warning). A tool list is
 * untrusted input: nothing in it is evaluated, and its schemas are never
 * compiled or dereferenced here. A tool's result is checked against its
 * outputSchema here too (checkToolOutput), with the check generated from it.
 */
import { Codes, McpError } from "../core/errors.js";
import { headerParametersOf, type HeaderParameter } from "../core/headers.js";
import { isJsonObject } from "../core/jsonrpc.js";
import type { ValidationOutcome } from "../core/protocol.js";

/**
 * A validator of tool arguments or structured output (generated from the
 * tool's schemas). A generated check loads its validator module the first
 * time it runs, and answers through a promise until then.
 */
export type SchemaCheck = (value: unknown) => ValidationOutcome | Promise<ValidationOutcome>;

/** The tools a client may call, and what it learned of their headers. */
export class ToolDirectory {
  private readonly headers = new Map<string, readonly HeaderParameter[]>();

  /**
   * Records the tools of one `tools/list` page and returns those that may
   * be used: every tool when headers do not matter (`strict` false, as on
   * stdio), else the tools whose annotations are valid. Each tool left out
   * is reported through `warn`.
   */
  admit(tools: readonly unknown[], strict: boolean, warn: (message: string) => void): unknown[] {
    const admitted: unknown[] = [];
    for (const tool of tools) {
      if (!isJsonObject(tool) || typeof tool.name !== "string") continue;
      try {
        this.headers.set(
          tool.name,
          headerParametersOf({ name: tool.name, inputSchema: tool.inputSchema }),
        );
        admitted.push(tool);
      } catch (error) {
        this.headers.delete(tool.name);
        if (!strict) admitted.push(tool);
        else warn(`tools/list: ${(error as Error).message}; the tool is left out`);
      }
    }
    return admitted;
  }

  /** The header parameters of a tool seen in a tools/list, or undefined when it was never listed. */
  headerParameters(tool: string): readonly HeaderParameter[] | undefined {
    return this.headers.get(tool);
  }
}

/**
 * Checks a tool's result against its outputSchema (`output`, generated from
 * it): a result that is not a tool error must carry structuredContent of
 * that schema. Rejects with an McpError (-32603) naming the first problem;
 * a call's result is checked as it arrives, a task's when the task
 * completes.
 */
export async function checkToolOutput(
  name: string,
  result: Readonly<Record<string, unknown>>,
  output: SchemaCheck | undefined,
): Promise<void> {
  if (!output || result.isError === true) return;
  const verdict =
    result.structuredContent === undefined
      ? { ok: false as const, errors: [{ path: "/structuredContent", message: "is missing" }] }
      : await output(result.structuredContent);
  if (!verdict.ok)
    throw new McpError(
      Codes.InternalError,
      `tool ${name}: the server's structuredContent does not match the tool's outputSchema: ${verdict.errors[0]?.path || "/"} ${verdict.errors[0]?.message ?? ""}`.trimEnd(),
      { errors: verdict.errors },
    );
}
