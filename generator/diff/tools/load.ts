/**
 * One side of a tool-contract diff: a tools file (an array of tools), a
 * `tools/list` snapshot (its result `{ "tools": [...] }`, or the whole
 * JSON-RPC response), or a live server (an http(s) URL of its MCP
 * endpoint, or the command line that starts it over stdio), listed the way
 * `--from-server` lists it.
 */
import { existsSync, statSync } from "node:fs";
import { diagnostic, McpGenError } from "../../diagnostics.js";
import { isJsonObject, parseJsonText, type JsonObject, type JsonValue } from "../../load/json.js";
import { readToolsFile } from "../../load/tools-file.js";
import { toolListProblems } from "./check-list.js";

/** Where a side's tools came from. */
export type ToolSourceKind = "tools-file" | "tools-list-snapshot" | "server";

/** One side, loaded. */
export interface ToolSide {
  /** The argument as given. */
  readonly source: string;
  readonly kind: ToolSourceKind;
  /** The tools by name, in the order the side lists them. */
  readonly tools: ReadonlyMap<string, JsonObject>;
}

/** How a side is told apart: a URL, an existing file (or a name ending in .json), or else a command line. */
export function sourceKindOf(source: string): "url" | "file" | "command" {
  if (/^https?:\/\//i.test(source)) return "url";
  if (existsSync(source) && statSync(source).isFile()) return "file";
  // A missing file.json is reported as a file that cannot be read, not started as a command.
  if (!/\s/.test(source.trim()) && /\.json$/i.test(source)) return "file";
  return "command";
}

/** How a side is loaded. */
export interface LoadOptions {
  /**
   * Check every tool as a tools file's and the protocol's rules require
   * (check-list.ts; default true). Off only where a list was admitted
   * before with tools left out (a client project's recorded tools).
   */
  readonly check?: boolean;
  /** What names the side in a server's diagnostics (default `diff --tools`). */
  readonly option?: string;
  /**
   * Whether the source is a file or a server, where the caller knows
   * (`--tools` or `--from-server`); by default {@link sourceKindOf} tells,
   * and takes a server started by a bare executable's path for a file.
   */
  readonly as?: "file" | "server";
}

/**
 * Loads one side. Throws McpGenError naming the side and every problem:
 * MCPG730 (no list of tools), MCPG731 (a tool without a name, or a name
 * twice), MCPG732 and MCPG701 to MCPG713 (a tool the rules refuse),
 * MCPG721 (a server that cannot be listed).
 */
export async function loadToolSide(source: string, options: LoadOptions = {}): Promise<ToolSide> {
  if ((options.as ?? (sourceKindOf(source) === "file" ? "file" : "server")) === "file") {
    const value = parseJsonText(readToolsFile(source), source);
    const { list, kind, pointer } = toolArray(value, source);
    return { source, kind, tools: toolsByName(list, source, pointer, options.check ?? true) };
  }
  // Loaded only for a live server: it brings the client runtime.
  const { listServerTools } = await import("../../runtime/from-server.js");
  const { tools } = await listServerTools(source, 30_000, options.option ?? "diff --tools");
  return toolSideFromList(source, "server", tools as JsonValue[], options);
}

/** A side from a list of tools already in hand (a server's tools/list, say). */
export function toolSideFromList(
  source: string,
  kind: ToolSourceKind,
  list: readonly JsonValue[],
  options: LoadOptions = {},
): ToolSide {
  return { source, kind, tools: toolsByName(list, source, "", options.check ?? true) };
}

/** The array of tools in a file: the file itself, its `tools`, or its `result.tools`. */
function toolArray(
  value: JsonValue,
  file: string,
): { list: JsonValue[]; kind: ToolSourceKind; pointer: string } {
  if (Array.isArray(value)) return { list: value, kind: "tools-file", pointer: "" };
  if (isJsonObject(value) && Array.isArray(value.tools))
    return { list: value.tools, kind: "tools-list-snapshot", pointer: "/tools" };
  if (isJsonObject(value) && isJsonObject(value.result) && Array.isArray(value.result.tools))
    return { list: value.result.tools, kind: "tools-list-snapshot", pointer: "/result/tools" };
  throw new McpGenError([
    diagnostic(
      "MCPG730",
      {
        source: file,
        reason:
          'it is neither an array of tools, a tools/list result ({ "tools": [...] }) nor a JSON-RPC response holding one',
      },
      { file, pointer: "" },
    ),
  ]);
}

/**
 * Every tool by name. A tool without a string name, or a name given
 * twice, is refused with its pointer; with `check`, so is every tool the
 * rules of check-list.ts refuse. All problems are thrown together.
 */
function toolsByName(
  list: readonly JsonValue[],
  source: string,
  pointer: string,
  check: boolean,
): Map<string, JsonObject> {
  const tools = new Map<string, JsonObject>();
  const named: number[] = [];
  const problems = list.flatMap((tool, i) => {
    const at = `${pointer}/${i}`;
    if (!isJsonObject(tool) || typeof tool.name !== "string")
      return [
        diagnostic(
          "MCPG731",
          { source, reason: "a tool must be an object with a string name" },
          { file: source, pointer: at },
        ),
      ];
    if (tools.has(tool.name))
      return [
        diagnostic(
          "MCPG731",
          { source, reason: `the tool ${tool.name} is listed twice` },
          { file: source, pointer: `${at}/name` },
        ),
      ];
    tools.set(tool.name, tool);
    named.push(i);
    return [];
  });
  if (check) problems.push(...toolListProblems(list, source, pointer, named));
  if (problems.length > 0) throw new McpGenError(problems);
  return tools;
}
