/**
 * The small rules of a tools/call result (tool-calls.ts): what counts as a
 * tool result, how invalid arguments are answered, and how a failed
 * outputSchema check is reported.
 */
import type { ToolResult } from "./definitions.js";

/** Whether work handed to an extension returned something shaped like a tool result. */
export function isToolResult(value: unknown): value is ToolResult {
  return (
    typeof value === "object" && value !== null && Array.isArray((value as ToolResult).content)
  );
}

type CheckErrors = ReadonlyArray<{ readonly path: string; readonly message: string }>;

/** Arguments that fail a tool's inputSchema, as a tool execution error: every problem, each with its JSON pointer. */
export function invalidArgumentsResult(tool: string, errors: CheckErrors): Record<string, unknown> {
  const lines = errors.map((e) => `- ${e.path || "/"}: ${e.message}`);
  const text = `Invalid arguments for tool ${tool} (${errors.length} ${errors.length === 1 ? "problem" : "problems"}):\n${lines.join("\n")}`;
  return { content: [{ type: "text", text }], isError: true };
}

/** A failed check as one line for the server's log; undefined when it passed. */
export function describeProblems(
  checked: { readonly ok: true } | { readonly ok: false; readonly errors: CheckErrors },
): string | undefined {
  if (checked.ok) return undefined;
  const problems = checked.errors.map((e) => `${e.path || "/"} ${e.message}`).join("; ");
  return `returned structuredContent that does not match its outputSchema: ${problems}`;
}

/** A JSON object: not an array, not null. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Whether a schema says its instances are objects (what an outputSchema had to say before 2026-07-28). */
export function isObjectSchema(schema: Readonly<Record<string, unknown>>): boolean {
  return schema.type === "object";
}
