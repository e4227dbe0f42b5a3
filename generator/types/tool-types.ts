/**
 * `mcp-gen types` as a library: types for any client of a server's tools.
 *
 *   load    a tools file, a tools/list result, or a live server (the lister
 *           of `--from-server`, over Streamable HTTP or stdio)
 *   check   the protocol's Tool definition refuses the list whole (as
 *           mcp-gen's client does); a tools file's checks leave a tool out
 *           with a warning (MCPG720), as `mcp-gen client` does
 *   emit    the module and the API description (emit/emit-tool-types.ts)
 *   write   each file whole, never over a file mcp-gen did not write;
 *           or check: compare with the files there, and say what changed
 *           in the tools since they were written
 */
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { basename, dirname, relative, resolve, sep } from "node:path";
import { admitTools } from "../check/check-tools.js";
import { diagnostic, McpGenError, type Diagnostic } from "../diagnostics.js";
import { protocolListProblems } from "../diff/tools/check-list.js";
import { listFingerprints } from "../diff/tools/fingerprint.js";
import { loadToolSide, sourceKindOf, toolSideFromList, type ToolSide } from "../diff/tools/load.js";
import { diffToolSides, type ToolDiff } from "../diff/tools/tool-diff.js";
import { emitToolTypes } from "../emit/emit-tool-types.js";
import { BANNER_MARK, type EmittedFile } from "../emit/file.js";
import type { JsonObject, JsonValue } from "../load/json.js";
import type { ToolSpec } from "../load/tools-file.js";
import { shellWord } from "../write/regenerate-command.js";
import { startsWithBanner } from "../write/write-output.js";
import { writeWhole } from "../write/write-project.js";
import { recordedTools } from "./recorded-tools.js";

/** What to make types from, and where to write them. */
export interface ToolTypesOptions {
  /**
   * Where the tools come from: a tools file or a tools/list result (a
   * JSON file), the URL of a running server's MCP endpoint, or the command
   * line that starts one over stdio.
   */
  readonly source: string;
  /** Whether `source` is a file or a server (default: told by the source's form, as `diff --tools` tells it). */
  readonly as?: "file" | "server";
  /** The module to write, a `.ts` file; the API description goes beside it as `<name>.api.d.ts`. */
  readonly out: string;
  /** mcp-gen's version, for the banner (left out when not given, as goldens need). */
  readonly toolVersion?: string;
}

/** The files to write and what they were made from. */
export interface ToolTypesPlan {
  readonly options: ToolTypesOptions;
  /** The list as the source gave it. */
  readonly listed: ToolSide;
  /** The tools that have types: every listed tool a tools file's checks accept. */
  readonly tools: readonly ToolSpec[];
  /** The module, then the API description; paths as `out` names them. */
  readonly files: readonly EmittedFile[];
  /** Tools left out (MCPG720). */
  readonly diagnostics: readonly Diagnostic[];
}

/** Loads, checks and emits; writes nothing. Throws McpGenError for a source or `out` it cannot use. */
export async function planToolTypes(options: ToolTypesOptions): Promise<ToolTypesPlan> {
  const paths = outputPaths(options.out);
  const listed = await loadToolSide(options.source, {
    check: false,
    option: "--from-server",
    ...(options.as ? { as: options.as } : {}),
  });
  const list = [...listed.tools.values()];
  const refused = protocolListProblems(list, options.source, "");
  if (refused.length > 0) throw new McpGenError(refused);
  const { tools, diagnostics } = admitTools(list, options.source);
  const bannerText = typesBanner(options, tools);
  return {
    options,
    listed,
    tools,
    files: emitToolTypes(tools, bannerText, paths),
    diagnostics,
  };
}

/**
 * Writes the plan's files, each whole (to a temporary file renamed over
 * the old one). Refuses, before writing anything, a file there that
 * mcp-gen did not write (MCPG741).
 */
export function writeToolTypes(plan: ToolTypesPlan): void {
  const foreign = plan.files.filter((f) => existsSync(f.path) && !startsWithBanner(f.path));
  if (foreign.length > 0)
    throw new McpGenError(
      foreign.map((f) => diagnostic("MCPG741", { file: f.path }, { file: f.path })),
    );
  for (const file of plan.files) {
    mkdirSync(dirname(resolve(file.path)), { recursive: true });
    writeWhole(file.path, file.contents);
  }
}

/** What `--check` found. */
export interface ToolTypesCheck {
  /** The files that are missing or differ from what would be written now. */
  readonly stale: readonly string[];
  /**
   * The tools the module was made from -> the tools now, when the module
   * is there and its tools can be read back; its changes are the drift.
   */
  readonly drift?: ToolDiff;
}

/** Compares the plan with the files there; writes nothing. */
export function checkToolTypes(plan: ToolTypesPlan): ToolTypesCheck {
  const stale = plan.files
    .filter((f) => !existsSync(f.path) || readFileSync(f.path, "utf8") !== f.contents)
    .map((f) => f.path);
  const module = plan.files[0]!;
  if (stale.length === 0 || !existsSync(module.path)) return { stale };
  const recorded = recordedTools(readFileSync(module.path, "utf8"));
  if (!recorded) return { stale };
  const before = toolSideFromList(module.path, "tools-file", recorded, { check: false });
  const now = toolSideFromList(
    plan.options.source,
    plan.listed.kind,
    plan.tools as unknown as JsonValue[],
    {
      check: false,
    },
  );
  return { stale, drift: diffToolSides(before, now) };
}

/** The module's path and the API description's: `x.ts` and `x.api.d.ts`. Refuses anything but a `.ts` path (MCPG740). */
function outputPaths(out: string): { module: string; api: string } {
  const problem = /\.d\.ts$/.test(out)
    ? "a declaration file cannot hold the module's code"
    : !/\.ts$/.test(out)
      ? "the module is TypeScript: its name ends in .ts"
      : undefined;
  if (problem)
    throw new McpGenError([diagnostic("MCPG740", { out, reason: problem }, { file: out })]);
  return { module: out, api: out.replace(/\.ts$/, ".api.d.ts") };
}

/**
 * The banner: what the tools came from, how many and their list
 * fingerprint, and the command that makes the files again. From a tools
 * file, every path is relative to the module's folder, so `--check` reads
 * the same banner wherever it is run from; a server's command line means
 * what it means in the folder it was typed in, so from a server the
 * command is written as it was typed, to be run there.
 */
function typesBanner(options: ToolTypesOptions, tools: readonly ToolSpec[]): string {
  const version = options.toolVersion ? ` ${options.toolVersion}` : "";
  const fingerprint = listFingerprints(
    new Map(tools.map((t) => [t.name, t as unknown as JsonObject])),
  ).list;
  const file = (options.as ?? sourceKindOf(options.source)) === "file";
  const folder = dirname(resolve(options.out));
  const fromFolder = (path: string) => relative(folder, resolve(path)).split(sep).join("/");
  const source = file ? fromFolder(options.source) : options.source;
  const command = file
    ? `mcp-gen types --tools ${shellWord(source)} --out ${shellWord(basename(options.out))} (run in this file's folder)`
    : `mcp-gen types --from-server ${shellWord(source)} --out ${shellWord(options.out)} (run where it was first run)`;
  const lines = [
    `${BANNER_MARK}${version} from the tools of ${source}. Do not edit: regenerate instead.`,
    `Tools: ${tools.length} (list fingerprint ${fingerprint})`,
    `Regenerate: ${command}`,
  ];
  return `/**\n${lines.map((l) => ` * ${l.replace(/\*\//g, "*\\/")}`).join("\n")}\n */\n/* eslint-disable */\n`;
}
