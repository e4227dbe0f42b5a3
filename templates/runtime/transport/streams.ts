/**
 * The streams of one HTTP endpoint that never end by themselves: listen
 * streams (`subscriptions/listen`) and 2025-era GET streams. Each holds a
 * connection for as long as it is open, so without bounds a client that
 * opens them by the thousand holds every connection the server has, and
 * no one else is served. So each client may hold a few at once, the
 * endpoint a bounded number in all (below the connection cap of serveHttp),
 * and every stream ends once it has sent no message for a while (the
 * keep-alive comments do not count: they keep proxies from closing a
 * quiet stream, they are not the client's business) or once it has been
 * open for its lifetime. A listen stream that ends so gets its closing
 * result (spec: subscriptions, graceful closure) and its client listens
 * again; a GET stream's client opens it again (spec 2025-11-25).
 *
 * A client is whom its token acts for when authorization is on, else its
 * address (on node:http; a Fetch runtime gives none, and then only the
 * count in all applies, unless the adapter is given the address).
 */
import { Codes, McpError } from "../core/errors.js";

/** How many streams are kept, and how long. */
export interface StreamLimits {
  /** The most streams one client holds at once (default 16). */
  readonly perClient: number;
  /** The most streams the endpoint holds at once (default 500). */
  readonly max: number;
  /** A stream that has sent no message for this long ends (default 10 minutes). */
  readonly idleMs: number;
  /** A stream open this long ends, whatever it sends (default one hour). */
  readonly lifetimeMs: number;
}

/** The defaults of StreamLimits. */
export const STREAM_DEFAULTS: StreamLimits = {
  perClient: 16,
  max: 500,
  idleMs: 10 * 60_000,
  lifetimeMs: 60 * 60_000,
};

/** How a stream ends on the server's initiative. */
export type StreamEnd = "idle" | "lifetime";

/** One stream being held: `release` forgets it (at its end, whichever side ended it). */
export interface HeldStream {
  release(): void;
}

/** The long-lived streams of one endpoint (see the file's comment). */
export class LongLivedStreams {
  private readonly byClient = new Map<string, number>();
  private total = 0;

  constructor(
    readonly limits: StreamLimits = STREAM_DEFAULTS,
    private readonly now: () => number = Date.now,
  ) {}

  /** How many streams are held now. */
  get size(): number {
    return this.total;
  }

  /**
   * Holds a new stream of `client` (undefined: a client that cannot be told
   * apart, counted in all only). `lastMessageAt` says when the stream last
   * sent a message; `end` is called once when the stream has been idle or
   * open too long. The McpError says which limit a refused stream is past.
   */
  hold(
    client: string | undefined,
    lastMessageAt: () => number,
    end: (why: StreamEnd) => void,
  ): HeldStream | McpError {
    const refusal = this.refusal(client);
    if (refusal) return refusal;
    this.total++;
    if (client !== undefined) this.byClient.set(client, (this.byClient.get(client) ?? 0) + 1);
    const openedAt = this.now();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let released = false;
    const check = () => {
      const now = this.now();
      const until = Math.min(
        openedAt + this.limits.lifetimeMs,
        lastMessageAt() + this.limits.idleMs,
      );
      if (now < until) {
        timer = setTimeout(check, until - now);
        timer.unref?.();
        return;
      }
      end(now >= openedAt + this.limits.lifetimeMs ? "lifetime" : "idle");
    };
    timer = setTimeout(check, Math.min(this.limits.idleMs, this.limits.lifetimeMs));
    timer.unref?.();
    return {
      release: () => {
        if (released) return;
        released = true;
        clearTimeout(timer);
        this.total--;
        if (client === undefined) return;
        const left = (this.byClient.get(client) ?? 1) - 1;
        if (left === 0) this.byClient.delete(client);
        else this.byClient.set(client, left);
      },
    };
  }

  /** Why a new stream of `client` is refused, or undefined when it may open. */
  private refusal(client: string | undefined): McpError | undefined {
    if (client !== undefined && (this.byClient.get(client) ?? 0) >= this.limits.perClient)
      return new McpError(
        Codes.InvalidRequest,
        `Too many open streams: this client holds ${this.limits.perClient} listen or GET streams, the most one client may (MCP_MAX_LISTEN_STREAMS_PER_CLIENT); close one first`,
        { limit: this.limits.perClient },
      );
    if (this.total >= this.limits.max)
      return new McpError(
        Codes.InvalidRequest,
        `Too many open streams: the server holds ${this.limits.max} listen or GET streams, the most it keeps open (MCP_MAX_LISTEN_STREAMS); try again later`,
        { limit: this.limits.max },
      );
    return undefined;
  }
}
