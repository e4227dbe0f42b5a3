/**
 * What a transport needs of the side it serves. McpServer (../server) has
 * this shape; the transport never imports it, so the transport depends on
 * core/ alone and a project without a server carries it unchanged.
 */
import type { Exchange, NotificationSink, Outcome } from "../core/exchange.js";
import type { HeaderParameter } from "../core/headers.js";
import type { JsonRpcMessage } from "../core/jsonrpc.js";

/** A legacy session (2025-11-25 and earlier), opened by `initialize`. */
export interface ServedSession {
  /** The session's id (HTTP: Mcp-Session-Id). */
  readonly id: string;
  /** The protocol version `initialize` negotiated (empty before); decides whether batches are allowed. */
  readonly protocolVersion: string;
  /** The stream for messages that belong to no request (HTTP: the GET stream; stdio: the connection). */
  standalone?: NotificationSink;
  /** Serves a request or notification of this session. */
  serve(message: JsonRpcMessage, exchange: Exchange): Promise<Outcome>;
  /** Takes the client's answer to a request the server sent; false when none waits for it. */
  receive(answer: JsonRpcMessage): boolean;
  /** Ends the session: what waits fails, what runs is aborted. */
  close(): void;
  /** Set once the session ended (here, or on another instance of a server sharing sessions). */
  readonly closed?: boolean;
  /** Aborted when the session ends (here, or on another instance): the transport ends its streams. */
  readonly closedSignal?: AbortSignal;
}

/**
 * Legacy sessions several instances of a server share (a shared session
 * store): a session opened on one instance is served by any. Every call
 * that reaches the store has a deadline and rejects past it.
 */
export interface SharedSessions {
  /** Records a session whose `initialize` succeeded, for `owner`; resolves once every instance can find it. */
  share(session: ServedSession, owner: string | undefined, ttlMs: number): Promise<void>;
  /** A session opened on another instance, rebuilt here; undefined when none is open by this id for `owner`. */
  find(id: string, owner: string | undefined, ttlMs: number): Promise<ServedSession | undefined>;
  /** The session was used here: its expiry is extended (now and then, not on every request). */
  touch(session: ServedSession, onError: (error: unknown) => void): void;
  /** Ends a session on every instance; false when none is open by this id for `owner`. */
  end(id: string, owner: string | undefined): Promise<boolean>;
  /** Hands the client's answer to the instance whose request waits for it. */
  forward(session: ServedSession, answer: JsonRpcMessage): Promise<void>;
}

/** The side a transport serves: a server. */
export interface ServedSide {
  /** Whether clients that open with `initialize` are served too. */
  readonly servesLegacy: boolean;
  /** Serves one modern-era message. */
  serve(message: JsonRpcMessage, exchange: Exchange): Promise<Outcome>;
  /** Opens a legacy session. */
  openSession(): ServedSession;
  /** Legacy sessions shared with the other instances, when the side has a shared session store. */
  readonly sharedSessions?: SharedSessions;
  /** The `x-mcp-header` parameters of a tool, which HTTP requests mirror into `Mcp-Param-*` headers. */
  headerParameters(tool: string): readonly HeaderParameter[];
  /** The params member a request mirrors into `Mcp-Name` (the core's, or a merged extension's; nameParameterOf). */
  nameParameter?(method: string): string | undefined;
  /** What a deployment of several instances should know at start (HTTP prints these as warnings). */
  deploymentWarnings?(): readonly string[];
  /** Reports a failure no client should see the details of. */
  onError(error: unknown, where: string): void;
  /**
   * Called once the transport has stopped serving (graceful shutdown):
   * work that outlives requests (tasks) gets `graceMs` to end, the rest is
   * ended, and what the side holds is released.
   */
  shutdown?(graceMs: number): Promise<void>;
}
