/**
 * A task whose instance dies: the instance running a task's work renews
 * the task's lease (an expiring Redis key) every third of MCP_TASK_LEASE_MS;
 * when it is killed with SIGKILL the lease lapses, and a tasks/get on any
 * other instance fails the task (-32603, "the instance running this task
 * stopped") with a compare-and-set that applies only while the lease is
 * lapsed, so exactly one instance writes the failure however many look at
 * once. Three real server processes (test/runtime/fixtures/
 * scale-out-server.ts) on one real redis-server, over HTTP on 127.0.0.1.
 * A task whose instance lives on outlasts many leases and completes.
 */
import { randomBytes } from "node:crypto";
import { createClient } from "@redis/client";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { InMemoryTaskStore, type TaskRecord } from "../../../templates/runtime/index.js";
import { startInstance, stopInstance, type Instance } from "../../helpers/instances.js";
import { SKIP_REDIS, startRedis, type RedisServer } from "../../helpers/redis.js";
import { post, request } from "../../helpers/mcp-client.js";
import { sleep } from "../../helpers/wait.js";

const EXT = { extensions: { "io.modelcontextprotocol/tasks": {} } };
const KEY = randomBytes(32).toString("hex");
const LEASE_MS = 1000;
const POLL_MS = 250;

function instance(name: string, redis: RedisServer): Promise<Instance> {
  return startInstance({
    name,
    redisUrl: redis.url,
    env: {
      MCP_TASK_LEASE_MS: String(LEASE_MS),
      MCP_TASK_POLL_MS: String(POLL_MS),
      MCP_REQUEST_STATE_KEY: KEY,
    },
  });
}

type Json = Record<string, unknown>;
let nextId = 1;

async function call(on: Instance, method: string, params: Json): Promise<Json> {
  const reply = await post(on.url, request(method, params, nextId++, EXT));
  const body = reply.body as { result?: Json; error?: Json };
  if (!body.result) throw new Error(`${method}: ${JSON.stringify(body.error)}`);
  return body.result;
}

describe.skipIf(SKIP_REDIS)("a task whose instance is killed", () => {
  let redis: RedisServer;
  let a: Instance;
  let b: Instance;
  let c: Instance;

  beforeAll(async () => {
    redis = await startRedis();
    [a, b, c] = await Promise.all([
      instance("A", redis),
      instance("B", redis),
      instance("C", redis),
    ]);
  }, 60_000);

  afterAll(async () => {
    await Promise.all([stopInstance(a, "SIGKILL"), stopInstance(b), stopInstance(c)]);
    await redis?.stop();
  });

  it("lives on while its instance renews the lease, past many leases", async () => {
    const created = await call(b, "tools/call", {
      name: "work",
      arguments: { ms: 3 * LEASE_MS, label: "long" },
    });
    const taskId = String(created.taskId);
    const seen = new Set<string>();
    let task: Json = {};
    while (!["completed", "failed", "cancelled"].includes(String(task.status))) {
      task = await call(c, "tasks/get", { taskId });
      seen.add(String(task.status));
      await sleep(POLL_MS);
    }
    expect(task).toMatchObject({
      status: "completed",
      result: { content: [{ text: "long done on B" }] },
    });
    expect([...seen].sort()).toEqual(["completed", "working"]);
  });

  it("fails within lease + poll interval, written once, when the instance running it dies", async () => {
    const created = await call(a, "tools/call", {
      name: "work",
      arguments: { ms: 60_000, label: "orphan" },
    });
    const taskId = String(created.taskId);
    expect(created.pollIntervalMs).toBe(POLL_MS);
    expect(await call(b, "tasks/get", { taskId })).toMatchObject({ status: "working" });

    // Every record the store publishes for this task, as Redis carries it.
    const published: TaskRecord[] = [];
    const listener = createClient({ url: redis.url });
    await listener.connect();
    await listener.subscribe("mcp:tasks", (message) => {
      const record = JSON.parse(message) as TaskRecord;
      if (record.taskId === taskId) published.push(record);
    });

    // What is left of A's lease when it dies: no instance may fail the task before that has run out.
    const leaseReadFrom = Date.now();
    const leaseLeft = await listener
      .duplicate()
      .connect()
      .then(async (reader) => {
        try {
          return await reader.pTTL(`mcp:task-lease:${taskId}`);
        } finally {
          reader.destroy();
        }
      });
    expect(leaseLeft).toBeGreaterThan(0);
    await stopInstance(a, "SIGKILL");
    const killedAt = Date.now();
    // Clients of B and C poll at the task's pollIntervalMs, each with several requests in flight.
    let failed: Json | undefined;
    while (!failed && Date.now() - killedAt < 10 * LEASE_MS) {
      const tasks = await Promise.all([b, c, b, c].map((on) => call(on, "tasks/get", { taskId })));
      failed = tasks.find((t) => t.status === "failed");
      if (!failed) await sleep(POLL_MS);
    }
    const failedSeenAt = Date.now();
    const elapsed = failedSeenAt - killedAt;
    process.stderr.write(
      `task lease: failed ${elapsed} ms after SIGKILL (lease ${LEASE_MS} ms, poll ${POLL_MS} ms)\n`,
    );
    expect(failed).toMatchObject({
      status: "failed",
      statusMessage: "the instance running this task stopped",
      error: { code: -32603, message: "the instance running this task stopped" },
    });
    // The lease lapsed first: a renewal A made late on a loaded machine leaves less of it, so the bound
    // is what Redis said was left, counted from before Redis was asked (not from the kill, which
    // may take a while to be seen), not a share of LEASE_MS.
    expect(failedSeenAt - leaseReadFrom).toBeGreaterThanOrEqual(leaseLeft - 50);
    // The lease, not the task's TTL (minutes), ended it: the bound is far under the TTL and leaves
    // a loaded machine room (measured on a quiet one: 800-900 ms).
    expect(elapsed).toBeLessThan(8 * LEASE_MS);
    // Every instance sees the same failure afterwards, and it was written once.
    const after = await Promise.all([b, c].map((on) => call(on, "tasks/get", { taskId })));
    expect(after.map((t) => t.lastUpdatedAt)).toEqual([
      failed!.lastUpdatedAt,
      failed!.lastUpdatedAt,
    ]);
    await sleep(200);
    await listener.close();
    expect(published.map((r) => r.status)).toEqual(["failed"]);
  });
});

describe("leases in the in-memory store", () => {
  const record = (taskId: string): TaskRecord => {
    const now = new Date().toISOString();
    return {
      taskId,
      status: "working",
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs: 60_000,
      pollIntervalMs: 1000,
    };
  };
  const fail = (r: TaskRecord): TaskRecord => ({ ...r, status: "failed" });

  it("a change unless leased applies only once the lease lapsed; a renewal extends it", async () => {
    // The store's clock is Date.now: moved by hand, so a loaded machine cannot stretch the steps.
    vi.useFakeTimers({ toFake: ["Date"] });
    const later = (ms: number) => vi.setSystemTime(Date.now() + ms);
    const store = new InMemoryTaskStore();
    try {
      await store.create(record("t"), 80);
      expect((await store.getWithLease("t"))?.leaseHeld).toBe(true);
      expect(await store.update("t", fail, { unlessLeased: true })).toBeUndefined();
      later(50);
      await store.renewLeases(["t"], 80);
      later(50); // 100 ms after the start: past the first lease, inside the renewed one
      expect((await store.getWithLease("t"))?.leaseHeld).toBe(true);
      later(29);
      expect((await store.getWithLease("t"))?.leaseHeld).toBe(true);
      later(1); // the renewed lease's 80 ms are over
      expect((await store.getWithLease("t"))?.leaseHeld).toBe(false);
      expect(await store.update("t", fail, { unlessLeased: true })).toMatchObject({
        status: "failed",
      });
    } finally {
      vi.useRealTimers();
      await store.close();
    }
  });
});
