/**
 * Drift of a client project against its server: a client made with
 * `--from-server` records the server in mcp-gen.json (`fromServer`), and
 * its tools file holds the tools as they were listed. Regenerating lists
 * the server again: `--check` reports the tool diff between the recorded
 * tools and the live ones; a regeneration that writes takes the live ones
 * (the typed wrappers follow, and the typecheck then names each call that
 * a change breaks).
 */
import { join, resolve } from "node:path";
import type { JsonValue } from "../load/json.js";
import { loadToolSide, toolSideFromList } from "../diff/tools/load.js";
import { diffToolSides, type ToolDiff } from "../diff/tools/tool-diff.js";
import { readSettings } from "../project/settings.js";
import { listServerTools } from "../runtime/from-server.js";

/** The server's tools now, against the recorded ones. */
export interface ServerDrift {
  /** The server as mcp-gen.json records it. */
  readonly server: string;
  /** Recorded tools (the tools file) -> the server's tools now. */
  readonly diff: ToolDiff;
  /** The tools file's new text, as `mcp-gen client --from-server` writes it. */
  readonly toolsText: string;
}

/**
 * Lists the recorded server of a client project and compares its tools
 * with the tools file; undefined for a project that records no server.
 * Throws McpGenError (MCPG721) when the server cannot be listed.
 */
export async function serverDrift(projectDir: string): Promise<ServerDrift | undefined> {
  const settings = readSettings(projectDir);
  if (settings.kind !== "client" || settings.fromServer === undefined) return undefined;
  const server = settings.fromServer;
  // The recorded list was admitted with some tools left out of the wrappers (MCPG720): it is compared as it is.
  const recorded = await loadToolSide(join(projectDir, settings.tools), { check: false });
  const { tools } = await listServerTools(
    server,
    30_000,
    "fromServer (mcp-gen.json)",
    resolve(projectDir, settings.fromServerFolder ?? "."),
  );
  const live = toolSideFromList(server, "server", tools as JsonValue[], { check: false });
  return {
    server,
    diff: diffToolSides({ ...recorded, source: settings.tools }, live),
    toolsText: `${JSON.stringify(tools, null, 2)}\n`,
  };
}
