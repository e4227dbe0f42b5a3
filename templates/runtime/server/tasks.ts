/**
 * The Tasks extension (io.modelcontextprotocol/tasks) at run time: a
 * tools/call that may become a task is answered with a CreateTaskResult
 * at once while its work runs in the background; the client follows it
 * with `tasks/get`, answers its input requests with `tasks/update` and
 * stops it with `tasks/cancel`. Tasks live in a TaskStore (task-store.ts)
 * that every instance of the server may share: any instance serves any
 * task, and the instance running the work hears of answers and
 * cancellations through the store's watch.
 *
 * The rules come from the extension's tasks.md. Where the official
 * conformance suite asks for more than tasks.md, docs/server.md says what
 * this runtime does and why.
 */
import { randomUUID } from "node:crypto";
import { Codes, invalidParams, McpError } from "../core/errors.js";
import { principalKey, type NotificationSink } from "../core/exchange.js";
import { checkOutgoingMeta } from "../core/meta-keys.js";
import { declaresExtension, extensionRequired, TASKS_EXTENSION } from "../core/extensions.js";
import {
  isJsonObject,
  paramsOf,
  type JsonRpcErrorObject,
  type JsonRpcMessage,
} from "../core/jsonrpc.js";
import {
  BaseContext,
  TaskStarted,
  type InputMethod,
  type LogLevel,
  type RequestContext,
  type ServerSide,
} from "./context.js";
import { errorToSend } from "./error-policy.js";
import { NotImplemented } from "./errors.js";
import { answered, asking, detailedTask, ended, taskFields, type Outcome } from "./task-records.js";
import {
  TERMINAL_STATUSES,
  type TaskInputRequest,
  type TaskRecord,
  type TaskStore,
} from "./task-store.js";

export { detailedTask, isTerminal } from "./task-records.js";

/** The extension's identifier, under `capabilities.extensions`. */
export { TASKS_EXTENSION };

/**
 * Whether a tool may run as a task: never (`forbidden`, the default), when
 * the client declared the extension (`optional`), or only as a task
 * (`required`: a client without the extension gets -32021). Written in
 * tools.json as `"execution": { "taskSupport": "optional" }`, the field
 * 2025-11-25 defined for tools.
 */
export type TaskSupport = "forbidden" | "optional" | "required";

const SUPPORT_VALUES: readonly TaskSupport[] = ["forbidden", "optional", "required"];

/** A tool's task support, from its definition's `execution.taskSupport` (forbidden when absent). */
export function taskSupportOf(definition: Readonly<Record<string, unknown>>): TaskSupport {
  const execution = definition.execution;
  const support = isJsonObject(execution) ? execution.taskSupport : undefined;
  if (support === undefined) return "forbidden";
  if (!SUPPORT_VALUES.includes(support as TaskSupport))
    throw new Error(
      `tool "${String(definition.name)}": execution.taskSupport must be one of ${SUPPORT_VALUES.join(", ")}, not ${JSON.stringify(support)}`,
    );
  return support as TaskSupport;
}

/** Whether client capabilities declare the Tasks extension (the rule every extension follows, core/extensions.ts). */
export function declaresTasks(capabilities: Readonly<Record<string, unknown>>): boolean {
  return declaresExtension(capabilities, TASKS_EXTENSION);
}

/** -32021 naming the extension, for a request that needs it. */
export function tasksRequired(message: string): McpError {
  return extensionRequired(TASKS_EXTENSION, message);
}

/** How tasks are kept and paced. */
export interface TaskSettings {
  /** Where tasks live (default: this process's memory). */
  readonly store: TaskStore;
  /** How long a task is kept after it was created (default one hour). */
  readonly ttlMs: number;
  /** How often clients should poll tasks/get (default one second). */
  readonly pollIntervalMs: number;
  /**
   * How long the lease of a running task lasts (default ten seconds): the
   * instance running the work renews it every third of that, and once it
   * lapses (the instance stopped) the next tasks/get, on any instance,
   * fails the task.
   */
  readonly leaseMs: number;
}

/** Defaults of {@link TaskSettings}. */
export const DEFAULT_TASK_TTL_MS = 3_600_000;
/** Default poll interval suggested to clients. */
export const DEFAULT_POLL_INTERVAL_MS = 1_000;
/** Default lease of a running task. */
export const DEFAULT_TASK_LEASE_MS = 10_000;

/** The error a task ends with when the instance running its work stopped. */
export const INSTANCE_STOPPED: JsonRpcErrorObject = {
  code: Codes.InternalError,
  message: "the instance running this task stopped",
};

/** How a task ends when its instance stops before its work does. */
const STOPPED: Outcome = {
  status: "failed",
  error: INSTANCE_STOPPED,
  message: INSTANCE_STOPPED.message,
};

/** How long the runner waits before it tries again to store how a task ended. */
const RESULT_RETRY_MS = 250;

/** What the task runner needs of its server. */
export interface TaskHost extends ServerSide {
  /** Whether an input answer matches its kind's definition. */
  checkAnswer(method: InputMethod, answer: unknown): boolean;
  /** Whether anything (a listen stream, a legacy session) listens to changes on this instance. */
  listening(): boolean;
  onError(error: unknown, where: string): void;
}

/** An input request of a running task that waits for its answer. */
interface Waiter {
  readonly resolve: (answer: unknown) => void;
  readonly reject: (error: unknown) => void;
}

/** A task whose work runs on this instance. */
interface Running {
  readonly controller: AbortController;
  /** Input requests not yet written to the store, by key. */
  readonly asked: Map<string, TaskInputRequest>;
  readonly waiters: Map<string, Waiter>;
  flushing: boolean;
  /** Until when (ms since the epoch) the store holds the task's lease for this instance, as last renewed. */
  leaseUntil: number;
  /** How the work ended, once it has; kept here until the store has it. */
  outcome?: Outcome;
}

/**
 * Creates tasks, runs their work, and serves the extension's requests. One
 * per server; every instance sharing a store has its own runner.
 */
export class TaskRunner {
  private readonly running = new Map<string, Running>();
  private readonly unwatch: () => void;
  /** Renews the leases of the tasks running here, while there are any. */
  private renewer?: NodeJS.Timeout;
  /** Set once the instance stops: work that ends now ends as INSTANCE_STOPPED. */
  private stopping = false;

  constructor(
    readonly settings: TaskSettings,
    private readonly host: TaskHost,
  ) {
    this.unwatch = settings.store.watch(
      (record) => this.changed(record),
      // A change matters here to work running here, or to a listen stream (which may filter by task).
      (taskId) => this.running.has(taskId) || host.listening(),
    );
  }

  /**
   * Starts `work` as a new task of a request made with `origin`'s
   * capabilities. `finish` turns the work's value into the tool result
   * the task completes with (it may throw an McpError: the task fails).
   * Resolves once the task is in the store.
   */
  async start<R>(
    work: (ctx: RequestContext) => R | Promise<R>,
    origin: RequestContext,
    finish: (value: R) => Promise<Record<string, unknown>>,
  ): Promise<TaskStarted> {
    const now = new Date().toISOString();
    const owner = principalKey(origin.authorization);
    const record: TaskRecord = {
      taskId: randomUUID(),
      status: "working",
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs: this.settings.ttlMs,
      pollIntervalMs: this.settings.pollIntervalMs,
      ...(owner === undefined ? {} : { owner }),
    };
    const leaseFrom = Date.now();
    await this.settings.store.create(record, this.settings.leaseMs);
    const running: Running = {
      controller: new AbortController(),
      asked: new Map(),
      waiters: new Map(),
      flushing: false,
      leaseUntil: leaseFrom + this.settings.leaseMs,
    };
    this.running.set(record.taskId, running);
    this.renewer ??= setInterval(
      () => void this.renewLeases(),
      Math.max(1, Math.floor(this.settings.leaseMs / 3)),
    ).unref();
    const ctx = new TaskContext(record.taskId, origin, running.controller.signal, this.host, this);
    // Started after the reply is built, so the CreateTaskResult never waits for the work.
    setImmediate(() => void this.run(record, running, () => work(ctx), finish));
    return new TaskStarted(taskFields(record));
  }

  /**
   * `tasks/get` for `asker` (principalKey of the request's authorization):
   * the task with what its status inlines; -32602 for an unknown task, and
   * for another principal's task alike.
   */
  async get(taskId: string, asker?: string): Promise<Record<string, unknown>> {
    return detailedTask(await this.existing(taskId, asker));
  }

  /** `tasks/update` for `asker`: records the answers to outstanding input requests before acknowledging. */
  async update(
    taskId: string,
    responses: Readonly<Record<string, unknown>>,
    asker?: string,
  ): Promise<void> {
    const record = await this.existing(taskId, asker);
    if (TERMINAL_STATUSES.has(record.status)) return;
    await this.settings.store.update(taskId, (current) => answered(current, responses));
  }

  /**
   * `tasks/cancel`: a task under way becomes cancelled at once and its
   * work's signal fires (on whichever instance runs it); an ended task
   * stays as it is. Both are acknowledged.
   */
  async cancel(taskId: string, asker?: string): Promise<void> {
    await this.existing(taskId, asker);
    await this.settings.store.update(taskId, (current) =>
      ended(current, { status: "cancelled", message: "Cancelled by the client" }),
    );
    this.running.get(taskId)?.controller.abort();
  }

  /**
   * The keys of a task's outstanding input requests, so that a tasks/update
   * can drop the others before it is validated (an unknown key's value
   * need not be an input response: the server ignores it).
   */
  async outstandingKeys(taskId: string): Promise<ReadonlySet<string>> {
    const record = await this.settings.store.get(taskId);
    return new Set(Object.keys(record?.inputRequests ?? {}));
  }

  /** Asks for one input on behalf of a running task, and waits for the answer. */
  awaitInput(
    taskId: string,
    key: string,
    request: TaskInputRequest,
    signal: AbortSignal,
  ): Promise<unknown> {
    const running = this.running.get(taskId);
    if (!running) return Promise.reject(new McpError(Codes.InternalError, "the task has ended"));
    return new Promise((resolve, reject) => {
      running.waiters.set(key, { resolve, reject });
      running.asked.set(key, request);
      signal.addEventListener("abort", () => reject(new Error("task cancelled")), { once: true });
      if (!running.flushing) {
        running.flushing = true;
        // Several inputs asked at once (Promise.all) become one input_required status.
        queueMicrotask(() => void this.flush(taskId, running));
      }
    });
  }

  /** How many tasks run on this instance. */
  get runningCount(): number {
    return this.running.size;
  }

  /**
   * The instance stops: work running here gets `graceMs` to end, then the
   * tasks still under way are failed at once with INSTANCE_STOPPED (rather
   * than left "working" until their lease lapses), and a result still
   * waiting to be stored gets one last try. Then the runner closes.
   */
  async stop(graceMs: number): Promise<void> {
    const deadline = Date.now() + graceMs;
    while (this.hasWorkUnderWay() && Date.now() < deadline)
      await delay(Math.min(50, deadline - Date.now()));
    this.stopping = true;
    const left = [...this.running];
    for (const [, running] of left) running.controller.abort();
    const written = await Promise.allSettled(
      left.map(([taskId, running]) =>
        this.settings.store.update(taskId, (current) => ended(current, running.outcome ?? STOPPED)),
      ),
    );
    for (const [index, settled] of written.entries())
      if (settled.status === "rejected")
        this.host.onError(settled.reason, `task ${left[index]![0]} (stopping)`);
    this.close();
  }

  /** Whether some task's work still runs here (not just waiting for its result to be stored). */
  private hasWorkUnderWay(): boolean {
    for (const running of this.running.values()) if (!running.outcome) return true;
    return false;
  }

  /** Stops watching the store; running work is aborted. */
  close(): void {
    this.unwatch();
    clearInterval(this.renewer);
    this.renewer = undefined;
    for (const running of this.running.values()) running.controller.abort();
  }

  /** Extends the leases of the tasks running here; stops the timer when none is left. */
  private async renewLeases(): Promise<void> {
    if (this.running.size === 0) {
      clearInterval(this.renewer);
      this.renewer = undefined;
      return;
    }
    const from = Date.now();
    const renewed = [...this.running.values()];
    try {
      await this.settings.store.renewLeases([...this.running.keys()], this.settings.leaseMs);
      for (const running of renewed) running.leaseUntil = from + this.settings.leaseMs;
    } catch (error) {
      this.host.onError(error, "task leases");
    }
  }

  private async flush(taskId: string, running: Running): Promise<void> {
    running.flushing = false;
    const requests = Object.fromEntries(running.asked);
    running.asked.clear();
    const record = await this.settings.store.get(taskId);
    if (!record) return;
    // Answers already given (the same key asked again) are used at once.
    this.deliver(record, running);
    await this.settings.store.update(taskId, (current) => asking(current, requests));
  }

  /** A record changed somewhere: publish it to listen streams, and wake the work it concerns. */
  private changed(record: TaskRecord): void {
    this.host.publish({
      kind: "keyed",
      field: "taskIds",
      key: record.taskId,
      method: "notifications/tasks",
      params: detailedTask(record),
      // Every instance hears of a task's change from the shared task store.
      relay: false,
      // Only the streams of whom the task belongs to hear of it.
      ...(record.owner === undefined ? {} : { owner: record.owner }),
    });
    const running = this.running.get(record.taskId);
    if (!running) return;
    if (TERMINAL_STATUSES.has(record.status)) running.controller.abort();
    else this.deliver(record, running);
  }

  private deliver(record: TaskRecord, running: Running): void {
    const answers = record.answers ?? {};
    for (const [key, waiter] of running.waiters) {
      if (!Object.hasOwn(answers, key)) continue;
      running.waiters.delete(key);
      waiter.resolve(answers[key]);
    }
  }

  private async run<R>(
    record: TaskRecord,
    running: Running,
    work: () => R | Promise<R>,
    finish: (value: R) => Promise<Record<string, unknown>>,
  ): Promise<void> {
    const expiry = setTimeout(() => running.controller.abort(), record.ttlMs);
    expiry.unref();
    let outcome: Outcome;
    try {
      // Cancelled before it started (tasks/cancel right after the CreateTaskResult): never start it.
      if (running.controller.signal.aborted) throw running.controller.signal.reason;
      const value = await work();
      // Work that returns once the instance stopped it was cut short: its value is not the result.
      outcome = this.stopping
        ? STOPPED
        : { status: "completed", result: checkedResult(await finish(value)) };
    } catch (error) {
      outcome = this.failure(error, running.controller.signal);
    } finally {
      clearTimeout(expiry);
    }
    running.outcome = outcome;
    await this.settle(record.taskId, running, outcome);
    this.running.delete(record.taskId);
  }

  /**
   * Stores how a task ended. While the store fails (Redis unreachable or
   * stalled), the task stays on this instance, its lease renewed when the
   * store is back, and the write is tried again until the lease ends: past
   * that, another instance may rightly have failed the task.
   */
  private async settle(taskId: string, running: Running, outcome: Outcome): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.settings.store.update(taskId, (current) => ended(current, outcome));
        return;
      } catch (error) {
        if (attempt === 1)
          this.host.onError(error, `task ${taskId} (its outcome is kept and stored again)`);
        if (this.stopping) return; // stop() makes the last try.
        if (Date.now() + RESULT_RETRY_MS >= running.leaseUntil) {
          this.host.onError(
            new Error(`the outcome of task ${taskId} could not be stored before its lease ended`),
            `task ${taskId}`,
          );
          return;
        }
        await delay(RESULT_RETRY_MS);
      }
    }
  }

  /** How work that threw ends its task. */
  private failure(error: unknown, signal: AbortSignal): Outcome {
    if (this.stopping) return STOPPED;
    if (signal.aborted) return { status: "cancelled", message: "Cancelled" };
    if (error instanceof NotImplemented)
      return {
        status: "completed",
        result: { content: [{ type: "text", text: error.message }], isError: true },
      };
    // The same codes a request may answer with (error-policy.ts); anything else is reported, -32603.
    return {
      status: "failed",
      error: errorToSend(
        this.host.protocol,
        (e, where) => this.host.onError(e, where),
        "task",
        error,
      ),
    };
  }

  /**
   * The task, or -32602 for an unknown one and for a task of another
   * principal than `asker` (tasks.md: an authorization check on every
   * task request; the same answer, so that a stranger learns nothing of
   * it). A task under way whose lease
   * lapsed (the instance running its work stopped) is failed first, in
   * one compare-and-set that applies only while the lease is still lapsed,
   * so however many instances find it at once, one of them ends it.
   */
  private async existing(taskId: string, asker: string | undefined): Promise<TaskRecord> {
    const { store } = this.settings;
    // The lease is read with the record: one round trip, on every instance alike.
    const found = await store.getWithLease(taskId);
    if (!found || found.record.owner !== asker)
      throw invalidParams(`Unknown task: ${taskId}`, { taskId });
    const { record, leaseHeld } = found;
    if (TERMINAL_STATUSES.has(record.status) || this.running.has(taskId) || leaseHeld)
      return record;
    const failed = await store.update(
      taskId,
      (current) =>
        ended(current, {
          status: "failed",
          error: INSTANCE_STOPPED,
          message: INSTANCE_STOPPED.message,
        }),
      { unlessLeased: true },
    );
    return failed ?? (await store.get(taskId)) ?? record;
  }
}

/**
 * tasks/update before it is validated: answers to keys no outstanding
 * request of the task has are dropped (tasks.md), so that a client
 * answering a request the task no longer waits for is not refused. The
 * extension's negotiation is the general one (modern.ts). Returns the
 * message to validate and route.
 */
export async function keepOutstandingResponses(
  runner: TaskRunner,
  message: JsonRpcMessage,
): Promise<JsonRpcMessage> {
  const params = paramsOf(message);
  if (typeof params.taskId !== "string" || !isJsonObject(params.inputResponses)) return message;
  const outstanding = await runner.outstandingKeys(params.taskId);
  const kept = Object.fromEntries(
    Object.entries(params.inputResponses).filter(([key]) => outstanding.has(key)),
  );
  return { ...message, params: { ...params, inputResponses: kept } };
}

const SILENT: NotificationSink = { notify() {} };

/**
 * The context a task's work runs with: the capabilities of the request
 * that created it, a signal that fires on tasks/cancel (or when the task
 * outlives its ttlMs), and input requests that put the task in
 * input_required until tasks/update answers them. Progress and log
 * notifications are not sent (tasks.md: not supported on tasks).
 */
class TaskContext extends BaseContext {
  readonly era = "modern";

  constructor(
    readonly taskId: string,
    origin: RequestContext,
    signal: AbortSignal,
    private readonly host: TaskHost,
    private readonly runner: TaskRunner,
  ) {
    super({
      method: origin.method,
      protocolVersion: origin.protocolVersion,
      clientCapabilities: origin.clientCapabilities,
      meta: origin.meta,
      signal,
      sink: SILENT,
      serverSide: host,
      clientInfo: origin.clientInfo,
      // The work stays in the trace of the request (or tool call) that created the task.
      trace: origin.trace,
    });
  }

  protected logThreshold(): LogLevel | undefined {
    return undefined;
  }

  protected async input(
    key: string,
    method: InputMethod,
    params: Record<string, unknown> | undefined,
  ): Promise<unknown> {
    this.requireCapability(method, key);
    const answer = await this.runner.awaitInput(
      this.taskId,
      key,
      params === undefined ? { method } : { method, params },
      this.signal,
    );
    if (!this.host.checkAnswer(method, answer))
      throw new McpError(
        Codes.InvalidParams,
        `The answer to input request '${key}' is not a valid ${method} result`,
      );
    return answer;
  }
}

/** A task's result as its work wrote it: its `_meta` keys follow the spec's rules (core/meta-keys.ts). */
function checkedResult(result: Record<string, unknown>): Record<string, unknown> {
  checkOutgoingMeta(result._meta, "the task's result");
  return result;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
