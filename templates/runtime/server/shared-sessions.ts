/**
 * Legacy sessions shared by the instances of a server through a
 * SessionStore (session-store.ts): the transport asks here for a session
 * it does not hold (opened on another instance), and hands here what the
 * other instances must hear of: a session opened, used, ended, and a
 * client's answer to a request another instance sent. Each instance keeps
 * its own LegacySession object for every shared session it served; events
 * keep those copies in step.
 */
import type { JsonRpcMessage } from "../core/jsonrpc.js";
import { LegacySession } from "./legacy.js";
import type { SessionEvent, SessionRecord, SessionStore } from "./session-store.js";

/** A shared session this instance holds a copy of. */
interface Held {
  readonly session: LegacySession;
  readonly owner: string | undefined;
  readonly ttlMs: number;
  /** When this instance last extended the session's expiry in the store. */
  touched: number;
}

/** The shared legacy sessions of one server (see the file's comment). */
export class SharedLegacySessions {
  private readonly held = new Map<string, Held>();
  private readonly unwatch: () => void;

  constructor(
    private readonly store: SessionStore,
    private readonly open: (restored: { id: string; record: SessionRecord }) => LegacySession,
  ) {
    this.unwatch = store.watch((event) => this.heard(event));
  }

  /** Records a session whose `initialize` succeeded, for `owner`; resolves once every instance can find it. */
  async share(session: LegacySession, owner: string | undefined, ttlMs: number): Promise<void> {
    await this.store.save(session.id, session.record(owner), ttlMs);
    this.hold(session, owner, ttlMs);
  }

  /** The session opened on another instance, rebuilt here; undefined when none is open for `owner`. */
  async find(
    id: string,
    owner: string | undefined,
    ttlMs: number,
  ): Promise<LegacySession | undefined> {
    const record = await this.store.load(id);
    if (!record || record.owner !== owner) return undefined;
    const session = this.open({ id, record });
    this.hold(session, owner, ttlMs);
    return session;
  }

  /** The session was used here: its expiry in the store is extended, at most every quarter of it. */
  touch(session: LegacySession, onError: (error: unknown) => void): void {
    const held = this.held.get(session.id);
    if (!held) return;
    const now = Date.now();
    if (now - held.touched < held.ttlMs / 4) return;
    held.touched = now;
    this.store.touch(session.id, held.ttlMs).catch(onError);
  }

  /** Ends a session on every instance (DELETE); false when none is open by this id for `owner`. */
  async end(id: string, owner: string | undefined): Promise<boolean> {
    const record = await this.store.load(id);
    if (!record || record.owner !== owner) return false;
    this.held.get(id)?.session.close();
    return this.store.remove(id);
  }

  /** Hands the client's answer to the instance whose request waits for it. */
  async forward(session: LegacySession, answer: JsonRpcMessage): Promise<void> {
    await this.store.send({ kind: "answer", id: session.id, message: answer });
  }

  /** Stops hearing events; the copies held here end. */
  close(): void {
    this.unwatch();
    for (const { session } of [...this.held.values()]) session.close();
  }

  private hold(session: LegacySession, owner: string | undefined, ttlMs: number): void {
    this.held.set(session.id, { session, owner, ttlMs, touched: Date.now() });
    session.onChange = () => this.store.save(session.id, session.record(owner), ttlMs);
    session.onClosed = () => {
      if (this.held.get(session.id)?.session === session) this.held.delete(session.id);
    };
  }

  /** An event from some instance (this one included), for a session held here. */
  private heard(event: SessionEvent): void {
    const held = this.held.get(event.id);
    if (!held) return;
    if (event.kind === "ended") held.session.close();
    else if (event.kind === "state") held.session.restore(event.record);
    else held.session.receive(event.message);
  }
}
