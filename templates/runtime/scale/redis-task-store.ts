/**
 * Tasks in Redis, shared by every instance of a server: each task is one
 * key holding its record as JSON, set to expire `ttlMs` after creation,
 * and one lease key while an instance runs its work. Every change is a
 * compare-and-set in one Lua script that also publishes the new record,
 * so no two instances overwrite each other's change and every instance
 * hears of each one.
 *
 * Round trips are what a task costs most, so each operation is one: a
 * task is created with its lease in one script, read with its lease in
 * one script, and changed in one script against the record this instance
 * last saw of it (kept in a small cache fed by its own reads and writes
 * and by the published changes); only when another instance changed the
 * task in between does the script hand back the current record for a
 * second try.
 */
import { ForeignDataError } from "../core/errors.js";
import {
  expiresAt,
  taskRecordProblem,
  TERMINAL_STATUSES,
  type LeasedRecord,
  type TaskChange,
  type TaskRecord,
  type TaskStore,
  type UpdateOptions,
} from "../server/task-store.js";
import { RedisLink, RedisScript, type RedisClientType, type RedisOptions } from "./redis-link.js";

/**
 * Creates a task (0 when its key exists already) and, with a second key,
 * its lease, in one step: no instance can see the task before its lease.
 */
const CREATE = new RedisScript(`
if not redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2], 'NX') then
  return 0
end
if KEYS[2] then
  redis.call('SET', KEYS[2], '1', 'PX', ARGV[3])
end
return 1`);

/**
 * A task's record and, with a second key, whether its lease is held:
 * {record or nil, 0 or 1}. A record longer than ARGV[1] is not sent: an
 * error names its length.
 */
const READ = new RedisScript(`
local size = redis.call('STRLEN', KEYS[1])
if size > tonumber(ARGV[1]) then
  return redis.error_reply('TOOLONG task record of ' .. size .. ' bytes')
end
local lease = 0
if KEYS[2] then
  lease = redis.call('EXISTS', KEYS[2])
end
return {redis.call('GET', KEYS[1]), lease}`);

/**
 * Replaces a record only if it is still what the caller saw, and publishes
 * the new one: {1}. When the record changed in between: {0, the record now
 * (nil when it is gone)}, so the caller tries again without reading it
 * first. With a second key (the task's lease), nothing happens while that
 * key exists ({2}): only a task whose lease lapsed is changed.
 */
const COMPARE_AND_SET = new RedisScript(`
if KEYS[2] and redis.call('EXISTS', KEYS[2]) == 1 then
  return {2}
end
local current = redis.call('GET', KEYS[1])
if current == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[2], 'KEEPTTL')
  redis.call('PUBLISH', ARGV[3], ARGV[2])
  return {1}
end
if current and string.len(current) > tonumber(ARGV[4]) then
  return redis.error_reply('TOOLONG task record of ' .. string.len(current) .. ' bytes')
end
return {0, current}`);

/** How often an update is retried when other instances changed the task in between. */
const MAX_ATTEMPTS = 50;

/** How many bytes of records the cache of last-seen records keeps (the oldest go first). */
const CACHE_BYTES = 8 * 1024 * 1024;
/** A record longer than this is not cached (it is read again for its next change). */
const CACHE_RECORD_BYTES = 64 * 1024;

/**
 * The longest record read from Redis or taken from its channel (a task's
 * result included): a longer one is refused with an error, not read.
 */
export const MAX_TASK_RECORD_BYTES = 16 * 1024 * 1024;

/** The store of tasks in Redis (see the file's comment). */
export class RedisTaskStore implements TaskStore {
  private readonly link: RedisLink;
  private readonly listeners = new Map<
    (record: TaskRecord) => void,
    ((taskId: string) => boolean) | undefined
  >();
  private subscribed?: Promise<void>;
  /** The JSON of each task under way as this instance last saw it, by id: the expected value of a change. */
  private readonly seen = new Map<string, string>();
  /** The length of the JSON in `seen`. */
  private seenBytes = 0;

  constructor(options: RedisOptions) {
    this.link = new RedisLink(options);
  }

  /** Connects now (the first call would otherwise), so that a wrong URL shows at start. */
  async connect(): Promise<this> {
    await this.link.run("a connection", (client) => client.ping());
    return this;
  }

  private key(taskId: string): string {
    return `${this.link.prefix}task:${taskId}`;
  }

  /** The key that exists while the instance running the task renews it. */
  private leaseKey(taskId: string): string {
    return `${this.link.prefix}task-lease:${taskId}`;
  }

  private get channel(): string {
    return `${this.link.prefix}tasks`;
  }

  create(record: TaskRecord, leaseMs?: number): Promise<void> {
    const json = JSON.stringify(record);
    const keys = [this.key(record.taskId)];
    if (leaseMs !== undefined) keys.push(this.leaseKey(record.taskId));
    return this.link.run(`creating task ${record.taskId}`, async (client) => {
      const done = await CREATE.run(client, keys, [json, String(record.ttlMs), String(leaseMs)]);
      if (done !== 1) throw new Error(`task ${record.taskId} exists already`);
      this.remember(record.taskId, json, record);
    });
  }

  async renewLeases(taskIds: readonly string[], leaseMs: number): Promise<void> {
    if (taskIds.length === 0) return;
    await this.link.run("renewing task leases", async (client) => {
      const batch = client.multi();
      for (const taskId of taskIds) batch.set(this.leaseKey(taskId), "1", { PX: leaseMs });
      await batch.execAsPipeline();
    });
  }

  get(taskId: string): Promise<TaskRecord | undefined> {
    return this.link.run(`reading task ${taskId}`, async (client) =>
      this.parse(taskId, (await this.read(client, [this.key(taskId)]))[0]),
    );
  }

  getWithLease(taskId: string): Promise<LeasedRecord | undefined> {
    return this.link.run(`reading task ${taskId}`, async (client) => {
      const [text, lease] = await this.read(client, [this.key(taskId), this.leaseKey(taskId)]);
      const record = this.parse(taskId, text);
      return record && { record, leaseHeld: lease === 1 };
    });
  }

  private async read(
    client: RedisClientType,
    keys: readonly string[],
  ): Promise<[string | null, number]> {
    try {
      return (await READ.run(client, keys, [String(MAX_TASK_RECORD_BYTES)])) as [
        string | null,
        number,
      ];
    } catch (error) {
      this.tooLong(keys[0]!, error);
      return [null, 0];
    }
  }

  /** A record past MAX_TASK_RECORD_BYTES (a script refused to send it): reported, read as absent. */
  private tooLong(key: string, error: unknown): void {
    if (!(error instanceof Error) || !error.message.startsWith("TOOLONG")) throw error;
    this.link.report(
      new ForeignDataError(
        `the task record in Redis (${key}) is longer than ${MAX_TASK_RECORD_BYTES} bytes (${error.message}); it is treated as absent`,
      ),
      "redis task store",
    );
  }

  update(
    taskId: string,
    change: TaskChange,
    options: UpdateOptions = {},
  ): Promise<TaskRecord | undefined> {
    return this.link.run(`changing task ${taskId}`, (client) =>
      this.updateWith(client, taskId, change, options),
    );
  }

  private async updateWith(
    client: RedisClientType,
    taskId: string,
    change: TaskChange,
    options: UpdateOptions,
  ): Promise<TaskRecord | undefined> {
    const key = this.key(taskId);
    const keys = options.unlessLeased ? [key, this.leaseKey(taskId)] : [key];
    let text = this.seen.get(taskId) ?? (await this.read(client, [key]))[0];
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const record = this.parse(taskId, text);
      if (!record) return undefined;
      const next = change(record);
      if (!next) return undefined;
      const json = JSON.stringify(next);
      let answer: [number, string | null | undefined];
      try {
        answer = (await COMPARE_AND_SET.run(client, keys, [
          text!,
          json,
          this.channel,
          String(MAX_TASK_RECORD_BYTES),
        ])) as [number, string | null | undefined];
      } catch (error) {
        this.tooLong(key, error);
        return undefined;
      }
      const [set, current] = answer;
      if (set === 1) {
        this.remember(taskId, json);
        return next;
      }
      if (set === 2) return undefined; // leased: the change does not apply
      text = current ?? null;
    }
    throw new Error(`task ${taskId}: ${MAX_ATTEMPTS} concurrent changes in a row; giving up`);
  }

  watch(
    listener: (record: TaskRecord) => void,
    interested?: (taskId: string) => boolean,
  ): () => void {
    this.listeners.set(listener, interested);
    this.subscribed ??= this.link.subscribe(this.channel, (message) => this.heard(message));
    return () => this.listeners.delete(listener);
  }

  /** A change published by some instance: decoded only when this one has a use for it. */
  private heard(message: string): void {
    if (message.length > MAX_TASK_RECORD_BYTES) {
      this.link.report(
        new ForeignDataError(
          `a task record of ${message.length} bytes on ${this.channel}; dropped`,
        ),
        "redis task changes",
      );
      return;
    }
    const taskId = leadingTaskId(message);
    const wanted = [...this.listeners].filter(
      ([, interested]) => taskId === undefined || !interested || interested(taskId),
    );
    if (wanted.length === 0 && (taskId === undefined || !this.seen.has(taskId))) return;
    const record = this.checked(message, `a record on ${this.channel}`);
    if (!record) return;
    if (this.seen.has(record.taskId)) this.remember(record.taskId, message, record);
    for (const [each] of wanted) each(record);
  }

  /** Resolves once changes made elsewhere reach the watchers (the subscription is in place). */
  async watching(): Promise<void> {
    await this.subscribed;
  }

  async close(): Promise<void> {
    this.listeners.clear();
    this.seen.clear();
    this.seenBytes = 0;
    await this.link.close();
  }

  /**
   * The record a reply holds (remembered as seen), or undefined: none, or
   * one that is not a task record of this task (reported, and treated as
   * absent: never served).
   */
  private parse(taskId: string, text: string | null | undefined): TaskRecord | undefined {
    const record =
      text === null || text === undefined
        ? undefined
        : this.checked(text, `the record of task ${taskId} in Redis (${this.key(taskId)})`, taskId);
    if (!record) {
      this.forget(taskId);
      return undefined;
    }
    this.remember(taskId, text!, record);
    return record;
  }

  /** `text` as a task record (of `taskId`, when given), or undefined when it is not one: reported, naming `what`. */
  private checked(text: string, what: string, taskId?: string): TaskRecord | undefined {
    let record: unknown;
    try {
      record = JSON.parse(text);
    } catch {
      record = undefined;
    }
    const problem =
      record === undefined
        ? "it is not JSON"
        : (taskRecordProblem(record) ??
          (taskId !== undefined && (record as TaskRecord).taskId !== taskId
            ? `its taskId is not ${taskId}`
            : undefined));
    if (problem === undefined) return record as TaskRecord;
    this.link.report(
      new ForeignDataError(`${what} is not a task record: ${problem}; it is treated as absent`),
      "redis task store",
    );
    return undefined;
  }

  /**
   * Keeps `json` as the last-seen record of a task, the newest last; the
   * oldest go when the cache is full. A task that ended or expired is not
   * kept (no change applies to it any more), nor is a long record.
   */
  private remember(taskId: string, json: string, record?: TaskRecord): void {
    this.forget(taskId);
    const parsed = record ?? (JSON.parse(json) as TaskRecord);
    if (TERMINAL_STATUSES.has(parsed.status) || expiresAt(parsed) <= Date.now()) return;
    if (json.length > CACHE_RECORD_BYTES) return;
    this.seen.set(taskId, json);
    this.seenBytes += json.length;
    for (const [oldest, text] of this.seen) {
      if (this.seenBytes <= CACHE_BYTES) break;
      this.seen.delete(oldest);
      this.seenBytes -= text.length;
    }
  }

  private forget(taskId: string): void {
    const text = this.seen.get(taskId);
    if (text === undefined) return;
    this.seen.delete(taskId);
    this.seenBytes -= text.length;
  }
}

/**
 * The task id of a record's JSON without decoding it: records are written
 * with `taskId` first (`{"taskId":"…",`); undefined for any other shape,
 * which is then decoded in full.
 */
function leadingTaskId(json: string): string | undefined {
  return /^\{"taskId":"([^"\\]{1,200})"/.exec(json)?.[1];
}
