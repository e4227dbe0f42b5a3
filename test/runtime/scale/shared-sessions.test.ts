/**
 * 2025-era sessions (`Mcp-Session-Id`) behind a load balancer: two server
 * processes (test/runtime/fixtures/scale-out-server.ts) sharing one real
 * redis-server through MCP_TASK_STORE, which shares their legacy sessions
 * too. A session opened on A is served by B; a notification caused on B
 * reaches A's GET stream; a server request sent on B is answered through
 * A; DELETE on B ends the session on A; an unused session expires
 * everywhere; with A killed the client goes on through B after it re-opens
 * its stream; and with Redis stopped (SIGSTOP) a request for a session
 * the instance does not hold answers 503 at the store's deadline.
 * Real HTTP on 127.0.0.1, real child processes.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openRequestStream, send, type OpenStream, type Reply } from "../../helpers/mcp-client.js";
import { startInstance, stopInstance, type Instance } from "../../helpers/instances.js";
import { SKIP_REDIS, startRedis, type RedisServer } from "../../helpers/redis.js";
import { sleep } from "../../helpers/wait.js";

const KEY = randomBytes(32).toString("hex");
const LEGACY = "2025-11-25";
type Json = Record<string, unknown>;

function instance(
  name: string,
  redis: RedisServer,
  env: Record<string, string> = {},
): Promise<Instance> {
  return startInstance({ name, redisUrl: redis.url, env: { MCP_REQUEST_STATE_KEY: KEY, ...env } });
}

let redis: RedisServer;
let a: Instance;
let b: Instance;
let nextId = 1;

beforeAll(async () => {
  if (SKIP_REDIS) return;
  redis = await startRedis();
  [a, b] = await Promise.all([instance("A", redis), instance("B", redis)]);
}, 60_000);

afterAll(async () => {
  await Promise.all([stopInstance(a), stopInstance(b)]);
  await redis?.stop();
});

const headers = (session?: string): Record<string, string> => ({
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": LEGACY,
  ...(session ? { "mcp-session-id": session } : {}),
});

/** POSTs a legacy message in `session` (none for initialize). */
function legacyPost(on: Instance, message: Json, session?: string): Promise<Reply> {
  return send(on.url, { method: "POST", headers: headers(session), body: JSON.stringify(message) });
}

/** A legacy request in `session`; the reply. */
function call(on: Instance, session: string, method: string, params: Json = {}): Promise<Reply> {
  return legacyPost(on, { jsonrpc: "2.0", id: nextId++, method, params }, session);
}

/** Opens a session on `on` (initialize, then notifications/initialized); its id. */
async function open(on: Instance): Promise<string> {
  const reply = await legacyPost(on, {
    jsonrpc: "2.0",
    id: nextId++,
    method: "initialize",
    params: {
      protocolVersion: LEGACY,
      capabilities: { elicitation: {} },
      clientInfo: { name: "balanced", version: "1.0.0" },
    },
  });
  expect(reply.status).toBe(200);
  const session = reply.headers.get("mcp-session-id")!;
  expect(session).toMatch(/^[0-9a-f-]{36}$/);
  expect(
    (await legacyPost(on, { jsonrpc: "2.0", method: "notifications/initialized" }, session)).status,
  ).toBe(202);
  return session;
}

/** The session's standalone stream (GET) on `on`. */
function standalone(on: Instance, session: string): Promise<OpenStream> {
  return openRequestStream(on.url, { method: "GET", headers: headers(session) });
}

/** Messages from `stream` until one has `method`. */
async function nextWith(stream: OpenStream, method: string): Promise<Json> {
  for (;;) {
    const message = await stream.next(5000);
    if (message.method === method) return message;
  }
}

describe.skipIf(SKIP_REDIS)("legacy sessions shared by two instances on one Redis", () => {
  it("a session opened on A is served by B, with what initialize negotiated", async () => {
    const session = await open(a);
    const listed = await call(b, session, "tools/list");
    expect(listed.status).toBe(200);
    expect((listed.body.result as { tools: Json[] }).tools.map((t) => t.name)).toContain("greet");
    const unknown = await call(b, "00000000-0000-4000-8000-000000000000", "tools/list");
    expect(unknown.status).toBe(404);
  });

  it("notifications caused on B reach A's stream: resource updates B subscribed to, list changes", async () => {
    const session = await open(a);
    const stream = await standalone(a, session);
    try {
      expect(stream.status).toBe(200);
      expect(
        (await call(b, session, "resources/subscribe", { uri: "test://counter" })).status,
      ).toBe(200);
      await call(b, session, "tools/call", { name: "bump", arguments: {} });
      expect(await nextWith(stream, "notifications/resources/updated")).toMatchObject({
        params: { uri: "test://counter" },
      });
      await call(b, session, "tools/call", { name: "touch", arguments: {} });
      await nextWith(stream, "notifications/tools/list_changed");
    } finally {
      stream.close();
    }
  });

  it("a request B sends the client (elicitation) is answered by a POST to A", async () => {
    const session = await open(a);
    const pending = await openRequestStream(b.url, {
      method: "POST",
      headers: headers(session),
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: nextId++,
        method: "tools/call",
        params: { name: "greet", arguments: {} },
      }),
    });
    try {
      const asked = await nextWith(pending, "elicitation/create");
      const answered = await legacyPost(
        a,
        { jsonrpc: "2.0", id: asked.id, result: { action: "accept", content: { name: "Ada" } } },
        session,
      );
      expect(answered.status).toBe(202);
      const result = await pending.next(5000);
      expect(result).toMatchObject({ result: { content: [{ text: "Hello Ada from B" }] } });
    } finally {
      pending.close();
    }
  });

  it("DELETE on B ends the session on A too", async () => {
    const session = await open(a);
    expect((await call(a, session, "tools/list")).status).toBe(200);
    const deleted = await send(b.url, { method: "DELETE", headers: headers(session) });
    expect(deleted.status).toBe(200);
    expect((await call(a, session, "tools/list")).status).toBe(404);
    expect((await call(b, session, "tools/list")).status).toBe(404);
  });
});

describe.skipIf(SKIP_REDIS)("shared legacy sessions when an instance or Redis fails", () => {
  it("an unused session expires everywhere after the idle time", { timeout: 30_000 }, async () => {
    const [c, d] = await Promise.all([
      instance("C", redis, { MCP_SESSION_IDLE_MS: "1000" }),
      instance("D", redis, { MCP_SESSION_IDLE_MS: "1000" }),
    ]);
    try {
      const session = await open(c);
      expect((await call(d, session, "tools/list")).status).toBe(200);
      await sleep(1600);
      expect((await call(d, session, "tools/list")).status).toBe(404);
      expect((await call(c, session, "tools/list")).status).toBe(404);
    } finally {
      await Promise.all([stopInstance(c), stopInstance(d)]);
    }
  });

  it(
    "with A killed, the client goes on through B after it re-opens its stream",
    { timeout: 30_000 },
    async () => {
      const e = await instance("E", redis);
      const session = await open(e);
      const first = await standalone(e, session);
      const cut = first.ended.catch(() => {}); // the stream breaks with its instance
      await stopInstance(e, "SIGKILL");
      await cut;
      const stream = await standalone(b, session);
      try {
        expect(stream.status).toBe(200);
        const listed = await call(b, session, "tools/list");
        expect(listed.status).toBe(200);
        await call(b, session, "tools/call", { name: "touch", arguments: {} });
        await nextWith(stream, "notifications/tools/list_changed");
      } finally {
        stream.close();
      }
    },
  );

  it(
    "with Redis stopped, a request for a session held elsewhere answers 503 within the deadline",
    { timeout: 30_000 },
    async () => {
      const session = await open(a);
      redis.pause();
      try {
        const started = Date.now();
        const reply = await call(b, session, "tools/list");
        const took = Date.now() - started;
        expect(reply.status).toBe(503);
        expect(JSON.stringify(reply.body)).toContain("shared session store did not answer");
        // The store's deadline (MCP_TASK_STORE_TIMEOUT_MS, default 2000 ms), not a hang.
        expect(took).toBeGreaterThanOrEqual(1900);
        expect(took).toBeLessThan(4000);
      } finally {
        redis.resume();
      }
      expect((await call(b, session, "tools/list")).status).toBe(200);
    },
  );
});
