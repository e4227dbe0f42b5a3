/**
 * The typed client of a client project (src/generated/client.gen.ts): the
 * revision's requests as methods and the tools of tools.json as functions,
 * both typed and made from the generated tables (see the runtime's
 * client/typed.ts). Both follow the results of an extension's resultType
 * with the project's continuations (client/continuations.ts); with the
 * Tasks extension in the revision, the client declares it on every request
 * and both follow a task to its result.
 *
 * mcp-gen copies what follows the marker line as it is written
 * (project/client-module.ts), after the imports it writes. What comes
 * before stands in for those imports and for the project's tools module
 * (one tool), here with the 2026-07-28 revision and Tasks, so the code is
 * type-checked with mcp-gen's own.
 */
import {
  bindMethods,
  bindTools,
  completeResultCheck,
  declaringExtensions,
  McpClient,
  routeNotifications,
  type ClientOptions,
  type Completed,
  type InputTypes,
  type SchemaCheck,
  type ServerDescription,
  type TaskCallOptions,
  type TypedMethods,
  type TypedToolResult,
  type Unfollowed,
} from "../../../../templates/runtime/client.js";
import type * as runtime from "../../../../templates/runtime/client.js";
import * as protocol from "../../../../generated/2026-07-28+tasks/index.js";
import * as legacy from "../../../../generated/2025-11-25/index.js";

declare const TOOL_CHECKS: {
  readonly [name: string]: { readonly arguments: SchemaCheck; readonly output?: SchemaCheck };
};
type ToolWrappers<Unfollowed = never> = {
  readonly add: (
    args: { readonly a: number; readonly b: number },
    options?: TaskCallOptions,
  ) => Promise<TypedToolResult<protocol.CallToolResult, { readonly sum: number }> | Unfollowed>;
};

declare const EXTENSION_SETTINGS: { readonly [id: string]: Readonly<Record<string, unknown>> };

// mcp-gen copies this file from here on.
/** The params and results of the server's requests for input, as this revision types them. */
export interface Inputs extends InputTypes {
  readonly elicitParams: protocol.ElicitRequest["params"];
  readonly elicitResult: protocol.ElicitResult;
  readonly samplingParams: protocol.CreateMessageRequest["params"];
  readonly samplingResult: protocol.CreateMessageResult;
  readonly rootsParams: protocol.ListRootsRequest["params"];
  readonly rootsResult: protocol.ListRootsResult;
}

/**
 * One method per request a client sends in this revision (`tools/call` is `toolsCall`), typed by its params and result.
 * A result of a resultType in `Followed` is followed to the method's final result, so it is not in the method's type.
 */
export type Methods<Followed extends string = never> = TypedMethods<
  typeof protocol.METHODS,
  protocol.ParamsByMethod,
  protocol.ResultByMethod,
  Followed
>;

/** The requests a client sends in this revision (to the server, or either way). */
type SentMethod = {
  [M in keyof typeof protocol.METHODS]: (typeof protocol.METHODS)[M] extends {
    readonly direction: "client-to-server" | "both";
  }
    ? M
    : never;
}[keyof typeof protocol.METHODS] &
  keyof protocol.ResultByMethod;

/** The results the revision's extensions add to the requests a client sends, discriminated by resultType (none for a plain revision). */
export type ExtensionResult = Exclude<
  Completed<protocol.ResultOf<SentMethod>>,
  { readonly resultType: "complete" }
>;

/** The results the revision's extensions add to tools/call, discriminated by resultType (none for a plain revision). */
export type ExtensionToolResult = Exclude<
  Completed<protocol.ResultOf<"tools/call">>,
  { readonly resultType: "complete" }
>;

/** A continuation per extension resultType of any request a client sends, typed by its definition: it follows such a result to the method's final result. */
export type Continuations = runtime.Continuations<ExtensionResult, Methods>;

/** A handler per notification, given its params as the revision (extensions included) types them. */
export type NotificationHandlers = {
  readonly [M in keyof protocol.NotificationParamsByMethod]?: (
    params: protocol.NotificationParamsByMethod[M],
  ) => void;
};

/** Whether the revision has the Tasks extension, whose tasks the runtime follows by itself. */
const FOLLOWS_TASKS = "io.modelcontextprotocol/tasks" in protocol.EXTENSIONS;

/** What the runtime follows by itself: a task of the Tasks extension, when the revision has it. */
type FollowedByRuntime = Extract<ExtensionResult["resultType"], "task">;

/** A client of one server, typed for this project; `K` is the resultTypes it has continuations for. */
export interface Client<K extends keyof Continuations = never> {
  /** The requests of the revision, one method each; results are checked against the schema and discriminated by resultType; an extension result is followed by its continuation (a task by the runtime), else returned as it is. */
  readonly rpc: Methods<K | FollowedByRuntime>;
  /** The tools of tools.json, one function each, their arguments and structured output checked; an extension result is followed by its continuation (a task by the runtime), else returned as it is. */
  readonly tools: ToolWrappers<Unfollowed<ExtensionToolResult, K | FollowedByRuntime>>;
  /** The runtime's client, for anything else (a request by name, callTool, awaitTask with Tasks, listen). */
  readonly raw: McpClient<Inputs>;
  /** Finds out how to talk to the server (server/discover, or initialize for a legacy server). */
  connect(): Promise<ServerDescription>;
  /** Ends the connection. */
  close(): Promise<void>;
}

/**
 * How a client is made: the runtime's options without the protocol modules,
 * which this project brings; a continuation per extension resultType the
 * requests and tool functions should follow, and a handler per notification.
 */
export type Options<K extends keyof Continuations = never> = Omit<
  ClientOptions<Inputs>,
  "protocol" | "legacy"
> & {
  readonly continuations?: { readonly [RT in K]: NonNullable<Continuations[RT]> };
  readonly notifications?: NotificationHandlers;
};

/** A client of the server `options.channel` reaches, declaring the revision's extensions (those whose rule needs the client's declaration, with mcp-gen.json's settings) besides `options.capabilities`. */
export function createClient<K extends keyof Continuations = never>(
  options: Options<K>,
): Client<K> {
  const { continuations, notifications, ...clientOptions } = options;
  const capabilities = declaringExtensions(
    options.capabilities,
    protocol.EXTENSIONS,
    EXTENSION_SETTINGS,
  );
  const raw = new McpClient<Inputs>({
    protocol,
    legacy,
    ...clientOptions,
    ...(capabilities ? { capabilities } : {}),
    onNotification: routeNotifications(notifications ?? {}, options.onNotification),
  });
  const follow = {
    followTasks: FOLLOWS_TASKS,
    continuations: continuations ?? {},
    checkFinal: completeResultCheck(protocol),
  };
  const rpc = bindMethods<Client<K>["rpc"]>(raw, protocol.METHODS, follow);
  return {
    rpc,
    tools: bindTools<Client<K>["tools"]>(raw, TOOL_CHECKS, { ...follow, rpc }),
    raw,
    connect: () => raw.connect(),
    close: () => raw.close(),
  };
}
