/**
 * Transports: Streamable HTTP for servers (a Fetch-style core with guards,
 * adapted to node:http and to Request/Response) and for clients
 * (connectHttp, over node:http or any fetch), and stdio as a server
 * (serveStdio) and as a client that starts the server (connectStdio, and
 * spawnStdio as a client's channel). The only part of the runtime that
 * knows HTTP, and the only place where a protocol outcome becomes an HTTP
 * status. It depends on core/ alone: the side it serves is anything shaped
 * like ServedSide (an McpServer); a client's channel is a ClientChannel.
 * connectInMemory joins the two in one process, for tests: Streamable HTTP
 * without the socket.
 */
export { EventStream, STREAM_BUFFER_DEFAULT, type StreamWire } from "./event-stream.js";
export { HttpSessions, SESSION_DEFAULTS, type SessionLimits } from "./sessions.js";
export { LongLivedStreams, STREAM_DEFAULTS, type StreamLimits } from "./streams.js";
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
export { isReply, type HttpAuthorization } from "./authorization.js";
export { fetchHandler, type FetchOptions } from "./fetch.js";
export {
  HTTP_DEFAULTS,
  nodeListener,
  type AccessEntry,
  serveHttp,
  type RunningHttpServer,
  type ServeHttpOptions,
} from "./node.js";
export { httpSettingsFromEnvironment } from "./settings.js";
export {
  fetchSettingsFromEnvironment,
  SettingError,
  type FetchSettings,
} from "./fetch-settings.js";
export { stopOnSignals, type Stoppable } from "./signals.js";
export type { ServedSession, ServedSide } from "./served.js";
export { refusalStatus, statusOf } from "./status.js";
export { serveStdio, stdioSettingsFromEnvironment, type StdioOptions } from "./stdio.js";
export { connectInMemory, memoryWire, type InMemoryOptions } from "./in-memory.js";
export {
  connectStdio,
  type ChildExit,
  type StdioClientOptions,
  type StdioConnection,
} from "./stdio-client.js";
export {
  connectHttp,
  HTTP_CLIENT_LIMITS,
  HttpClientChannel,
  type HttpAuth,
  type HttpClientOptions,
  type HttpRefusal,
  type RetryVerdict,
} from "./http-client.js";
export {
  fetchWire,
  nodeWire,
  type HttpWire,
  type NodeWireOptions,
  type WireReply,
  type WireRequest,
} from "./http-wire.js";
export {
  EventStreamTooLarge,
  readEvents,
  type SseEvent,
  type SseLimits,
  type SseResumption,
} from "./sse-reader.js";
export { BodyTooLarge, readTextWithin } from "./bounded-read.js";
export {
  fetchBounded,
  FetchFailure,
  MAX_FETCH_BYTES,
  type BoundedAnswer,
  type BoundedFetchOptions,
} from "./bounded-fetch.js";
export {
  parseCommandLine,
  spawnStdio,
  StdioClientChannel,
  type StdioChannelOptions,
} from "./stdio-channel.js";
