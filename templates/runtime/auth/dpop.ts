/**
 * DPoP-bound access tokens at the protected resource (RFC 9449 7; MCP's
 * DPoP extension, SEP-1932). A token whose claims carry `cnf.jkt` is
 * accepted only with the DPoP scheme and a valid proof for this request
 * (RFC 9449 4.3):
 *
 * - one `DPoP` header, a JWT of `typ` dpop+jwt signed with an accepted
 *   asymmetric algorithm by the public key in its `jwk` header (jose's
 *   EmbeddedJWK, which refuses a private key);
 * - `htm` the request's method, `htu` its URL without query or fragment
 *   (this server's public origin and the request's path);
 * - `iat` within the window (`windowSeconds` in the past, the clock
 *   tolerance in the future), `ath` the SHA-256 of the token;
 * - the key's SHA-256 thumbprint equal to `cnf.jkt`;
 * - `jti` not seen before from that key: a replay cache (memory, or
 *   Redis when instances share it: scale/redis-replay-cache.ts) keeps each
 *   one for as long as its proof could be accepted. It is claimed last, so
 *   only the holder of the bound key can add to it.
 *
 * Refusals are 401 with a `DPoP` challenge naming the error and the
 * accepted algorithms, all from this server's configuration; a replay
 * cache that cannot be asked is 503, never 401. Nothing of the token or
 * the proof is quoted or logged.
 */
import { createHash } from "node:crypto";
import { calculateJwkThumbprint, EmbeddedJWK, jwtVerify, type JWTPayload } from "jose";
import { McpError } from "../core/errors.js";
import { errorReply, type HttpReply, type HttpRequest } from "../transport/http-reply.js";

/** Whether bearer tokens are still accepted beside DPoP-bound ones (MCP_AUTH_DPOP). */
export type DpopMode = "allowed" | "required";

/** Proof algorithms accepted by default: asymmetric only. */
export const DPOP_ALGORITHMS: readonly string[] = ["ES256", "PS256", "RS256", "EdDSA"];
/** Default of {@link DpopOptions.windowSeconds}. */
export const DEFAULT_DPOP_WINDOW_SECONDS = 60;
/** Default of {@link MemoryReplayCache}'s capacity. */
export const DEFAULT_REPLAY_ENTRIES = 100_000;
/** The longest DPoP header read; a proof is a few hundred bytes (an RSA key a little more). */
const MAX_PROOF_LENGTH = 8192;
/** The longest `jti` accepted. */
const MAX_JTI_LENGTH = 256;

/**
 * Remembers proof identifiers (a hash of the key's thumbprint and the
 * proof's `jti`), each until it expires.
 */
export interface ReplayCache {
  /**
   * Records `id` until `expiresAtMs` (ms since the epoch). Resolves true
   * when it was new, false when it was already there (a replay); rejects
   * when the cache cannot be asked (the request then gets 503).
   */
  claim(id: string, expiresAtMs: number): Promise<boolean>;
}

/** How DPoP proofs are checked. */
export interface DpopOptions {
  /** `allowed` (default): bearer tokens too; `required`: DPoP-bound tokens only. */
  readonly mode?: DpopMode;
  /** Proof algorithms accepted (default ES256, PS256, RS256, EdDSA; never `none` nor an HMAC). */
  readonly algorithms?: readonly string[];
  /** How old a proof may be, in seconds (default 60). */
  readonly windowSeconds?: number;
  /** Where proofs seen are kept (default: this process's memory, 100 000 at most). */
  readonly replayCache?: ReplayCache;
}

/** Why a request's DPoP failed: the error code of its challenge and words that quote nothing of it. */
class DpopRefusal extends Error {
  constructor(
    readonly error: "invalid_token" | "invalid_dpop_proof",
    message: string,
  ) {
    super(message);
  }
}

/** A replay cache that could not be asked (Redis down, full): the proof may be fine, so 503. */
export class ReplayCacheUnavailable extends Error {
  override readonly name = "ReplayCacheUnavailable";
}

/** The DPoP side of a protected resource: metadata, challenges and the check of a token's binding. */
export class DpopCheck {
  readonly mode: DpopMode;
  private readonly origin: string;
  readonly algorithms: readonly string[];
  private readonly windowSeconds: number;
  private readonly replays: ReplayCache;

  constructor(
    options: DpopOptions,
    /** The resource (this server's canonical URI): its origin is the one of every `htu`. */
    resource: string,
    /** The URL of the protected resource metadata, named in every challenge. */
    private readonly metadataUrl: string,
    private readonly toleranceSeconds: number,
    private readonly report: (message: string) => void,
  ) {
    this.origin = new URL(resource).origin;
    this.mode = options.mode ?? "allowed";
    if (this.mode !== "allowed" && this.mode !== "required")
      throw new TypeError(
        `Authorization: DPoP mode ${JSON.stringify(this.mode)} is not allowed or required (MCP_AUTH_DPOP)`,
      );
    this.algorithms = [...(options.algorithms ?? DPOP_ALGORITHMS)];
    const weak = this.algorithms.filter((a) => !/^(?:ES|PS|RS)(?:256|384|512)$|^EdDSA$/.test(a));
    if (weak.length > 0 || this.algorithms.length === 0)
      throw new TypeError(
        `Authorization: DPoP proofs need asymmetric algorithms (ES256, PS256, RS256, EdDSA), not ${weak.join(", ") || "none"}`,
      );
    this.windowSeconds = options.windowSeconds ?? DEFAULT_DPOP_WINDOW_SECONDS;
    this.replays = options.replayCache ?? new MemoryReplayCache();
  }

  /** What the protected resource metadata says of DPoP (RFC 9449 5.2 via RFC 9728 2). */
  metadata(): Record<string, unknown> {
    return {
      dpop_signing_alg_values_supported: [...this.algorithms],
      dpop_bound_access_tokens_required: this.mode === "required",
    };
  }

  /**
   * The `DPoP` challenge (RFC 9449 7.1), with the metadata's URL (RFC 9728
   * 5.1): only this server's configuration and its own words, never a
   * value from the request.
   */
  challenge(options: { scope?: string; error?: string; description?: string } = {}): string {
    const parts = [`resource_metadata="${this.metadataUrl}"`];
    if (options.scope) parts.push(`scope="${options.scope}"`);
    if (options.error)
      parts.push(`error="${options.error}"`, `error_description="${options.description ?? ""}"`);
    parts.push(`algs="${this.algorithms.join(" ")}"`);
    return `DPoP ${parts.join(", ")}`;
  }

  /**
   * Checks what binds the verified token to this request; undefined when
   * it may be used, else the refusal (401 with a DPoP challenge, or 503).
   */
  async confirm(
    request: HttpRequest,
    scheme: "bearer" | "dpop",
    token: string,
    claims: Readonly<Record<string, unknown>>,
  ): Promise<HttpReply | undefined> {
    try {
      await this.check(request, scheme, token, claims);
      return undefined;
    } catch (error) {
      if (error instanceof DpopRefusal)
        return refusal(
          401,
          error.message,
          this.challenge({ error: error.error, description: error.message }),
        );
      this.report(`Authorization: cannot check DPoP proofs: ${(error as Error).message}`);
      return refusal(
        503,
        "Service Unavailable: DPoP proofs cannot be checked for replay now; try again later",
      );
    }
  }

  private async check(
    request: HttpRequest,
    scheme: "bearer" | "dpop",
    token: string,
    claims: Readonly<Record<string, unknown>>,
  ): Promise<void> {
    const cnf = claims.cnf;
    const bound =
      typeof cnf === "object" && cnf !== null ? (cnf as Record<string, unknown>).jkt : undefined;
    const jkt = typeof bound === "string" ? bound : undefined;
    if (cnf !== undefined && jkt === undefined)
      throw new DpopRefusal(
        "invalid_token",
        "the token is bound to a key this server cannot check",
      );
    if (jkt === undefined) {
      if (scheme === "dpop")
        throw new DpopRefusal(
          "invalid_token",
          "the token is not bound to a key: send it as a Bearer token",
        );
      if (this.mode === "required")
        throw new DpopRefusal("invalid_token", "this server accepts only DPoP-bound tokens");
      return;
    }
    if (scheme === "bearer")
      throw new DpopRefusal(
        "invalid_token",
        "the token is bound to a key: send it with the DPoP scheme and a DPoP proof",
      );
    await this.checkProof(request, token, jkt);
  }

  /** RFC 9449 4.3, in order of cost; the replay cache last. */
  private async checkProof(request: HttpRequest, token: string, jkt: string): Promise<void> {
    const proof = request.header("dpop");
    if (proof === undefined)
      throw new DpopRefusal("invalid_dpop_proof", "a DPoP-bound token needs a DPoP proof header");
    if (proof.length > MAX_PROOF_LENGTH || proof.includes(","))
      throw new DpopRefusal("invalid_dpop_proof", "send exactly one DPoP proof, a JWT");
    let payload: JWTPayload;
    let key: Readonly<Record<string, unknown>>;
    try {
      const verified = await jwtVerify(proof, EmbeddedJWK, {
        typ: "dpop+jwt",
        algorithms: [...this.algorithms],
      });
      payload = verified.payload;
      key = verified.protectedHeader.jwk as Record<string, unknown>;
    } catch {
      throw new DpopRefusal(
        "invalid_dpop_proof",
        "the DPoP proof is not a dpop+jwt signed by the public key in its header with an accepted algorithm",
      );
    }
    if (payload.htm !== request.method)
      throw new DpopRefusal("invalid_dpop_proof", "the DPoP proof is for another HTTP method");
    if (!this.sameTarget(payload.htu, request.path))
      throw new DpopRefusal("invalid_dpop_proof", "the DPoP proof is for another URL");
    const now = Math.floor(Date.now() / 1000);
    const iat = payload.iat;
    if (
      typeof iat !== "number" ||
      iat < now - this.windowSeconds - this.toleranceSeconds ||
      iat > now + this.toleranceSeconds
    )
      throw new DpopRefusal(
        "invalid_dpop_proof",
        "the DPoP proof's iat is outside the accepted window",
      );
    if (payload.ath !== createHash("sha256").update(token).digest("base64url"))
      throw new DpopRefusal(
        "invalid_dpop_proof",
        "the DPoP proof's ath is not the hash of this token",
      );
    if ((await calculateJwkThumbprint(key, "sha256")) !== jkt)
      throw new DpopRefusal(
        "invalid_dpop_proof",
        "the DPoP proof is signed by a key other than the token's",
      );
    const jti = payload.jti;
    if (typeof jti !== "string" || jti === "" || jti.length > MAX_JTI_LENGTH)
      throw new DpopRefusal("invalid_dpop_proof", "the DPoP proof has no usable jti");
    const id = createHash("sha256").update(`${jkt}\n${jti}`).digest("base64url");
    // Kept while the proof could still be accepted.
    const until = (iat + this.windowSeconds + this.toleranceSeconds + 1) * 1000;
    let fresh: boolean;
    try {
      fresh = await this.replays.claim(id, until);
    } catch (error) {
      throw new ReplayCacheUnavailable((error as Error).message, { cause: error });
    }
    if (!fresh) throw new DpopRefusal("invalid_dpop_proof", "the DPoP proof was used before");
  }

  /** Whether `htu` is this request's URL: our public origin and its path, query and fragment left out. */
  private sameTarget(htu: unknown, path: string): boolean {
    if (typeof htu !== "string" || !URL.canParse(htu)) return false;
    const url = new URL(htu);
    return url.origin === this.origin && url.pathname === new URL(path, this.origin).pathname;
  }
}

/**
 * Proof identifiers in this process's memory, at most `maxEntries`. They
 * expire in about the order they come (every proof has the same window),
 * so expired ones are dropped from the oldest on. A cache still full of
 * live proofs refuses to take more (the request gets 503, and a report):
 * forgetting one would let its replay through.
 */
export class MemoryReplayCache implements ReplayCache {
  private readonly entries = new Map<string, number>();

  constructor(private readonly maxEntries = DEFAULT_REPLAY_ENTRIES) {}

  claim(id: string, expiresAtMs: number): Promise<boolean> {
    const now = Date.now();
    const seen = this.entries.get(id);
    if (seen !== undefined && seen > now) return Promise.resolve(false);
    this.entries.delete(id);
    for (const [oldest, until] of this.entries) {
      if (until > now && this.entries.size < this.maxEntries) break;
      if (until > now)
        return Promise.reject(
          new Error(
            `the DPoP replay cache holds ${this.maxEntries} live proofs (raise MCP_AUTH_DPOP_REPLAY_ENTRIES, or share it through Redis)`,
          ),
        );
      this.entries.delete(oldest);
    }
    this.entries.set(id, expiresAtMs);
    return Promise.resolve(true);
  }
}

function refusal(status: 401 | 503, message: string, challenge?: string): HttpReply {
  const reply = errorReply(
    status,
    null,
    new McpError(
      status === 401 ? -32001 : -32000,
      status === 401 ? `Unauthorized: ${message}` : message,
    ),
  );
  return challenge === undefined
    ? reply
    : { ...reply, headers: { "content-type": "application/json", "www-authenticate": challenge } };
}
