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
 * caller.
 */
import {
  checkToolOutput,
  type CallToolOptions,
  type McpClient,
  type RequestOptions,
  type SchemaCheck,
} from "./client.js";
import { isTaskHandle, type AwaitTaskOptions } from "./tasks.js";

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

/** The methods of the requests a client sends, from a generated module's METHODS, ParamsByMethod and ResultByMethod. */
export type TypedMethods<Methods, Params, Results> = {
  readonly [
    M in keyof Methods & keyof Params & keyof Results & string as Methods[M] extends {
      readonly direction: "client-to-server" | "both";
    }
      ? MethodName<M>
      : never
  ]: (...args: MethodArguments<Params[M]>) => Promise<Completed<Results[M]>>;
};

/** The typed methods of `client`, one per request of `methods` a client sends. */
export function bindMethods<Methods>(
  client: Requester,
  methods: { readonly [method: string]: { readonly direction: string } },
): Methods {
  const bound: Record<string, unknown> = {};
  for (const [method, entry] of Object.entries(methods))
    if (entry.direction === "client-to-server" || entry.direction === "both")
      Object.defineProperty(bound, methodName(method), {
        value: (params?: Readonly<Record<string, unknown>>, options?: RequestOptions) =>
          client.request(method, params ?? {}, options),
        enumerable: true,
      });
  return Object.freeze(bound) as Methods;
}

/**
 * A tool's result as its wrapper returns it: structuredContent typed by the
 * tool's outputSchema. (The other members are mapped one by one: `Omit`
 * would keep only the index signature of a result type that has one.)
 */
export type TypedToolResult<Result, Structured> = {
  [K in keyof Result as K extends "structuredContent" ? never : K]: Result[K];
} & {
  readonly structuredContent?: Structured;
};

/**
 * How a tool wrapper is called in a project with the Tasks extension: the
 * call's options (its `signal` also cancels the task), and how a task the
 * server answers with is followed.
 */
export interface TaskCallOptions extends CallToolOptions, AwaitTaskOptions {
  /** Called with the task handle (its taskId) when the server runs the call as a task. */
  readonly onTask?: (
    handle: Readonly<Record<string, unknown>> & { readonly taskId: string },
  ) => void;
}

/**
 * A wrapper per tool, keyed by the tool's name (any string, used only as a
 * key): it checks the arguments before sending and the structuredContent
 * on return with the tool's generated checks. With `followTasks` (a
 * project with the Tasks extension), a call the server answers with a task
 * is followed to its end (McpClient.awaitTask: polled, its input requests
 * answered by the client's handlers, cancelled when the signal fires) and
 * the wrapper resolves with the task's result, checked the same way.
 */
export function bindTools<Wrappers>(
  client: Requester,
  checks: {
    readonly [tool: string]: { readonly arguments: SchemaCheck; readonly output?: SchemaCheck };
  },
  { followTasks = false }: { readonly followTasks?: boolean } = {},
): Wrappers {
  const bound: Record<string, unknown> = {};
  for (const name of Object.keys(checks)) {
    const check = checks[name]!;
    const call = (args: Readonly<Record<string, unknown>>, options: CallToolOptions = {}) =>
      client.callTool(name, args, { ...options, checks: check });
    Object.defineProperty(bound, name, {
      value: followTasks
        ? async (args: Readonly<Record<string, unknown>>, options: TaskCallOptions = {}) => {
            const { onStatus, pollIntervalMs, onTask, ...callOptions } = options;
            const first = await call(args, callOptions);
            if (!isTaskHandle(first)) return first;
            onTask?.(first);
            const result = await client.awaitTask(first, {
              ...(options.signal ? { signal: options.signal } : {}),
              ...(onStatus ? { onStatus } : {}),
              ...(pollIntervalMs !== undefined ? { pollIntervalMs } : {}),
            });
            checkToolOutput(name, result, check.output);
            return result;
          }
        : call,
      enumerable: true,
    });
  }
  return Object.freeze(bound) as Wrappers;
}
