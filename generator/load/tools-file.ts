/**
 * Reading a tools file: its text within the input limits, and the shape of
 * the tools it holds once checked (check/check-tools.ts).
 */
import { diagnostic, McpGenError } from "../diagnostics.js";
import type { JsonObject } from "./json.js";
import { readBoundedFile } from "./read-file.js";

/** A tool of tools.json. */
export interface ToolSpec {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly inputSchema: JsonObject;
  readonly outputSchema?: JsonObject;
  readonly annotations?: JsonObject;
  /** `taskSupport`: whether the tool may run as a task (Tasks extension). */
  readonly execution?: JsonObject;
}

/**
 * A tools file's text, read within the input limits (a regular file, at
 * most LIMITS.fileBytes: MCPG214, MCPG211); a file that cannot be read is
 * the user's to fix (MCPG701), not a crash.
 */
export function readToolsFile(path: string, shown = path): string {
  try {
    return readBoundedFile(path, shown).toString("utf8");
  } catch (error) {
    if (error instanceof McpGenError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === "ENOENT"
        ? "there is no such file"
        : code === "EISDIR"
          ? "it is a folder, not a file"
          : `cannot read it (${code ?? (error as Error).message})`;
    throw new McpGenError([
      diagnostic(
        "MCPG701",
        {
          reason,
          fix: "check the path (a path in mcp-gen.json's \"tools\" is relative to the project's folder)",
        },
        { file: shown },
      ),
    ]);
  }
}
