/**
 * The Redis task store and change bus (templates/runtime/server/redis.ts)
 * against a real redis-server: a record is readable by another connection
 * as soon as create resolves, expires with its ttlMs, concurrent changes
 * from two stores are all kept (compare-and-set), every store's watchers
 * see every change, and a change published on one bus reaches the other.
 * Each store call is one round trip (counted with INFO commandstats), a
 * change made against a stale last-seen record still applies to the
 * current one, and a record past MAX_TASK_RECORD_BYTES is refused before
 * it is read. MCP_TASK_STORE is parsed strictly.
 */
import { createClient, type RedisClientType } from "@redis/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  MAX_CHANGE_BYTES,
  MAX_TASK_RECORD_BYTES,
  RedisChangeBus,
  RedisSessionStore,
  RedisTaskStore,
  scaleOutFromEnvironment,
  type Change,
  type TaskRecord,
} from "../../../templates/runtime/index.js";
import { SKIP_REDIS, startRedis, type RedisServer } from "../../helpers/redis.js";
import { sleep, until } from "../../helpers/wait.js";

let redis: RedisServer;
const open: Array<{ close(): Promise<void> }> = [];

beforeAll(async () => {
  if (!SKIP_REDIS) redis = await startRedis();
});
afterAll(async () => {
  await Promise.all(open.map((o) => o.close()));
  await redis?.stop();
});

function store(prefix = "t1:"): RedisTaskStore {
  const s = new RedisTaskStore({ url: redis.url, prefix });
  open.push(s);
  return s;
}

function record(taskId: string, ttlMs = 60_000): TaskRecord {
  const now = new Date().toISOString();
  return {
    taskId,
    status: "working",
    createdAt: now,
    lastUpdatedAt: now,
    ttlMs,
    pollIntervalMs: 100,
  };
}

describe.skipIf(SKIP_REDIS)("RedisTaskStore", () => {
  it("a created task is readable from another connection at once, and unknown ones are undefined", async () => {
    const [one, two] = [store(), store()];
    await one.create(record("r-1"));
    expect(await two.get("r-1")).toMatchObject({ taskId: "r-1", status: "working" });
    expect(await two.get("nope")).toBeUndefined();
    await expect(two.create(record("r-1"))).rejects.toThrow("exists already");
  });

  it("a task expires in Redis with its ttlMs", async () => {
    const s = store();
    await s.create(record("r-ttl", 100));
    expect(await s.get("r-ttl")).toBeDefined();
    await sleep(250);
    expect(await s.get("r-ttl")).toBeUndefined();
    expect(await s.update("r-ttl", (r) => r)).toBeUndefined();
  });

  it("concurrent changes from two stores are all kept, and every watcher sees each", async () => {
    const [one, two] = [store(), store()];
    const seen: TaskRecord[] = [];
    one.watch((r) => seen.push(r));
    await one.watching();
    await one.create(record("r-cas"));
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        (i % 2 ? one : two).update("r-cas", (r) => ({
          ...r,
          answers: { ...(r.answers ?? {}), [`k${i}`]: i },
        })),
      ),
    );
    const final = await one.get("r-cas");
    expect(Object.keys(final!.answers!).length).toBe(40);
    const deadline = Date.now() + 5000;
    while (seen.length < 40 && Date.now() < deadline) await sleep(10);
    expect(seen.length).toBe(40);
  });

  it("create, change and read with lease are one round trip each (one script, no GET before it)", async () => {
    const s = store("t3:");
    await s.connect();
    const admin: RedisClientType = createClient({ url: redis.url });
    await admin.connect();
    try {
      await s.create(record("r-trips"), 10_000); // loads the scripts, so EVAL does not count below
      await s.update("r-trips", (r) => ({ ...r, statusMessage: "warm" }));
      await s.getWithLease("r-trips");
      await admin.configResetStat();
      await s.create(record("r-trips-2"), 10_000);
      await s.update("r-trips-2", (r) => ({ ...r, status: "completed", result: {} }));
      expect(await s.getWithLease("r-trips-2")).toMatchObject({
        record: { status: "completed" },
        leaseHeld: true,
      });
      const stats = await admin.info("commandstats");
      const calls = (name: string) =>
        Number(new RegExp(`cmdstat_${name}:calls=(\\d+)`).exec(stats)?.[1] ?? 0);
      expect(calls("evalsha")).toBe(3);
      expect([calls("eval"), calls("multi"), calls("exists")]).toEqual([0, 0, 1]); // EXISTS: in the read script
      expect(calls("get")).toBe(2); // one in the change script, one in the read script
    } finally {
      await admin.close();
    }
  });

  it("a change made against a stale record applies to the current one, in one extra round trip", async () => {
    const [one, two] = [store("t4:"), store("t4:")];
    await one.create(record("r-stale"));
    await two.update("r-stale", (r) => ({ ...r, answers: { a: 1 } }));
    // `one` last saw the record without answers: its script finds another and hands it back.
    const next = await one.update("r-stale", (r) => ({
      ...r,
      answers: { ...(r.answers ?? {}), b: 2 },
    }));
    expect(next?.answers).toEqual({ a: 1, b: 2 });
    expect((await two.get("r-stale"))?.answers).toEqual({ a: 1, b: 2 });
  });

  it("a record longer than MAX_TASK_RECORD_BYTES is not read: reported, and the task is absent", async () => {
    const errors: string[] = [];
    const s = new RedisTaskStore({
      url: redis.url,
      prefix: "t5:",
      onError: (error) => errors.push(String(error)),
    });
    open.push(s);
    const admin: RedisClientType = createClient({ url: redis.url });
    await admin.connect();
    try {
      await admin.set("t5:task:huge", "x".repeat(MAX_TASK_RECORD_BYTES + 1));
      expect(await s.get("huge")).toBeUndefined();
      expect(await s.getWithLease("huge")).toBeUndefined();
      expect(await s.update("huge", (r) => r)).toBeUndefined();
      expect(errors).toHaveLength(3);
      expect(errors[0]).toContain(
        "the task record in Redis (t5:task:huge) is longer than 16777216 bytes (TOOLONG task record of 16777217 bytes); it is treated as absent",
      );
    } finally {
      await admin.del("t5:task:huge");
      await admin.close();
    }
  });

  it("a change that leaves the record as it is writes and publishes nothing", async () => {
    const s = store();
    await s.create(record("r-same"));
    expect(await s.update("r-same", () => undefined)).toBeUndefined();
  });
});

describe.skipIf(SKIP_REDIS)("RedisChangeBus", () => {
  it("a change sent on one bus reaches the other, not itself", async () => {
    const one = new RedisChangeBus({ url: redis.url, prefix: "t2:" });
    const two = new RedisChangeBus({ url: redis.url, prefix: "t2:" });
    open.push(one, two);
    const got: Array<[string, Change]> = [];
    one.receive((c) => got.push(["one", c]));
    two.receive((c) => got.push(["two", c]));
    await Promise.all([one.ready(), two.ready()]);
    one.send({ kind: "resource", uri: "test://x" });
    const deadline = Date.now() + 5000;
    while (got.length === 0 && Date.now() < deadline) await sleep(10);
    await sleep(50);
    expect(got).toEqual([["two", { kind: "resource", uri: "test://x" }]]);
  });
  it("what another process publishes that is not a change (not JSON, malformed, too long) is reported and dropped, and the bus goes on", async () => {
    const errors: string[] = [];
    const bus = new RedisChangeBus({
      url: redis.url,
      prefix: "t3:",
      onError: (error) => errors.push(String(error)),
    });
    open.push(bus);
    const got: Change[] = [];
    bus.receive((c) => got.push(c));
    await bus.ready();
    const raw = createClient({ url: redis.url });
    await raw.connect();
    try {
      for (const message of [
        "{not json",
        JSON.stringify({ origin: "other", change: { kind: "keyed", field: "jobIds" } }),
        JSON.stringify({ origin: "other", change: { kind: "nonsense" } }),
        "x".repeat(MAX_CHANGE_BYTES + 1),
        JSON.stringify({ origin: "other", change: { kind: "tools" } }),
      ])
        await raw.publish("t3:changes", message);
      await until(() => got.length > 0, { what: "the good change" });
    } finally {
      await raw.close();
    }
    expect(got).toEqual([{ kind: "tools" }]);
    expect(errors).toEqual([
      expect.stringContaining("JSON") as unknown,
      expect.stringContaining("a malformed change") as unknown,
      expect.stringContaining("a malformed change") as unknown,
      expect.stringContaining(`a message of ${MAX_CHANGE_BYTES + 1} bytes`) as unknown,
    ]);
  });
});

describe("an unreachable Redis", () => {
  it("store calls fail within seconds instead of hanging, the error is reported, and close does not hang", async () => {
    const errors: unknown[] = [];
    const s = new RedisTaskStore({
      url: "redis://127.0.0.1:1/0",
      onError: (error) => errors.push(error),
    });
    const started = Date.now();
    await expect(s.get("x")).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(5000);
    expect(errors.length).toBeGreaterThan(0);
    await s.close();
  });
});

describe("MCP_TASK_STORE", () => {
  it("unset or memory: the in-memory store, no bus", () => {
    expect(scaleOutFromEnvironment({})).toEqual({});
    expect(scaleOutFromEnvironment({ MCP_TASK_STORE: "memory" })).toEqual({});
  });

  it("a Redis URL: a Redis store and bus (connected on first use)", async () => {
    const chosen = scaleOutFromEnvironment({ MCP_TASK_STORE: "redis://127.0.0.1:1/0" });
    expect(chosen.tasks?.store).toBeInstanceOf(RedisTaskStore);
    expect(chosen.changeBus).toBeInstanceOf(RedisChangeBus);
    expect(chosen.sessions).toBeInstanceOf(RedisSessionStore);
    await chosen.tasks?.store?.close();
    await chosen.changeBus?.close();
    await chosen.sessions?.close();
  });

  it("MCP_SESSION_STORE: unset follows MCP_TASK_STORE, memory keeps sessions per instance, a URL shares them alone", async () => {
    const url = "redis://127.0.0.1:1/0";
    expect(
      scaleOutFromEnvironment({ MCP_TASK_STORE: url, MCP_SESSION_STORE: "memory" }).sessions,
    ).toBeUndefined();
    const alone = scaleOutFromEnvironment({ MCP_SESSION_STORE: url });
    expect(alone.tasks).toBeUndefined();
    expect(alone.sessions).toBeInstanceOf(RedisSessionStore);
    await alone.sessions?.close();
    expect(() => scaleOutFromEnvironment({ MCP_SESSION_STORE: "redis" })).toThrow(
      `MCP_SESSION_STORE=redis: expected "memory" or a Redis URL`,
    );
  });

  it.each(["postgres://db/1", "127.0.0.1:6379", "redis"])(
    "anything else stops the start, naming the variable: %s",
    (value) => {
      expect(() => scaleOutFromEnvironment({ MCP_TASK_STORE: value })).toThrow(
        `MCP_TASK_STORE=${value}: expected "memory" or a Redis URL such as redis://127.0.0.1:6379/0`,
      );
    },
  );
});
