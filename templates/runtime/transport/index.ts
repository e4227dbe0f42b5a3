/**
 * Transports: Streamable HTTP (a Fetch-style core with guards, adapted to
 * node:http and to Request/Response), and stdio as a server (serveStdio)
 * and as a client that starts the server (connectStdio). The only part of the
 * runtime that knows HTTP, and the only place where a protocol outcome
 * becomes an HTTP status. It depends on core/ alone: the side it serves
 * is anything shaped like ServedSide (an McpServer).
 */
export { EventStream, STREAM_BUFFER_DEFAULT, type StreamWire } from "./event-stream.js";
export { HttpSessions, SESSION_DEFAULTS, type SessionLimits } from "./sessions.js";
export {
  contentTypeGuard,
  endpointGuard,
  hostGuard,
  LOCALHOST,
  parseHostHeader,
  parseOrigin,
  type Guard,
  type HostAndPort,
} from "./guards.js";
export type { AccessNote, HttpReply, HttpRequest } from "./http-reply.js";
export { McpHttpHandler, type HttpOptions } from "./http.js";
export { fetchHandler } from "./fetch.js";
export {
  HTTP_DEFAULTS,
  nodeListener,
  type AccessEntry,
  serveHttp,
  type RunningHttpServer,
  type ServeHttpOptions,
} from "./node.js";
export { httpSettingsFromEnvironment, SettingError } from "./settings.js";
export { stopOnSignals, type Stoppable } from "./signals.js";
export type { ServedSession, ServedSide } from "./served.js";
export { refusalStatus, statusOf } from "./status.js";
export { serveStdio, type StdioOptions } from "./stdio.js";
export {
  connectStdio,
  type ChildExit,
  type StdioClientOptions,
  type StdioConnection,
} from "./stdio-client.js";
