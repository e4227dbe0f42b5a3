/**
 * The mcp-gen runtime for clients (`mcp-gen/client`, and
 * `src/mcp-gen/runtime/client.ts` in a scaffolded client): McpClient over
 * Streamable HTTP (connectHttp), stdio (spawnStdio) or, in tests, in
 * memory to a server in the same process (connectInMemory), speaking the
 * 2026-07-28 era and, with the 2025-11-25 module, legacy servers too.
 *
 * ```ts
 * import * as protocol from "./generated/2026-07-28/index.js";
 * import * as legacy from "./generated/2025-11-25/index.js";
 * const client = new McpClient({
 *   protocol,
 *   legacy,
 *   channel: connectHttp("http://127.0.0.1:3000/mcp"),
 *   info: { name: "demo", version: "1.0.0" },
 * });
 * const { tools } = await client.request("tools/list");
 * ```
 */
export {
  ChannelError,
  Codes,
  decodeHeaderValue,
  encodeHeaderValue,
  headerParametersOf,
  McpError,
  RemoteError,
  type ClientChannel,
  type HeaderParameter,
  type JsonRpcMessage,
} from "./core/index.js";
export * from "./client/index.js";
export {
  connectHttp,
  connectInMemory,
  fetchWire,
  HTTP_CLIENT_LIMITS,
  HttpClientChannel,
  nodeWire,
  parseCommandLine,
  spawnStdio,
  StdioClientChannel,
  type HttpAuth,
  type HttpRefusal,
  type RetryVerdict,
  type HttpClientOptions,
  type HttpWire,
  type InMemoryOptions,
  type NodeWireOptions,
  type StdioChannelOptions,
  type WireReply,
  type WireRequest,
} from "./transport/index.js";
