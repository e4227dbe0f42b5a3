/**
 * Access tokens checked by asking the authorization server (RFC 7662 token
 * introspection), for servers whose tokens are opaque: the token is posted
 * to the introspection endpoint with this server's client credentials, and
 * only an answer that says it is active, for this resource, from the
 * configured issuer and not expired is accepted.
 *
 * Answers are cached by a hash of the token (never the token itself) for a
 * short time and never past the token's `exp`, so a token revoked at the
 * authorization server stops working within `cacheSeconds`. Refusals are
 * not cached: they cost the authorization server one request each.
 */
import { createHash } from "node:crypto";
import type { Authorization } from "../core/exchange.js";
import { fetchBounded, MAX_FETCH_BYTES, type BoundedAnswer } from "../transport/bounded-fetch.js";

/** How the introspection endpoint is reached. */
export interface IntrospectionOptions {
  /** The introspection endpoint (MCP_AUTH_INTROSPECTION_URL). */
  readonly url: string;
  /** This server's client ID at the authorization server (MCP_AUTH_CLIENT_ID). */
  readonly clientId: string;
  /** Its client secret (MCP_AUTH_CLIENT_SECRET), sent with HTTP Basic (RFC 6749 2.3.1). */
  readonly clientSecret: string;
  /** How long an active answer may be reused, in seconds (default 30; 0 asks every time); never past the token's `exp`. */
  readonly cacheSeconds?: number;
  /** The most answers kept at once (default 10000); the oldest goes first. */
  readonly cacheEntries?: number;
}

/** A token the authorization server does not vouch for; `description` never quotes it. */
export class InvalidToken extends Error {
  override readonly name = "InvalidToken";
}

/** Why the introspection endpoint could not answer (unreachable, slow, or it refused our credentials). */
export class IntrospectionUnavailable extends Error {
  override readonly name = "IntrospectionUnavailable";
}

/** What the introspection check needs from the server it protects. */
export interface IntrospectionContext {
  readonly issuer: string;
  readonly resource: string;
  readonly timeoutMs: number;
  /** The largest answer read, in bytes (default 1 MiB). */
  readonly maxResponseBytes?: number;
  readonly clockToleranceSeconds: number;
  readonly fetch: typeof fetch;
}

/** One cached answer: the Authorization and until when (ms since the epoch) it may be reused. */
interface CacheEntry {
  readonly authorization: Authorization;
  readonly until: number;
}

/** RFC 7662 introspection of bearer tokens, with a short cache bounded by each token's `exp`. */
export class Introspection {
  private readonly cache = new Map<string, CacheEntry>();
  private readonly cacheMs: number;
  private readonly cacheEntries: number;
  private readonly basic: string;

  constructor(
    private readonly options: IntrospectionOptions,
    private readonly context: IntrospectionContext,
  ) {
    this.cacheMs = (options.cacheSeconds ?? 30) * 1000;
    this.cacheEntries = options.cacheEntries ?? 10_000;
    // RFC 6749 2.3.1: both parts form-urlencoded before base64.
    const encode = (text: string) => encodeURIComponent(text).replace(/%20/g, "+");
    this.basic = `Basic ${Buffer.from(`${encode(options.clientId)}:${encode(options.clientSecret)}`).toString("base64")}`;
  }

  /** Who `token` acts for; throws InvalidToken (401) or IntrospectionUnavailable (503). */
  async check(token: string, now = Date.now()): Promise<Authorization> {
    const key = createHash("sha256").update(token).digest("base64url");
    const cached = this.cache.get(key);
    if (cached !== undefined) {
      if (cached.until > now) return cached.authorization;
      this.cache.delete(key);
    }
    const answer = await this.ask(token);
    const authorization = this.accepted(answer, now);
    this.remember(key, authorization, now);
    return authorization;
  }

  /** Posts the token to the introspection endpoint; the answer's JSON object. */
  private async ask(token: string): Promise<Record<string, unknown>> {
    let response: BoundedAnswer;
    try {
      response = await fetchBounded(
        this.options.url,
        {
          method: "POST",
          headers: {
            "content-type": "application/x-www-form-urlencoded",
            accept: "application/json",
            authorization: this.basic,
          },
          body: new URLSearchParams({ token, token_type_hint: "access_token" }).toString(),
        },
        {
          timeoutMs: this.context.timeoutMs,
          maxBytes: this.context.maxResponseBytes ?? MAX_FETCH_BYTES,
          fetch: this.context.fetch,
        },
      );
    } catch (error) {
      throw new IntrospectionUnavailable(
        `the introspection endpoint ${this.options.url} cannot be reached (${error instanceof Error ? error.message : String(error)}); check MCP_AUTH_INTROSPECTION_URL and that the authorization server is up`,
        { cause: error },
      );
    }
    let body: unknown;
    try {
      body = JSON.parse(response.text);
    } catch {
      body = undefined;
    }
    const object =
      typeof body === "object" && body !== null && !Array.isArray(body)
        ? (body as Record<string, unknown>)
        : undefined;
    // A token the endpoint will not introspect at all (a JWT at some servers) is the token's fault, not ours.
    if (response.status === 400 && object?.error === "unsupported_token_type")
      throw new InvalidToken("the authorization server does not accept this kind of token");
    if (response.status === 401 || response.status === 403)
      throw new IntrospectionUnavailable(
        `the introspection endpoint ${this.options.url} refused this server's client credentials (HTTP ${response.status}${object && typeof object.error === "string" ? ` ${object.error}` : ""}); check MCP_AUTH_CLIENT_ID and MCP_AUTH_CLIENT_SECRET`,
      );
    if (response.status !== 200 || object === undefined)
      throw new IntrospectionUnavailable(
        `the introspection endpoint ${this.options.url} answered HTTP ${response.status}${object === undefined ? " without a JSON object" : ""}; check MCP_AUTH_INTROSPECTION_URL`,
      );
    return object;
  }

  /** The Authorization an introspection answer grants, or InvalidToken saying what is wrong with it. */
  private accepted(answer: Record<string, unknown>, now: number): Authorization {
    if (answer.active !== true) throw new InvalidToken("the token is not active");
    const seconds = now / 1000;
    const skew = this.context.clockToleranceSeconds;
    if (typeof answer.exp === "number" && answer.exp + skew <= seconds)
      throw new InvalidToken("the token has expired");
    if (typeof answer.nbf === "number" && answer.nbf - skew > seconds)
      throw new InvalidToken("the token is not valid yet");
    if (answer.iss !== undefined && answer.iss !== this.context.issuer)
      throw new InvalidToken("the token's iss claim is not accepted");
    // The audience must name this resource (RFC 8707); an answer without `aud` cannot show that.
    const audience = typeof answer.aud === "string" ? [answer.aud] : answer.aud;
    if (!Array.isArray(audience) || !audience.includes(this.context.resource))
      throw new InvalidToken("the token's aud claim is not accepted");
    // RFC 9449 6.2: a DPoP-bound token introspects as token_type DPoP, with the key in cnf.jkt.
    const type = typeof answer.token_type === "string" ? answer.token_type.toLowerCase() : "bearer";
    const jkt = (answer.cnf as Record<string, unknown> | undefined)?.jkt;
    if (type !== "bearer" && !(type === "dpop" && typeof jkt === "string"))
      throw new InvalidToken("the token is not a bearer or DPoP-bound access token");
    // A sender-constrained token's `cnf` goes on with the claims: a DPoP-bound one (`jkt`) needs
    // its proof, any other binding is refused (dpop.ts).
    const scope = typeof answer.scope === "string" ? answer.scope : "";
    return {
      subject: typeof answer.sub === "string" ? answer.sub : undefined,
      clientId: typeof answer.client_id === "string" ? answer.client_id : undefined,
      scopes: scope.split(" ").filter((s) => s !== ""),
      expiresAt: typeof answer.exp === "number" ? answer.exp : undefined,
      claims: answer,
    };
  }

  /** Keeps an accepted answer until the cache time or the token's `exp`, whichever comes first. */
  private remember(key: string, authorization: Authorization, now: number): void {
    const expires =
      authorization.expiresAt !== undefined ? authorization.expiresAt * 1000 : Infinity;
    const until = Math.min(now + this.cacheMs, expires);
    if (until <= now) return;
    if (this.cache.size >= this.cacheEntries) {
      const oldest = this.cache.keys().next();
      if (!oldest.done) this.cache.delete(oldest.value);
    }
    this.cache.set(key, { authorization, until });
  }
}
