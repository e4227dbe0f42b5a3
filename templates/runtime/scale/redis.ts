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
 * reconnect by themselves; until one is back, store calls fail after 2 s
 * (a task request answers -32603) and the error goes to `onError`.
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

/** How long a call waits for a connection that is not ready before it fails. */
const READY_WAIT_MS = 2000;
/** How long a failed subscription waits before it tries again. */
const RESUBSCRIBE_MS = 1000;

/**
 * One command connection and one subscriber connection (a subscribed
 * Redis connection can run nothing else), opened on first use. Commands
 * are not queued while Redis is unreachable: a call waits up to 2 s for
 * the connection, then fails, so that a request answers with an error
 * instead of hanging. The client reconnects by itself, and resubscribes.
 */
class RedisLink {
  private client?: Promise<RedisClientType>;
  private subscriber?: Promise<RedisClientType>;
  private closed = false;
  readonly prefix: string;
  private readonly onError: (error: unknown, where: string) => void;

  constructor(private readonly options: RedisOptions) {
    this.prefix = options.prefix ?? "mcp:";
    this.onError =
      options.onError ??
      ((error, where) =>
        process.stderr.write(
          `mcp server: ${where}: ${error instanceof Error ? error.message : String(error)}\n`,
        ));
  }

  /** The command connection, once it is ready (or after 2 s, when it is not). */
  async commands(): Promise<RedisClientType> {
    this.client ??= this.open();
    return ready(await this.client);
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
        await (await ready(await this.subscriber)).subscribe(channel, listener);
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

/** Resolves with `client` once it is ready, or after READY_WAIT_MS (its commands then fail at once). */
function ready(client: RedisClientType): Promise<RedisClientType> {
  if (client.isReady) return Promise.resolve(client);
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      client.off("ready", done);
      resolve(client);
    };
    const timer = setTimeout(done, READY_WAIT_MS);
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
    await this.link.commands();
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

  async create(record: TaskRecord, leaseMs?: number): Promise<void> {
    const client = await this.link.commands();
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
    const client = await this.link.commands();
    const batch = client.multi();
    for (const taskId of taskIds) batch.set(this.leaseKey(taskId), "1", { PX: leaseMs });
    await batch.execAsPipeline();
  }

  async leaseHeld(taskId: string): Promise<boolean> {
    return (await (await this.link.commands()).exists(this.leaseKey(taskId))) === 1;
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    const text = await (await this.link.commands()).get(this.key(taskId));
    return text === null ? undefined : (JSON.parse(text) as TaskRecord);
  }

  async update(
    taskId: string,
    change: TaskChange,
    options: UpdateOptions = {},
  ): Promise<TaskRecord | undefined> {
    const client = await this.link.commands();
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
      .commands()
      .then((client) => client.publish(this.channel, message))
      .catch(() => {
        // Reported by the connection's error listener.
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
 * that plus a poll. Anything else stops the start with a message naming
 * the variable.
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
  const options = { url: value, ...(onError ? { onError } : {}) };
  return {
    tasks: { store: new RedisTaskStore(options), ...lease },
    changeBus: new RedisChangeBus(options),
  };
}

/** `MCP_TASK_LEASE_MS`, checked: a whole number of milliseconds, at least 100. */
function leaseFromEnvironment(value: string | undefined): { leaseMs: number } | undefined {
  const text = value?.trim();
  if (text === undefined || text === "") return undefined;
  const leaseMs = Number(text);
  if (!Number.isSafeInteger(leaseMs) || leaseMs < 100)
    throw new Error(
      `MCP_TASK_LEASE_MS=${text}: expected a whole number of milliseconds, at least 100 (default 10000)`,
    );
  return { leaseMs };
}
