/**
 * The server as a Cloudflare Worker: Streamable HTTP at /mcp, answered by
 * the Worker's fetch handler (`npm run dev` runs it in workerd on
 * http://127.0.0.1:8787/mcp, `npm run deploy` publishes it).
 *
 * Settings are the Worker's variables and secrets (wrangler.toml's [vars],
 * `wrangler secret put`): ALLOWED_HOSTS, ALLOWED_ORIGINS,
 * MCP_MAX_BODY_BYTES, ... (see fetchSettingsFromEnvironment), and
 * MCP_REQUEST_STATE_KEY, which the runtime reads from process.env (the
 * nodejs_compat flag fills it with them).
 */
import {
  fetchHandler,
  fetchSettingsFromEnvironment,
  McpHttpHandler,
} from "./mcp-gen/runtime/fetch.js";
import { createServer } from "./server.js";

type Handle = (request: Request) => Promise<Response>;

let handle: Handle | undefined;

/**
 * The handler, made on the isolate's first request and kept for the
 * others: a Worker may not make random values (the requestState key) or
 * start timers (legacy sessions) before a request arrives.
 */
function handlerOf(env: Readonly<Record<string, unknown>>): Handle {
  if (handle) return handle;
  const strings = Object.fromEntries(
    Object.entries(env).filter((e): e is [string, string] => typeof e[1] === "string"),
  );
  handle = fetchHandler(new McpHttpHandler(createServer(), fetchSettingsFromEnvironment(strings)));
  return handle;
}

export default {
  async fetch(request: Request, env: Readonly<Record<string, unknown>>): Promise<Response> {
    let serve: Handle;
    try {
      serve = handlerOf(env);
    } catch (error) {
      // A setting or key that cannot be used: the log names it, the client learns nothing of it.
      console.error(error instanceof Error ? error.message : String(error));
      return new Response(
        JSON.stringify({
          jsonrpc: "2.0",
          id: null,
          error: { code: -32603, message: "Internal error" },
        }),
        { status: 500, headers: { "content-type": "application/json" } },
      );
    }
    return serve(request);
  },
};
