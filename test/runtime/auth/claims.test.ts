/**
 * What the server's token checks (templates/runtime/auth) accept and refuse,
 * claim by claim, against a node:http stand-in for the authorization server
 * on 127.0.0.1 whose every answer the test chooses: its metadata, its JWKS
 * and an introspection endpoint.
 *
 * - JWT access tokens (RFC 9068): the `typ` header, `sub` and `iat`
 *   required, `nbf` and `exp` within the clock skew and not past it, an
 *   issuer that is not the configured one.
 * - Introspection (RFC 7662): `aud` required and naming this resource,
 *   `cnf` (a sender-constrained token) refused as a bearer token, `token_type` other than
 *   bearer refused, refusals not cached, answers cached under a hash of the
 *   token, never the token itself.
 * - The token itself never reaches a handler's context.
 *
 * Each refusal is told apart from the others by its error description, and
 * each has an accepted control that differs from it in that one claim.
 */
import { createHash } from "node:crypto";
import type { webcrypto } from "node:crypto";
import { createServer, type Server } from "node:http";
import { exportJWK, generateKeyPair, SignJWT, type JWK } from "jose";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { listenOnLoopback, closeServer } from "../../helpers/loopback.js";
import {
  bearerAuthorization,
  Introspection,
  type BearerAuthorization,
  type BearerOptions,
} from "../../../templates/runtime/auth/index.js";
import type { Authorization } from "../../../templates/runtime/core/exchange.js";
import type { HttpReply } from "../../../templates/runtime/transport/http-reply.js";
import { serveHttp } from "../../../templates/runtime/index.js";
import { headersFor, raw, request, testServer } from "../../helpers/mcp-client.js";

const RESOURCE = "http://127.0.0.1:1/mcp";
const SKEW = 30;

let standIn: Server;
let issuer: string;
let privateKey: webcrypto.CryptoKey;
let jwk: JWK;
/** What the introspection endpoint answers next (the test sets it). */
let introspectionAnswer: Record<string, unknown> = {};
/** The tokens posted to the introspection endpoint, in order. */
const introspected: string[] = [];

beforeAll(async () => {
  const pair = await generateKeyPair("ES256", { extractable: true });
  privateKey = pair.privateKey;
  jwk = { ...(await exportJWK(pair.publicKey)), kid: "k1", alg: "ES256", use: "sig" };
  standIn = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const path = (req.url ?? "/").split("?")[0];
      const json = (value: unknown) =>
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(value));
      if (path === "/.well-known/oauth-authorization-server")
        return json({ issuer, jwks_uri: `${issuer}/jwks` });
      if (path === "/jwks") return json({ keys: [jwk] });
      if (path === "/introspect") {
        introspected.push(new URLSearchParams(Buffer.concat(chunks).toString()).get("token")!);
        return json(introspectionAnswer);
      }
      res.writeHead(404).end();
    });
  });
  issuer = await listenOnLoopback(standIn);
});
afterAll(async () => {
  await closeServer(standIn);
});

const now = () => Math.floor(Date.now() / 1000);

/** A request as the transport hands it to authenticate, with `token` in its Authorization header. */
function bearerRequest(token: string) {
  return {
    method: "POST",
    path: "/mcp",
    query: "",
    header: (name: string) => (name === "authorization" ? `Bearer ${token}` : undefined),
    body: "",
    signal: new AbortController().signal,
  };
}

/** The error description of a 401 challenge, or what was granted when the token was accepted. */
function verdictOf(result: Authorization | HttpReply): string {
  if (!("status" in result)) return `accepted: ${result.subject ?? "(no subject)"}`;
  const challenge = String(result.headers?.["www-authenticate"] ?? "");
  const description = /error_description="([^"]*)"/.exec(challenge)?.[1];
  return `${result.status}: ${description ?? challenge}`;
}

describe("JWT access tokens, claim by claim", () => {
  let auth: BearerAuthorization;
  beforeAll(() => {
    auth = bearerAuthorization({ issuer, resource: RESOURCE, clockToleranceSeconds: SKEW });
  });

  /** A token with every claim right, except what `change` changes (undefined removes a claim). */
  function token(
    change: { typ?: string; payload?: Record<string, number | string | undefined> } = {},
  ): Promise<string> {
    const payload: Record<string, unknown> = {
      iss: issuer,
      aud: RESOURCE,
      sub: "alice",
      client_id: "app",
      scope: "mcp:read",
      iat: now(),
      exp: now() + 600,
      ...change.payload,
    };
    for (const [key, value] of Object.entries(payload))
      if (value === undefined) delete payload[key];
    return new SignJWT(payload)
      .setProtectedHeader({ alg: "ES256", typ: change.typ ?? "at+jwt", kid: "k1" })
      .sign(privateKey);
  }
  const check = async (change: Parameters<typeof token>[0]) =>
    verdictOf(await auth.authenticate(bearerRequest(await token(change))));

  it("accepts the token with every claim right (the control)", async () => {
    expect(await check({})).toBe("accepted: alice");
  });

  it("accepts typ application/at+jwt and refuses any other typ, or none", async () => {
    expect(await check({ typ: "application/at+jwt" })).toBe("accepted: alice");
    expect(await check({ typ: "JWT" })).toBe("401: the token's typ claim is not accepted");
    expect(await check({ typ: "" })).toMatch(/^401: /);
  });

  it("requires sub and iat", async () => {
    expect(await check({ payload: { sub: undefined } })).toBe(
      "401: the token's sub claim is not accepted",
    );
    expect(await check({ payload: { iat: undefined } })).toBe(
      "401: the token's iat claim is not accepted",
    );
  });

  it("allows the clock skew on nbf and no more", async () => {
    expect(await check({ payload: { nbf: now() + SKEW - 10 } })).toBe("accepted: alice");
    expect(await check({ payload: { nbf: now() + SKEW + 10 } })).toBe(
      "401: the token's nbf claim is not accepted",
    );
  });

  it("allows the clock skew on exp and no more", async () => {
    expect(await check({ payload: { exp: now() - SKEW + 10 } })).toBe("accepted: alice");
    expect(await check({ payload: { exp: now() - SKEW - 10 } })).toBe("401: the token has expired");
  });

  it("refuses an issuer that is not the configured one, even a prefix or a trailing slash away", async () => {
    for (const iss of [`${issuer}/`, issuer.slice(0, -1), "http://127.0.0.1:1"])
      expect(await check({ payload: { iss } }), iss).toBe(
        "401: the token's iss claim is not accepted",
      );
  });
});

describe("introspection answers, claim by claim", () => {
  const context = () => ({
    issuer,
    resource: RESOURCE,
    timeoutMs: 2000,
    clockToleranceSeconds: SKEW,
    fetch,
  });
  const options = (cacheSeconds = 0) => ({
    url: `${issuer}/introspect`,
    clientId: "rs",
    clientSecret: "secret",
    cacheSeconds,
  });
  let auth: BearerAuthorization;
  beforeEach(() => {
    introspected.length = 0;
    auth = bearerAuthorization({
      issuer,
      resource: RESOURCE,
      clockToleranceSeconds: SKEW,
      introspection: options(),
    } satisfies BearerOptions);
  });
  /** An answer with every claim right, except what `change` changes (undefined removes a claim). */
  const answer = (change: Record<string, unknown> = {}) => {
    const base: Record<string, unknown> = {
      active: true,
      iss: issuer,
      aud: RESOURCE,
      sub: "alice",
      scope: "mcp:read",
      token_type: "Bearer",
      exp: now() + 600,
      ...change,
    };
    return Object.fromEntries(Object.entries(base).filter(([, value]) => value !== undefined));
  };
  const check = async (change: Record<string, unknown>) => {
    introspectionAnswer = answer(change);
    return verdictOf(await auth.authenticate(bearerRequest("opaque-token")));
  };

  it("accepts the answer with every claim right (the control)", async () => {
    expect(await check({})).toBe("accepted: alice");
    expect(await check({ aud: ["http://127.0.0.1:1/other", RESOURCE] })).toBe("accepted: alice");
    expect(await check({ token_type: undefined })).toBe("accepted: alice");
  });

  it("requires aud, naming this resource", async () => {
    expect(await check({ aud: undefined })).toBe("401: the token's aud claim is not accepted");
    expect(await check({ aud: "http://127.0.0.1:1/other" })).toBe(
      "401: the token's aud claim is not accepted",
    );
    expect(await check({ aud: [] })).toBe("401: the token's aud claim is not accepted");
  });

  it("refuses a sender-constrained token (cnf) sent as a bearer token, and any binding but DPoP's", async () => {
    expect(await check({ cnf: { jkt: "0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I" } })).toBe(
      "401: the token is bound to a key: send it with the DPoP scheme and a DPoP proof",
    );
    expect(
      await check({ cnf: { "x5t#S256": "bwcK0esc3ACC3DB2Y5_lESsXE8o9ltc05O89jdN-dg2" } }),
    ).toBe("401: the token is bound to a key this server cannot check");
  });

  it("accepts token_type bearer in any letter case, DPoP only with a key, and refuses any other", async () => {
    expect(await check({ token_type: "bearer" })).toBe("accepted: alice");
    expect(await check({ token_type: "DPoP" })).toBe(
      "401: the token is not a bearer or DPoP-bound access token",
    );
    expect(await check({ token_type: "refresh_token" })).toBe(
      "401: the token is not a bearer or DPoP-bound access token",
    );
  });

  it("refuses an issuer that is not the configured one, and an inactive token", async () => {
    expect(await check({ iss: `${issuer}/` })).toBe("401: the token's iss claim is not accepted");
    expect(await check({ active: false })).toBe("401: the token is not active");
  });

  it("allows the clock skew on nbf and exp and no more", async () => {
    expect(await check({ nbf: now() + SKEW - 10, exp: now() - SKEW + 10 })).toBe("accepted: alice");
    expect(await check({ nbf: now() + SKEW + 10 })).toBe("401: the token is not valid yet");
    expect(await check({ exp: now() - SKEW - 10 })).toBe("401: the token has expired");
  });

  it("does not cache a refusal: the token is asked about again, and accepted once active", async () => {
    const cached = new Introspection(options(3600), context());
    introspectionAnswer = answer({ active: false });
    await expect(cached.check("refused-token")).rejects.toThrow("the token is not active");
    await expect(cached.check("refused-token")).rejects.toThrow("the token is not active");
    expect(introspected).toEqual(["refused-token", "refused-token"]);
    introspectionAnswer = answer();
    await expect(cached.check("refused-token")).resolves.toMatchObject({ subject: "alice" });
    expect(introspected).toHaveLength(3);
  });

  it("caches an answer under a hash of its token, never the token, one entry per token", async () => {
    const cached = new Introspection(options(3600), context());
    introspectionAnswer = answer();
    const tokens = ["first-opaque-token", "second-opaque-token"];
    for (const token of [...tokens, ...tokens]) await cached.check(token);
    expect(introspected).toEqual(tokens);
    // What the process keeps between requests is only visible inside: the cache's keys.
    const keys = [...(cached as unknown as { cache: Map<string, unknown> }).cache.keys()];
    expect(keys).toEqual(
      tokens.map((token) => createHash("sha256").update(token).digest("base64url")),
    );
    const kept = JSON.stringify([...(cached as unknown as { cache: Map<string, unknown> }).cache]);
    for (const token of tokens) expect(kept).not.toContain(token);
  });
});

/** Every string reachable from `root` through own properties, map and set entries (functions skipped). */
function reachableStrings(root: unknown, limit = 200_000): string[] {
  const found: string[] = [];
  const seen = new Set<unknown>();
  const queue: unknown[] = [root];
  while (queue.length > 0) {
    // A walk cut short could miss the token: fail instead of passing on half the graph.
    if (seen.size >= limit)
      throw new Error(`more than ${limit} objects reachable from the context`);
    const value = queue.shift();
    if (typeof value === "string") found.push(value);
    if (typeof value !== "object" || value === null || seen.has(value)) continue;
    seen.add(value);
    if (value instanceof Map) queue.push(...value.keys(), ...value.values());
    else if (value instanceof Set) queue.push(...value.values());
    for (const key of Reflect.ownKeys(value)) {
      const descriptor = Object.getOwnPropertyDescriptor(value, key);
      if (typeof key === "string") found.push(key);
      if (descriptor && "value" in descriptor) queue.push(descriptor.value);
    }
  }
  return found;
}

describe("the token never reaches a handler's context", () => {
  it.each(["jwt", "introspection"] as const)("%s", async (kind) => {
    const server = testServer();
    const contexts: unknown[] = [];
    server.tool({ name: "whoami", inputSchema: { type: "object" } }, (_args, ctx) => {
      contexts.push(ctx);
      return { content: [{ type: "text", text: String(ctx.authorization?.subject) }] };
    });
    const authorization = bearerAuthorization({
      issuer,
      resource: RESOURCE,
      ...(kind === "introspection"
        ? {
            introspection: {
              url: `${issuer}/introspect`,
              clientId: "rs",
              clientSecret: "secret",
              cacheSeconds: 0,
            },
          }
        : {}),
    });
    introspectionAnswer = answer();
    const token =
      kind === "jwt"
        ? await new SignJWT({ scope: "mcp:read", client_id: "app" })
            .setProtectedHeader({ alg: "ES256", typ: "at+jwt", kid: "k1" })
            .setIssuer(issuer)
            .setAudience(RESOURCE)
            .setSubject("alice")
            .setIssuedAt()
            .setExpirationTime("10m")
            .sign(privateKey)
        : "an-opaque-token-of-forty-three-characters-x";
    const mcp = await serveHttp(server, { port: 0, authorization });
    try {
      const message = request("tools/call", { name: "whoami", arguments: {} });
      const reply = await raw(mcp.url, {
        headers: { ...headersFor(message), authorization: `Bearer ${token}` },
        body: JSON.stringify(message),
      });
      expect(reply.status).toBe(200);
      expect(reply.text).toContain("alice");
      expect(contexts).toHaveLength(1);
      const strings = reachableStrings(contexts[0]);
      // The walk reached the verified claims: it would have found the token beside them.
      expect(strings).toContain("alice");
      const tail = token.slice(-24);
      expect(strings.filter((text) => text.includes(tail))).toEqual([]);
    } finally {
      await mcp.close();
    }
  });

  function answer() {
    return { active: true, iss: issuer, aud: RESOURCE, sub: "alice", exp: now() + 600 };
  }
});
