/**
 * The tasks case of `npm run bench:server` (`--case=tasks`): tasks created
 * and completed per second over HTTP on 127.0.0.1, with the in-memory
 * store and with Redis, on one instance and on two. A client creates a
 * task (`tools/call` of `job`, answered with a CreateTaskResult) and polls
 * `tasks/get` every 5 ms until it is completed, checking its result;
 * `connections` clients do so at once for `seconds`. With two instances
 * and Redis each task is created on one instance and polled on the other
 * (what a load balancer without affinity does); with two instances and
 * memory, each task stays on the instance that created it (affinity), the
 * instances taking turns. The configurations take turns round after
 * round, the order rotating.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Pool } from "undici";
import { median, printTable, ROOT } from "./common.js";
import { freePort } from "../free-port.js";
import { type Child, Children, waitForPort } from "./server-procs.js";
import { redisServerInstalled, startRedis, type RedisServer } from "../../test/helpers/redis.js";

const CAPS = { extensions: { "io.modelcontextprotocol/tasks": {} } };
const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": CAPS,
};

interface Instance {
  readonly child: Child;
  readonly pool: Pool;
}

interface Config {
  readonly label: string;
  /** Which instance creates task `n`, and which is polled for it. */
  readonly route: (n: number) => readonly [Instance, Instance];
  readonly values: number[];
}

let id = 0;

/** One request; the result, or throws with what was wrong. */
async function rpc(
  pool: Pool,
  method: string,
  params: Record<string, unknown>,
  name: string,
): Promise<Record<string, unknown>> {
  const response = await pool.request({
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
  const body = (await response.body.json()) as {
    result?: Record<string, unknown>;
    error?: unknown;
  };
  if (response.statusCode !== 200 || !body.result)
    throw new Error(`${method}: HTTP ${response.statusCode} ${JSON.stringify(body.error)}`);
  return body.result;
}

/** Creates and follows tasks for `seconds` with `connections` clients; tasks completed per second. */
async function measure(
  config: Config,
  seconds: number,
  connections: number,
  errors: string[],
): Promise<number> {
  const start = performance.now();
  const deadline = start + seconds * 1000;
  let done = 0;
  let n = 0;
  const client = async () => {
    while (performance.now() < deadline) {
      const task = ++n;
      const [creator, poller] = config.route(task);
      try {
        const created = await rpc(
          creator.pool,
          "tools/call",
          { name: "job", arguments: { n: task } },
          "job",
        );
        const taskId = String(created.taskId);
        for (;;) {
          const got = await rpc(poller.pool, "tasks/get", { taskId }, taskId);
          if (got.status === "completed") {
            const text = (got.result as { content: Array<{ text: string }> }).content[0]!.text;
            if (text !== `job ${task} done`) throw new Error(`task ${task} completed with ${text}`);
            done++;
            break;
          }
          if (got.status !== "working") throw new Error(`task ${task} is ${String(got.status)}`);
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      } catch (error) {
        if (errors.length < 5) errors.push((error as Error).message);
        else errors.push("");
      }
    }
  };
  await Promise.all(Array.from({ length: connections }, client));
  return done / ((performance.now() - start) / 1000);
}

async function instance(children: Children, name: string, store: string): Promise<Instance> {
  const port = await freePort();
  const child = children.spawn(
    name,
    process.execPath,
    [join(ROOT, "scripts", "bench", "tasks-server.mjs")],
    { cwd: ROOT, env: { ...process.env, PORT: String(port), MCP_TASK_STORE: store } },
  );
  await waitForPort(port, 15_000, () => !child.exited);
  return { child, pool: new Pool(`http://127.0.0.1:${port}`, { connections: 64 }) };
}

/** Runs the tasks case; resolves to the exit code (1 when a task went wrong). */
export async function benchTasks(options: {
  readonly rounds: number;
  readonly seconds: number;
  readonly warmup: number;
  readonly connections: number;
}): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), "mcp-gen-bench-tasks-"));
  const children = new Children(() => rmSync(dir, { recursive: true, force: true }));
  const pools: Pool[] = [];
  let redis: RedisServer | undefined;
  try {
    redis = redisServerInstalled() ? await startRedis() : undefined;
    const m1 = await instance(children, "memory instance 1", "memory");
    const m2 = await instance(children, "memory instance 2", "memory");
    pools.push(m1.pool, m2.pool);
    const configs: Config[] = [
      { label: "memory, 1 instance", route: () => [m1, m1], values: [] },
      {
        label: "memory, 2 instances (a task stays on its instance)",
        route: (n) => (n % 2 ? [m1, m1] : [m2, m2]),
        values: [],
      },
    ];
    if (redis) {
      const r1 = await instance(children, "redis instance A", redis.url);
      const r2 = await instance(children, "redis instance B", redis.url);
      pools.push(r1.pool, r2.pool);
      configs.push(
        { label: "Redis, 1 instance", route: () => [r1, r1], values: [] },
        {
          label: "Redis, 2 instances (created on one, polled on the other)",
          route: (n) => (n % 2 ? [r1, r2] : [r2, r1]),
          values: [],
        },
      );
    } else console.log("[tasks] redis-server is not installed: the Redis rows are left out");
    const errors: string[] = [];
    process.stdout.write(`[tasks warm-up] ${options.warmup} s per configuration ... `);
    for (const config of configs) await measure(config, options.warmup, options.connections, []);
    console.log("done");
    for (let round = 0; round < options.rounds; round++) {
      const order = configs.map((_, i) => configs[(i + round) % configs.length]!);
      for (const config of order)
        config.values.push(await measure(config, options.seconds, options.connections, errors));
      console.log(
        `  round ${round + 1}  ${configs.map((c) => `${c.label.split(" (")[0]}: ${c.values.at(-1)!.toFixed(0)}`).join(", ")} tasks/s`,
      );
    }
    const base = configs[0]!;
    printTable({
      title: `Tasks created and completed per second (tools/call answered with a task, tasks/get every 5 ms until completed), ${options.connections} clients at once`,
      unit: "tasks/s (checked results)",
      digits: 0,
      series: configs.map((c) => ({ label: c.label, values: c.values })),
      ratios: configs.slice(1).map((c) => ({
        label: `${c.label.split(" (")[0]} / memory, 1 instance`,
        values: c.values.map((v, i) => v / base.values[i]!),
      })),
      notes: [
        `${options.rounds} rounds of ${options.seconds} s per configuration, the order rotating; medians: ${configs.map((c) => `${c.label.split(" (")[0]} ${median(c.values).toFixed(0)}`).join(", ")}`,
        `errors: ${errors.length}`,
        ...errors.filter((e) => e !== "").map((e) => `  error: ${e}`),
      ],
    });
    return errors.length > 0 ? 1 : 0;
  } finally {
    await Promise.all(pools.map((p) => p.close()));
    await children.stopAll();
    await redis?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
