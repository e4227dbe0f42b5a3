/**
 * A client typed by a revision's generated maps: one method per request
 * the revision (with its extensions) lets a client send, named after the
 * method (`tools/call` → `toolsCall`, `resources/templates/list` →
 * `resourcesTemplatesList`), its params typed by ParamsByMethod and its
 * result by ResultByMethod. The methods are made from the METHODS table at
 * run time and typed from the same tables at compile time, so nothing
 * here is written per method, and an extension's requests appear with it.
 *
 * Params leave out what the client fills in (the `_meta` envelope, and
 * `inputResponses` / `requestState`, which Multi Round-Trip Requests
 * handle); results leave out InputRequiredResult, which never reaches the
 * caller, and the extension results the client follows to their final
 * result (continuations.ts).
 */
import { clientDeclares } from "../core/extensions.js";
import { isJsonObject, type JsonRpcMessage } from "../core/jsonrpc.js";
import type { ExtensionEntry } from "../core/protocol.js";
import {
  checkToolOutput,
  type McpClient,
  type RequestOptions,
  type SchemaCheck,
} from "./client.js";
import {
  follower,
  type FollowOptions,
  type TaskCallOptions,
  type Unfollowed,
} from "./continuations.js";

/** What the typed methods and wrappers call: an McpClient of any input types. */
export type Requester = Pick<McpClient, "request" | "callTool" | "awaitTask">;

/** `tools/call` → `toolsCall`: the method name with each `/`-separated part after the first capitalized. */
export type MethodName<M extends string> = M extends `${infer Head}/${infer Tail}`
  ? `${Head}${Capitalize<MethodName<Tail>>}`
  : M;

/** The same conversion at run time. */
export function methodName(method: string): string {
  return method
    .split("/")
    .map((part, i) => (i === 0 ? part : part.charAt(0).toUpperCase() + part.slice(1)))
    .join("");
}

/** Params as a caller gives them: without the envelope and the round-trip fields, `_meta` optional. */
export type CallerParams<P> = Omit<NonNullable<P>, "_meta" | "inputResponses" | "requestState"> & {
  readonly _meta?: Readonly<Record<string, unknown>>;
};

/** The arguments of a typed method: params optional when every field is. */
export type MethodArguments<P> =
  object extends CallerParams<P>
    ? [params?: CallerParams<P>, options?: RequestOptions]
    : [params: CallerParams<P>, options?: RequestOptions];

/**
 * A result as a caller receives it: never the MRTR result. That one is
 * known by its shape, not its literal (drafts of the spec called it
 * "incomplete"): a result that is not "complete" and declares
 * `inputRequests` (a complete task that waits for input declares it too,
 * so "complete" ones stay).
 */
export type Completed<R> = R extends { readonly resultType: "complete" }
  ? R
  : R extends { readonly inputRequests?: infer Requests }
    ? unknown extends Requests
      ? R
      : never
    : R;

/**
 * The methods of the requests a client sends, from a generated module's
 * METHODS, ParamsByMethod and ResultByMethod. `Followed` is the resultTypes
 * the client follows to the method's final result (its continuations'):
 * results of those never reach the caller, so they leave the union.
 */
export type TypedMethods<Methods, Params, Results, Followed = never> = {
  readonly [
    M in keyof Methods & keyof Params & keyof Results & string as Methods[M] extends {
      readonly direction: "client-to-server" | "both";
    }
      ? MethodName<M>
      : never
  ]: (...args: MethodArguments<Params[M]>) => Promise<Unfollowed<Completed<Results[M]>, Followed>>;
};

/**
 * The typed methods of `client`, one per request of `methods` a client
 * sends. A result of an extension resultType that has a continuation in
 * `follow` (or a task, with `followTasks`) is followed by it, and the
 * method resolves with the final result, checked against the method's
 * complete result definition (`checkFinal`); continuations are given these
 * methods as their `rpc` unless `follow.rpc` says otherwise.
 */
export function bindMethods<Methods>(
  client: Requester,
  methods: { readonly [method: string]: { readonly direction: string } },
  follow: FollowOptions = {},
): Methods {
  const bound: Record<string, unknown> = {};
  const finish = follower(client, { ...follow, rpc: follow.rpc ?? bound });
  for (const [method, entry] of Object.entries(methods))
    if (entry.direction === "client-to-server" || entry.direction === "both")
      Object.defineProperty(bound, methodName(method), {
        value: async (params?: Readonly<Record<string, unknown>>, options: RequestOptions = {}) => {
          const first = await client.request(method, params ?? {}, options);
          return (await finish(method, first, options)) ?? first;
        },
        enumerable: true,
      });
  return Object.freeze(bound) as Methods;
}

/**
 * A tool's result as its wrapper returns it: structuredContent typed by the
 * tool's outputSchema, resultType "complete" (or absent, from a server of
 * an earlier revision), so that a union with extension results is
 * discriminated by resultType. (The other members are mapped one by one:
 * `Omit` would keep only the index signature of a result type that has one.)
 */
export type TypedToolResult<Result, Structured> = {
  [K in keyof Result as K extends "structuredContent" | "resultType" ? never : K]: Result[K];
} & {
  readonly structuredContent?: Structured;
  readonly resultType?: "complete";
};

/**
 * A wrapper per tool, keyed by the tool's name (any string, used only as a
 * key): it checks the arguments before sending and the structuredContent
 * on return with the tool's generated checks. A result of an extension
 * resultType that has a continuation is followed by it, and the wrapper
 * resolves with the final result, checked against the complete result
 * definition of tools/call (`checkFinal`) and the outputSchema. With
 * `followTasks` (a project with the Tasks extension) the runtime brings
 * the continuation of "task": McpClient.awaitTask (polled, its input
 * requests answered by the client's handlers, cancelled when the signal
 * fires).
 */
export function bindTools<Wrappers>(
  client: Requester,
  checks: {
    readonly [tool: string]: { readonly arguments: SchemaCheck; readonly output?: SchemaCheck };
  },
  follow: FollowOptions = {},
): Wrappers {
  const finish = follower(client, follow);
  const bound: Record<string, unknown> = {};
  for (const name of Object.keys(checks)) {
    const check = checks[name]!;
    const wrapper = async (
      args: Readonly<Record<string, unknown>>,
      options: TaskCallOptions = {},
    ): Promise<Record<string, unknown>> => {
      const first = await client.callTool(name, args, { ...options, checks: check });
      const final = await finish("tools/call", first, options);
      if (!final) return first;
      await checkToolOutput(name, final, check.output);
      return final;
    };
    Object.defineProperty(bound, name, { value: wrapper, enumerable: true });
  }
  return Object.freeze(bound) as Wrappers;
}

/**
 * The client capabilities with every extension of `extensions` that a
 * client declares (its settings type the client side, or its negotiation
 * rule needs the client's declaration: core/extensions.ts) under
 * `extensions`, each with its `settings` (default `{}`: support, no
 * settings); the capabilities' own entries win. Unchanged when there is
 * nothing to add.
 */
export function declaringExtensions(
  capabilities: Readonly<Record<string, unknown>> | undefined,
  extensions: { readonly [id: string]: ExtensionEntry },
  settings: { readonly [id: string]: Readonly<Record<string, unknown>> } = {},
): Readonly<Record<string, unknown>> | undefined {
  const declared = Object.keys(extensions).filter((id) => clientDeclares(extensions[id]!));
  if (declared.length === 0) return capabilities;
  const own = isJsonObject(capabilities?.extensions) ? capabilities.extensions : {};
  const settingsOf = (id: string) => (Object.hasOwn(settings, id) ? settings[id]! : {});
  return {
    ...capabilities,
    extensions: { ...Object.fromEntries(declared.map((id) => [id, settingsOf(id)])), ...own },
  };
}

/**
 * A client's `onNotification` that hands each notification with a handler
 * in `handlers` its params (already checked against the revision's schema
 * by the client), and any other to `fallback`.
 */
export function routeNotifications(
  handlers: { readonly [method: string]: ((params: never) => void) | undefined },
  fallback: ((notification: JsonRpcMessage) => void) | undefined,
): (notification: JsonRpcMessage) => void {
  return (notification) => {
    const method = String(notification.method);
    const handler = Object.hasOwn(handlers, method) ? handlers[method] : undefined;
    if (handler) handler((isJsonObject(notification.params) ? notification.params : {}) as never);
    else fallback?.(notification);
  };
}
