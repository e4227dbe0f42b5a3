/**
 * The core both sides of MCP share, whatever carries their messages: wire
 * framing, era detection, request/answer matching, the Mcp-* header rules,
 * errors and limits. It knows nothing of HTTP statuses, and nothing of
 * whether it runs in a server or a client.
 */
export {
  ChannelError,
  type ChannelFailure,
  type ChannelRequestOptions,
  type ClientChannel,
} from "./channel.js";
export {
  asMcpError,
  Codes,
  ERROR_BRAND,
  ForeignDataError,
  McpError,
  RemoteError,
  invalidParams,
  methodNotFound,
  missingCapability,
} from "./errors.js";
export {
  claimsModern,
  detectEra,
  FIRST_MODERN,
  isModernVersion,
  META,
  missingEnvelope,
  type Era,
  type EraContext,
  type EraVerdict,
} from "./era.js";
export {
  checkOutgoingMeta,
  isReservedMetaKey,
  isValidMetaKey,
  MetaKeyError,
  metaKeyProblem,
} from "./meta-keys.js";
export {
  formatTraceparent,
  isValidTraceparent,
  traceContextOf,
  TRACE_KEYS,
  withTraceContext,
  type TraceContext,
} from "./trace-context.js";
export {
  EndedByServer,
  principalKey,
  type Authorization,
  type Exchange,
  type NotificationSink,
  type Outcome,
} from "./exchange.js";
export {
  allowsBatches,
  batchRefused,
  readFrame,
  splitBatch,
  writeFrame,
  type Frame,
} from "./framing.js";
export {
  decodeHeaderValue,
  encodeHeaderValue,
  headerMismatch,
  headerParametersOf,
  nameParameterOf,
  HEADERS,
  requestHeaders,
  type HeaderParameter,
} from "./headers.js";
export {
  errorResponse,
  idOf,
  isJsonObject,
  isJsonRpcId,
  isRequest,
  isResponse,
  metaOf,
  paramsOf,
  resultResponse,
  type JsonRpcErrorObject,
  type JsonRpcId,
  type JsonRpcMessage,
  type JsonRpcResponse,
} from "./jsonrpc.js";
export { MAX_DEPTH, MAX_MESSAGE_BYTES, nestsDeeperThan } from "./limits.js";
export { PendingRequests, type PendingOptions } from "./matching.js";
export {
  clientDeclares,
  conditionsOf,
  declaresExtension,
  extensionOfNotification,
  extensionOfRequest,
  extensionOfResultType,
  extensionRequired,
  methodRefusal,
  notificationAllowed,
  RESULT_RULE,
  resultRefusal,
  undeclaredPolicy,
  type Declared,
} from "./extensions.js";
export {
  requestEntry,
  validateDefinition,
  type ExtensionEntry,
  type MethodEntry,
  type NegotiationCondition,
  type ParseOutcome,
  type ProtocolModule,
  type Receiver,
  type ValidationOutcome,
} from "./protocol.js";
