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
import { ForeignDataError } from "../core/errors.js";
import { randomUUID } from "node:crypto";
import { isJsonObject } from "../core/jsonrpc.js";
import { isChange, type Change, type ChangeBus } from "../server/subscriptions.js";
import type { SessionStore } from "../server/session-store.js";
import type { TaskStore } from "../server/task-store.js";
import {
  DEFAULT_REDIS_PREFIX,
  DEFAULT_REDIS_TIMEOUT_MS,
  RedisLink,
  requireRedisClient,
  type RedisOptions,
} from "./redis-link.js";
import { RedisSessionStore } from "./redis-sessions.js";
import { RedisTaskStore } from "./redis-task-store.js";

export {
  DEFAULT_REDIS_PREFIX,
  DEFAULT_REDIS_TIMEOUT_MS,
  RedisTimeoutError,
  type RedisOptions,
} from "./redis-link.js";
export { MAX_TASK_RECORD_BYTES, RedisTaskStore } from "./redis-task-store.js";
export {
  MAX_SESSION_EVENT_BYTES,
  MAX_SESSION_RECORD_BYTES,
  RedisSessionStore,
} from "./redis-sessions.js";

/**
 * Relays changes between the instances of a server through one Redis
 * channel. Each instance tags what it sends, and drops its own messages
 * when they come back.
 */
/** The longest change message the bus reads (a change carrying an extension's notification can be large). */
export const MAX_CHANGE_BYTES = 16 * 1024 * 1024;

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
      const heard = this.link.decode(message, MAX_CHANGE_BYTES, "redis changes");
      if (!isJsonObject(heard) || !active || heard.origin === this.origin) return;
      // Only a well-formed change reaches listeners: what is on the channel is another process's word.
      if (isChange(heard.change)) deliver(heard.change);
      else
        this.link.report(
          new ForeignDataError(
            `a malformed change on ${this.channel} (not a change of a known kind with its fields); dropped`,
          ),
          "redis changes",
        );
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

/** What {@link scaleOutFromEnvironment} needs besides the environment. */
export interface ScaleOutOptions {
  /** Where Redis connection errors go (default: stderr). */
  readonly onError?: (error: unknown, where: string) => void;
  /**
   * The server's name (its `info.name`): the default prefix of every Redis
   * key and channel is made from it, so that two servers sharing a Redis
   * never see each other's tasks, sessions or changes.
   */
  readonly serverName?: string;
}

/** The longest MCP_REDIS_PREFIX. */
const MAX_PREFIX_LENGTH = 200;

/**
 * The prefix of every key and channel: `MCP_REDIS_PREFIX` when set, else
 * `mcp:<server name>:` (the name percent-encoded, so that no name's keys
 * can be another name's), else `mcp:`. Redis database numbers do not
 * separate servers (Pub/Sub channels are global to a Redis server), a
 * prefix does. A prefix that is empty, longer than 200 characters or holds
 * a space or a control character stops the start, naming the variable.
 */
export function redisPrefixFromEnvironment(
  env: Readonly<Record<string, string | undefined>> = process.env,
  serverName?: string,
): string {
  const value = env.MCP_REDIS_PREFIX;
  if (value === undefined || value === "")
    return serverName === undefined
      ? DEFAULT_REDIS_PREFIX
      : `mcp:${encodeURIComponent(serverName)}:`;
  if (value.length > MAX_PREFIX_LENGTH || !/^[\x21-\x7e]+$/.test(value))
    throw new Error(
      `MCP_REDIS_PREFIX=${JSON.stringify(value.slice(0, 60))}: expected 1 to ${MAX_PREFIX_LENGTH} printable ASCII characters without spaces, such as "mcp:my-server:"`,
    );
  return value;
}

/**
 * The task store, change bus and session store `MCP_TASK_STORE` and
 * `MCP_SESSION_STORE` ask for. `MCP_TASK_STORE`: unset or `memory` for
 * this process's memory (no bus), a `redis://` or `rediss://` URL for Redis
 * (tasks and change notifications shared by every instance using it).
 * `MCP_SESSION_STORE`: where legacy sessions live; unset follows
 * `MCP_TASK_STORE`, `memory` keeps them in the instance that opened them,
 * a Redis URL shares them through that Redis. `MCP_TASK_LEASE_MS` sets how
 * long the lease of a running task lasts (default 10000): when an instance
 * stops, its tasks fail within that plus a poll.
 * `MCP_TASK_STORE_TIMEOUT_MS` sets the deadline of each Redis call
 * (default 2000), sessions included. `MCP_REDIS_PREFIX` sets the prefix of
 * every key and channel (default `mcp:<serverName>:`, or `mcp:` without a
 * name; see redisPrefixFromEnvironment). Anything else stops the start with
 * a message naming the variable.
 */
export function scaleOutFromEnvironment(
  env: Readonly<Record<string, string | undefined>> = process.env,
  options: ScaleOutOptions | ((error: unknown, where: string) => void) = {},
): {
  readonly tasks?: { readonly store?: TaskStore; readonly leaseMs?: number };
  readonly changeBus?: ChangeBus;
  readonly sessions?: SessionStore;
} {
  const { onError, serverName } = typeof options === "function" ? { onError: options } : options;
  const lease = leaseFromEnvironment(env.MCP_TASK_LEASE_MS);
  const commandTimeoutMs = wholeMilliseconds(
    env.MCP_TASK_STORE_TIMEOUT_MS,
    "MCP_TASK_STORE_TIMEOUT_MS",
    DEFAULT_REDIS_TIMEOUT_MS,
  );
  const prefix = redisPrefixFromEnvironment(env, serverName);
  const redis = (url: string): RedisOptions => ({
    url,
    prefix,
    ...(onError ? { onError } : {}),
    ...(commandTimeoutMs === undefined ? {} : { commandTimeoutMs }),
  });
  const taskUrl = redisUrl(env, "MCP_TASK_STORE");
  const sessionValue = env.MCP_SESSION_STORE?.trim();
  const sessionUrl =
    sessionValue === undefined || sessionValue === ""
      ? taskUrl
      : redisUrl(env, "MCP_SESSION_STORE");
  if (taskUrl) requireRedisClient("MCP_TASK_STORE");
  else if (sessionUrl) requireRedisClient("MCP_SESSION_STORE");
  return {
    ...(taskUrl
      ? {
          tasks: { store: new RedisTaskStore(redis(taskUrl)), ...lease },
          changeBus: new RedisChangeBus(redis(taskUrl)),
        }
      : lease
        ? { tasks: lease }
        : {}),
    ...(sessionUrl ? { sessions: new RedisSessionStore(redis(sessionUrl)) } : {}),
  };
}

/** The Redis URL a variable holds; undefined when it is unset or `memory`. */
function redisUrl(
  env: Readonly<Record<string, string | undefined>>,
  name: string,
): string | undefined {
  const value = env[name]?.trim();
  if (value === undefined || value === "" || value === "memory") return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    url = new URL("invalid:");
  }
  if (url.protocol !== "redis:" && url.protocol !== "rediss:")
    throw new Error(
      `${name}=${value}: expected "memory" or a Redis URL such as redis://127.0.0.1:6379/0`,
    );
  return value;
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
