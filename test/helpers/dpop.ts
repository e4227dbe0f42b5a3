/**
 * What the DPoP tests sign and serve: an authorization server stand-in on
 * 127.0.0.1 that publishes its metadata and keys (RFC 8414, a JWKS), the
 * access tokens it would issue (RFC 9068, bound to a key with `cnf.jkt`
 * or not), and DPoP proofs (RFC 9449 4.2) with any claim or header changed.
 */
import { createHash, randomUUID, type webcrypto } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import {
  calculateJwkThumbprint,
  exportJWK,
  generateKeyPair,
  SignJWT,
  type JWK,
  type JWTPayload,
} from "jose";

/** A DPoP key pair: the private key, its public JWK and SHA-256 thumbprint. */
export interface DpopTestKey {
  readonly privateKey: webcrypto.CryptoKey;
  readonly jwk: JWK;
  readonly thumbprint: string;
}

/** A new ES256 key pair. */
export async function dpopKey(): Promise<DpopTestKey> {
  const pair = await generateKeyPair("ES256", { extractable: true });
  const { kty, crv, x, y } = await exportJWK(pair.publicKey);
  const jwk = { kty: kty!, crv: crv!, x: x!, y: y! };
  return { privateKey: pair.privateKey, jwk, thumbprint: await calculateJwkThumbprint(jwk) };
}

/** A DPoP proof by `key` for a POST to `htu` with `accessToken`, `change` applied to its claims and header. */
export function dpopProof(
  key: DpopTestKey,
  htu: string,
  accessToken: string,
  change: { header?: Record<string, unknown>; claims?: Record<string, unknown> } = {},
): Promise<string> {
  return new SignJWT({
    htm: "POST",
    htu,
    iat: Math.floor(Date.now() / 1000),
    jti: randomUUID(),
    ath: createHash("sha256").update(accessToken).digest("base64url"),
    ...change.claims,
  })
    .setProtectedHeader({ alg: "ES256", typ: "dpop+jwt", jwk: key.jwk, ...change.header })
    .sign(key.privateKey);
}

/** A stand-in authorization server: its issuer, a way to sign its tokens, and close(). */
export interface TokenIssuer {
  readonly issuer: string;
  /** An access token for `audience`, bound to `jkt` (null: a bearer token). */
  token(audience: string, jkt: string | null, extra?: JWTPayload): Promise<string>;
  close(): Promise<void>;
}

/** Starts a stand-in authorization server on 127.0.0.1 that serves its metadata and JWKS. */
export async function startTokenIssuer(): Promise<TokenIssuer> {
  const pair = await generateKeyPair("ES256", { extractable: true });
  const publicJwk = { ...(await exportJWK(pair.publicKey)), kid: "k1", alg: "ES256" };
  let issuer = "";
  const server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0]!;
    const documents: Record<string, unknown> = {
      "/.well-known/oauth-authorization-server": { issuer, jwks_uri: `${issuer}/jwks` },
      "/jwks": { keys: [publicJwk] },
    };
    const document = documents[path];
    if (document === undefined) return void res.writeHead(404).end();
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(document));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    token: (audience, jkt, extra = {}) =>
      new SignJWT({ scope: "mcp", client_id: "app", ...(jkt ? { cnf: { jkt } } : {}), ...extra })
        .setProtectedHeader({ alg: "ES256", typ: "at+jwt", kid: "k1" })
        .setIssuer(issuer)
        .setAudience(audience)
        .setSubject("alice")
        .setIssuedAt()
        .setExpirationTime("10m")
        .sign(pair.privateKey),
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
