/**
 * `--from-server`: the tools of a live server, listed with mcp-gen's own
 * client runtime (the one a client project carries): over Streamable HTTP
 * for a URL, over stdio for a command line, in whichever era the server
 * speaks. The list is returned as the server sent it (every page), to be
 * checked like any other tools file; over HTTP, tools with invalid
 * `x-mcp-header` annotations are already left out (as the runtime must),
 * and the warnings say which.
 */
import { diagnostic, McpGenError } from "../diagnostics.js";
import {
  ChannelError,
  connectHttp,
  McpClient,
  McpError,
  parseCommandLine,
  spawnStdio,
  type ClientChannel,
} from "./client.js";
import { packageVersion } from "../load/package-root.js";
import { committedProtocol } from "./protocol.js";

/** The most pages of tools/list followed (a server that never stops paging is cut off). */
const MAX_PAGES = 100;

/**
 * The most tools taken from a server: the runtime's own bound on a list's
 * items. A project of ten thousand tools typechecks in about 1.6 GB (docs/
 * benchmarks.md); ten times as many did not finish in 4 GB.
 */
const MAX_TOOLS = 10_000;

/** The capabilities a scaffolded client project declares (templates/client/src/handlers.ts). */
const PROJECT_CAPABILITIES = { elicitation: { form: {} } };

/** How much of a stdio server's stderr is kept to explain its failure (the end of it). */
const STDERR_TAIL = 2048;

/** Whether `source` is a server's URL, not a command line. */
export function isUrl(source: string): boolean {
  return /^https?:\/\//i.test(source);
}

/**
 * Lists every tool of the server `source` names: an http(s) URL of its MCP
 * endpoint, or the command line that starts it. Throws McpGenError
 * (MCPG721, naming `option`, the argument that gave the server) when the
 * server cannot be reached or answers with an error.
 */
export async function listServerTools(
  source: string,
  timeoutMs = 30_000,
  option = "--from-server",
  cwd?: string,
): Promise<{ tools: unknown[]; warnings: string[] }> {
  const warnings: string[] = [];
  // What a stdio server wrote on stderr and stdout besides messages: what it says when it fails.
  let stderr = "";
  let stray: string | undefined;
  const fail = (reason: string) => {
    const told = [
      stray,
      stderr.trim() && `its stderr ended with: ${stderr.trim().replace(/\s*\n\s*/g, " | ")}`,
    ].filter(Boolean);
    const full = told.length > 0 ? `${reason} (${told.join("; ")})` : reason;
    return new McpGenError([
      diagnostic("MCPG721", { server: source, reason: full, option }, { file: option }),
    ]);
  };
  let channel: ClientChannel;
  try {
    channel = isUrl(source)
      ? connectHttp(source)
      : await spawnStdio({
          ...parseCommandLine(source),
          ...(cwd !== undefined ? { cwd } : {}),
          stderr: (text) => (stderr = (stderr + text).slice(-STDERR_TAIL)),
          onWarning: (message) => {
            stray = message;
            if (warnings.length < 20) warnings.push(message);
          },
        });
  } catch (error) {
    throw fail((error as Error).message);
  }
  const client = new McpClient({
    ...(await committedProtocol()),
    channel,
    info: { name: "mcp-gen", version: packageVersion() },
    // What a scaffolded client declares (its handlers answer elicitation): a server may list tools by
    // the client's capabilities, and the list is of the tools the project's client will see.
    capabilities: PROJECT_CAPABILITIES,
    timeoutMs,
    probeTimeoutMs: Math.min(timeoutMs, 10_000),
    onWarning: (message) => {
      if (warnings.length < 20) warnings.push(message);
    },
  });
  // Every page together, not only each: a server slow to page cannot hold the scaffold for 100 timeouts.
  const deadlineMs = 4 * timeoutMs;
  const deadline = AbortSignal.timeout(deadlineMs);
  try {
    const tools: unknown[] = [];
    let cursor: unknown;
    for (let page = 0; page < MAX_PAGES; page++) {
      const result = await client.request(
        "tools/list",
        typeof cursor === "string" ? { cursor } : {},
        { signal: deadline },
      );
      tools.push(...(result.tools as unknown[]));
      if (tools.length > MAX_TOOLS)
        throw fail(
          `it lists more than ${MAX_TOOLS} tools, more than a project can hold (one of ${MAX_TOOLS} typechecks in about 1.6 GB); write the tools the client needs to a tools file and pass it with --tools`,
        );
      cursor = result.nextCursor;
      if (typeof cursor !== "string") return { tools, warnings };
    }
    throw fail(`tools/list still had more pages after ${MAX_PAGES}`);
  } catch (error) {
    if (error instanceof McpGenError) throw error;
    if (deadline.aborted)
      throw fail(`listing every page of tools/list took more than ${deadlineMs / 1000} s`);
    if (error instanceof McpError || error instanceof ChannelError) throw fail(error.message);
    throw fail((error as Error).message);
  } finally {
    await client.close().catch(() => {});
  }
}
