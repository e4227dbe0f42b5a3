/**
 * Where a scaffolded server runs (`mcp-gen server --target`): Node.js (the
 * default, node:http), Bun (Bun.serve), Deno (Deno.serve) or Cloudflare
 * Workers (a Worker's fetch handler, run by workerd). Each target gets its
 * own entry file and scripts from templates/server/targets/<target>/; the
 * parts of a project a target cannot run are refused here, before anything
 * is written (MCPG716), as docs/server.md's table of runtimes says.
 */
import { diagnostic, McpGenError, type Diagnostic } from "../diagnostics.js";

/** The runtimes a server project can be scaffolded for. */
export const TARGETS = ["node", "bun", "deno", "workers"] as const;

/** A runtime a server project runs on. */
export type Target = (typeof TARGETS)[number];

/** The transport a target serves when none is asked for: Workers have no stdin. */
export function defaultTransport(target: Target): "http" | "both" {
  return target === "workers" ? "http" : "both";
}

/** What a new server project asks of its target. */
export interface TargetRequest {
  readonly target: Target;
  readonly transport: "stdio" | "http" | "both";
  readonly auth: boolean;
  /** The extensions' ids. */
  readonly extensionIds: readonly string[];
}

const TASKS = "io.modelcontextprotocol/tasks";

/** Where each refused part is asked for: an option of the command line, a field of mcp-gen.json. */
const FIELDS: Readonly<Record<string, string>> = {
  "--transport": "/transport",
  "--extension": "/extensions",
  "--auth": "/auth",
};

/**
 * Refuses every part of `request` its target cannot run, all at once
 * (MCPG716), naming the command line's option, or with `settingsFile` the
 * field of mcp-gen.json (when a project is regenerated).
 */
export function checkTargetParts(request: TargetRequest, settingsFile?: string): void {
  const refusal = (part: string, reason: string, instead: string, option: string) =>
    diagnostic(
      "MCPG716",
      { target: request.target, part, reason, instead },
      settingsFile ? { file: settingsFile, pointer: FIELDS[option] } : { file: option },
    );
  const problems: Diagnostic[] = [];
  if (request.target === "workers") {
    if (request.transport !== "http")
      problems.push(
        refusal(
          "stdio",
          "a Worker is started by requests, not by a client that pipes its stdin and stdout",
          "use --transport http (the default for workers), or --target node|bun|deno for a stdio server",
          "--transport",
        ),
      );
    if (request.extensionIds.includes(TASKS))
      problems.push(
        refusal(
          "the Tasks extension",
          "a task's work goes on after its response, which a Worker's invocation does not; tasks held in one isolate's memory are not seen by the others, and the shared Redis store needs a TCP connection (@redis/client) that workerd does not open",
          "leave --extension tasks out for workers, or scaffold --target node|bun|deno (with MCP_TASK_STORE for several instances)",
          "--extension",
        ),
      );
    if (request.auth)
      problems.push(
        refusal(
          "OAuth authorization (--auth)",
          "the auth layer has not been run on workerd, and its caches of signing keys and metadata would live in one isolate",
          "leave --auth out for workers, or scaffold --target node|bun|deno",
          "--auth",
        ),
      );
  }
  if (problems.length > 0) throw new McpGenError(problems);
}
