/**
 * The DPoP replay cache shared by the instances of a server
 * (templates/runtime/scale/redis-replay-cache.ts) on a real redis-server:
 * two instances, each with its own authorization and its own Redis
 * connections, as replayCacheFromEnvironment gives them from
 * MCP_TASK_STORE. A proof accepted by one is refused by the other; the
 * same proof sent to both at once is accepted by exactly one; each proof
 * is kept in Redis as long as it could be accepted, no longer; a Redis that
 * stops answering makes a proof 503 at the store's deadline, never 401.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearerAuthorization } from "../../../templates/runtime/auth/index.js";
import {
  replayCacheFromEnvironment,
  serveHttp,
  type RedisReplayCache,
  type RunningHttpServer,
} from "../../../templates/runtime/index.js";
import {
  dpopKey,
  dpopProof,
  startTokenIssuer,
  type DpopTestKey,
  type TokenIssuer,
} from "../../helpers/dpop.js";
import { headersFor, raw, request, testServer } from "../../helpers/mcp-client.js";
import { SKIP_REDIS, startRedis, type RedisServer } from "../../helpers/redis.js";

const RESOURCE = "http://127.0.0.1:1/mcp";

interface Instance {
  readonly mcp: RunningHttpServer;
  readonly cache: RedisReplayCache;
  readonly reports: string[];
}

describe.skipIf(SKIP_REDIS)("a DPoP replay cache shared through Redis", () => {
  let redis: RedisServer;
  let tokens: TokenIssuer;
  let holder: DpopTestKey;
  let a: Instance;
  let b: Instance;

  /** One instance of the server: its own authorization, replay cache and Redis connection. */
  async function instance(env: Record<string, string>): Promise<Instance> {
    const cache = replayCacheFromEnvironment(env)!;
    const reports: string[] = [];
    const server = testServer();
    server.tool({ name: "whoami", inputSchema: { type: "object" } }, (_args, ctx) => ({
      content: [{ type: "text", text: String(ctx.authorization?.subject) }],
    }));
    const authorization = bearerAuthorization({
      issuer: tokens.issuer,
      resource: RESOURCE,
      onError: (message) => reports.push(message),
      dpop: { replayCache: cache },
    });
    return { mcp: await serveHttp(server, { port: 0, authorization }), cache, reports };
  }

  beforeAll(async () => {
    redis = await startRedis();
    tokens = await startTokenIssuer();
    holder = await dpopKey();
    const env = { MCP_TASK_STORE: redis.url, MCP_TASK_STORE_TIMEOUT_MS: "1000" };
    [a, b] = await Promise.all([instance(env), instance(env)]);
    // Connected before the first test: the first call of a cache also opens its connection.
    for (const each of [a, b]) {
      for (let tries = 0; tries < 20; tries++)
        if (await each.cache.claim(`warm-up-${tries}`, Date.now() + 1000).catch(() => false)) break;
    }
  }, 60_000);
  afterAll(async () => {
    for (const each of [a, b]) {
      await each?.mcp.close();
      await each?.cache.close();
    }
    await tokens?.close();
    await redis?.stop();
  });

  const call = (at: Instance, token: string, proof: string) => {
    const message = request("tools/call", { name: "whoami", arguments: {} });
    return raw(at.mcp.url, {
      headers: { ...headersFor(message), authorization: `DPoP ${token}`, dpop: proof },
      body: JSON.stringify(message),
    });
  };

  it("refuses on one instance a proof the other accepted", async () => {
    const token = await tokens.token(RESOURCE, holder.thumbprint);
    const proof = await dpopProof(holder, RESOURCE, token);
    expect((await call(a, token, proof)).status).toBe(200);
    const replay = await call(b, token, proof);
    expect(replay.status).toBe(401);
    expect(replay.headers["www-authenticate"]).toContain(
      'error="invalid_dpop_proof", error_description="the DPoP proof was used before"',
    );
    // And on the same instance.
    expect((await call(a, token, proof)).status).toBe(401);
    // A fresh proof is fine on either.
    expect((await call(b, token, await dpopProof(holder, RESOURCE, token))).status).toBe(200);
  });

  it("of one proof sent to both at once, accepts exactly one", async () => {
    const token = await tokens.token(RESOURCE, holder.thumbprint);
    for (let round = 0; round < 10; round++) {
      const proof = await dpopProof(holder, RESOURCE, token);
      const statuses = (await Promise.all([call(a, token, proof), call(b, token, proof)]))
        .map((r) => r.status)
        .sort();
      expect(statuses).toEqual([200, 401]);
    }
  });

  it("keeps each proof as long as it could be accepted, and no longer", async () => {
    const token = await tokens.token(RESOURCE, holder.thumbprint);
    const { createClient } = await import("@redis/client");
    const client = createClient({ url: redis.url });
    await client.connect();
    try {
      const before = new Set(await client.keys("mcp:dpop:*"));
      expect((await call(a, token, await dpopProof(holder, RESOURCE, token))).status).toBe(200);
      const added = (await client.keys("mcp:dpop:*")).filter((key) => !before.has(key));
      expect(added).toHaveLength(1);
      const ttl = await client.pTTL(added[0]!);
      // The window (60 s) and the tolerance (30 s) past the proof's iat, and no more; a
      // shorter life would let the proof be replayed to the other instance later in its window.
      // The lower bound leaves the test 25 s to get here.
      expect(ttl).toBeGreaterThan(64_000);
      expect(ttl).toBeLessThanOrEqual(91_000);
      for (const key of await client.keys("mcp:dpop:*"))
        expect(await client.pTTL(key)).toBeLessThanOrEqual(91_000);
    } finally {
      await client.close();
    }
  });

  it("answers 503 at the deadline when Redis stops answering, and serves again when it is back", async () => {
    const token = await tokens.token(RESOURCE, holder.thumbprint);
    redis.pause();
    try {
      const started = Date.now();
      const reply = await call(a, token, await dpopProof(holder, RESOURCE, token));
      expect(reply.status).toBe(503);
      expect(Date.now() - started).toBeLessThan(30_000);
      expect(a.reports.at(-1)).toMatch(
        /^Authorization: cannot check DPoP proofs: Redis did not answer checking a DPoP proof for replay within 1000 ms/,
      );
    } finally {
      redis.resume();
    }
    let status = 0;
    for (let i = 0; i < 20 && status !== 200; i++)
      status = (await call(a, token, await dpopProof(holder, RESOURCE, token))).status;
    expect(status).toBe(200);
  });
});
