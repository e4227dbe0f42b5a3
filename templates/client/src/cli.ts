/**
 * This project's command line: talks to one MCP server and prints what it
 * answered as JSON on stdout; errors go to stderr.
 *
 *   npm run -s mcp -- <url | "<command>"> discover
 *   npm run -s mcp -- <url | "<command>"> list-tools
 *   npm run -s mcp -- <url | "<command>"> call <tool> [<json arguments>]
 *   npm run -s mcp -- <url | "<command>"> read <uri>
 *   npm run -s mcp -- <url | "<command>"> get-prompt <name> [<json arguments>]
 *
 * `<command>` starts the server over stdio, in quotes
 * (`"node ../my-server/dist/index.js --stdio"`), as `mcp-gen client
 * --from-server` takes it; `--stdio "<command>"` works too.
 * (`-s` keeps npm's own lines off stdout.) A call the server runs as a
 * task (Tasks extension) is followed to its end and its result printed.
 * `list-tools` prints every tool of every page as one array: the shape of
 * tools.json, so
 * `npm run -s mcp -- <url> list-tools > tools.json && npm run regenerate`
 * refreshes the typed tool wrappers.
 *
 * Exit codes: 0 done; 1 the server answered with an error (or the tool's
 * result has isError); 2 bad usage, or arguments that fail the tool's
 * inputSchema; 3 the server could not be reached or answered something
 * invalid.
 */
import { connect, type ServerAddress } from "./connect.js";
import type { Client } from "./generated/client.gen.js";
import { TOOL_CHECKS } from "./generated/tools.gen.js";
import {
  ChannelError,
  Codes,
  isTaskHandle,
  McpError,
  parseCommandLine,
  RemoteError,
} from "./mcp-gen/runtime/client.js";

const USAGE = `usage: npm run -s mcp -- <url | "<command>"> <command>
commands:
  discover                          what the server is and offers
  list-tools                        its tools, as one JSON array
  call <tool> [<json arguments>]    calls a tool
  read <uri>                        reads a resource
  get-prompt <name> [<json args>]   gets a prompt`;

/** Bad usage: exit code 2. */
class UsageError extends Error {}

/** The server's address and the command, from the arguments. */
function parse(argv: readonly string[]): { address: ServerAddress; command: string[] } {
  const [first, ...rest] = argv;
  if (first === undefined || first === "--help" || first === "-h") throw new UsageError(USAGE);
  if (/^https?:\/\//.test(first)) return { address: { url: first }, command: rest };
  // The command that starts the server, in quotes, as mcp-gen client --from-server takes it (`--stdio "<command>"` too).
  const [line, ...command] = first === "--stdio" ? rest : [first, ...rest];
  let parsed: { command: string; args: string[] };
  try {
    parsed = parseCommandLine(line ?? "");
  } catch (error) {
    throw new UsageError(
      `neither an http(s) URL nor the command that starts the server: ${(error as Error).message}\n${USAGE}`,
    );
  }
  return { address: parsed, command };
}

/** A JSON object argument (default `{}`). */
function jsonObject(text: string | undefined, what: string): Record<string, unknown> {
  if (text === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${what} is not JSON: ${(error as Error).message}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new UsageError(`${what} must be a JSON object, such as {"a": 1}`);
  return value as Record<string, unknown>;
}

/** Runs one command; resolves with what to print and whether the server reported a failure. */
async function run(
  client: Client,
  command: readonly string[],
): Promise<{ output: unknown; failed: boolean }> {
  const [name, ...args] = command;
  const arity = (min: number, max: number) => {
    if (args.length < min || args.length > max) throw new UsageError(USAGE);
  };
  switch (name) {
    case "discover":
      arity(0, 0);
      return { output: client.raw.server, failed: false };
    case "list-tools": {
      arity(0, 0);
      const tools: unknown[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.rpc.toolsList(cursor === undefined ? {} : { cursor });
        tools.push(...page.tools);
        cursor = page.nextCursor;
      } while (cursor !== undefined);
      return { output: tools, failed: false };
    }
    case "call": {
      arity(1, 2);
      const tool = args[0]!;
      const toolArgs = jsonObject(args[1], "the arguments");
      // A tool of tools.json has its arguments checked before anything is sent.
      const first = Object.hasOwn(TOOL_CHECKS, tool)
        ? await client.raw.callTool(tool, toolArgs, { checks: TOOL_CHECKS[tool]! })
        : await client.raw.callTool(tool, toolArgs);
      // A call the server runs as a task (Tasks extension) is followed to its result.
      const result = isTaskHandle(first) ? await client.raw.awaitTask(first) : first;
      return { output: result, failed: result.isError === true };
    }
    case "read":
      arity(1, 1);
      return { output: await client.rpc.resourcesRead({ uri: args[0]! }), failed: false };
    case "get-prompt": {
      arity(1, 2);
      const promptArgs = jsonObject(args[1], "the prompt's arguments");
      return {
        output: await client.rpc.promptsGet({
          name: args[0]!,
          arguments: promptArgs as Record<string, string>,
        }),
        failed: false,
      };
    }
    default:
      throw new UsageError(`unknown command ${name ?? "(none)"}\n${USAGE}`);
  }
}

/** The exit code and message for a failure. */
function failure(error: unknown): { code: number; message: string } {
  if (error instanceof UsageError) return { code: 2, message: error.message };
  if (error instanceof RemoteError)
    return { code: 1, message: `the server answered with error ${error.code}: ${error.message}` };
  if (error instanceof McpError && error.code === Codes.InvalidParams)
    return { code: 2, message: error.message };
  if (error instanceof ChannelError || error instanceof McpError)
    return { code: 3, message: error.message };
  return { code: 3, message: (error as Error).message ?? String(error) };
}

async function main(argv: readonly string[]): Promise<number> {
  let client: Client | undefined;
  try {
    const { address, command } = parse(argv);
    if (command.length === 0) throw new UsageError(`name a command\n${USAGE}`);
    client = await connect(address);
    const { output, failed } = await run(client, command);
    process.stdout.write(`${JSON.stringify(output, null, 2)}\n`);
    return failed ? 1 : 0;
  } catch (error) {
    const { code, message } = failure(error);
    process.stderr.write(`${code === 2 ? "" : "mcp: "}${message}\n`);
    return code;
  } finally {
    await client?.close().catch(() => {});
  }
}

process.exitCode = await main(process.argv.slice(2));
