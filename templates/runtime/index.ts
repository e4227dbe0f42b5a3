/**
 * The mcp-gen runtime for servers (`mcp-gen/runtime`, and
 * `src/mcp-gen/runtime/index.ts` in a scaffolded server): serve an MCP
 * server over Streamable HTTP and stdio, for the 2026-07-28 era and (with
 * the 2025-11-25 module) legacy clients on the same endpoint.
 *
 * Its layers, each importable on its own: `core/` (framing, eras,
 * request/answer matching, header rules, errors, limits), `server/` (what
 * a server offers and how requests reach it), `scale/` (stores shared by
 * several instances: Redis) and `transport/` (HTTP and stdio). Protocol
 * code never imports a transport.
 *
 * ```ts
 * import * as protocol from "./generated/2026-07-28/index.js";
 * import * as legacy from "./generated/2025-11-25/index.js";
 * const server = new McpServer({ protocol, legacy, info: { name: "demo", version: "1.0.0" } });
 * server.tool({ name: "echo", inputSchema: { type: "object" } }, (args) => ({ content: [{ type: "text", text: String(args.text) }] }));
 * await serveHttp(server, { port: 3000 });
 * ```
 */
export {
  checkOutgoingMeta,
  Codes,
  declaresExtension,
  decodeHeaderValue,
  EndedByServer,
  extensionRequired,
  headerParametersOf,
  invalidParams,
  McpError,
  MetaKeyError,
  missingCapability,
  principalKey,
  type Authorization,
  type Exchange,
  type HeaderParameter,
  type Outcome,
  type ProtocolModule,
  type TraceContext,
} from "./core/index.js";
export * from "./server/index.js";
export * from "./scale/index.js";
export * from "./transport/index.js";
