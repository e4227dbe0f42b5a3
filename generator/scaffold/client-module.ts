/**
 * src/generated/client.gen.ts of a client project: the typed client.
 */

/**
 * A client project's typed client (`src/generated/client.gen.ts`): the
 * revision's requests as methods and the tools of tools.json as wrappers,
 * both typed and made from the generated tables (see runtime client/typed.ts).
 * With the Tasks extension the client declares it on every request and
 * its tool wrappers follow a task to its result.
 */
export function clientModule(tasks: boolean): string {
  return `import {
  bindMethods,
  bindTools,
  declaringExtensions,
  McpClient,
  routeNotifications,
  type ClientOptions,
  type Completed,
  type Continuations as ContinuationsOf,
  type InputTypes,
  type ServerDescription,
  type TypedMethods,
  type Unfollowed,
} from "../mcp-gen/runtime/client.js";
import { legacy, protocol } from "./protocol.gen.js";
import { TOOL_CHECKS, type ToolWrappers } from "./tools.gen.js";

/** The params and results of the server's requests for input, as this revision types them. */
export interface Inputs extends InputTypes {
  readonly elicitParams: protocol.ElicitRequest["params"];
  readonly elicitResult: protocol.ElicitResult;
  readonly samplingParams: protocol.CreateMessageRequest["params"];
  readonly samplingResult: protocol.CreateMessageResult;
  readonly rootsParams: protocol.ListRootsRequest["params"];
  readonly rootsResult: protocol.ListRootsResult;
}

/** One method per request a client sends in this revision (\`tools/call\` is \`toolsCall\`), typed by its params and result. */
export type Methods = TypedMethods<typeof protocol.METHODS, protocol.ParamsByMethod, protocol.ResultByMethod>;

/** The results the revision's extensions add to tools/call, discriminated by resultType (none for a plain revision). */
export type ExtensionToolResult = Exclude<Completed<protocol.ResultOf<"tools/call">>, { readonly resultType: "complete" }>;

/** A continuation per extension resultType of tools/call, typed by its definition: it follows such a result to the tool's final result. */
export type Continuations = ContinuationsOf<ExtensionToolResult, Methods>;

/** A handler per notification, given its params as the revision (extensions included) types them. */
export type NotificationHandlers = {
  readonly [M in keyof protocol.NotificationParamsByMethod]?: (params: protocol.NotificationParamsByMethod[M]) => void;
};

/** What the runtime follows by itself: ${tasks ? "tasks of the Tasks extension" : "nothing"}. */
type FollowedByRuntime = ${tasks ? '"task"' : "never"};

/** A client of one server, typed for this project; \`K\` is the resultTypes it has continuations for. */
export interface Client<K extends keyof Continuations = never> {
  /** The requests of the revision, one method each; results are checked against the schema and discriminated by resultType. */
  readonly rpc: Methods;
  /** The tools of tools.json, one function each, their arguments and structured output checked; an extension result is followed by its continuation${tasks ? " (a task by the runtime)" : ""}, else returned as it is. */
  readonly tools: ToolWrappers<Unfollowed<ExtensionToolResult, K | FollowedByRuntime>>;
  /** The runtime's client, for anything else (a request by name, callTool, ${tasks ? "awaitTask, " : ""}listen). */
  readonly raw: McpClient<Inputs>;
  /** Finds out how to talk to the server (server/discover, or initialize for a legacy server). */
  connect(): Promise<ServerDescription>;
  /** Ends the connection. */
  close(): Promise<void>;
}

/**
 * How a client is made: the runtime's options without the protocol modules,
 * which this project brings; a continuation per extension resultType the
 * tool wrappers should follow, and a handler per notification.
 */
export type Options<K extends keyof Continuations = never> = Omit<ClientOptions<Inputs>, "protocol" | "legacy"> & {
  readonly continuations?: { readonly [RT in K]: NonNullable<Continuations[RT]> };
  readonly notifications?: NotificationHandlers;
};

/** A client of the server \`options.channel\` reaches, declaring the revision's extensions besides \`options.capabilities\`. */
export function createClient<K extends keyof Continuations = never>(options: Options<K>): Client<K> {
  const { continuations, notifications, ...clientOptions } = options;
  const capabilities = declaringExtensions(options.capabilities, protocol.EXTENSIONS);
  const raw = new McpClient<Inputs>({
    protocol,
    legacy,
    ...clientOptions,
    ...(capabilities ? { capabilities } : {}),
    onNotification: routeNotifications(notifications ?? {}, options.onNotification),
  });
  const rpc = bindMethods<Methods>(raw, protocol.METHODS);
  return {
    rpc,
    tools: bindTools<Client<K>["tools"]>(raw, TOOL_CHECKS, {${tasks ? " followTasks: true," : ""}
      continuations: continuations ?? {},
      rpc,
      checkFinal: (result) => protocol.validate("CallToolResult", result),
    }),
    raw,
    connect: () => raw.connect(),
    close: () => raw.close(),
  };
}
`;
}
