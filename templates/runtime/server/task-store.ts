/**
 * Where the tasks of the Tasks extension live (tasks.ts runs them): a
 * store every instance of a server shares, so that a task created on one
 * instance can be read, answered and cancelled on any other. The store
 * knows nothing of the protocol: it keeps records, changes one atomically
 * and tells every watcher, on every instance, what changed.
 *
 * The in-memory store serves one process. For several instances use a
 * shared store (scale/redis-task-store.ts), chosen by `MCP_TASK_STORE`.
 */
import { isJsonObject, type JsonRpcErrorObject } from "../core/jsonrpc.js";

/** A task's status (tasks.md: task status). */
export type TaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

/** The statuses a task never leaves. */
export const TERMINAL_STATUSES: ReadonlySet<TaskStatus> = new Set([
  "completed",
  "failed",
  "cancelled",
]);

/** An input request a task waits for, as `inputRequests` shows it. */
export interface TaskInputRequest {
  readonly method: string;
  readonly params?: Readonly<Record<string, unknown>>;
}

/**
 * A task as the store keeps it: the wire fields of a Task, what its status
 * inlines (outstanding input requests, result, error), and the answers
 * received so far, which only the instance running the task reads.
 */
export interface TaskRecord {
  readonly taskId: string;
  readonly status: TaskStatus;
  readonly statusMessage?: string;
  /** ISO 8601. */
  readonly createdAt: string;
  /** ISO 8601. */
  readonly lastUpdatedAt: string;
  /** How long after `createdAt` the task may be deleted. */
  readonly ttlMs: number;
  readonly pollIntervalMs: number;
  /** Outstanding input requests, by key (status input_required). */
  readonly inputRequests?: Readonly<Record<string, TaskInputRequest>>;
  /** Answers received through tasks/update, by key; never sent to clients. */
  readonly answers?: Readonly<Record<string, unknown>>;
  /** The tool's result (status completed). */
  readonly result?: Readonly<Record<string, unknown>>;
  /** The JSON-RPC error the work ended with (status failed). */
  readonly error?: JsonRpcErrorObject;
  /**
   * Whom the task belongs to (principalKey of the authorization of the
   * request that created it); never sent to clients. Absent when the
   * server checks no authorization: the unguessable id is then the only
   * key to the task (tasks.md lets task ids serve as bearer tokens).
   */
  readonly owner?: string;
}

/** A record, and whether some instance holds its task's lease. */
export interface LeasedRecord {
  readonly record: TaskRecord;
  readonly leaseHeld: boolean;
}

/** A change to one record: the new record, or undefined to leave it as it is. */
export type TaskChange = (record: TaskRecord) => TaskRecord | undefined;

/** How a change is applied. */
export interface UpdateOptions {
  /**
   * Apply the change only if no instance holds the task's lease (its work
   * stopped with the instance that ran it), checked in the same atomic step
   * as the change.
   */
  readonly unlessLeased?: boolean;
}

/** Where tasks are kept. Every method is safe to call from any instance sharing the store. */
export interface TaskStore {
  /**
   * Records a new task. Resolves once any instance sharing the store can
   * read it, so that the CreateTaskResult is sent only after that
   * (tasks.md: a task is readable as soon as it is created). With
   * `leaseMs`, the creating instance holds the task's lease for that long
   * from the same moment.
   */
  create(record: TaskRecord, leaseMs?: number): Promise<void>;
  /** The task, or undefined when there is none by this id (never created, or expired). */
  get(taskId: string): Promise<TaskRecord | undefined>;
  /**
   * Applies `change` atomically: no other change to the task happens
   * between its read and its write. Resolves with the new record, or
   * undefined when the task does not exist or `change` left it as it was.
   * Watchers on every instance see the new record.
   */
  update(
    taskId: string,
    change: TaskChange,
    options?: UpdateOptions,
  ): Promise<TaskRecord | undefined>;
  /**
   * Extends the leases of tasks whose work runs on the calling instance to
   * `leaseMs` from now. An instance renews them well before they lapse; a
   * lease that lapsed means the instance stopped (or stalled longer than
   * the lease), and any instance may then end the task.
   */
  renewLeases(taskIds: readonly string[], leaseMs: number): Promise<void>;
  /**
   * The task and whether some instance holds its lease, read together (one
   * round trip to a shared store), or undefined when there is no such task.
   */
  getWithLease(taskId: string): Promise<LeasedRecord | undefined>;
  /**
   * Calls `listener` with every changed record, whichever instance changed
   * it; the function returned stops. With `interested`, a record of a task
   * it says no to may be skipped unread (with many instances, each would
   * otherwise decode every change of every task).
   */
  watch(
    listener: (record: TaskRecord) => void,
    interested?: (taskId: string) => boolean,
  ): () => void;
  /** Releases what the store holds (connections, timers). */
  close(): Promise<void>;
}

/** Milliseconds since the epoch when a record may be deleted. */
export function expiresAt(record: TaskRecord): number {
  return Date.parse(record.createdAt) + record.ttlMs;
}

/**
 * Tasks in this process's memory: the default, for a server that runs as
 * one instance. Expired tasks are dropped when read and by a sweep once a
 * minute (a timer that does not keep the process alive). Leases are kept
 * too, though in one process they only lapse when its runner stops
 * renewing them (a runner closed with tasks under way).
 */
export class InMemoryTaskStore implements TaskStore {
  private readonly records = new Map<string, TaskRecord>();
  /** When each lease lapses, in milliseconds since the epoch. */
  private readonly leases = new Map<string, number>();
  private readonly listeners = new Set<(record: TaskRecord) => void>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(sweepEveryMs = 60_000) {
    this.sweeper = setInterval(() => this.sweep(), sweepEveryMs);
    this.sweeper.unref();
  }

  create(record: TaskRecord, leaseMs?: number): Promise<void> {
    this.records.set(record.taskId, record);
    if (leaseMs !== undefined) this.leases.set(record.taskId, Date.now() + leaseMs);
    return Promise.resolve();
  }

  get(taskId: string): Promise<TaskRecord | undefined> {
    return Promise.resolve(this.live(taskId));
  }

  update(
    taskId: string,
    change: TaskChange,
    options: UpdateOptions = {},
  ): Promise<TaskRecord | undefined> {
    if (options.unlessLeased && this.held(taskId)) return Promise.resolve(undefined);
    const record = this.live(taskId);
    const next = record && change(record);
    if (!next) return Promise.resolve(undefined);
    this.records.set(taskId, next);
    for (const listener of this.listeners) listener(next);
    return Promise.resolve(next);
  }

  renewLeases(taskIds: readonly string[], leaseMs: number): Promise<void> {
    const until = Date.now() + leaseMs;
    for (const taskId of taskIds) this.leases.set(taskId, until);
    return Promise.resolve();
  }

  getWithLease(taskId: string): Promise<LeasedRecord | undefined> {
    const record = this.live(taskId);
    return Promise.resolve(record && { record, leaseHeld: this.held(taskId) });
  }

  watch(listener: (record: TaskRecord) => void): () => void {
    // In one process every change is at hand already: nothing to skip.
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): Promise<void> {
    clearInterval(this.sweeper);
    this.listeners.clear();
    return Promise.resolve();
  }

  /** How many tasks are kept (expired ones included until swept). */
  get size(): number {
    return this.records.size;
  }

  private live(taskId: string): TaskRecord | undefined {
    const record = this.records.get(taskId);
    if (record && expiresAt(record) <= Date.now()) {
      this.records.delete(taskId);
      return undefined;
    }
    return record;
  }

  private held(taskId: string): boolean {
    return (this.leases.get(taskId) ?? 0) > Date.now();
  }

  private sweep(): void {
    const now = Date.now();
    for (const [id, record] of this.records) if (expiresAt(record) <= now) this.records.delete(id);
    for (const [id, until] of this.leases) if (until <= now) this.leases.delete(id);
  }
}

const STATUSES: ReadonlySet<unknown> = new Set([
  "working",
  "input_required",
  "completed",
  "failed",
  "cancelled",
]);

/**
 * What is wrong with a task record read back from a shared store (another
 * process's word: it may hold anything), or undefined for a well-formed
 * one: the fields every instance reads without guarding.
 */
export function taskRecordProblem(value: unknown): string | undefined {
  if (!isJsonObject(value)) return "it is not a JSON object";
  if (typeof value.taskId !== "string") return "taskId is not a string";
  if (!STATUSES.has(value.status)) return "status is not a task status";
  for (const field of ["createdAt", "lastUpdatedAt"] as const)
    if (typeof value[field] !== "string" || Number.isNaN(Date.parse(value[field])))
      return `${field} is not a date`;
  for (const field of ["ttlMs", "pollIntervalMs"] as const)
    if (!Number.isSafeInteger(value[field]) || (value[field] as number) < 0)
      return `${field} is not a whole number`;
  for (const field of ["inputRequests", "answers", "result"] as const)
    if (value[field] !== undefined && !isJsonObject(value[field]))
      return `${field} is not an object`;
  const error = value.error;
  if (
    error !== undefined &&
    !(isJsonObject(error) && Number.isInteger(error.code) && typeof error.message === "string")
  )
    return "error is not a JSON-RPC error";
  for (const field of ["statusMessage", "owner"] as const)
    if (value[field] !== undefined && typeof value[field] !== "string")
      return `${field} is not a string`;
  return undefined;
}
