/**
 * What a server is set up with: the definitions of its features (tools,
 * resources, resource templates, prompts), the handlers that answer them,
 * and ServerOptions. Shapes only; ServerFeatures (features.ts) holds and
 * runs them.
 */
import type { ProtocolModule } from "../core/protocol.js";
import type { ContentBlock, Meta, PromptMessage, ResourceContents } from "./content.js";
import type { RequestContext, Started } from "./context.js";
import type { RequestStateCodec } from "./request-state.js";
import type { ListOptions } from "./lists.js";
import type { ServerLimits } from "./limits.js";
import type { ChangeBus } from "./subscriptions.js";
import type { SessionStore } from "./session-store.js";
import type { TaskStore } from "./task-store.js";
import type {
  ExtensionResult,
  ExtensionResultFor,
  ParamsFor,
  ResultFor,
  ServerTypes,
  UntypedServer,
} from "./typed.js";

/** A tool as tools/list shows it. */
export interface ToolDefinition {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly inputSchema: Readonly<Record<string, unknown>>;
  readonly outputSchema?: Readonly<Record<string, unknown>>;
  readonly annotations?: Readonly<Record<string, unknown>>;
  readonly [key: string]: unknown;
}

/** What a tool handler returns: a CallToolResult without the protocol fields the runtime adds. */
export interface ToolResult {
  readonly content: ReadonlyArray<ContentBlock>;
  /** A tool execution error the model can see and correct (spec: tools, error handling). */
  readonly isError?: boolean;
  /** Any JSON value; required, and checked, when the tool declares an outputSchema (unless isError). */
  readonly structuredContent?: unknown;
  readonly _meta?: Meta;
}

/**
 * A validator of tool arguments (or structured output), generated from the
 * tool's schema. A generated check loads its validator module the first
 * time it runs, and answers through a promise until then.
 */
export type SchemaCheck = (value: unknown) => SchemaOutcome | Promise<SchemaOutcome>;

/** What a SchemaCheck found. */
export type SchemaOutcome =
  | { readonly ok: true }
  | {
      readonly ok: false;
      readonly errors: ReadonlyArray<{ readonly path: string; readonly message: string }>;
    };

/**
 * Handles `tools/call` for one tool: returns its result, what `ctx.runAs`
 * returned when an extension took the call's work (`ctx.runAsTask`: a task),
 * or a result an extension adds to tools/call (its resultType selects its
 * definition).
 */
export type ToolHandler = (
  args: Record<string, unknown>,
  ctx: RequestContext,
) => ToolResult | Started | ExtensionResult | Promise<ToolResult | Started | ExtensionResult>;

/** A resource as resources/list shows it. */
export interface ResourceDefinition {
  readonly uri: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  readonly [key: string]: unknown;
}

/** A resource template as resources/templates/list shows it. */
export interface ResourceTemplateDefinition {
  readonly uriTemplate: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  readonly [key: string]: unknown;
}

/** What a resource reader returns: a ReadResourceResult without the protocol fields the runtime adds. */
export interface ReadResult {
  readonly contents: ReadonlyArray<ResourceContents>;
  readonly ttlMs?: number;
  readonly cacheScope?: "public" | "private";
}

/**
 * Reads a resource; `variables` holds a template's matched variables. It
 * may return a result an extension adds to resources/read (`returns` in its
 * manifest), sent only to clients that declare the extension; on a typed
 * server (`McpServer<Types>`) only such a result, as its definition types it.
 */
export type ResourceReader<T extends ServerTypes = UntypedServer> = (
  uri: string,
  variables: Readonly<Record<string, string>>,
  ctx: RequestContext<T>,
) =>
  | ReadResult
  | ExtensionResultFor<T, "resources/read">
  | Promise<ReadResult | ExtensionResultFor<T, "resources/read">>;

/** A prompt as prompts/list shows it. */
export interface PromptDefinition {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly arguments?: ReadonlyArray<{
    readonly name: string;
    readonly description?: string;
    readonly required?: boolean;
  }>;
  readonly [key: string]: unknown;
}

/** What a prompt handler returns. */
export interface PromptResult {
  readonly messages: ReadonlyArray<PromptMessage>;
  readonly description?: string;
}

/** Handles `prompts/get` for one prompt; it may return a result an extension adds to prompts/get, as a ResourceReader may. */
export type PromptHandler<T extends ServerTypes = UntypedServer> = (
  args: Readonly<Record<string, string>>,
  ctx: RequestContext<T>,
) =>
  | PromptResult
  | ExtensionResultFor<T, "prompts/get">
  | Promise<PromptResult | ExtensionResultFor<T, "prompts/get">>;

/** What a completion handler returns. */
export interface CompletionResult {
  readonly values: readonly string[];
  readonly total?: number;
  readonly hasMore?: boolean;
}

/** Handles `completion/complete`. */
export type CompletionHandler = (
  params: Readonly<Record<string, unknown>>,
  ctx: RequestContext,
) => CompletionResult | Promise<CompletionResult>;

/** Handles a request method the runtime has no built-in handler for (an extension's, such as jobs/get). */
export type MethodHandler = (
  params: Readonly<Record<string, unknown>>,
  ctx: RequestContext,
) => object | Promise<object>; // object, so that generated result interfaces (no index signature) fit

/** A handler of `M` on a server typed by `T`: params and result from the generated maps. */
export type TypedMethodHandler<T extends ServerTypes, M extends string> = (
  params: ParamsFor<T, M>,
  ctx: RequestContext<T>,
) => ResultFor<T, M> | Promise<ResultFor<T, M>>;

/** How a server is set up. */
export interface ServerOptions {
  /** The generated module of the revision served (e.g. generated/2026-07-28). */
  readonly protocol: ProtocolModule;
  /** The generated module of 2025-11-25, to also serve clients that start with `initialize` on the same endpoint. */
  readonly legacy?: ProtocolModule;
  /** Who the server is (`io.modelcontextprotocol/serverInfo`, and `serverInfo` for legacy clients). */
  readonly info: { readonly name: string; readonly version: string; readonly title?: string };
  readonly instructions?: string;
  /** Seals MRTR requestState; defaults to a key from MCP_REQUEST_STATE_KEY, or a random one per process. */
  readonly requestState?: RequestStateCodec;
  /** Caching hints added to list, read and discover results that set none. */
  readonly cache?: { readonly ttlMs: number; readonly cacheScope: "public" | "private" };
  /**
   * How tools/list, resources/list, resources/templates/list and
   * prompts/list are paged (`pageSize`, default 100; cursors signed with
   * MCP_CURSOR_KEY) and the caching hints they carry (`ttlMs`,
   * `cacheScope`, over `cache`). Default: MCP_LIST_PAGE_SIZE, else 100.
   */
  readonly lists?: ListOptions;
  /** Check every outgoing result against the schema (default true): a handler bug becomes -32603, never a malformed message. */
  readonly validateResults?: boolean;
  /** Extensions to declare under capabilities.extensions, by identifier. */
  readonly extensions?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /** Where the runtime reports handler crashes and invalid results (default: stderr). */
  readonly onError?: (error: unknown, where: string) => void;
  /**
   * The Tasks extension, when the protocol module has it: where tasks are
   * kept (default: in memory; several instances need a shared store such
   * as RedisTaskStore), how long they are kept (`ttlMs`, default one hour
   * after creation), how often clients should poll (`pollIntervalMs`,
   * default 1000), and how long the lease of a running task lasts
   * (`leaseMs`, default 10000: when the instance running a task stops,
   * the task fails within that plus a poll).
   */
  readonly tasks?: {
    readonly store?: TaskStore;
    readonly ttlMs?: number;
    readonly pollIntervalMs?: number;
    readonly leaseMs?: number;
  };
  /**
   * Relays list-changed and resource-updated notifications between the
   * instances of this server (such as RedisChangeBus), for listen streams
   * on one instance to hear of changes made on another.
   */
  readonly changeBus?: ChangeBus;
  /**
   * Where legacy sessions (2025-11-25 and earlier) live so that every
   * instance of this server serves them (such as RedisSessionStore);
   * default: the memory of the instance that answered `initialize`.
   */
  readonly sessions?: SessionStore;
  /**
   * What one client may make the server keep: a listen filter's size, what
   * a 2025-era session keeps of its client (limits.ts). Default:
   * MCP_MAX_LISTEN_FILTER_BYTES and MCP_MAX_CLIENT_INFO_BYTES, else 64 KiB
   * each; limits given here are taken over the defaults, and the
   * variables are not read.
   */
  readonly limits?: Partial<ServerLimits>;
}
