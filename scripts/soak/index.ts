/**
 * `npm run soak:tasks`: mixed task traffic for minutes over two server
 * instances sharing one Redis, to see whether memory stays flat and
 * whether any task is lost or duplicated. A script that prints numbers,
 * not a test.
 *
 *   npm run soak:tasks -- [--minutes=5] [--clients=16]
 *
 * Two instances (scripts/soak/server.mjs, the built runtime, run
 * with --expose-gc) share a redis-server started on a free loopback port
 * without persistence. Each client loops: it creates a task on one
 * instance and follows it on the other (what a load balancer without
 * affinity does), polling at the task's pollIntervalMs, in a mix of
 * 50% tasks that complete (after 0-200 ms), 20% that ask for input
 * (answered with tasks/update), 15% that fail with a JSON-RPC error and
 * 15% that are cancelled while working. Every outcome is checked against
 * what the task was asked to do.
 *
 * Once a minute it prints each instance's heap (after a collection) and
 * RSS, the tasks running on it, and the counts so far. At the end it
 * counts the task keys in Redis: every task created must be there once
 * (tasks are kept for the whole soak), and the jobs the instances started
 * must add up to the tasks created. A task is lost when it is unknown
 * before its time, never ends, is missing from Redis at the end or its job
 * never started; it is duplicated when two creations return one taskId,
 * its result belongs to another task, Redis holds more task keys than were
 * created, or more jobs started than tasks were created. Exit code 1 when
 * any was.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@redis/client";
import { Pool } from "undici";
import { ensureBuilt, machine, printMachine, ROOT } from "../shared/common.js";
import { Children, waitForPort, type Child } from "../shared/processes.js";
import { redisServerInstalled, startRedis, type RedisServer } from "../../test/helpers/redis.js";
import { freePort } from "../shared/free-port.js";
import { sleep } from "../../test/helpers/wait.js";

const args = process.argv.slice(2);
const option = (name: string, fallback: number): number => {
  const given = args.find((a) => a.startsWith(`--${name}=`));
  if (given === undefined) return fallback;
  const value = Number(given.slice(name.length + 3));
  if (!Number.isFinite(value) || value <= 0) {
    console.error(`soak:tasks: --${name} must be a positive number, got ${given}`);
    process.exit(2);
  }
  return value;
};
const MINUTES = option("minutes", 5);
const CLIENTS = Math.round(option("clients", 16));

const CAPS = { elicitation: { form: {} }, extensions: { "io.modelcontextprotocol/tasks": {} } };
const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": CAPS,
};
type Json = Record<string, unknown>;

interface Instance {
  readonly name: string;
  readonly child: Child;
  readonly pool: Pool;
}

/** What the traffic did so far. */
const counts = {
  created: 0,
  completed: 0,
  answered: 0,
  failed: 0,
  cancelled: 0,
  lost: 0,
  duplicated: 0,
  unexpected: 0,
};
const problems: string[] = [];
const taskIds = new Set<string>();
let id = 0;

function problem(kind: "lost" | "duplicated" | "unexpected", message: string): void {
  counts[kind]++;
  if (problems.length < 10) problems.push(`${kind}: ${message}`);
}

/** One request; the JSON-RPC result, or `{ rpcError }` with the JSON-RPC error. */
async function rpc(on: Instance, method: string, params: Json, name: string): Promise<Json> {
  const response = await on.pool.request({
    path: "/mcp",
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": method,
      "mcp-name": name,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: ++id, method, params: { ...params, _meta: META } }),
  });
  const body = (await response.body.json()) as { result?: Json; error?: Json };
  if (body.result) return body.result;
  return { rpcError: body.error ?? { message: `HTTP ${response.statusCode}` } };
}

type Mode = "complete" | "ask" | "fail" | "long";

function pickMode(): Mode {
  const r = Math.random();
  return r < 0.5 ? "complete" : r < 0.7 ? "ask" : r < 0.85 ? "fail" : "long";
}

const textOf = (result: unknown) =>
  (result as { content?: Array<{ text?: string }> } | undefined)?.content?.[0]?.text;

/** Creates one task on `creator`, follows it on `follower` to its end, and checks the outcome. */
async function oneTask(n: number, creator: Instance, follower: Instance): Promise<void> {
  const mode = pickMode();
  const ms = Math.floor(Math.random() * 200);
  const created = await rpc(
    creator,
    "tools/call",
    { name: "job", arguments: { n, ms, mode } },
    "job",
  );
  if (created.resultType !== "task" || typeof created.taskId !== "string")
    return problem("unexpected", `job ${n}: created ${JSON.stringify(created)}`);
  const taskId = created.taskId;
  if (taskIds.has(taskId)) return problem("duplicated", `job ${n}: taskId ${taskId} seen before`);
  taskIds.add(taskId);
  counts.created++;
  const deadline = Date.now() + 30_000;
  let cancelAt = mode === "long" ? Date.now() + 100 + ms : Infinity;
  let answered = false;
  for (;;) {
    const task = await rpc(follower, "tasks/get", { taskId }, taskId);
    if (task.rpcError)
      return problem("lost", `job ${n} (${taskId}): ${JSON.stringify(task.rpcError)}`);
    const status = task.status;
    if (status === "completed") {
      const text = textOf(task.result);
      const expected = mode === "ask" ? `job ${n} answered soak-${n}` : `job ${n} done`;
      if (text === expected) {
        if (mode === "ask") counts.answered++;
        else counts.completed++;
        return;
      }
      if (typeof text === "string" && !text.startsWith(`job ${n} `))
        return problem("duplicated", `job ${n}: completed with another task's result: ${text}`);
      return problem("unexpected", `job ${n} (${mode}): completed with ${text}`);
    }
    if (status === "failed") {
      const error = task.error as { code?: number; message?: string } | undefined;
      if (mode === "fail" && error?.code === -31000 && error.message === `job ${n} failed`) {
        counts.failed++;
        return;
      }
      return problem("unexpected", `job ${n} (${mode}): failed with ${JSON.stringify(error)}`);
    }
    if (status === "cancelled") {
      if (mode === "long" && cancelAt === 0) {
        counts.cancelled++;
        return;
      }
      return problem("unexpected", `job ${n} (${mode}): cancelled`);
    }
    if (status === "input_required" && !answered) {
      if (mode !== "ask") return problem("unexpected", `job ${n} (${mode}): asks for input`);
      answered = true;
      await rpc(
        follower,
        "tasks/update",
        { taskId, inputResponses: { name: { action: "accept", content: { name: `soak-${n}` } } } },
        taskId,
      );
      continue;
    }
    if (Date.now() >= cancelAt) {
      cancelAt = 0;
      await rpc(follower, "tasks/cancel", { taskId }, taskId);
      continue;
    }
    if (Date.now() > deadline)
      return problem("lost", `job ${n} (${taskId}): still ${String(status)}`);
    await sleep(Number(task.pollIntervalMs) || 50);
  }
}

async function instance(
  children: Children,
  name: string,
  redisUrl: string,
  ttlMs: number,
): Promise<Instance> {
  const port = await freePort();
  const child = children.spawn(
    `instance ${name}`,
    process.execPath,
    ["--expose-gc", join(ROOT, "scripts", "soak", "server.mjs")],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        INSTANCE: name,
        PORT: String(port),
        MCP_TASK_STORE: redisUrl,
        SOAK_TTL_MS: String(ttlMs),
      },
    },
  );
  await waitForPort(port, 15_000, () => !child.exited);
  return { name, child, pool: new Pool(`http://127.0.0.1:${port}`, { connections: 64 }) };
}

/** An instance's memory and tasks, from its `stats` tool. */
async function stats(on: Instance): Promise<Json> {
  const result = await rpc(on, "tools/call", { name: "stats", arguments: {} }, "stats");
  return (result.structuredContent as Json | undefined) ?? { rpcError: result.rpcError };
}

const mb = (bytes: unknown) => `${(Number(bytes) / 1048576).toFixed(1)} MB`;

async function report(label: string, instances: readonly Instance[]): Promise<void> {
  const lines = await Promise.all(
    instances.map(async (on) => {
      const s = await stats(on);
      return `${on.name}: heap ${mb(s.heapUsed)}, RSS ${mb(s.rss)}, running ${String(s.running)}`;
    }),
  );
  const c = counts;
  console.log(
    `${label.padEnd(9)} ${lines.join(" | ")} | created ${c.created}, completed ${c.completed}, answered ${c.answered}, failed ${c.failed}, cancelled ${c.cancelled}; lost ${c.lost}, duplicated ${c.duplicated}, unexpected ${c.unexpected}`,
  );
}

async function main(): Promise<number> {
  ensureBuilt();
  console.log(
    `soak:tasks: ${MINUTES} min of mixed task traffic, ${CLIENTS} clients, two instances on one Redis`,
  );
  printMachine(machine());
  const dir = mkdtempSync(join(tmpdir(), "mcp-gen-soak-"));
  const children = new Children(() => rmSync(dir, { recursive: true, force: true }));
  const instances: Instance[] = [];
  let redis: RedisServer | undefined;
  try {
    if (!redisServerInstalled()) {
      console.error("soak:tasks needs redis-server (Debian: apt-get install -y redis-server)");
      return 2;
    }
    redis = await startRedis();
    const ttlMs = (MINUTES + 5) * 60_000;
    instances.push(
      await instance(children, "A", redis.url, ttlMs),
      await instance(children, "B", redis.url, ttlMs),
    );
    const [a, b] = instances as [Instance, Instance];
    await report("start", instances);
    const end = Date.now() + MINUTES * 60_000;
    let n = 0;
    const client = async () => {
      while (Date.now() < end) {
        const task = ++n;
        try {
          await (task % 2 ? oneTask(task, a, b) : oneTask(task, b, a));
        } catch (error) {
          problem("unexpected", `job ${task}: ${(error as Error).message}`);
        }
      }
    };
    const traffic = Promise.all(Array.from({ length: CLIENTS }, client));
    for (let minute = 1; minute <= MINUTES; minute++) {
      await Promise.race([
        traffic,
        sleep(Math.max(0, end - (MINUTES - minute) * 60_000 - Date.now())),
      ]);
      await report(`minute ${minute}`, instances);
    }
    await traffic;
    await sleep(500);
    await report("end", instances);

    // Every task's work ran once, on one instance or the other.
    const started = (await Promise.all(instances.map(stats))).reduce(
      (sum, s) => sum + Number(s.started),
      0,
    );
    if (started > counts.created)
      problem(
        "duplicated",
        `${started - counts.created} more jobs started than tasks were created`,
      );
    if (started < counts.created)
      problem("lost", `${counts.created - started} tasks whose job never started`);
    const redisClient = createClient({ url: redis.url });
    await redisClient.connect();
    let keys = 0;
    for await (const batch of redisClient.scanIterator({ MATCH: "mcp:task:*", COUNT: 1000 }))
      keys += batch.length;
    await redisClient.close();
    if (keys < counts.created) problem("lost", `${counts.created - keys} tasks missing from Redis`);
    if (keys > counts.created)
      problem(
        "duplicated",
        `Redis holds ${keys - counts.created} task keys more than were created`,
      );
    console.log(
      `Redis: ${keys} task keys, jobs started ${started}, for ${counts.created} tasks created; lost ${counts.lost}, duplicated ${counts.duplicated}, unexpected ${counts.unexpected}`,
    );
    for (const p of problems) console.log(`  ${p}`);
    return counts.lost + counts.duplicated + counts.unexpected > 0 ? 1 : 0;
  } finally {
    await Promise.all(instances.map((i) => i.pool.close()));
    await children.stopAll();
    await redis?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

process.exitCode = await main();
