/**
 * Several instances of one server on one Redis: a TaskStore whose tasks
 * every instance reads and changes (each task one key, expiring with its
 * ttlMs; every change published on one channel, so that the instance
 * running a task hears of answers and cancellations made elsewhere), and a
 * ChangeBus that relays list-changed and resource-updated notifications to
 * the listen streams of the other instances.
 *
 * The client is @redis/client, loaded when a Redis URL is first used, so
 * that a server without Redis does not need it installed. Its connections
 * reconnect by themselves. Every store call has a deadline (2 s by default,
 * `commandTimeoutMs` or MCP_TASK_STORE_TIMEOUT_MS): a Redis that is down,
 * or connected but not answering (stopped, a network cut), fails the call
 * then, so a task request answers -32603 instead of hanging, and the
 * error goes to `onError`.
 */
import { randomUUID } from "node:crypto";
import type { RedisClientType } from "@redis/client";
import type { Change, ChangeBus } from "../server/subscriptions.js";
import type { TaskChange, TaskRecord, TaskStore, UpdateOptions } from "../server/task-store.js";

/** How a Redis-backed store or bus is set up. */
export interface RedisOptions {
  /** `redis://[user:password@]host:port/db` (or `rediss://` for TLS). */
  readonly url: string;
  /** Prefix of every key and channel, to share one database between servers (default `mcp:`). */
  readonly prefix?: string;
  /** Where connection errors go (default: stderr). */
  readonly onError?: (error: unknown, where: string) => void;
  /**
   * How long one store call (waiting for the connection included) may take
   * before it fails (default 2000 ms; MCP_TASK_STORE_TIMEOUT_MS).
   */
  readonly commandTimeoutMs?: number;
}

/** Default of {@link RedisOptions.commandTimeoutMs}. */
export const DEFAULT_REDIS_TIMEOUT_MS = 2000;

/** A store call that Redis did not answer within its deadline. */
export class RedisTimeoutError extends Error {
  constructor(what: string, ms: number) {
    super(
      `Redis did not answer ${what} within ${ms} ms ` +
        "(raise MCP_TASK_STORE_TIMEOUT_MS or the store's commandTimeoutMs if Redis is slow but alive)",
    );
    this.name = "RedisTimeoutError";
  }
}

/**
 * Replaces a record only if it is still what the caller read, and
 * publishes the new one (1); 0 when the record changed in between. With a
 * second key (the task's lease), nothing happens (2) while that key exists:
 * only a task whose lease lapsed is changed.
 */
const COMPARE_AND_SET = `
if KEYS[2] and redis.call('EXISTS', KEYS[2]) == 1 then
  return 2
end
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[2], 'KEEPTTL')
  redis.call('PUBLISH', ARGV[3], ARGV[2])
  return 1
end
return 0`;

/** How often an update is retried when other instances changed the task in between. */
const MAX_ATTEMPTS = 50;

/** How long a failed subscription waits before it tries again. */
const RESUBSCRIBE_MS = 1000;

/**
 * One command connection and one subscriber connection (a subscribed
 * Redis connection can run nothing else), opened on first use. Commands
 * are not queued while Redis is unreachable, and every call, from waiting
 * for the connection to the last reply, fails at its deadline: a request
 * answers with an error instead of hanging. The client reconnects by
 * itself, and resubscribes.
 */
class RedisLink {
  private client?: Promise<RedisClientType>;
  private subscriber?: Promise<RedisClientType>;
  private closed = false;
  readonly prefix: string;
  readonly timeoutMs: number;
  private readonly onError: (error: unknown, where: string) => void;

  constructor(private readonly options: RedisOptions) {
    this.prefix = options.prefix ?? "mcp:";
    this.timeoutMs = options.commandTimeoutMs ?? DEFAULT_REDIS_TIMEOUT_MS;
    this.onError =
      options.onError ??
      ((error, where) =>
        process.stderr.write(
          `mcp server: ${where}: ${error instanceof Error ? error.message : String(error)}\n`,
        ));
  }

  /** The command connection, once it is ready (or at the deadline, when it is not). */
  private async commands(): Promise<RedisClientType> {
    this.client ??= this.open();
    return ready(await this.client, this.timeoutMs);
  }

  /**
   * Runs `work` on the command connection within the deadline; past it the
   * call fails with a RedisTimeoutError naming `what`. A command already
   * sent is not taken back: its reply, if it ever comes, is dropped.
   */
  async run<T>(what: string, work: (client: RedisClientType) => Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new RedisTimeoutError(what, this.timeoutMs)), this.timeoutMs);
    });
    const call = this.commands().then(work);
    // A call that loses the race must not surface as an unhandled rejection.
    call.catch(() => {});
    try {
      return await Promise.race([call, expired]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Subscribes to `channel` on the subscriber connection, trying again every second until it works. */
  async subscribe(channel: string, listener: (message: string) => void): Promise<void> {
    while (!this.closed) {
      try {
        this.subscriber ??= (this.client ??= this.open()).then((client) => {
          const subscriber = client.duplicate();
          subscriber.on("error", (error: unknown) => this.onError(error, "redis subscriber"));
          subscriber.connect().catch(() => {
            // Reported by the error listener; the client keeps reconnecting.
          });
          return subscriber;
        });
        await (await ready(await this.subscriber, this.timeoutMs)).subscribe(channel, listener);
        return;
      } catch (error) {
        this.onError(error, `redis subscribe ${channel}`);
        await new Promise((resolve) => setTimeout(resolve, RESUBSCRIBE_MS).unref());
      }
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const [client, subscriber] = await Promise.allSettled([this.client, this.subscriber]);
    for (const settled of [subscriber, client]) {
      if (settled.status !== "fulfilled" || !settled.value) continue;
      const connection = settled.value;
      if (connection.isReady) await connection.close();
      else if (connection.isOpen) connection.destroy();
    }
  }

  private async open(): Promise<RedisClientType> {
    const { createClient } = await import("@redis/client");
    const client = createClient({ url: this.options.url, disableOfflineQueue: true });
    client.on("error", (error: unknown) => this.onError(error, "redis"));
    client.connect().catch(() => {
      // Reported by the error listener; the client keeps reconnecting.
    });
    return client;
  }
}

/** Resolves with `client` once it is ready, or after `waitMs` (its commands then fail at once). */
function ready(client: RedisClientType, waitMs: number): Promise<RedisClientType> {
  if (client.isReady) return Promise.resolve(client);
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      client.off("ready", done);
      resolve(client);
    };
    const timer = setTimeout(done, waitMs);
    timer.unref();
    client.on("ready", done);
  });
}

/**
 * Tasks in Redis: each task is one key holding its record as JSON, set to
 * expire `ttlMs` after creation; a change is a compare-and-set in one Lua
 * script that also publishes the new record, so no two instances
 * overwrite each other's change and every instance hears of each one.
 */
export class RedisTaskStore implements TaskStore {
  private readonly link: RedisLink;
  private readonly listeners = new Set<(record: TaskRecord) => void>();
  private subscribed?: Promise<void>;

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
    return this.link.run(`creating task ${record.taskId}`, (client) =>
      this.createWith(client, record, leaseMs),
    );
  }

  private async createWith(
    client: RedisClientType,
    record: TaskRecord,
    leaseMs: number | undefined,
  ): Promise<void> {
    const key = this.key(record.taskId);
    const json = JSON.stringify(record);
    if (leaseMs === undefined) {
      const done = await client.set(key, json, { PX: record.ttlMs, NX: true });
      if (done !== "OK") throw new Error(`task ${record.taskId} exists already`);
      return;
    }
    // One transaction: no instance can see the task before its lease.
    const [done] = (await client
      .multi()
      .set(key, json, { PX: record.ttlMs, NX: true })
      .set(this.leaseKey(record.taskId), "1", { PX: leaseMs })
      .exec()) as unknown[];
    if (done !== "OK") throw new Error(`task ${record.taskId} exists already`);
  }

  async renewLeases(taskIds: readonly string[], leaseMs: number): Promise<void> {
    if (taskIds.length === 0) return;
    await this.link.run("renewing task leases", async (client) => {
      const batch = client.multi();
      for (const taskId of taskIds) batch.set(this.leaseKey(taskId), "1", { PX: leaseMs });
      await batch.execAsPipeline();
    });
  }

  leaseHeld(taskId: string): Promise<boolean> {
    return this.link.run(
      `the lease of task ${taskId}`,
      async (client) => (await client.exists(this.leaseKey(taskId))) === 1,
    );
  }

  get(taskId: string): Promise<TaskRecord | undefined> {
    return this.link.run(`reading task ${taskId}`, async (client) => {
      const text = await client.get(this.key(taskId));
      return text === null ? undefined : (JSON.parse(text) as TaskRecord);
    });
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
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const text = await client.get(key);
      if (text === null) return undefined;
      const next = change(JSON.parse(text) as TaskRecord);
      if (!next) return undefined;
      const json = JSON.stringify(next);
      const set = await client.eval(COMPARE_AND_SET, {
        keys,
        arguments: [text, json, this.channel],
      });
      if (set === 1) return next;
      if (set === 2) return undefined; // leased: the change does not apply
    }
    throw new Error(`task ${taskId}: ${MAX_ATTEMPTS} concurrent changes in a row; giving up`);
  }

  watch(listener: (record: TaskRecord) => void): () => void {
    this.listeners.add(listener);
    this.subscribed ??= this.link.subscribe(this.channel, (message) => {
      const record = JSON.parse(message) as TaskRecord;
      for (const each of this.listeners) each(record);
    });
    return () => this.listeners.delete(listener);
  }

  /** Resolves once changes made elsewhere reach the watchers (the subscription is in place). */
  async watching(): Promise<void> {
    await this.subscribed;
  }

  async close(): Promise<void> {
    this.listeners.clear();
    await this.link.close();
  }
}

/**
 * Relays changes between the instances of a server through one Redis
 * channel. Each instance tags what it sends, and drops its own messages
 * when they come back.
 */
export class RedisChangeBus implements ChangeBus {
  private readonly link: RedisLink;
  private readonly origin = randomUUID();
  private subscribed?: Promise<void>;

  constructor(options: RedisOptions) {
    this.link = new RedisLink(options);
  }

  private get channel(): string {
    return `${this.link.prefix}changes`;
  }

  send(change: Change): void {
    const message = JSON.stringify({ origin: this.origin, change });
    void this.link
      .run("publishing a change", (client) => client.publish(this.channel, message))
      .catch(() => {
        // Reported by the connection's error listener, or a stall: the change is dropped.
      });
  }

  receive(deliver: (change: Change) => void): () => void {
    let active = true;
    this.subscribed = this.link.subscribe(this.channel, (message) => {
      const { origin, change } = JSON.parse(message) as { origin: string; change: Change };
      if (active && origin !== this.origin) deliver(change);
    });
    return () => {
      active = false;
    };
  }

  /** Resolves once changes sent by other instances arrive here. */
  async ready(): Promise<void> {
    await this.subscribed;
  }

  async close(): Promise<void> {
    await this.link.close();
  }
}

/**
 * The task store and change bus `MCP_TASK_STORE` asks for: unset or
 * `memory` for this process's memory (no bus), a `redis://` or `rediss://`
 * URL for Redis (tasks and change notifications shared by every instance
 * using it). `MCP_TASK_LEASE_MS` sets how long the lease of a running task
 * lasts (default 10000): when an instance stops, its tasks fail within
 * that plus a poll. `MCP_TASK_STORE_TIMEOUT_MS` sets the deadline of each
 * Redis call (default 2000). Anything else stops the start with a message
 * naming the variable.
 */
export function scaleOutFromEnvironment(
  env: Readonly<Record<string, string | undefined>> = process.env,
  onError?: (error: unknown, where: string) => void,
): {
  readonly tasks?: { readonly store?: TaskStore; readonly leaseMs?: number };
  readonly changeBus?: ChangeBus;
} {
  const lease = leaseFromEnvironment(env.MCP_TASK_LEASE_MS);
  const value = env.MCP_TASK_STORE?.trim();
  if (value === undefined || value === "" || value === "memory")
    return lease ? { tasks: lease } : {};
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    url = new URL("invalid:");
  }
  if (url.protocol !== "redis:" && url.protocol !== "rediss:")
    throw new Error(
      `MCP_TASK_STORE=${value}: expected "memory" or a Redis URL such as redis://127.0.0.1:6379/0`,
    );
  const commandTimeoutMs = wholeMilliseconds(
    env.MCP_TASK_STORE_TIMEOUT_MS,
    "MCP_TASK_STORE_TIMEOUT_MS",
    DEFAULT_REDIS_TIMEOUT_MS,
  );
  const options = {
    url: value,
    ...(onError ? { onError } : {}),
    ...(commandTimeoutMs === undefined ? {} : { commandTimeoutMs }),
  };
  return {
    tasks: { store: new RedisTaskStore(options), ...lease },
    changeBus: new RedisChangeBus(options),
  };
}

/** `MCP_TASK_LEASE_MS`, checked: a whole number of milliseconds, at least 100. */
function leaseFromEnvironment(value: string | undefined): { leaseMs: number } | undefined {
  const leaseMs = wholeMilliseconds(value, "MCP_TASK_LEASE_MS", 10_000);
  return leaseMs === undefined ? undefined : { leaseMs };
}

/** A variable holding a whole number of milliseconds, at least 100; undefined when unset. */
function wholeMilliseconds(
  value: string | undefined,
  name: string,
  fallback: number,
): number | undefined {
  const text = value?.trim();
  if (text === undefined || text === "") return undefined;
  const ms = Number(text);
  if (!Number.isSafeInteger(ms) || ms < 100)
    throw new Error(
      `${name}=${text}: expected a whole number of milliseconds, at least 100 (default ${fallback})`,
    );
  return ms;
}
