/**
 * The server side of MCP: what a server offers, dispatch through one
 * routing table for both eras, the context handlers get, Multi Round-Trip
 * Request state, and subscriptions. It knows nothing of HTTP or stdio: a
 * transport (../transport) carries its messages.
 */
export { McpServer } from "./server.js";
export { ServerFeatures } from "./features.js";
export type {
  CompletionHandler,
  CompletionResult,
  MethodHandler,
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
  TypedMethodHandler,
} from "./definitions.js";
export type {
  ExtensionResult,
  HandlerResult,
  NotificationName,
  NotificationParamsFor,
  ParamsFor,
  ResultFor,
  ServerTypes,
  UntypedServer,
} from "./typed.js";
export {
  LOG_LEVELS,
  type ElicitAnswer,
  type ElicitParams,
  type LogLevel,
  type RequestContext,
  type SamplingParams,
} from "./context.js";
export { NotImplemented } from "./errors.js";
export {
  digestOf,
  serveSkills,
  SKILL_LIMITS,
  SKILLS_EXTENSION,
  type Skill,
  type SkillFile,
  type SkillsOptions,
} from "./skills.js";
export { errorToSend, unsendableCode } from "./error-policy.js";
export { Started, TaskStarted, type Starter, type TaskStarter } from "./context.js";
export type { ListenKeyRequest, ServerExtension, ToolCallOffer } from "./extension.js";
export { SERVER_LIMITS, serverLimitsFromEnvironment, type ServerLimits } from "./limits.js";
export {
  expiresAt,
  InMemoryTaskStore,
  TERMINAL_STATUSES,
  type TaskChange,
  type TaskInputRequest,
  type TaskRecord,
  type TaskStatus,
  type TaskStore,
  type UpdateOptions,
} from "./task-store.js";
export {
  DEFAULT_POLL_INTERVAL_MS,
  DEFAULT_TASK_LEASE_MS,
  DEFAULT_TASK_TTL_MS,
  INSTANCE_STOPPED,
  declaresTasks,
  detailedTask,
  TASKS_EXTENSION,
  TaskRunner,
  taskSupportOf,
  type TaskSettings,
  type TaskSupport,
} from "./tasks.js";
export type {
  Annotations,
  AudioContent,
  BlobResourceContents,
  ContentBlock,
  EmbeddedResource,
  Icon,
  ImageContent,
  Meta,
  PromptMessage,
  ResourceContents,
  ResourceLink,
  Role,
  TextContent,
  TextResourceContents,
} from "./content.js";
export { LegacySession } from "./legacy.js";
export { serveModern } from "./modern.js";
export type { SessionEvent, SessionRecord, SessionStore } from "./session-store.js";
export { SharedLegacySessions } from "./shared-sessions.js";
export {
  canonicalJson,
  DEFAULT_REQUEST_STATE_TTL_MS,
  paramsDigest,
  RequestStateCodec,
  RequestStateKeyError,
} from "./request-state.js";
export {
  CURSOR_KEY_VARIABLE,
  CursorCodec,
  listDigest,
  MAX_CURSOR_LENGTH,
  type CursorPosition,
} from "./cursors.js";
export {
  DEFAULT_PAGE_SIZE,
  LIST_METHODS,
  listOptionsFromEnvironment,
  ListPager,
  MAX_PAGE_SIZE,
  PAGE_SIZE_VARIABLE,
  type ListDefaults,
  type ListMethod,
  type ListOptions,
} from "./lists.js";
export {
  ChangeHub,
  type Change,
  type ChangeBus,
  type SubscriptionFilter,
} from "./subscriptions.js";
export { templateMatcher } from "./uri-template.js";
