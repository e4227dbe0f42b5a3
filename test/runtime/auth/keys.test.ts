/**
 * Key rotation (templates/runtime/auth): the authorization server's JWKS
 * is fetched once and cached; a token signed with a new `kid` fetches it
 * again, once, and is accepted; another unknown `kid` within the cooldown
 * fetches nothing more and is refused with 401. The authorization server
 * here is a small one of the test's own (metadata and JWKS on 127.0.0.1),
 * so the keys can be rotated at will.
 */
import { createServer, type Server } from "node:http";
import { exportJWK, generateKeyPair, SignJWT, type JWK } from "jose";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { listenOnLoopback, closeServer } from "../../helpers/loopback.js";
import { bearerAuthorization } from "../../../templates/runtime/auth/index.js";
import type { HttpRequest } from "../../../templates/runtime/index.js";

const RESOURCE = "http://127.0.0.1:9/mcp";

type Pair = Awaited<ReturnType<typeof generateKeyPair>>;

describe("JWKS caching and key rotation", () => {
  let server: Server;
  let issuer: string;
  const published: JWK[] = [];
  let jwksFetches = 0;
  const pairs: Record<string, Pair> = {};

  beforeAll(async () => {
    for (const kid of ["k1", "k2", "k3"]) pairs[kid] = await generateKeyPair("ES256");
    published.push({ ...(await exportJWK(pairs.k1!.publicKey)), kid: "k1", alg: "ES256" });
    server = createServer((req, res) => {
      res.setHeader("content-type", "application/json");
      if (req.url === "/.well-known/oauth-authorization-server")
        return res.end(JSON.stringify({ issuer, jwks_uri: `${issuer}/jwks` }));
      if (req.url === "/jwks") {
        jwksFetches++;
        return res.end(JSON.stringify({ keys: published }));
      }
      res.statusCode = 404;
      res.end("{}");
    });
    issuer = await listenOnLoopback(server);
  });
  afterAll(() => closeServer(server));

  const token = (kid: string) =>
    new SignJWT({ scope: "mcp" })
      .setProtectedHeader({ alg: "ES256", typ: "at+jwt", kid })
      .setIssuer(issuer)
      .setAudience(RESOURCE)
      .setSubject("user")
      .setIssuedAt()
      .setExpirationTime("5m")
      .sign(pairs[kid]!.privateKey);
  const requestWith = (value: string): HttpRequest => ({
    method: "POST",
    path: "/mcp",
    query: "",
    header: (name) => (name === "authorization" ? `Bearer ${value}` : undefined),
    body: "",
    signal: new AbortController().signal,
  });
  const statusOf = (verdict: object) => ("status" in verdict ? verdict.status : 200);

  it("fetches the keys once, again once for a new kid, and not for another within the cooldown", async () => {
    // The cooldown is measured on the clock alone (Date), so the test moves the clock rather than
    // waiting: however slow the machine, the steps below fall inside or past it as written.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    try {
      const auth = bearerAuthorization({ issuer, resource: RESOURCE, jwksCooldownMs: 30_000 });
      expect(statusOf(await auth.authenticate(requestWith(await token("k1"))))).toBe(200);
      expect(statusOf(await auth.authenticate(requestWith(await token("k1"))))).toBe(200);
      expect(jwksFetches).toBe(1);

      published.push({ ...(await exportJWK(pairs.k2!.publicKey)), kid: "k2", alg: "ES256" });
      vi.setSystemTime(Date.now() + 31_000);
      expect(statusOf(await auth.authenticate(requestWith(await token("k2"))))).toBe(200);
      expect(jwksFetches).toBe(2);

      // k3 is never published: refused, and no fetch within the cooldown.
      vi.setSystemTime(Date.now() + 20_000);
      expect(statusOf(await auth.authenticate(requestWith(await token("k3"))))).toBe(401);
      expect(statusOf(await auth.authenticate(requestWith(await token("k3"))))).toBe(401);
      expect(jwksFetches).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });
});
