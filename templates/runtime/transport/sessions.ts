/**
 * The legacy sessions of one HTTP endpoint, by Mcp-Session-Id. A session
 * is opened by a successful `initialize` and ends with DELETE (spec
 * 2025-11-25: Streamable HTTP, session management), or when the server
 * ends it: after it has been idle too long, or when it is the least
 * recently used one and the cap is reached. A client whose session ended
 * gets 404 and initializes again, as the spec asks of it.
 *
 * With authorization on, a session belongs to whom the token that opened
 * it acts for (spec 2025-11-25: security best practices, session
 * hijacking): a request with another subject's token finds no session by
 * that id, so a leaked or guessed id is worth nothing to anyone else.
 */
import type { ServedSession, ServedSide } from "./served.js";

/** How many sessions are kept, and for how long without use. */
export interface SessionLimits {
  /** A session with no request and no open stream for this long ends (default 10 minutes). */
  readonly idleMs: number;
  /** The most sessions open at once; a new one ends the least recently used (default 10,000). */
  readonly max: number;
}

/** The defaults of SessionLimits. */
export const SESSION_DEFAULTS: SessionLimits = { idleMs: 10 * 60_000, max: 10_000 };

interface Entry {
  readonly session: ServedSession;
  /** Whom the session belongs to (the token's subject), when authorization is on. */
  readonly owner: string | undefined;
  lastUsed: number;
  /** Requests under way in the session (a session is never idle while one runs). */
  busy: number;
}

/** The open sessions of one endpoint, least recently used first. */
export class HttpSessions {
  private readonly sessions = new Map<string, Entry>();
  private lastSweep = 0;

  constructor(
    private readonly side: ServedSide,
    private readonly limits: SessionLimits = SESSION_DEFAULTS,
    private readonly now: () => number = Date.now,
  ) {}

  /** The number of open sessions. */
  get size(): number {
    return this.sessions.size;
  }

  /** A new session, not yet open: `admit` opens it once its `initialize` succeeded, `discard` drops it otherwise. */
  create(): ServedSession {
    return this.side.openSession();
  }

  /**
   * Opens a session whose `initialize` succeeded, for `owner` (the subject
   * of the token that sent it, when authorization is on); at the cap, the
   * least recently used one ends first.
   */
  admit(session: ServedSession, owner?: string): void {
    this.sweep(true);
    while (this.sessions.size >= this.limits.max) {
      const oldest = this.sessions.keys().next().value;
      if (oldest === undefined) break;
      this.end(oldest);
    }
    this.sessions.set(session.id, { session, owner, lastUsed: this.now(), busy: 0 });
  }

  /** The session with this id, if it is open and belongs to `owner`; marks it used. */
  get(id: string, owner?: string): ServedSession | undefined {
    this.sweep(false);
    const entry = this.sessions.get(id);
    if (!entry || entry.owner !== owner) return undefined;
    if (entry.session.closed) {
      // Ended on another instance (DELETE there): gone here too.
      this.sessions.delete(id);
      return undefined;
    }
    this.touch(id, entry);
    return entry.session;
  }

  /** Runs `work` as a request of session `id`: the session does not idle out while it runs. */
  async using<T>(id: string, work: () => Promise<T>): Promise<T> {
    const entry = this.sessions.get(id);
    if (entry) entry.busy++;
    try {
      return await work();
    } finally {
      if (entry) {
        entry.busy--;
        if (this.sessions.get(id) === entry) this.touch(id, entry);
      }
    }
  }

  /** Closes a session; false when none has this id (or it belongs to another than `owner`). */
  close(id: string, owner?: string): boolean {
    const entry = this.sessions.get(id);
    if (!entry || entry.owner !== owner) return false;
    // Forgotten before it closes: what its close sets off (its GET stream ending) may look it up.
    this.sessions.delete(id);
    entry.session.close();
    return true;
  }

  /** Closes every session (the server is stopping). */
  closeAll(): void {
    for (const id of [...this.sessions.keys()]) this.end(id);
  }

  /** Ends a session whoever it belongs to (idle, evicted, or the server stopping). */
  private end(id: string): void {
    const entry = this.sessions.get(id);
    this.sessions.delete(id);
    entry?.session.close();
  }

  private touch(id: string, entry: Entry): void {
    entry.lastUsed = this.now();
    // Re-inserting keeps the map in least-recently-used order.
    this.sessions.delete(id);
    this.sessions.set(id, entry);
  }

  /**
   * Ends the sessions idle longer than the limit: no request under way,
   * no standalone stream open. Runs as sessions are used, at most every
   * quarter of the idle time (or now, when `force`), so no timer keeps
   * the process alive.
   */
  private sweep(force: boolean): void {
    const now = this.now();
    if (!force && now - this.lastSweep < this.limits.idleMs / 4) return;
    this.lastSweep = now;
    for (const [id, entry] of this.sessions) {
      if (now - entry.lastUsed < this.limits.idleMs) break; // the rest were used more recently
      if (entry.busy === 0 && entry.session.standalone === undefined) this.end(id);
    }
  }
}
