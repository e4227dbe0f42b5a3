/**
 * Legacy sessions (2025-11-25 and earlier, `Mcp-Session-Id`) in Redis,
 * shared by every instance of a server: each session is one key holding
 * its record as JSON (`<prefix>session:<id>`), expiring after the
 * session's idle time unless an instance serving it extends it, and every
 * event (state changed, ended, a client's answer for the instance whose
 * request waits for it) is published on one channel (`<prefix>sessions`).
 * Each operation is one round trip with a deadline; what is written and
 * what is read is bounded in size, and what is read is checked for shape:
 * a record or event that is not one is reported (what was wrong, where)
 * and treated as absent, never served.
 */
import { ForeignDataError } from "../core/errors.js";
import {
  sessionEventProblem,
  sessionRecordProblem,
  type SessionEvent,
  type SessionRecord,
  type SessionStore,
} from "../server/session-store.js";
import { RedisLink, RedisScript, type RedisOptions } from "./redis-link.js";

/** The longest session record read from Redis; a longer one is refused, not read. */
export const MAX_SESSION_RECORD_BYTES = 1024 * 1024;
/** The longest event taken from the sessions channel (an answer may carry a sampling result). */
export const MAX_SESSION_EVENT_BYTES = 16 * 1024 * 1024;

/** Keeps a record for ARGV[2] ms and publishes the event ARGV[3] on ARGV[4]. */
const SAVE = new RedisScript(`
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('PUBLISH', ARGV[4], ARGV[3])
return 1`);

/** The record, or nil; an error naming its length past ARGV[1] bytes. */
const LOAD = new RedisScript(`
local size = redis.call('STRLEN', KEYS[1])
if size > tonumber(ARGV[1]) then
  return redis.error_reply('TOOLONG session record of ' .. size .. ' bytes')
end
return redis.call('GET', KEYS[1])`);

/** Deletes the record and, when there was one, publishes the event ARGV[1] on ARGV[2]. */
const REMOVE = new RedisScript(`
if redis.call('DEL', KEYS[1]) == 0 then
  return 0
end
redis.call('PUBLISH', ARGV[2], ARGV[1])
return 1`);

/** Sessions in Redis (see the file's comment). */
export class RedisSessionStore implements SessionStore {
  private readonly link: RedisLink;
  private readonly listeners = new Set<(event: SessionEvent) => void>();
  private subscribed?: Promise<void>;

  constructor(options: RedisOptions) {
    this.link = new RedisLink(options);
  }

  private key(id: string): string {
    return `${this.link.prefix}session:${id}`;
  }

  private get channel(): string {
    return `${this.link.prefix}sessions`;
  }

  /**
   * Keeps a session's record; one longer than MAX_SESSION_RECORD_BYTES is
   * refused before anything is written (no instance could read it back).
   */
  save(id: string, record: SessionRecord, ttlMs: number): Promise<void> {
    const event = JSON.stringify({ kind: "state", id, record });
    const json = JSON.stringify(record);
    if (json.length > MAX_SESSION_RECORD_BYTES)
      return Promise.reject(
        new Error(
          `the record of session ${id} takes ${json.length} bytes, more than the ${MAX_SESSION_RECORD_BYTES} a shared session may (MAX_SESSION_RECORD_BYTES); not saved`,
        ),
      );
    return this.link.run(`saving session ${id}`, async (client) => {
      await SAVE.run(client, [this.key(id)], [json, String(ttlMs), event, this.channel]);
    });
  }

  load(id: string): Promise<SessionRecord | undefined> {
    return this.link.run(`reading session ${id}`, async (client) => {
      const text = await LOAD.run(client, [this.key(id)], [String(MAX_SESSION_RECORD_BYTES)]).catch(
        (error: unknown) => this.tooLong(id, error),
      );
      return typeof text === "string" ? this.checked(id, text) : undefined;
    });
  }

  touch(id: string, ttlMs: number): Promise<void> {
    return this.link.run(`extending session ${id}`, async (client) => {
      await client.pExpire(this.key(id), ttlMs);
    });
  }

  remove(id: string): Promise<boolean> {
    const event = JSON.stringify({ kind: "ended", id });
    return this.link.run(
      `ending session ${id}`,
      async (client) => (await REMOVE.run(client, [this.key(id)], [event, this.channel])) === 1,
    );
  }

  send(event: SessionEvent): Promise<void> {
    const message = JSON.stringify(event);
    return this.link.run(`telling the instances of session ${event.id}`, async (client) => {
      await client.publish(this.channel, message);
    });
  }

  watch(listener: (event: SessionEvent) => void): () => void {
    this.listeners.add(listener);
    this.subscribed ??= this.link.subscribe(this.channel, (message) => this.heard(message));
    return () => this.listeners.delete(listener);
  }

  async watching(): Promise<void> {
    await this.subscribed;
  }

  async close(): Promise<void> {
    this.listeners.clear();
    await this.link.close();
  }

  /** A record past MAX_SESSION_RECORD_BYTES (the script refused to send it): reported, read as absent. */
  private tooLong(id: string, error: unknown): undefined {
    if (!(error instanceof Error) || !error.message.startsWith("TOOLONG")) throw error;
    this.link.report(
      new ForeignDataError(
        `the record of session ${id} in Redis (${this.key(id)}) is longer than ${MAX_SESSION_RECORD_BYTES} bytes (${error.message}); the session is treated as absent`,
      ),
      "redis sessions",
    );
    return undefined;
  }

  /** The record a key holds, or undefined (reported) when it is not one. */
  private checked(id: string, text: string): SessionRecord | undefined {
    let record: unknown;
    try {
      record = JSON.parse(text);
    } catch {
      record = undefined;
    }
    const problem = record === undefined ? "it is not JSON" : sessionRecordProblem(record);
    if (problem === undefined) return record as SessionRecord;
    this.link.report(
      new ForeignDataError(
        `the record of session ${id} in Redis (${this.key(id)}) is not a session record: ${problem}; the session is treated as absent`,
      ),
      "redis sessions",
    );
    return undefined;
  }

  private heard(message: string): void {
    const event = this.link.decode(message, MAX_SESSION_EVENT_BYTES, "redis sessions");
    if (event === undefined) return;
    const problem = sessionEventProblem(event);
    if (problem !== undefined) {
      this.link.report(
        new ForeignDataError(
          `an event on ${this.channel} is not a session event: ${problem}; dropped`,
        ),
        "redis sessions",
      );
      return;
    }
    for (const each of this.listeners) each(event as SessionEvent);
  }
}
