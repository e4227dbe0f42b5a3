/**
 * The tools check of a project: one rule per kind of project, the same for
 * every command that plans its files (scaffold, generate and its --check,
 * upgrade, dev), so a tools file gets one verdict from all of them.
 *
 * - A server's tools.json is its author's: any tool that is wrong refuses
 *   the whole file, with every problem (MCPG701-706), and so do two names
 *   that would become one TypeScript namespace (MCPG712), which the author
 *   can rename.
 * - A client's tools are a server's, which the client's author cannot
 *   change: a tool mcp-gen cannot type safely is left out of the typed
 *   wrappers with a warning (MCPG720) and stays callable by name, and names
 *   that would share a namespace are numbered (check/tool-rules.ts).
 */
import { admitTools, readTools } from "../check/check-tools.js";
import type { Diagnostic } from "../diagnostics.js";
import { parseJsonText } from "../load/json.js";
import type { ToolSpec } from "../load/tools-file.js";
import type { ProjectSettings } from "./settings.js";

/** A tools file's text, and how diagnostics name it. */
export interface ToolsText {
  readonly text: string;
  readonly file: string;
}

/** The tools a project is generated with, and the warnings about those left out. */
export interface ProjectTools {
  readonly tools: readonly ToolSpec[];
  readonly diagnostics: readonly Diagnostic[];
}

/** Parses and checks a project's tools by the rule of its kind; throws McpGenError where the rule refuses. */
export function checkProjectTools(kind: ProjectSettings["kind"], tools: ToolsText): ProjectTools {
  const listed = parseJsonText(tools.text, tools.file);
  return kind === "client"
    ? admitTools(listed, tools.file)
    : { tools: readTools(listed, tools.file), diagnostics: [] };
}
