/**
 * An MCP server: its features (features.ts) and the two entry points a
 * transport calls, one per era. A transport hands a modern message to
 * `serve`; for a legacy client it opens a session on `initialize` and
 * hands the session's messages to it. Nothing here knows what carries the
 * messages.
 */
import type { Exchange, Outcome } from "../core/exchange.js";
import type { JsonRpcMessage } from "../core/jsonrpc.js";
import type { ServerOptions } from "./definitions.js";
import { ServerFeatures } from "./features.js";
import { LegacySession } from "./legacy.js";
import { serveModern } from "./modern.js";
import type { SessionStore } from "./session-store.js";
import { SharedLegacySessions } from "./shared-sessions.js";
import type { ServerTypes, UntypedServer } from "./typed.js";

/**
 * An MCP server, to register features on and hand to a transport
 * (`serveHttp`, `serveStdio`); `McpServer<Types>` types its handlers by
 * the generated maps of the revision served.
 */
export class McpServer<T extends ServerTypes = UntypedServer> extends ServerFeatures<T> {
  private readonly sessionStore?: SessionStore;
  private shared?: SharedLegacySessions;

  constructor(options: ServerOptions) {
    super(options);
    this.sessionStore = options.sessions;
  }

  /**
   * The legacy sessions every instance shares, when a session store is set
   * (ServerOptions.sessions) and legacy clients are served; the transport
   * finds here a session opened on another instance.
   */
  get sharedSessions(): SharedLegacySessions | undefined {
    if (!this.sessionStore || !this.legacy) return undefined;
    this.shared ??= new SharedLegacySessions(
      this.sessionStore,
      (restored) => new LegacySession(this, restored),
    );
    return this.shared;
  }

  /** Releases what the server holds: {@link ServerFeatures.close}, and the shared sessions' store. */
  override async close(): Promise<void> {
    this.shared?.close();
    await Promise.all([super.close(), this.sessionStore?.close()]);
  }
  /** Whether clients that open with `initialize` (2025-11-25 and earlier) are served too. */
  get servesLegacy(): boolean {
    return this.legacy !== undefined;
  }

  /** Serves one modern-era message (a request or notification carrying the `_meta` envelope). */
  serve(message: JsonRpcMessage, exchange: Exchange): Promise<Outcome> {
    return serveModern(this, message, exchange);
  }

  /** Opens a legacy session, for a client that opens with `initialize`. */
  openSession(): LegacySession {
    return new LegacySession(this);
  }
}
