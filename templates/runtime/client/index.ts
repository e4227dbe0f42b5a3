/**
 * The client side of MCP: McpClient (eras and version negotiation, the
 * `_meta` envelope, checked results, Multi Round-Trip Requests, progress,
 * cancellation, listen streams), the input handlers a server's requests
 * for input are answered with, and the safe icon fetch. It uses core/ and
 * knows nothing of HTTP: a transport (transport/: connectHttp,
 * spawnStdio) is given to it as a ClientChannel.
 */
export {
  checkToolOutput,
  McpClient,
  type CallToolOptions,
  type ClientInfo,
  type ClientOptions,
  type RequestOptions,
  type SchemaCheck,
  type ServerDescription,
  type Subscription,
} from "./client.js";
export { withEnvelope, type ClientEnvelope } from "./envelope.js";
export { InvalidResponseError, ResourceNotFoundError } from "./errors.js";
export {
  answerInputRequest,
  elicitationDefaults,
  inputCapabilities,
  withElicitationDefaults,
  type ElicitationContext,
  type InputContext,
  type InputHandlers,
  type InputTypes,
  type UntypedInputs,
} from "./inputs.js";
export {
  DEFAULT_MAX_ITEMS,
  DEFAULT_MAX_PAGES,
  ListError,
  ListReader,
  LISTS,
  type ListLimits,
  type ListMethod,
} from "./lists.js";
export type { ClientProtocol } from "./protocol.js";
export {
  awaitTask,
  isTaskHandle,
  TASKS_CAPABILITIES,
  TASKS_EXTENSION,
  type AwaitTaskOptions,
  type TaskPeer,
} from "./tasks.js";
export { ToolDirectory } from "./tools.js";
export {
  bindMethods,
  bindTools,
  declaringExtensions,
  methodName,
  routeNotifications,
  type CallerParams,
  type Completed,
  type MethodArguments,
  type MethodName,
  type Requester,
  type TypedMethods,
  type TypedToolResult,
} from "./typed.js";
export {
  completeResultCheck,
  type Continuation,
  type ContinuationContext,
  type Continuations,
  type FollowOptions,
  type TaskCallOptions,
  type Unfollowed,
} from "./continuations.js";
export {
  checkIcon,
  fetchIcon,
  IconRefused,
  type CheckedIcon,
  type IconOptions,
  type IconProblem,
  type IconSource,
  type IconType,
} from "./icons.js";
