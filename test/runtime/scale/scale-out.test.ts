/**
 * Scaling out: two server processes (test/runtime/fixtures/
 * scale-out-server.ts) on different ports, sharing one real redis-server
 * (MCP_TASK_STORE) and one MCP_REQUEST_STATE_KEY, as two instances behind
 * a load balancer would. A task created on A is read, answered and
 * cancelled on B; an MRTR exchange started on A completes on B; a listen
 * stream on B hears of changes and task statuses caused on A; and 1,000
 * tasks spread over both under concurrent load are all there once, each
 * completed with its own result, with the heap of each instance measured
 * before and after. Real HTTP on 127.0.0.1, real child processes.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startInstance, stopInstance, type Instance } from "../../helpers/instances.js";
import { SKIP_REDIS, startRedis, type RedisServer } from "../../helpers/redis.js";
import { openStream, post, request } from "../../helpers/mcp-client.js";
import { sleep, until } from "../../helpers/wait.js";

const EXT = { elicitation: { form: {} }, extensions: { "io.modelcontextprotocol/tasks": {} } };
const KEY = randomBytes(32).toString("hex");

function instance(name: string, redis: RedisServer): Promise<Instance> {
  return startInstance({
    name,
    redisUrl: redis.url,
    env: { MCP_REQUEST_STATE_KEY: KEY },
    nodeOptions: ["--expose-gc"],
  });
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

type Json = Record<string, unknown>;

/** One request to an instance; its result, or throws with its error. */
async function call(on: Instance, method: string, params: Json, caps: Json = EXT): Promise<Json> {
  const reply = await post(on.url, request(method, params, nextId++, caps));
  const body = reply.body as { result?: Json; error?: Json };
  if (!body.result) throw new Error(`${method}: ${JSON.stringify(body.error)}`);
  return body.result;
}

const tool = (on: Instance, name: string, args: Json = {}, extra: Json = {}) =>
  call(on, "tools/call", { name, arguments: args, ...extra });

/** The task, read on `on`, once `done` holds for it. */
const taskWhen = (on: Instance, taskId: string, done: (task: Json) => boolean) =>
  until(
    async () => {
      const task = await call(on, "tasks/get", { taskId });
      return done(task) && task;
    },
    { what: `task ${taskId} reaching the state`, everyMs: 20 },
  );
const ended = (task: Json) => ["completed", "failed", "cancelled"].includes(String(task.status));

async function stats(
  on: Instance,
): Promise<{ heapUsed: number; running: number; aborted: number }> {
  const result = await tool(on, "stats");
  return result.structuredContent as { heapUsed: number; running: number; aborted: number };
}

describe.skipIf(SKIP_REDIS)("two instances on one Redis", () => {
  it("a task created on A is read, answered and cancelled on B", async () => {
    const asked = await tool(a, "ask");
    expect(asked.resultType).toBe("task");
    const taskId = String(asked.taskId);
    // Readable on B as soon as A answered.
    expect((await call(b, "tasks/get", { taskId })).taskId).toBe(taskId);
    const waiting = await taskWhen(b, taskId, (t) => t.status === "input_required");
    expect(waiting.inputRequests).toMatchObject({ who: { method: "elicitation/create" } });
    await call(b, "tasks/update", {
      taskId,
      inputResponses: { who: { action: "accept", content: { name: "Grace" } } },
    });
    const done = await taskWhen(a, taskId, ended);
    expect(done).toMatchObject({
      status: "completed",
      result: { content: [{ text: "Hello Grace from A" }] },
    });

    const long = String((await tool(a, "work", { ms: 60_000, label: "long" })).taskId);
    await taskWhen(b, long, (t) => t.status === "working");
    const before = (await stats(a)).aborted;
    await call(b, "tasks/cancel", { taskId: long });
    expect(await call(a, "tasks/get", { taskId: long })).toMatchObject({ status: "cancelled" });
    // A hears of the cancellation through Redis and stops the work.
    const deadline = Date.now() + 5000;
    while ((await stats(a)).aborted === before && Date.now() < deadline) await sleep(20);
    expect((await stats(a)).aborted).toBe(before + 1);
  });

  it("an MRTR exchange started on A completes on B (shared requestState key, no server state)", async () => {
    const round1 = await tool(a, "book");
    expect(round1.resultType).toBe("input_required");
    const round2 = await tool(
      b,
      "book",
      {},
      {
        inputResponses: { who: { action: "accept", content: { name: "Ada" } } },
        requestState: round1.requestState,
      },
    );
    expect(round2).toMatchObject({
      resultType: "complete",
      content: [{ text: "Booked for Ada: started on A, ended on B" }],
    });
  });

  it("a listen stream on B receives list-changed and task-status notifications caused on A", async () => {
    const created = await tool(a, "work", { ms: 300, label: "watched" });
    const taskId = String(created.taskId);
    const stream = await openStream(
      b.url,
      request(
        "subscriptions/listen",
        { notifications: { toolsListChanged: true, taskIds: [taskId] } },
        nextId++,
        EXT,
      ),
    );
    try {
      expect(await stream.next()).toMatchObject({
        method: "notifications/subscriptions/acknowledged",
      });
      // The subscription to Redis is in place once B answered a request after starting.
      await tool(a, "touch");
      const seen: Json[] = [];
      while (!seen.some((m) => m.method === "notifications/tasks")) seen.push(await stream.next());
      expect(seen.map((m) => m.method)).toContain("notifications/tools/list_changed");
      expect(seen.find((m) => m.method === "notifications/tasks")).toMatchObject({
        params: {
          taskId,
          status: "completed",
          result: { content: [{ text: "watched done on A" }] },
        },
      });
    } finally {
      stream.close();
    }
  });

  it(
    "1,000 tasks over both instances under concurrent load: none lost, none duplicated, memory flat",
    { timeout: 120_000 },
    async () => {
      const COUNT = 1000;
      const CONCURRENCY = 40;
      const warm = await Promise.all([stats(a), stats(b)]);
      const started = Date.now();
      const ids = new Map<string, number>();
      let next = 0;
      const worker = async () => {
        for (let i = next++; i < COUNT; i = next++) {
          const creator = i % 2 === 0 ? a : b;
          const reader = i % 2 === 0 ? b : a;
          const created = await tool(creator, "work", { ms: i % 20, label: `job-${i}` });
          ids.set(String(created.taskId), i);
          const done = await taskWhen(reader, String(created.taskId), ended);
          expect(done).toMatchObject({
            status: "completed",
            result: { content: [{ text: `job-${i} done on ${creator === a ? "A" : "B"}` }] },
          });
        }
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));
      const seconds = (Date.now() - started) / 1000;
      expect(ids.size).toBe(COUNT);
      expect(new Set(ids.values()).size).toBe(COUNT);
      const after = await Promise.all([stats(a), stats(b)]);
      const growth = after.map((s, i) => s.heapUsed - warm[i]!.heapUsed);
      console.log(
        `scale-out: ${COUNT} tasks over 2 instances, ${CONCURRENCY} at a time, in ${seconds.toFixed(1)} s ` +
          `(${(COUNT / seconds).toFixed(0)} tasks/s); heap after GC A ${mb(warm[0].heapUsed)} → ${mb(after[0].heapUsed)}, ` +
          `B ${mb(warm[1].heapUsed)} → ${mb(after[1].heapUsed)}; running after: ${after[0].running + after[1].running}`,
      );
      expect(after.map((s) => s.running)).toEqual([0, 0]);
      // Nothing per task stays in either process: the records live in Redis.
      for (const bytes of growth) expect(bytes).toBeLessThan(8 * 1024 * 1024);
    },
  );
});

function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
