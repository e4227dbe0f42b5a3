/**
 * The mcp-gen runtime for servers on Fetch runtimes (`src/mcp-gen/runtime/fetch.ts`
 * in a scaffolded server): what a Cloudflare Worker, Bun.serve or
 * Deno.serve needs to serve an MCP server, and nothing that needs
 * node:http, node:fs, streams or child processes. Its only node: modules
 * are node:crypto and node:net (isIP), which Bun, Deno and Workers (with
 * the `nodejs_compat` flag) provide.
 *
 * ```ts
 * const handler = new McpHttpHandler(createServer(), fetchSettingsFromEnvironment(env));
 * export default { fetch: fetchHandler(handler) };
 * ```
 */
export {
  Codes,
  declaresExtension,
  decodeHeaderValue,
  extensionRequired,
  headerParametersOf,
  invalidParams,
  McpError,
  missingCapability,
  type Authorization,
  type Exchange,
  type HeaderParameter,
  type Outcome,
  type ProtocolModule,
} from "./core/index.js";
export * from "./server/index.js";
export { fetchHandler, type FetchOptions } from "./transport/fetch.js";
export {
  fetchSettingsFromEnvironment,
  SettingError,
  type FetchSettings,
} from "./transport/fetch-settings.js";
export { McpHttpHandler, type HttpOptions } from "./transport/http.js";
export type { Guard } from "./transport/guards.js";
export type { HttpReply, HttpRequest } from "./transport/http-reply.js";
