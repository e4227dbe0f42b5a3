/**
 * DPoP-bound tokens at the server (templates/runtime/auth/dpop.ts, RFC
 * 9449 4.3 and 7), over real HTTP on 127.0.0.1. A stand-in authorization
 * server publishes its metadata and keys; the tests sign access tokens
 * bound to a key (`cnf.jkt`) and DPoP proofs with jose, each broken in one
 * way: a proof for another URL or method, a replayed `jti` (at once, or
 * late in the proof's window), an `iat` far in the past, far in the
 * future or missing, a proof signed by another key, a token whose
 * `cnf.jkt` matches no proof, a proof for another token, two proofs, a
 * proof or a `jti` past its length bound, a proof that is not a dpop+jwt. Each gets 401 with a DPoP challenge saying
 * what was wrong, and nothing the server reports or answers holds the
 * token or the proof. A replay cache that cannot answer gives 503, never
 * 401. `required` takes bound tokens only and says so in its metadata.
 */
import { createServer } from "node:http";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { closeServer, listenOnLoopback } from "../../helpers/loopback.js";
import {
  bearerAuthorization,
  MemoryReplayCache,
  type BearerOptions,
  type ReplayCache,
} from "../../../templates/runtime/auth/index.js";
import { serveHttp, type RunningHttpServer } from "../../../templates/runtime/index.js";
import {
  dpopKey,
  dpopProof,
  startTokenIssuer,
  type DpopTestKey,
  type TokenIssuer,
} from "../../helpers/dpop.js";
import { headersFor, raw, request, testServer, type RawReply } from "../../helpers/mcp-client.js";

/** The resource the tokens are for; the server listens elsewhere, so htu is checked against this, its public URL. */
const RESOURCE = "http://127.0.0.1:1/mcp";

describe("DPoP-bound tokens at the server", () => {
  let tokens: TokenIssuer;
  let issuer: string;
  let holder: DpopTestKey;
  let other: DpopTestKey;

  beforeAll(async () => {
    tokens = await startTokenIssuer();
    issuer = tokens.issuer;
    holder = await dpopKey();
    other = await dpopKey();
  });
  afterAll(async () => {
    await tokens.close();
  });

  /** An access token for RESOURCE, bound to `jkt` (null: a bearer token). */
  const token = (jkt: string | null = holder.thumbprint) => tokens.token(RESOURCE, jkt);

  /** A proof for `accessToken` by `key` (the holder's by default), `header` and `claims` changed. */
  const proof = (
    accessToken: string,
    change: {
      key?: DpopTestKey;
      header?: Record<string, unknown>;
      claims?: Record<string, unknown>;
    } = {},
  ) => dpopProof(change.key ?? holder, RESOURCE, accessToken, change);

  /** A server protected by a fresh authorization, what it reports, and a way to call its tool. */
  async function protectedServer(options: Partial<BearerOptions> = {}) {
    const reports: string[] = [];
    const server = testServer();
    server.tool({ name: "whoami", inputSchema: { type: "object" } }, (_args, ctx) => ({
      content: [{ type: "text", text: String(ctx.authorization?.subject) }],
    }));
    const authorization = bearerAuthorization({
      issuer,
      resource: RESOURCE,
      timeoutMs: 2000,
      onError: (message) => reports.push(message),
      ...options,
    });
    const mcp: RunningHttpServer = await serveHttp(server, { port: 0, authorization });
    const call = (headers: Record<string, string | string[]>, method = "POST") => {
      const message = request("tools/call", { name: "whoami", arguments: {} });
      return raw(mcp.url, {
        method,
        headers: { ...headersFor(message), ...(headers as Record<string, string>) },
        body: JSON.stringify(message),
      });
    };
    return {
      mcp,
      reports,
      call,
      metadataUrl: `${mcp.url.replace(/\/mcp$/, "")}/.well-known/oauth-protected-resource/mcp`,
    };
  }

  /** The status and the challenge's error_description of a reply, checked to be header-safe. */
  const verdict = (reply: RawReply) => {
    const header = reply.headers["www-authenticate"];
    const challenge = typeof header === "string" ? header : "";
    expect(challenge).not.toMatch(/[\r\n]/);
    if (reply.status !== 401) return `${reply.status}`;
    expect(challenge).toMatch(
      /^DPoP resource_metadata="[^"]+", error="[a-z_]+", error_description="[^"\\]*", algs="ES256 PS256 RS256 EdDSA"$/,
    );
    return `401 ${/error="([^"]*)", error_description="([^"]*)"/.exec(challenge)!.slice(1).join(": ")}`;
  };

  it("accepts a bound token with a valid proof (the control), and another request with a new proof", async () => {
    const { mcp, call } = await protectedServer();
    try {
      const access = await token();
      for (let i = 0; i < 2; i++) {
        const reply = await call({ authorization: `DPoP ${access}`, dpop: await proof(access) });
        expect(reply.status).toBe(200);
        expect(reply.text).toContain("alice");
      }
    } finally {
      await mcp.close();
    }
  });

  it("refuses each broken proof with 401 and a DPoP challenge saying what is wrong, quoting nothing of it", async () => {
    const { mcp, call, reports } = await protectedServer();
    try {
      const access = await token();
      const now = Math.floor(Date.now() / 1000);
      const foreign = await dpopKey();
      const cases: Array<[string, Record<string, string | string[]>, string]> = [
        [
          "a bound token sent as a bearer token",
          { authorization: `Bearer ${access}` },
          "invalid_token: the token is bound to a key: send it with the DPoP scheme and a DPoP proof",
        ],
        [
          "no proof",
          { authorization: `DPoP ${access}` },
          "invalid_dpop_proof: a DPoP-bound token needs a DPoP proof header",
        ],
        [
          "a proof for another URL",
          {
            authorization: `DPoP ${access}`,
            dpop: await proof(access, { claims: { htu: "http://127.0.0.1:1/other" } }),
          },
          "invalid_dpop_proof: the DPoP proof is for another URL",
        ],
        [
          "a proof for another origin",
          {
            authorization: `DPoP ${access}`,
            dpop: await proof(access, { claims: { htu: "http://127.0.0.1:2/mcp" } }),
          },
          "invalid_dpop_proof: the DPoP proof is for another URL",
        ],
        [
          "a proof for another method",
          {
            authorization: `DPoP ${access}`,
            dpop: await proof(access, { claims: { htm: "GET" } }),
          },
          "invalid_dpop_proof: the DPoP proof is for another HTTP method",
        ],
        [
          "an iat far in the past",
          {
            authorization: `DPoP ${access}`,
            dpop: await proof(access, { claims: { iat: now - 3600 } }),
          },
          "invalid_dpop_proof: the DPoP proof's iat is outside the accepted window",
        ],
        [
          "a proof without iat",
          {
            authorization: `DPoP ${access}`,
            dpop: await proof(access, { claims: { iat: undefined } }),
          },
          "invalid_dpop_proof: the DPoP proof's iat is outside the accepted window",
        ],
        [
          "an iat far in the future",
          {
            authorization: `DPoP ${access}`,
            dpop: await proof(access, { claims: { iat: now + 3600 } }),
          },
          "invalid_dpop_proof: the DPoP proof's iat is outside the accepted window",
        ],
        [
          "a proof signed by another key, carrying that key",
          { authorization: `DPoP ${access}`, dpop: await proof(access, { key: foreign }) },
          "invalid_dpop_proof: the DPoP proof is signed by a key other than the token's",
        ],
        [
          "a proof carrying the token's key but signed by another",
          {
            authorization: `DPoP ${access}`,
            dpop: await proof(access, { key: other, header: { jwk: holder.jwk } }),
          },
          "invalid_dpop_proof: the DPoP proof is not a dpop+jwt signed by the public key in its header with an accepted algorithm",
        ],
        [
          "a proof for another token",
          { authorization: `DPoP ${access}`, dpop: await proof(await token()) },
          "invalid_dpop_proof: the DPoP proof's ath is not the hash of this token",
        ],
        [
          "a proof without ath",
          {
            authorization: `DPoP ${access}`,
            dpop: await proof(access, { claims: { ath: undefined } }),
          },
          "invalid_dpop_proof: the DPoP proof's ath is not the hash of this token",
        ],
        [
          "a proof without jti",
          {
            authorization: `DPoP ${access}`,
            dpop: await proof(access, { claims: { jti: undefined } }),
          },
          "invalid_dpop_proof: the DPoP proof has no usable jti",
        ],
        [
          "a proof with a jti longer than 256 characters",
          {
            authorization: `DPoP ${access}`,
            dpop: await proof(access, { claims: { jti: "j".repeat(257) } }),
          },
          "invalid_dpop_proof: the DPoP proof has no usable jti",
        ],
        [
          "a proof longer than 8192 characters",
          {
            authorization: `DPoP ${access}`,
            dpop: await proof(access, { claims: { padding: "p".repeat(8192) } }),
          },
          "invalid_dpop_proof: send exactly one DPoP proof, a JWT",
        ],
        [
          "a proof typed as a JWT",
          {
            authorization: `DPoP ${access}`,
            dpop: await proof(access, { header: { typ: "JWT" } }),
          },
          "invalid_dpop_proof: the DPoP proof is not a dpop+jwt signed by the public key in its header with an accepted algorithm",
        ],
        [
          "a proof with a private key in its header",
          {
            authorization: `DPoP ${access}`,
            dpop: await proof(access, { header: { jwk: { ...holder.jwk, d: "AAAA" } } }),
          },
          "invalid_dpop_proof: the DPoP proof is not a dpop+jwt signed by the public key in its header with an accepted algorithm",
        ],
        [
          "two proofs",
          { authorization: `DPoP ${access}`, dpop: [await proof(access), await proof(access)] },
          "invalid_dpop_proof: send exactly one DPoP proof, a JWT",
        ],
        [
          "an unbound token sent with the DPoP scheme",
          { authorization: `DPoP ${await token(null)}`, dpop: await proof(access) },
          "invalid_token: the token is not bound to a key: send it as a Bearer token",
        ],
      ];
      const seen: string[] = [];
      for (const [what, headers, expected] of cases) {
        const reply = await call(headers);
        expect(verdict(reply), what).toBe(`401 ${expected}`);
        seen.push(reply.text, String(reply.headers["www-authenticate"]));
      }
      // A token whose cnf.jkt matches no proof: bound to a key nobody here holds.
      const orphan = await token(foreign.thumbprint.replace(/^./, (c) => (c === "A" ? "B" : "A")));
      expect(
        verdict(await call({ authorization: `DPoP ${orphan}`, dpop: await proof(orphan) })),
      ).toBe("401 invalid_dpop_proof: the DPoP proof is signed by a key other than the token's");
      const secrets = [
        access,
        ...cases
          .map(([, h]) => h.dpop)
          .flat()
          .filter((p): p is string => typeof p === "string"),
      ];
      for (const text of [...seen, ...reports])
        for (const secret of secrets) expect(text.includes(secret)).toBe(false);
      expect(reports).toEqual([]);
    } finally {
      await mcp.close();
    }
  });

  it("refuses a replayed proof, first use accepted", async () => {
    const { mcp, call } = await protectedServer();
    try {
      const access = await token();
      const once = await proof(access);
      expect((await call({ authorization: `DPoP ${access}`, dpop: once })).status).toBe(200);
      expect(verdict(await call({ authorization: `DPoP ${access}`, dpop: once }))).toBe(
        "401 invalid_dpop_proof: the DPoP proof was used before",
      );
    } finally {
      await mcp.close();
    }
  });

  it("refuses a replay for as long as the proof is in its window, however late it comes", async () => {
    const { mcp, call } = await protectedServer();
    // The clock moves instead of the test sleeping; timers and sockets run as they are.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    try {
      const access = await token();
      const once = await proof(access);
      expect((await call({ authorization: `DPoP ${access}`, dpop: once })).status).toBe(200);
      // 80 s on: past the 60 s window, within it and the 30 s clock tolerance.
      vi.setSystemTime(Date.now() + 80_000);
      expect(verdict(await call({ authorization: `DPoP ${access}`, dpop: once }))).toBe(
        "401 invalid_dpop_proof: the DPoP proof was used before",
      );
      // The control: a new proof at that time is accepted.
      expect(
        (await call({ authorization: `DPoP ${access}`, dpop: await proof(access) })).status,
      ).toBe(200);
    } finally {
      vi.useRealTimers();
      await mcp.close();
    }
  });

  it("accepts a proof at the edge of the window and refuses it just past", async () => {
    const { mcp, call } = await protectedServer({
      clockToleranceSeconds: 5,
      dpop: { windowSeconds: 30 },
    });
    try {
      const access = await token();
      const now = Math.floor(Date.now() / 1000);
      expect(
        (
          await call({
            authorization: `DPoP ${access}`,
            dpop: await proof(access, { claims: { iat: now - 30 } }),
          })
        ).status,
      ).toBe(200);
      expect(
        (
          await call({
            authorization: `DPoP ${access}`,
            dpop: await proof(access, { claims: { iat: now + 4 } }),
          })
        ).status,
      ).toBe(200);
      expect(
        verdict(
          await call({
            authorization: `DPoP ${access}`,
            dpop: await proof(access, { claims: { iat: now - 40 } }),
          }),
        ),
      ).toMatch(/iat is outside/);
      expect(
        verdict(
          await call({
            authorization: `DPoP ${access}`,
            dpop: await proof(access, { claims: { iat: now + 10 } }),
          }),
        ),
      ).toMatch(/iat is outside/);
    } finally {
      await mcp.close();
    }
  });

  it("answers 503, not 401, when the replay cache cannot be asked, and reports why without the proof", async () => {
    const broken: ReplayCache = {
      claim: () => Promise.reject(new Error("redis: connection refused")),
    };
    const { mcp, call, reports } = await protectedServer({ dpop: { replayCache: broken } });
    try {
      const access = await token();
      const dpop = await proof(access);
      const reply = await call({ authorization: `DPoP ${access}`, dpop });
      expect(reply.status).toBe(503);
      expect(reply.headers["www-authenticate"]).toBe(undefined);
      expect(reports).toEqual([
        "Authorization: cannot check DPoP proofs: redis: connection refused",
      ]);
      expect(reports.join("\n")).not.toContain(dpop);
    } finally {
      await mcp.close();
    }
  });

  it("a full memory replay cache refuses more proofs (503) rather than forget a live one", async () => {
    const cache = new MemoryReplayCache(2);
    const until = Date.now() + 60_000;
    expect(await cache.claim("a", until)).toBe(true);
    expect(await cache.claim("a", until)).toBe(false);
    expect(await cache.claim("b", until)).toBe(true);
    await expect(cache.claim("c", until)).rejects.toThrow(/holds 2 live proofs/);
    // Expired ones make room.
    const expiring = new MemoryReplayCache(2);
    expect(await expiring.claim("a", Date.now() - 1)).toBe(true);
    expect(await expiring.claim("b", Date.now() - 1)).toBe(true);
    expect(await expiring.claim("c", until)).toBe(true);
    expect(await expiring.claim("a", until)).toBe(true);
    const { mcp, call } = await protectedServer({
      dpop: { replayCache: new MemoryReplayCache(1) },
    });
    try {
      const access = await token();
      expect(
        (await call({ authorization: `DPoP ${access}`, dpop: await proof(access) })).status,
      ).toBe(200);
      expect(
        (await call({ authorization: `DPoP ${access}`, dpop: await proof(access) })).status,
      ).toBe(503);
    } finally {
      await mcp.close();
    }
  });

  it("required: bound tokens only, challenged with DPoP alone, and the metadata says so", async () => {
    const { mcp, call, metadataUrl } = await protectedServer({ dpop: { mode: "required" } });
    try {
      const none = await call({});
      expect(none.status).toBe(401);
      expect(none.headers["www-authenticate"]).toMatch(
        /^DPoP resource_metadata="[^"]+", algs="ES256 PS256 RS256 EdDSA"$/,
      );
      expect(verdict(await call({ authorization: `Bearer ${await token(null)}` }))).toBe(
        "401 invalid_token: this server accepts only DPoP-bound tokens",
      );
      const access = await token();
      expect(
        (await call({ authorization: `DPoP ${access}`, dpop: await proof(access) })).status,
      ).toBe(200);
      const metadata = (await (await fetch(metadataUrl)).json()) as Record<string, unknown>;
      expect(metadata).toMatchObject({
        dpop_bound_access_tokens_required: true,
        dpop_signing_alg_values_supported: ["ES256", "PS256", "RS256", "EdDSA"],
      });
    } finally {
      await mcp.close();
    }
  });

  it("allowed (the default): bearer tokens still work, and the metadata offers DPoP", async () => {
    const { mcp, call, metadataUrl } = await protectedServer();
    try {
      expect((await call({ authorization: `Bearer ${await token(null)}` })).status).toBe(200);
      const metadata = (await (await fetch(metadataUrl)).json()) as Record<string, unknown>;
      expect(metadata).toMatchObject({ dpop_bound_access_tokens_required: false });
    } finally {
      await mcp.close();
    }
  });

  it("an introspected token of token_type DPoP is checked with its proof, and without a binding refused", async () => {
    let answer: Record<string, unknown> = {};
    const endpoint = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer));
    });
    const url = `${await listenOnLoopback(endpoint)}/introspect`;
    const { mcp, call } = await protectedServer({
      introspection: { url, clientId: "rs", clientSecret: "rs-secret", cacheSeconds: 0 },
    });
    try {
      const active = { active: true, aud: RESOURCE, sub: "alice", scope: "mcp" };
      const opaque = "opaque-token-value";
      // RFC 9449 6.2: introspection says DPoP and names the key.
      answer = { ...active, token_type: "DPoP", cnf: { jkt: holder.thumbprint } };
      const bound = await call({ authorization: `DPoP ${opaque}`, dpop: await proof(opaque) });
      expect(bound.status).toBe(200);
      expect(bound.text).toContain("alice");
      expect(verdict(await call({ authorization: `Bearer ${opaque}` }))).toMatch(
        /^401 invalid_token: the token is bound to a key/,
      );
      // token_type DPoP without a key to check it against.
      answer = { ...active, token_type: "DPoP" };
      const unbound = await call({ authorization: `DPoP ${opaque}`, dpop: await proof(opaque) });
      expect(unbound.status).toBe(401);
    } finally {
      await mcp.close();
      await closeServer(endpoint);
    }
  });

  it("refuses settings that would weaken proofs", () => {
    expect(() =>
      bearerAuthorization({ issuer, resource: RESOURCE, dpop: { algorithms: ["HS256"] } }),
    ).toThrow(/asymmetric/);
    expect(() =>
      bearerAuthorization({ issuer, resource: RESOURCE, dpop: { algorithms: ["none"] } }),
    ).toThrow(/asymmetric/);
    expect(() =>
      bearerAuthorization({ issuer, resource: RESOURCE, dpop: { mode: "sometimes" as "allowed" } }),
    ).toThrow(/MCP_AUTH_DPOP/);
  });
});
