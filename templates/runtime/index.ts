/**
 * The mcp-gen server runtime: serve an MCP server over Streamable HTTP and
 * stdio, for the 2026-07-28 era and (with the 2025-11-25 module) legacy
 * clients on the same endpoint.
 *
 * ```ts
 * import * as protocol from "./generated/2026-07-28/index.js";
 * import * as legacy from "./generated/2025-11-25/index.js";
 * const server = new McpServer({ protocol, legacy, info: { name: "demo", version: "1.0.0" } });
 * server.tool({ name: "echo", inputSchema: { type: "object" } }, (args) => ({ content: [{ type: "text", text: String(args.text) }] }));
 * await serveHttp(server, { port: 3000 });
 * ```
 */
export { McpServer, templateMatcher, headerParametersOf } from "./server.js";
export type {
  CompletionHandler,
  CompletionResult,
  MethodHandler,
  HeaderParameter,
  PromptDefinition,
  PromptHandler,
  PromptResult,
  ReadResult,
  ResourceDefinition,
  ResourceReader,
  ResourceTemplateDefinition,
  SchemaCheck,
  ServerOptions,
  ToolDefinition,
  ToolHandler,
  ToolResult,
} from "./server.js";
export { McpError, NotImplemented, Codes, invalidParams, missingCapability } from "./errors.js";
export {
  LOG_LEVELS,
  type ElicitAnswer,
  type ElicitParams,
  type LogLevel,
  type RequestContext,
  type SamplingParams,
} from "./context.js";
export { RequestStateCodec, paramsDigest, canonicalJson } from "./request-state.js";
export {
  McpHttpHandler,
  EventStream,
  fetchHandler,
  nodeListener,
  serveHttp,
  decodeHeaderValue,
  type HttpOptions,
  type HttpReply,
  type HttpRequest,
} from "./http.js";
export { serveStdio, type StdioOptions } from "./stdio.js";
export { handleModern, type Exchange, type Outcome } from "./modern.js";
export type { ProtocolModule } from "./protocol.js";
