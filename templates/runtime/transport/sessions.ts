/**
 * The legacy sessions of one HTTP endpoint, by Mcp-Session-Id. A session
 * is opened by `initialize` and ends with DELETE (spec 2025-11-25:
 * Streamable HTTP, session management).
 */
import type { ServedSession, ServedSide } from "./served.js";

/** The open sessions of one endpoint. */
export class HttpSessions {
  private readonly sessions = new Map<string, ServedSession>();

  constructor(private readonly side: ServedSide) {}

  /** Opens a session. */
  open(): ServedSession {
    const session = this.side.openSession();
    this.sessions.set(session.id, session);
    return session;
  }

  /** The session with this id, if it is open. */
  get(id: string): ServedSession | undefined {
    return this.sessions.get(id);
  }

  /** Closes a session; false when none has this id. */
  close(id: string): boolean {
    const session = this.sessions.get(id);
    if (!session) return false;
    session.close();
    return this.sessions.delete(id);
  }
}
