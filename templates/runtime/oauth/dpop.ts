/**
 * A client's DPoP key (RFC 9449; MCP's DPoP extension, SEP-1932): one key
 * pair per grant, kept with the grant's tokens (StoredGrant.dpop_key), so a
 * token bound to it (`cnf.jkt`) is only of use with it.
 *
 * - Token requests carry a proof made by oauth4webapi's DPoP handle
 *   (`DPoP` option of its grant requests), which also keeps the nonces an
 *   authorization server asks for.
 * - Requests to the MCP server carry a proof signed here with jose: `htm`
 *   and `htu` of that request, a fresh `iat` and `jti`, `ath` (the token's
 *   SHA-256) and the nonce the server last asked for (RFC 9449 9).
 */
import { createHash, randomUUID } from "node:crypto";
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, SignJWT } from "jose";
import type { JWK } from "jose";
import * as oauth from "oauth4webapi";

/** The proof algorithm: ES256, which every DPoP server supports (RFC 9449 4.2 names no default). */
export const DPOP_ALGORITHM = "ES256";
/** The longest nonce kept from a server; RFC 9449's nonce is printable ASCII without space, `"` or `\`. */
const MAX_NONCE_LENGTH = 512;
/** The most servers whose nonces are kept at once; the oldest goes first. */
const MAX_NONCES = 64;
const NONCE = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

/** One DPoP key pair and what is made with it. */
export class DpopKey {
  private handle?: oauth.DPoPHandle;
  /** The nonce each resource server asked for last, by origin. */
  private readonly nonces = new Map<string, string>();

  private constructor(
    private readonly pair: oauth.CryptoKeyPair,
    /** The public key, as sent in every proof's `jwk` header. */
    readonly publicJwk: JWK,
    /** Its SHA-256 JWK thumbprint (RFC 7638), the `jkt` a bound token names. */
    readonly thumbprint: string,
  ) {}

  /** A new key pair. */
  static async generate(): Promise<DpopKey> {
    const pair = await generateKeyPair(DPOP_ALGORITHM, { extractable: true });
    return DpopKey.of(pair);
  }

  /**
   * The key pair kept as a private JWK (from StoredGrant.dpop_key);
   * undefined when it cannot be one, so a damaged store means a new grant.
   */
  static async fromJwk(jwk: unknown): Promise<DpopKey | undefined> {
    if (typeof jwk !== "object" || jwk === null) return undefined;
    const { kty, crv, x, y, d } = jwk as Record<string, unknown>;
    if (kty !== "EC" || crv !== "P-256" || [x, y, d].some((part) => typeof part !== "string"))
      return undefined;
    try {
      const privateKey = await importJWK({ kty, crv, x, y, d } as JWK, DPOP_ALGORITHM, {
        extractable: true,
      });
      const publicKey = await importJWK({ kty, crv, x, y } as JWK, DPOP_ALGORITHM, {
        extractable: true,
      });
      if (privateKey instanceof Uint8Array || publicKey instanceof Uint8Array) return undefined;
      return await DpopKey.of({ privateKey, publicKey });
    } catch {
      return undefined;
    }
  }

  private static async of(pair: oauth.CryptoKeyPair): Promise<DpopKey> {
    const { kty, crv, x, y } = await exportJWK(pair.publicKey);
    const publicJwk: JWK = { kty: kty!, crv: crv!, x: x!, y: y! };
    return new DpopKey(pair, publicJwk, await calculateJwkThumbprint(publicJwk, "sha256"));
  }

  /** The private key as a JWK, to be kept with the grant (the token store's file rules protect it). */
  async toJwk(): Promise<JWK> {
    const { kty, crv, x, y, d } = await exportJWK(this.pair.privateKey);
    return { kty: kty!, crv: crv!, x: x!, y: y!, d: d! };
  }

  /** oauth4webapi's handle for token requests: the same key, and the authorization server's nonces. */
  tokenRequests(): oauth.DPoPHandle {
    this.handle ??= oauth.DPoP({}, this.pair);
    return this.handle;
  }

  /**
   * The DPoP header for a request to a resource server: `method` and
   * `url` of this request (no query or fragment in `htu`), a new `jti`,
   * `ath` of `accessToken`, and the server's nonce when it gave one.
   */
  async proof(method: string, url: URL, accessToken: string): Promise<string> {
    const nonce = this.nonces.get(url.origin);
    return new SignJWT({
      htm: method,
      htu: `${url.origin}${url.pathname}`,
      ath: createHash("sha256").update(accessToken).digest("base64url"),
      ...(nonce !== undefined ? { nonce } : {}),
    })
      .setProtectedHeader({ alg: DPOP_ALGORITHM, typ: "dpop+jwt", jwk: this.publicJwk })
      .setIssuedAt()
      .setJti(randomUUID())
      .sign(this.pair.privateKey);
  }

  /**
   * Keeps the nonce a resource server at `url` asked for (its `DPoP-Nonce`
   * header). False when there is none, or it is not a nonce: a value that
   * breaks the grammar is never put in a proof.
   */
  keepNonce(url: URL, nonce: string | undefined): boolean {
    if (nonce === undefined || nonce.length > MAX_NONCE_LENGTH || !NONCE.test(nonce)) return false;
    this.nonces.delete(url.origin);
    if (this.nonces.size >= MAX_NONCES) this.nonces.delete(this.nonces.keys().next().value!);
    this.nonces.set(url.origin, nonce);
    return true;
  }

  /** Whether `nonce` is the one kept for `url`'s server (a second use_dpop_nonce with it means the server will not take it). */
  hasNonce(url: URL, nonce: string): boolean {
    return this.nonces.get(url.origin) === nonce;
  }
}
