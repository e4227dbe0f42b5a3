/**
 * Continuations: how a typed client follows a result of an extension
 * resultType (a job handle, a task) to the final result of the method that
 * answered with it. A project brings one continuation per resultType; with
 * the Tasks extension the runtime brings the one for "task". The typed
 * request methods (bindMethods) and the tool wrappers (bindTools) both
 * follow through `follower`, so every method a client sends ends the same
 * way: what a continuation resolves with is checked against the method's
 * complete result definition before the caller gets it, and a resultType
 * without a continuation reaches the caller as the server sent it.
 */
import { isJsonObject } from "../core/jsonrpc.js";
import {
  validateDefinition,
  type ProtocolModule,
  type ValidationOutcome,
} from "../core/protocol.js";
import type { CallToolOptions, McpClient, RequestOptions } from "./client.js";
import { InvalidResponseError } from "./errors.js";
import { isTaskHandle, type AwaitTaskOptions } from "./tasks.js";

/** What a continuation is given besides the result: the method, the typed requests, the call's options and its signal. */
export interface ContinuationContext<Rpc> {
  /** The method whose result is followed (`tools/call`, `prompts/get`, …): what the final result must be. */
  readonly method: string;
  readonly rpc: Rpc;
  /**
   * The options the caller gave: a `client.rpc` method's RequestOptions, or
   * a tool wrapper's options (TaskCallOptions in a project with Tasks).
   */
  readonly options: RequestOptions;
  readonly signal?: AbortSignal;
}

/**
 * What follows a result of one extension resultType to the method's final
 * result: for a job handle, poll the job until it is done and resolve with
 * the result it ended with. What it resolves with is checked against the
 * method's complete result definition (and a tool's outputSchema) before
 * the caller gets it.
 */
export type Continuation<R, Rpc> = (
  result: R,
  context: ContinuationContext<Rpc>,
) => Promise<object>;

/**
 * A project's continuations, one per extension resultType of `Results`
 * (the extension results of the methods a client sends), each typed by its
 * definition: by the union of them when methods differ in it.
 */
export type Continuations<Results extends { readonly resultType: string }, Rpc> = {
  readonly [RT in Results["resultType"]]?: Continuation<
    Extract<Results, { readonly resultType: RT }>,
    Rpc
  >;
};

/** The extension results nothing follows (no continuation for their resultType): the caller gets them, typed. */
export type Unfollowed<Results, Followed> = Exclude<Results, { readonly resultType: Followed }>;

/** A continuation as the runtime holds it: of any result and context. */
type AnyContinuation = (result: never, context: never) => Promise<object>;

/** Continuations by the resultType they follow. */
type ContinuationTable = Readonly<Record<string, AnyContinuation | undefined>>;

/** How `bindMethods` and `bindTools` follow extension results. */
export interface FollowOptions {
  /** Follow tasks of the Tasks extension (McpClient.awaitTask). */
  readonly followTasks?: boolean;
  /** A continuation per extension resultType (a project's own, typed by client.gen.ts). */
  readonly continuations?: ContinuationTable;
  /** The typed requests a continuation is given (bindMethods gives its own methods when absent). */
  readonly rpc?: unknown;
  /** Checks a final result against the complete result definition of its method (see completeResultCheck). */
  readonly checkFinal?: (method: string, result: unknown) => ValidationOutcome;
}

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
 * Follows the first result of `method` to its final one: the checked final
 * result, or undefined when no continuation follows its resultType (the
 * caller then gets the first result as it is).
 */
export type Follow = (
  method: string,
  first: Record<string, unknown>,
  options: RequestOptions,
) => Promise<Record<string, unknown> | undefined>;

/**
 * The Follow of a typed client: the project's continuations, and with
 * `followTasks` the runtime's own for "task" (a project's continuation of
 * the same resultType wins).
 */
export function follower(
  client: Pick<McpClient, "awaitTask">,
  { followTasks = false, continuations = {}, rpc, checkFinal }: FollowOptions,
): Follow {
  // Tasks is followed like any extension: the runtime brings its continuation, a project brings its own.
  const followers: ContinuationTable = {
    ...(followTasks ? { task: followTask(client) } : {}),
    ...continuations,
  };
  return async (method, first, options) => {
    const follow = continuationOf(followers, first.resultType);
    if (!follow) return undefined;
    const context: ContinuationContext<unknown> = {
      method,
      rpc,
      options,
      ...(options.signal ? { signal: options.signal } : {}),
    };
    return finalResult(method, await follow(first as never, context as never), checkFinal);
  };
}

/**
 * The continuation of a resultType, if there is one. A complete result is
 * final whatever the continuations say, and the MRTR result never gets
 * here (McpClient.request answers its input requests itself).
 */
function continuationOf(
  followers: ContinuationTable,
  resultType: unknown,
): AnyContinuation | undefined {
  if (typeof resultType !== "string" || resultType === "complete") return undefined;
  return Object.hasOwn(followers, resultType) ? followers[resultType] : undefined;
}

/**
 * A FollowOptions.checkFinal for a generated module: a method's final
 * result is checked against its complete result definition
 * (`METHODS[method].results.complete`).
 */
export function completeResultCheck(
  protocol: ProtocolModule,
): (method: string, result: unknown) => ValidationOutcome {
  return (method, result) => {
    const definition = Object.hasOwn(protocol.METHODS, method)
      ? protocol.METHODS[method]!.results.complete
      : undefined;
    if (definition === undefined)
      return {
        ok: false,
        errors: [{ path: "", message: `${method} has no complete result in this revision` }],
      };
    return validateDefinition(protocol, definition, result);
  };
}

/**
 * What a continuation resolved with, as the caller gets it: an object,
 * resultType "complete" when it left it out, and valid as the method's
 * complete result (an InvalidResponseError naming the method otherwise, as
 * for a response).
 */
function finalResult(
  method: string,
  value: object,
  check: FollowOptions["checkFinal"],
): Record<string, unknown> {
  const result: Record<string, unknown> = isJsonObject(value)
    ? { resultType: "complete", ...value }
    : { resultType: "complete" };
  const verdict = check?.(method, result);
  if (verdict && !verdict.ok)
    throw new InvalidResponseError(method, {
      code: -32603,
      message: `a continuation's result is not a valid ${method} result: ${verdict.errors.map((e) => `${e.path || "/"} ${e.message}`).join("; ")}`,
      data: { errors: verdict.errors },
    });
  return result;
}

/**
 * The Tasks extension's continuation: a task handle is followed to its end
 * with McpClient.awaitTask (polled, its input requests answered, cancelled
 * when the signal fires). A tool wrapper's TaskCallOptions tune it (onTask,
 * onStatus, pollIntervalMs); a `client.rpc` method's RequestOptions have
 * none of them, so its task is followed with the request's signal at the
 * poll interval the server suggests, which is all a caller of a plain
 * request can say (code that wants more calls awaitTask itself).
 */
function followTask(
  client: Pick<McpClient, "awaitTask">,
): (
  handle: Readonly<Record<string, unknown>>,
  context: ContinuationContext<unknown>,
) => Promise<object> {
  return (handle, { options, signal }) => {
    const { onStatus, pollIntervalMs, onTask } = options as TaskCallOptions;
    if (isTaskHandle(handle)) onTask?.(handle);
    return client.awaitTask(handle, {
      ...(signal ? { signal } : {}),
      ...(onStatus ? { onStatus } : {}),
      ...(pollIntervalMs !== undefined ? { pollIntervalMs } : {}),
    });
  };
}
