/**
 * The connection to Redis that the shared stores of scale/ use: one
 * command connection and one subscriber connection, opened on first use,
 * every call bounded by a deadline, and Lua scripts run by their SHA1
 * (EVALSHA), loaded once per Redis server.
 *
 * The client is @redis/client, loaded when a Redis URL is first used, so
 * that a server without Redis does not need it installed. Its connections
 * reconnect by themselves.
 */
import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import { ForeignDataError } from "../core/errors.js";

/** The package loaded when a Redis URL is used; a variable, so the compiler never needs it installed. */
const REDIS_CLIENT: string = "@redis/client";
/** The version of @redis/client a project with Tasks depends on, and the one to install for a shared store. */
export const REDIS_CLIENT_VERSION = "6.4.0";

/**
 * What the stores use of a @redis/client (6.x) connection: a project
 * without a shared store need not install the package, so its types are
 * not imported.
 */
export interface RedisClientType {
  readonly isReady: boolean;
  readonly isOpen: boolean;
  on(event: string, listener: (...args: never[]) => void): unknown;
  off(event: string, listener: (...args: never[]) => void): unknown;
  connect(): Promise<unknown>;
  close(): Promise<unknown>;
  destroy(): void;
  duplicate(): RedisClientType;
  subscribe(channel: string, listener: (message: string) => void): Promise<unknown>;
  publish(channel: string, message: string): Promise<number>;
  ping(): Promise<string>;
  pExpire(key: string, ms: number): Promise<unknown>;
  set(
    key: string,
    value: string,
    options: { condition: "NX"; expiration: { type: "PX"; value: number } },
  ): Promise<string | null>;
  evalSha(sha: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  multi(): {
    set(key: string, value: string, options: { PX: number }): unknown;
    execAsPipeline(): Promise<unknown>;
  };
}

/**
 * Stops a start that asks for Redis (`variable` holds a Redis URL) in a
 * project without @redis/client installed, saying how to install it.
 */
export function requireRedisClient(variable: string, pkg: string = REDIS_CLIENT): void {
  try {
    createRequire(import.meta.url).resolve(pkg);
  } catch {
    throw new Error(
      `${variable} names a Redis server, but ${pkg} is not installed: run \`npm install ${pkg}@${REDIS_CLIENT_VERSION}\` in the project (a project with the Tasks extension has it)`,
    );
  }
}

/** How a Redis-backed store or bus is set up. */
export interface RedisOptions {
  /** `redis://[user:password@]host:port/db` (or `rediss://` for TLS). */
  readonly url: string;
  /**
   * Prefix of every key and channel, so that servers sharing one Redis
   * stay apart (default `mcp:`; scaleOutFromEnvironment makes one from the
   * server's name, or takes MCP_REDIS_PREFIX).
   */
  readonly prefix?: string;
  /** Where connection errors go (default: stderr). */
  readonly onError?: (error: unknown, where: string) => void;
  /**
   * How long one store call (waiting for the connection included) may take
   * before it fails (default 2000 ms; MCP_TASK_STORE_TIMEOUT_MS).
   */
  readonly commandTimeoutMs?: number;
}

/** Default of {@link RedisOptions.prefix}. */
export const DEFAULT_REDIS_PREFIX = "mcp:";

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
export class RedisLink {
  private client?: Promise<RedisClientType>;
  private subscriber?: Promise<RedisClientType>;
  private closed = false;
  readonly prefix: string;
  readonly timeoutMs: number;
  private readonly onError: (error: unknown, where: string) => void;

  constructor(private readonly options: RedisOptions) {
    this.prefix = options.prefix ?? DEFAULT_REDIS_PREFIX;
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

  /** Sends an error to `onError`. */
  report(error: unknown, where: string): void {
    this.onError(error, where);
  }

  /**
   * A message heard on a channel, parsed: undefined (and reported) when it
   * is longer than `maxBytes` or not JSON, so that what another process
   * publishes can neither exhaust memory nor throw in the subscriber.
   */
  decode(message: string, maxBytes: number, where: string): unknown {
    if (message.length > maxBytes) {
      this.onError(
        new ForeignDataError(`a message of ${message.length} bytes on ${where}; dropped`),
        where,
      );
      return undefined;
    }
    try {
      return JSON.parse(message) as unknown;
    } catch (error) {
      this.onError(
        new ForeignDataError(
          `a message on ${where} is not JSON (${(error as Error).message}); dropped`,
        ),
        where,
      );
      return undefined;
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
    const { createClient } = (await import(REDIS_CLIENT)) as {
      createClient: (options: { url: string; disableOfflineQueue: boolean }) => RedisClientType;
    };
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

/** A Lua script, run by its SHA1 so that its text crosses the network once per Redis server. */
export class RedisScript {
  private readonly sha: string;

  constructor(readonly source: string) {
    this.sha = createHash("sha1").update(source).digest("hex");
  }

  /**
   * Runs the script (EVALSHA); a Redis that does not know it yet (NOSCRIPT:
   * just started, or restarted, or SCRIPT FLUSH) gets its text once (EVAL).
   */
  async run(
    client: RedisClientType,
    keys: readonly string[],
    args: readonly string[],
  ): Promise<unknown> {
    const options = { keys: [...keys], arguments: [...args] };
    try {
      return await client.evalSha(this.sha, options);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith("NOSCRIPT")) throw error;
      return client.eval(this.source, options);
    }
  }
}
