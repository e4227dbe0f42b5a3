/**
 * Tasks when Redis misbehaves, with real server processes
 * (test/runtime/fixtures/scale-out-server.ts) on a real redis-server that
 * keeps an append-only file:
 * - Redis stopped with SIGSTOP (connected, never answering): task requests
 *   answer -32603 within the store's deadline (2 s by default,
 *   MCP_TASK_STORE_TIMEOUT_MS), and work again once it resumes;
 * - Redis shut down for 5 s while a task finishes: the instance keeps the
 *   result and stores it once Redis is back, within the task's lease;
 * - SIGTERM with tasks under way: a task that ends within the shutdown
 *   deadline completes, one that does not is failed at once, naming the
 *   stopped instance, instead of staying "working" until its lease lapses.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RedisTaskStore } from "../../../templates/runtime/index.js";
import { post, request } from "../../helpers/mcp-client.js";
import { exitOf, startInstance, type Instance } from "../../helpers/instances.js";
import { SKIP_REDIS, startRedis, type RedisServer } from "../../helpers/redis.js";
import { sleep, until } from "../../helpers/wait.js";

const EXT = { extensions: { "io.modelcontextprotocol/tasks": {} } };
type Json = Record<string, unknown>;

const instances: Instance[] = [];

async function instance(env: Record<string, string> = {}): Promise<Instance> {
  const started = await startInstance({ name: "A", redisUrl: redis.url, env, quiet: true });
  instances.push(started);
  return started;
}

let redis: RedisServer;
let nextId = 1;

beforeAll(async () => {
  if (!SKIP_REDIS) redis = await startRedis({ persistence: true });
});

afterAll(async () => {
  redis?.resume();
  for (const each of instances) each.proc.kill("SIGKILL");
  await Promise.all(instances.map(exitOf));
  await redis?.stop();
});

/** One request; its JSON-RPC result or error. */
async function rpc(on: Instance, method: string, params: Json): Promise<Json> {
  const reply = await post(on.url, request(method, params, nextId++, EXT));
  return reply.body;
}

async function startTask(on: Instance, ms: number, label: string): Promise<string> {
  const body = await rpc(on, "tools/call", { name: "work", arguments: { ms, label } });
  const result = body.result as Json | undefined;
  if (result?.resultType !== "task") throw new Error(`no task: ${JSON.stringify(body)}`);
  return String(result.taskId);
}

const ended = (task: Json) => ["completed", "failed", "cancelled"].includes(String(task.status));

async function taskWhen(on: Instance, taskId: string, done: (task: Json) => boolean) {
  return until(
    async () => {
      const task = (await rpc(on, "tasks/get", { taskId })).result as Json | undefined;
      return task && done(task) && task;
    },
    { what: `task ${taskId} reaching the state`, timeoutMs: 20_000, everyMs: 100 },
  );
}

describe.skipIf(SKIP_REDIS)("a Redis that stalls", () => {
  it.each([
    { timeoutMs: undefined, deadline: 2000 },
    { timeoutMs: 500, deadline: 500 },
  ])(
    "paused Redis (SIGSTOP): task requests answer -32603 within the deadline ($deadline ms), then recover",
    { timeout: 30_000 },
    async ({ timeoutMs, deadline }) => {
      const on = await instance(
        timeoutMs === undefined ? {} : { MCP_TASK_STORE_TIMEOUT_MS: String(timeoutMs) },
      );
      // The first call also loads the Redis client and connects; a short deadline may cut it on a busy machine.
      const taskId = await until(() => startTask(on, 0, "before").catch(() => undefined), {
        what: "a first task",
        timeoutMs: 20_000,
        everyMs: 100,
      });
      await taskWhen(on, taskId, ended);
      redis.pause();
      try {
        for (const [method, params] of [
          ["tasks/get", { taskId }],
          ["tools/call", { name: "work", arguments: { ms: 0, label: "during" } }],
        ] as const) {
          const started = Date.now();
          const body = await rpc(on, method, params);
          const took = Date.now() - started;
          console.log(
            `paused Redis: ${method} answered ${JSON.stringify(body.error)} in ${took} ms`,
          );
          expect(body.error).toMatchObject({ code: -32603 });
          expect(took).toBeGreaterThanOrEqual(deadline - 50);
          expect(took).toBeLessThan(deadline + 1500);
        }
      } finally {
        redis.resume();
      }
      expect(on.stderr()).toContain(`Redis did not answer`);
      const after = await startTask(on, 0, "after");
      expect(await taskWhen(on, after, ended)).toMatchObject({ status: "completed" });
    },
  );

  it(
    "Redis down for 5 s around a task's completion: the result is kept and stored once Redis is back",
    { timeout: 60_000 },
    async () => {
      const on = await instance();
      const taskId = await startTask(on, 1000, "through the outage");
      await taskWhen(on, taskId, (task) => task.status === "working");
      await redis.halt();
      await sleep(5000); // the work ends while Redis is down
      await redis.restart();
      const task = await taskWhen(on, taskId, ended);
      expect(task).toMatchObject({
        status: "completed",
        result: { content: [{ type: "text", text: "through the outage done on A" }] },
      });
    },
  );

  it(
    "SIGTERM: a task that ends within the deadline completes, one that does not is failed at once",
    { timeout: 30_000 },
    async () => {
      // A lease far longer than the test: without the shutdown, the long task would stay "working".
      const on = await instance({ MCP_TASK_LEASE_MS: "600000", MCP_SHUTDOWN_TIMEOUT_MS: "1500" });
      const short = await startTask(on, 300, "short");
      const long = await startTask(on, 600_000, "long");
      const signalled = Date.now();
      on.proc.kill("SIGTERM");
      expect(await exitOf(on)).toBe(0);
      const took = Date.now() - signalled;
      console.log(`SIGTERM with a task under way: exited in ${took} ms`);
      expect(took).toBeLessThan(1500 + 2000);
      const store = new RedisTaskStore({ url: redis.url });
      try {
        expect(await store.get(short)).toMatchObject({ status: "completed" });
        expect(await store.get(long)).toMatchObject({
          status: "failed",
          statusMessage: "the instance running this task stopped",
          error: { code: -32603, message: "the instance running this task stopped" },
        });
      } finally {
        await store.close();
      }
    },
  );
});
