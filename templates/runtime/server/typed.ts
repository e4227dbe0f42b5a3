/**
 * A server typed by a revision's generated maps. `McpServer<Types>` (a
 * scaffolded project's `Types` names ParamsByMethod, ResultByMethod and
 * NotificationParamsByMethod of its revision, extensions merged) gives
 * `server.method("jobs/get", (params, ctx) => ...)` typed params and
 * result, and `ctx.notify` typed params per notification. Nothing here is
 * written per method: an extension's methods are typed as soon as they are
 * merged. Without type maps (`McpServer`), everything stays as loose as
 * the wire.
 */

/** The generated maps a server is typed by. */
export interface ServerTypes {
  /** Request params by method (ParamsByMethod). */
  readonly params: object;
  /** Request results by method, discriminated on resultType (ResultByMethod). */
  readonly results: object;
  /** Notification params by method (NotificationParamsByMethod). */
  readonly notifications: object;
}

/**
 * No maps (`McpServer` without a type argument): params are records,
 * results any object, notifications any method. It is `any` so that every
 * typed server is also an `McpServer`, for the runtime's own code and for
 * functions that take any server; the types below read it as "untyped".
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above: each type below turns it into loose types, never into `any`
export type UntypedServer = any;

/** Whether `T` is the untyped server's `any`. */
type IsUntyped<T> = 0 extends 1 & T ? true : false;

/** What a handler of `method` is given as params. */
export type ParamsFor<T extends ServerTypes, M extends string> =
  IsUntyped<T> extends true
    ? Readonly<Record<string, unknown>>
    : M extends keyof T["params"]
      ? Readonly<NonNullable<T["params"][M]>>
      : Readonly<Record<string, unknown>>;

/**
 * A result as a handler returns it: `resultType` may be left out (the
 * runtime adds "complete"). Each branch of a result union keeps its own
 * members (they are mapped one by one: `Omit` would keep only the index
 * signature of a result type that has one).
 */
export type HandlerResult<R> = R extends { readonly resultType: infer RT }
  ? { readonly [K in keyof R as K extends "resultType" ? never : K]: R[K] } & {
      readonly resultType?: RT;
    }
  : R;

/** What a handler of `method` returns. */
export type ResultFor<T extends ServerTypes, M extends string> =
  IsUntyped<T> extends true
    ? object
    : M extends keyof T["results"]
      ? HandlerResult<T["results"][M]>
      : object;

/** A notification method a handler may send: any of the map's, or any string without a map. */
export type NotificationName<T extends ServerTypes> =
  IsUntyped<T> extends true ? string : keyof T["notifications"] & string;

/** The params of notification `method`. */
export type NotificationParamsFor<T extends ServerTypes, M extends string> =
  IsUntyped<T> extends true
    ? Readonly<Record<string, unknown>>
    : M extends keyof T["notifications"]
      ? NonNullable<T["notifications"][M]>
      : Readonly<Record<string, unknown>>;

/**
 * A result of an extension, as a tool handler may return it: any result
 * whose resultType one of the merged extensions adds to tools/call. The
 * runtime checks it against the definition its resultType selects, and
 * sends it only to a client that declared the extension.
 */
export interface ExtensionResult {
  readonly resultType: string;
}

/**
 * What a handler of `method` may return that an extension adds: with type
 * maps, the definitions of the method's results whose resultType the
 * core ("complete", "input_required") or Tasks ("task", made by
 * `ctx.runAsTask`) does not own, so `never` for a method no merged
 * extension returns for; without maps, any {@link ExtensionResult}. It is
 * always an ExtensionResult too, so a typed server's handlers are still
 * handlers of the untyped server the runtime's own code takes.
 */
export type ExtensionResultFor<T extends ServerTypes, M extends string> = ExtensionResult &
  (IsUntyped<T> extends true
    ? ExtensionResult
    : M extends keyof T["results"]
      ? Exclude<T["results"][M], { readonly resultType: "complete" | "input_required" | "task" }>
      : never);
