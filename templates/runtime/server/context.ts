/**
 * What a handler gets besides its arguments: who is asking (capabilities,
 * client info), progress and log notifications for this request, and input
 * from the client (elicitation, sampling, roots).
 *
 * The same handler code serves both eras. On 2026-07-28, asking for input
 * is a Multi Round-Trip Request: an answer the client already sent (in
 * `inputResponses`, or carried in the sealed `requestState` from an
 * earlier round) is returned at once; a missing one makes the request
 * answer with an InputRequiredResult, and the handler runs again on the
 * retry. On 2025-11-25 (legacy sessions) it is a real server-to-client
 * request, answered by the client on the same connection.
 */
import { missingCapability, McpError, Codes } from "../core/errors.js";
import { META } from "../core/era.js";
import type { Authorization, NotificationSink } from "../core/exchange.js";
import { declaresExtension, notificationAllowed, TASKS_EXTENSION } from "../core/extensions.js";
import { checkOutgoingMeta } from "../core/meta-keys.js";
import { validateDefinition, type ProtocolModule } from "../core/protocol.js";
import { traceContextOf, withTraceContext, type TraceContext } from "../core/trace-context.js";
import type { Change } from "./subscriptions.js";
import type {
  NotificationName,
  NotificationParamsFor,
  ServerTypes,
  UntypedServer,
} from "./typed.js";

/** Log levels, least severe first (RFC 5424 order). */
export const LOG_LEVELS = [
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency",
] as const;
/** A log level. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Params of an `elicitation/create` input request (form or URL mode). */
export type ElicitParams = Record<string, unknown> & { readonly message: string };
/** Params of a `sampling/createMessage` input request. */
export type SamplingParams = Record<string, unknown> & {
  readonly messages: readonly unknown[];
  readonly maxTokens: number;
};

/** The client's answer to an elicitation. */
export interface ElicitAnswer {
  readonly action: "accept" | "decline" | "cancel";
  readonly content?: Record<string, unknown>;
}

/** A handler's view of its request; with a server's type maps (`T`), `notify` is typed per method. */
export interface RequestContext<T extends ServerTypes = UntypedServer> {
  /** `modern` (2026-07-28 on, stateless) or `legacy` (2025-11-25 session). */
  readonly era: "modern" | "legacy";
  readonly method: string;
  readonly protocolVersion: string;
  /** The capabilities the client declared (for this request in the modern era, for the session in the legacy one). */
  readonly clientCapabilities: Readonly<Record<string, unknown>>;
  readonly clientInfo?: { readonly name: string; readonly version: string };
  /** The request's `_meta`. */
  readonly meta: Readonly<Record<string, unknown>>;
  /**
   * The trace context the handler works in: the request's `traceparent`
   * and `tracestate` (W3C Trace Context), or, with @opentelemetry/api
   * installed, the span of this request or tool call. The runtime adds it
   * to the `_meta` of the input requests the handler makes, and a task
   * keeps the one of the request that created it.
   */
  readonly trace?: TraceContext;
  /** Aborted when the client goes away (its stream closed) or cancels. */
  readonly signal: AbortSignal;
  /** State kept across the rounds of a Multi Round-Trip Request (sealed into requestState). */
  readonly state: Record<string, unknown>;
  /** Sends `notifications/progress`, if the request asked for progress (a progressToken in `_meta`). */
  progress(progress: number, total?: number, message?: string): void;
  /** Sends `notifications/message`, if the client asked for logs at this level or a more verbose one. */
  log(level: LogLevel, data: unknown, logger?: string): void;
  /** Asks the user for input (`elicitation/create`); `key` names the request across rounds. */
  elicit(key: string, params: ElicitParams): Promise<ElicitAnswer>;
  /** Asks the client's LLM for a completion (`sampling/createMessage`). */
  sample(key: string, params: SamplingParams): Promise<Record<string, unknown>>;
  /** Asks for the client's roots (`roots/list`). */
  listRoots(key: string): Promise<{ readonly roots: ReadonlyArray<Record<string, unknown>> }>;
  /** Tells the server's listeners about a change (`{ kind: "tools" }`, `{ kind: "resource", uri }`). */
  changed(change: Change): void;
  /**
   * Whether the request's client capabilities declare the extension `id`
   * under `capabilities.extensions`. A handler that can serve both asks
   * this to fall back to core behaviour for a client without it (spec:
   * extension negotiation); an extension result returned anyway is
   * answered -32021 naming the extension.
   */
  declares(id: string): boolean;
  /**
   * Sends a notification on this request's stream, checked against its
   * definition first (an invalid one throws: a handler's bug, never a
   * malformed message). A notification of an extension the client did not
   * declare is not sent; the return value says whether it was.
   */
  notify<M extends NotificationName<T>>(method: M, params: NotificationParamsFor<T, M>): boolean;
  /**
   * Runs `work` as a task of the Tasks extension when this call may become
   * one: a tools/call of a tool whose task support is optional or required,
   * from a client that declared the extension. The call is then answered
   * at once with a CreateTaskResult and `work` runs in the background with
   * a task's context (its signal fires on tasks/cancel; input requests
   * wait for tasks/update). Otherwise `work` runs now, with this context,
   * and its result is the answer: a handler written this way serves both.
   */
  runAsTask<R>(work: (ctx: RequestContext) => R | Promise<R>): Promise<R | TaskStarted>;
  /**
   * Hands `work` to the extension `id` when it offered to take this call
   * (ServerExtension.offerToolCall): the call is then answered with what
   * the extension started (a handle the client follows). Otherwise `work`
   * runs now, with this context. `runAsTask` is this for the Tasks extension.
   */
  runAs<R>(id: string, work: (ctx: RequestContext) => R | Promise<R>): Promise<R | Started>;
  /**
   * Who the request acts for, when the HTTP transport checks authorization
   * (the verified claims of its access token); absent otherwise, and on
   * stdio. The token itself never reaches a handler, so it cannot be
   * passed on to another service.
   */
  readonly authorization?: Authorization;
}

/**
 * What `ctx.runAs` returns when an extension took the call's work: the
 * result the call is answered with at once (a handle the client follows).
 * A tool handler returns it as is.
 */
export class Started {
  constructor(
    /** The extension's result, its resultType included. */
    readonly result: Readonly<Record<string, unknown>> & { readonly resultType: string },
  ) {}
}

/**
 * What `ctx.runAsTask` returns when the call became a task: the task as
 * its CreateTaskResult shows it.
 */
export class TaskStarted extends Started {
  constructor(
    /** The CreateTaskResult fields (Task, without resultType). */
    readonly task: Readonly<Record<string, unknown>>,
  ) {
    super({ ...task, resultType: "task" });
  }
}

/** Takes `work` elsewhere (an extension's) and resolves with what the call answers at once. */
export type Starter = <R>(work: (ctx: RequestContext) => R | Promise<R>) => Promise<Started>;

/** Starts `work` as a task and resolves once the task can be read from every instance. */
export type TaskStarter = <R>(
  work: (ctx: RequestContext) => R | Promise<R>,
) => Promise<TaskStarted>;

/** What a context needs from its server. */
export interface ServerSide {
  /** Publishes a change to listeners (subscriptions, legacy sessions). */
  publish(change: Change): void;
  /** The revision served, whose definitions check the notifications a handler sends. */
  readonly protocol: ProtocolModule;
  /** What the server declares (server/discover), which an extension's rule may ask of it. */
  capabilities(): Readonly<Record<string, unknown>>;
}

/** The input kinds, with the capability each needs and the definition its answer must match. */
export const INPUT_KINDS = {
  "elicitation/create": { capability: "elicitation", answer: "ElicitResult" },
  "sampling/createMessage": { capability: "sampling", answer: "CreateMessageResult" },
  "roots/list": { capability: "roots", answer: "ListRootsResult" },
} as const;
/** An input request method. */
export type InputMethod = keyof typeof INPUT_KINDS;

/** What every context is made of: the request, where its notifications go, and the server it runs in. */
export interface ContextInit {
  readonly method: string;
  readonly protocolVersion: string;
  readonly clientCapabilities: Readonly<Record<string, unknown>>;
  readonly meta: Readonly<Record<string, unknown>>;
  readonly signal: AbortSignal;
  readonly sink: NotificationSink;
  /** The trace context to carry on; by default the one in `meta`. */
  readonly trace?: TraceContext | undefined;
  readonly serverSide: ServerSide;
  readonly clientInfo?: { readonly name: string; readonly version: string } | undefined;
  readonly authorization?: Authorization | undefined;
}

/**
 * A notification a server sends, as it leaves: its `_meta` keys follow the
 * rules, and it is valid as its definition in `protocol` (anything else
 * throws: a handler's bug, never a malformed message).
 */
export function checkedNotification(
  protocol: ProtocolModule,
  method: string,
  params: object,
): { readonly jsonrpc: "2.0"; readonly method: string; readonly params: Record<string, unknown> } {
  checkOutgoingMeta((params as { _meta?: unknown })._meta, `${method} notification`);
  const message = { jsonrpc: "2.0" as const, method, params: { ...params } };
  const entry = Object.hasOwn(protocol.NOTIFICATIONS, method)
    ? protocol.NOTIFICATIONS[method]
    : undefined;
  if (!entry?.notification || entry.direction === "client-to-server")
    throw new Error(
      `${method} is not a notification a server sends in ${protocol.PROTOCOL_VERSION} (fix: send one of its NOTIFICATIONS whose direction is server-to-client or both)`,
    );
  const verdict = validateDefinition(protocol, entry.notification, message);
  if (!verdict.ok)
    throw new Error(
      `invalid ${method} notification: ${verdict.errors.map((e) => `${e.path || "/"} ${e.message}`).join("; ")}`,
    );
  return message;
}

/** Common parts of both eras' contexts: progress, logging, capability checks. */
export abstract class BaseContext implements RequestContext {
  abstract readonly era: "modern" | "legacy";
  readonly method: string;
  readonly protocolVersion: string;
  readonly clientCapabilities: Readonly<Record<string, unknown>>;
  readonly meta: Readonly<Record<string, unknown>>;
  readonly signal: AbortSignal;
  protected readonly sink: NotificationSink;
  private readonly serverSide: ServerSide;
  readonly clientInfo?: { readonly name: string; readonly version: string };
  readonly authorization?: Authorization;
  readonly state: Record<string, unknown> = {};
  private traceContext: TraceContext | undefined;

  constructor(init: ContextInit) {
    this.method = init.method;
    this.protocolVersion = init.protocolVersion;
    this.clientCapabilities = init.clientCapabilities;
    this.meta = init.meta;
    this.signal = init.signal;
    this.sink = init.sink;
    this.serverSide = init.serverSide;
    this.clientInfo = init.clientInfo;
    this.authorization = init.authorization;
    this.traceContext = "trace" in init ? init.trace : traceContextOf(init.meta);
  }

  get trace(): TraceContext | undefined {
    return this.traceContext;
  }

  /** Runs `work` in another trace context (a tool call's span), restoring this one after. */
  async inTrace<R>(trace: TraceContext | undefined, work: () => Promise<R>): Promise<R> {
    const outer = this.traceContext;
    this.traceContext = trace;
    try {
      return await work();
    } finally {
      this.traceContext = outer;
    }
  }

  changed(change: Change): void {
    this.serverSide.publish(change);
  }

  declares(id: string): boolean {
    return declaresExtension(this.clientCapabilities, id);
  }

  notify(method: string, params: object): boolean {
    const protocol = this.serverSide.protocol;
    const declared = { client: this.clientCapabilities, server: this.serverSide.capabilities() };
    if (!notificationAllowed(protocol, method, declared) || this.signal.aborted) return false;
    this.sink.notify(checkedNotification(protocol, method, params));
    return true;
  }

  private readonly starters = new Map<string, Starter>();

  /** Lets the extension `id` take this call's work (the runtime asks each extension, ServerExtension.offerToolCall). */
  offer(id: string, starter: Starter): void {
    this.starters.set(id, starter);
  }

  async runAs<R>(id: string, work: (ctx: RequestContext) => R | Promise<R>): Promise<R | Started> {
    const starter = this.starters.get(id);
    // One hand-over per call: a second runAs in the same handler runs inline, whichever extension it names.
    this.starters.clear();
    return starter ? starter(work) : work(this);
  }

  runAsTask<R>(work: (ctx: RequestContext) => R | Promise<R>): Promise<R | TaskStarted> {
    return this.runAs(TASKS_EXTENSION, work) as Promise<R | TaskStarted>;
  }

  /** The minimum level the client wants logs at, or undefined for none. */
  protected abstract logThreshold(): LogLevel | undefined;
  /** Asks the client for one input. */
  protected abstract input(
    key: string,
    method: InputMethod,
    params: Record<string, unknown> | undefined,
  ): Promise<unknown>;

  progress(progress: number, total?: number, message?: string): void {
    const token = this.meta.progressToken;
    if ((typeof token !== "string" && typeof token !== "number") || this.signal.aborted) return;
    const params: Record<string, unknown> = { progressToken: token, progress };
    if (total !== undefined) params.total = total;
    if (message !== undefined) params.message = message;
    this.sink.notify({ jsonrpc: "2.0", method: "notifications/progress", params });
  }

  log(level: LogLevel, data: unknown, logger?: string): void {
    const threshold = this.logThreshold();
    if (
      threshold === undefined ||
      this.signal.aborted ||
      LOG_LEVELS.indexOf(level) < LOG_LEVELS.indexOf(threshold)
    )
      return;
    this.sink.notify({
      jsonrpc: "2.0",
      method: "notifications/message",
      params: logger === undefined ? { level, data } : { level, logger, data },
    });
  }

  elicit(key: string, params: ElicitParams): Promise<ElicitAnswer> {
    return this.outgoing(key, "elicitation/create", params) as Promise<ElicitAnswer>;
  }

  sample(key: string, params: SamplingParams): Promise<Record<string, unknown>> {
    return this.outgoing(key, "sampling/createMessage", params) as Promise<Record<string, unknown>>;
  }

  listRoots(key: string): Promise<{ readonly roots: ReadonlyArray<Record<string, unknown>> }> {
    return this.outgoing(key, "roots/list", undefined) as Promise<{
      roots: Array<Record<string, unknown>>;
    }>;
  }

  /**
   * An input request as it leaves: the handler's `_meta` keys checked
   * (a malformed or reserved one rejects, a bug reported and answered
   * -32603), then the trace context added.
   */
  private outgoing(
    key: string,
    method: InputMethod,
    params: Record<string, unknown> | undefined,
  ): Promise<unknown> {
    try {
      checkOutgoingMeta(params?._meta, `input request '${key}' (${method})`);
    } catch (error) {
      // checkOutgoingMeta throws only MetaKeyError, passed on as this call's rejection.
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
      return Promise.reject(error);
    }
    return this.input(key, method, withTraceContext(params, this.traceContext));
  }

  /** Throws -32021 unless the client declared the capability `method` needs. */
  protected requireCapability(method: InputMethod, key: string): void {
    const capability = INPUT_KINDS[method].capability;
    if (this.clientCapabilities[capability] === undefined) {
      throw missingCapability(
        { [capability]: {} },
        `Cannot request input '${key}' (${method}): the request's client capabilities do not declare ${capability}`,
      );
    }
  }
}

/** Raised inside a modern handler when it needs input the client has not sent yet; the dispatcher turns it into an InputRequiredResult. */
export class InputRequired extends Error {
  constructor() {
    super("input required");
    this.name = "InputRequired";
  }
}

/** Whether an input answer matches the definition of its kind (a mismatch is asked for again). */
export type AnswerCheck = (method: InputMethod, answer: unknown) => boolean;

/** A modern context: the request, and what its round carries (answers, state) and may do. */
export interface ModernContextInit extends ContextInit {
  /** Answers this round may use, by key: its inputResponses over those sealed in earlier rounds. */
  readonly answers: Record<string, unknown>;
  /** The state sealed in earlier rounds. */
  readonly state: Record<string, unknown>;
  /** Whether the method may ask for input (tools/call, prompts/get, resources/read). */
  readonly mrtr: boolean;
  readonly check: AnswerCheck;
}

/**
 * The modern (MRTR) context: answers come from `inputResponses` and from
 * the sealed state of earlier rounds; a missing or invalid one is asked for.
 */
export class ModernContext extends BaseContext {
  readonly era = "modern";
  /** Input requests made during this round, by key. */
  readonly inputRequests: Record<
    string,
    { method: InputMethod; params?: Record<string, unknown> }
  > = {};
  /** Answers this round may use, by key. */
  readonly answers: Record<string, unknown>;
  /** Keys whose answers the handler used: what the next round's state keeps. */
  readonly used = new Set<string>();

  private readonly mrtr: boolean;
  private readonly check: AnswerCheck;

  constructor(init: ModernContextInit) {
    super(init);
    this.answers = init.answers;
    Object.assign(this.state, init.state);
    this.mrtr = init.mrtr;
    this.check = init.check;
  }

  protected logThreshold(): LogLevel | undefined {
    const level = this.meta[META.logLevel];
    return typeof level === "string" && (LOG_LEVELS as readonly string[]).includes(level)
      ? (level as LogLevel)
      : undefined;
  }

  protected input(
    key: string,
    method: InputMethod,
    params: Record<string, unknown> | undefined,
  ): Promise<unknown> {
    if (!this.mrtr) {
      return Promise.reject(
        new McpError(
          Codes.InternalError,
          `${this.method} cannot ask the client for input: only tools/call, prompts/get and resources/read may`,
        ),
      );
    }
    try {
      this.requireCapability(method, key);
    } catch (error) {
      // Passes on requireCapability's McpError as this method's rejection, unchanged.
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
      return Promise.reject(error);
    }
    const answer = this.answers[key];
    if (answer !== undefined && this.check(method, answer)) {
      this.used.add(key);
      return Promise.resolve(answer);
    }
    // Missing or malformed: drop it, ask (again).
    delete this.answers[key];
    this.inputRequests[key] = params === undefined ? { method } : { method, params };
    return Promise.reject(new InputRequired());
  }
}

/** Sends a server-to-client request on a legacy session and resolves with the client's result. */
export type PeerRequest = (
  method: InputMethod,
  params: Record<string, unknown> | undefined,
  signal: AbortSignal,
) => Promise<unknown>;

/** A legacy context: the request, and how it reaches the client of its session. */
export interface LegacyContextInit extends ContextInit {
  readonly peer: PeerRequest;
  /** The session's log level, as it is when a message is logged. */
  readonly threshold: () => LogLevel | undefined;
  readonly check: AnswerCheck;
}

/** The legacy (2025-11-25 session) context: input is a real request to the client. */
export class LegacyContext extends BaseContext {
  readonly era = "legacy";

  private readonly peer: PeerRequest;
  private readonly threshold: () => LogLevel | undefined;
  private readonly check: AnswerCheck;

  constructor(init: LegacyContextInit) {
    super(init);
    this.peer = init.peer;
    this.threshold = init.threshold;
    this.check = init.check;
  }

  protected logThreshold(): LogLevel | undefined {
    return this.threshold();
  }

  protected async input(
    key: string,
    method: InputMethod,
    params: Record<string, unknown> | undefined,
  ): Promise<unknown> {
    if (this.clientCapabilities[INPUT_KINDS[method].capability] === undefined) {
      throw new McpError(
        Codes.InvalidRequest,
        `Cannot request input '${key}' (${method}): the client did not declare ${INPUT_KINDS[method].capability} when it initialized`,
      );
    }
    const answer = await this.peer(method, params, this.signal);
    if (!this.check(method, answer))
      throw new McpError(
        Codes.InternalError,
        `The client's answer to ${method} does not match ${INPUT_KINDS[method].answer}`,
      );
    return answer;
  }
}
