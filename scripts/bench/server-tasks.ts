/**
 * The tasks case of `npm run bench:server` (`--case=tasks`): tasks created
 * and completed per second over HTTP on 127.0.0.1, with the in-memory
 * store and with Redis, on one instance and on two. A client creates a
 * task (`tools/call` of `job`, answered with a CreateTaskResult) and polls
 * `tasks/get` every 5 ms until it is completed, checking its result;
 * `connections` clients do so at once for `seconds`. With two instances
 * and Redis each task is created on one instance and polled on the other
 * (what a load balancer without affinity does); with two instances and
 * memory, and in a second Redis row, each task stays on the instance that
 * created it (affinity), the instances taking turns: the Redis row with
 * affinity tells what splitting the load costs from what serving a task on
 * another instance costs. A last Redis row runs two instances in one
 * process (tasks created on one, polled on the other): the sharing
 * without the second process, with no target, to tell the runtime's own
 * cost from what a second process costs on the machine. The
 * configurations take turns round after round, the order rotating.
 *
 * On 2 cores the load generator, the servers and Redis share the CPU, so
 * raw tasks/s cannot show what a second instance adds. Beside it the case
 * prints the CPU the server processes used (utime + stime from
 * /proc/<pid>/stat), as server CPU per task and tasks per server
 * CPU-second: scale-out costs nothing when two instances use no more CPU
 * per task than one. Redis's own CPU and the commands it ran per task
 * (INFO commandstats, reset before each measurement) are printed too, and
 * how often per task the servers waited with nothing to do.
 *
 * Then 2025-era sessions opened per second, in memory and shared through
 * Redis, and the memory one takes in Redis (scripts/bench/server-sessions.ts).
 *
 * A measurement in which a request fails, or a server exits, is not a
 * number: the case prints what failed (each distinct error with its count,
 * and the exit and output of a server that stopped) and exits 1.
 */
import { Pool } from "undici";
import { join } from "node:path";
import { median, printTable, ROOT } from "../shared/common.js";
import { freePort } from "../shared/free-port.js";
import {
  type Child,
  Children,
  procTicks,
  procWaits,
  TICKS_PER_SECOND,
  waitForPort,
} from "../shared/processes.js";
import { perTask, RedisStats } from "./redis-stats.js";
import { benchSessions } from "./server-sessions.js";
import { redisServerInstalled, startRedis, type RedisServer } from "../../test/helpers/redis.js";
import { sleep } from "../../test/helpers/wait.js";

const CAPS = { extensions: { "io.modelcontextprotocol/tasks": {} } };
const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": CAPS,
};
/** How long one request may take before the measurement counts it as failed. */
const REQUEST_TIMEOUT_MS = 10_000;

interface Instance {
  readonly child: Child;
  readonly port: number;
}

/** One measured configuration and what each round gave. */
interface Config {
  readonly label: string;
  /** The instances it uses, whose CPU is counted. */
  readonly instances: readonly Instance[];
  /** Which instance (index into `instances`) creates task `n`, and which is polled for it. */
  readonly route: (n: number) => readonly [number, number];
  readonly redis: boolean;
  readonly rates: number[];
  /** Server CPU milliseconds per task, per round. */
  readonly cpuPerTask: number[];
  /** Times per task the server processes waited with nothing to do (voluntary context switches), per round. */
  readonly waitsPerTask: number[];
  /** Redis CPU milliseconds per task, per round (Redis configurations). */
  readonly redisCpuPerTask: number[];
  /** Redis commands over all rounds, and the tasks they served. */
  readonly commands: Map<string, number>;
  tasks: number;
}

/** What one measurement gave. */
interface Measurement {
  readonly rate: number;
  readonly done: number;
  /** Errors by message. */
  readonly errors: Map<string, number>;
}

/** A measurement that must not be reported as a number. */
class BenchFailure extends Error {}

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
    headersTimeout: REQUEST_TIMEOUT_MS,
    bodyTimeout: REQUEST_TIMEOUT_MS,
  });
  const body = (await response.body.json()) as {
    result?: Record<string, unknown>;
    error?: unknown;
  };
  if (response.statusCode !== 200 || !body.result)
    throw new Error(`${method}: HTTP ${response.statusCode} ${JSON.stringify(body.error)}`);
  return body.result;
}

/** Creates a task on `creator`, polls it on `poller` until completed; throws on anything else. */
async function oneTask(creator: Pool, poller: Pool, task: number): Promise<void> {
  const created = await rpc(creator, "tools/call", { name: "job", arguments: { n: task } }, "job");
  const taskId = String(created.taskId);
  for (;;) {
    const got = await rpc(poller, "tasks/get", { taskId }, taskId);
    if (got.status === "completed") {
      const text = (got.result as { content: Array<{ text: string }> }).content[0]!.text;
      if (text !== `job ${task} done`) throw new Error(`task ${task} completed with ${text}`);
      return;
    }
    if (got.status !== "working") throw new Error(`task ${task} is ${String(got.status)}`);
    await sleep(5);
  }
}

/**
 * Creates and follows tasks for `seconds` with `connections` clients, on
 * fresh connections (pools made for this measurement and closed after it,
 * so no connection idle since an earlier round is reused). A client whose
 * task fails stops: one failure is enough to void the measurement, and a
 * client retrying a dead server at once would only count the same fault
 * again.
 */
async function measure(config: Config, seconds: number, connections: number): Promise<Measurement> {
  const pools = config.instances.map(
    (each) => new Pool(`http://127.0.0.1:${each.port}`, { connections: 64 }),
  );
  const start = performance.now();
  const deadline = start + seconds * 1000;
  const errors = new Map<string, number>();
  let done = 0;
  let n = 0;
  const client = async () => {
    while (performance.now() < deadline) {
      const task = ++n;
      const [creator, poller] = config.route(task);
      try {
        await oneTask(pools[creator]!, pools[poller]!, task);
        done++;
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        errors.set(message, (errors.get(message) ?? 0) + 1);
        return;
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: connections }, client));
    return { rate: done / ((performance.now() - start) / 1000), done, errors };
  } finally {
    await Promise.all(pools.map((pool) => pool.close()));
  }
}

/** Throws a BenchFailure naming what went wrong when a measurement failed or a server stopped. */
function check(config: Config, round: string, measured: Measurement, children: Children): void {
  const stopped = children.all().filter((child) => child.exited);
  if (measured.errors.size === 0 && stopped.length === 0) return;
  const lines = [
    `${config.label}, ${round}: ${[...measured.errors.values()].reduce((a, b) => a + b, 0)} clients failed`,
  ];
  for (const [message, count] of measured.errors) lines.push(`  ${count} x ${message}`);
  for (const child of stopped)
    lines.push(
      `  ${child.name} exited (${child.exitCode ?? child.exitSignal}); its last output:`,
      ...child
        .output()
        .split("\n")
        .slice(-20)
        .map((line) => `    ${line}`),
    );
  throw new BenchFailure(lines.join("\n"));
}

async function instance(children: Children, name: string, store: string): Promise<Instance> {
  return (await instances(children, name, store, 1))[0]!;
}

/** `count` instances in one process (tasks-server.mjs with PORT2), each with its own stores. */
async function instances(
  children: Children,
  name: string,
  store: string,
  count: 1 | 2,
): Promise<Instance[]> {
  const ports = [await freePort()];
  if (count === 2) ports.push(await freePort());
  const child = children.spawn(
    name,
    process.execPath,
    [join(ROOT, "scripts", "bench", "tasks-server.mjs")],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: String(ports[0]),
        ...(count === 2 ? { PORT2: String(ports[1]) } : {}),
        MCP_TASK_STORE: store,
      },
    },
  );
  for (const port of ports) await waitForPort(port, 15_000, () => !child.exited);
  return ports.map((port) => ({ child, port }));
}

function config(
  label: string,
  instances: readonly Instance[],
  route: Config["route"],
  redis: boolean,
): Config {
  return {
    label,
    instances,
    route,
    redis,
    rates: [],
    cpuPerTask: [],
    waitsPerTask: [],
    redisCpuPerTask: [],
    commands: new Map(),
    tasks: 0,
  };
}

/** One timed measurement of `config`, with the CPU and Redis commands it cost recorded. */
async function round(
  config: Config,
  label: string,
  options: { readonly seconds: number; readonly connections: number },
  children: Children,
  redis: { readonly server: RedisServer; readonly stats: RedisStats } | undefined,
): Promise<void> {
  // Two instances may share one process: each process is counted once.
  const pids = [...new Set(config.instances.map((each) => each.child.pid))];
  const serverTicks = () => pids.reduce((sum, pid) => sum + procTicks(pid, false), 0);
  const serverWaits = () => pids.reduce((sum, pid) => sum + procWaits(pid), 0);
  if (config.redis) await redis!.stats.reset();
  const before = {
    server: serverTicks(),
    waits: serverWaits(),
    redis: redis ? procTicks(redis.server.pid, false) : 0,
  };
  const measured = await measure(config, options.seconds, options.connections);
  const serverMs = ((serverTicks() - before.server) * 1000) / TICKS_PER_SECOND;
  const waits = serverWaits() - before.waits;
  const redisMs = redis
    ? ((procTicks(redis.server.pid, false) - before.redis) * 1000) / TICKS_PER_SECOND
    : 0;
  check(config, label, measured, children);
  config.rates.push(measured.rate);
  config.cpuPerTask.push(serverMs / measured.done);
  config.waitsPerTask.push(waits / measured.done);
  if (!config.redis) return;
  config.redisCpuPerTask.push(redisMs / measured.done);
  for (const [command, calls] of await redis!.stats.commands())
    config.commands.set(command, (config.commands.get(command) ?? 0) + calls);
  config.tasks += measured.done;
}

/** Runs the tasks case; resolves to the exit code (1 when a task went wrong or a server stopped). */
export async function benchTasks(options: {
  readonly rounds: number;
  readonly seconds: number;
  readonly warmup: number;
  readonly connections: number;
}): Promise<number> {
  const children = new Children();
  let redis: { server: RedisServer; stats: RedisStats } | undefined;
  try {
    if (redisServerInstalled()) {
      const server = await startRedis();
      redis = { server, stats: await RedisStats.connect(server.url) };
    }
    let redisPorts: [number, number] | undefined;
    const m1 = await instance(children, "memory instance 1", "memory");
    const m2 = await instance(children, "memory instance 2", "memory");
    const configs: Config[] = [
      config("memory, 1 instance", [m1], () => [0, 0], false),
      config(
        "memory, 2 instances (a task stays on its instance)",
        [m1, m2],
        (n) => (n % 2 ? [0, 0] : [1, 1]),
        false,
      ),
    ];
    if (redis) {
      const r1 = await instance(children, "redis instance A", redis.server.url);
      const r2 = await instance(children, "redis instance B", redis.server.url);
      const shared = await instances(children, "redis instances C+D", redis.server.url, 2);
      redisPorts = [r1.port, r2.port];
      configs.push(
        config("Redis, 1 instance", [r1], () => [0, 0], true),
        config(
          "Redis, 2 instances (created on one, polled on the other)",
          [r1, r2],
          (n) => (n % 2 ? [0, 1] : [1, 0]),
          true,
        ),
        config(
          "Redis, 2 instances with affinity (a task stays on its instance)",
          [r1, r2],
          (n) => (n % 2 ? [0, 0] : [1, 1]),
          true,
        ),
        // The same sharing as two processes, without the second process: what the runtime costs.
        config(
          "Redis, 2 instances in one process (created on one, polled on the other)",
          shared,
          (n) => (n % 2 ? [0, 1] : [1, 0]),
          true,
        ),
      );
    } else console.log("[tasks] redis-server is not installed: the Redis rows are left out");
    process.stdout.write(`[tasks warm-up] ${options.warmup} s per configuration ... `);
    for (const each of configs)
      check(each, "warm-up", await measure(each, options.warmup, options.connections), children);
    console.log("done");
    for (let r = 0; r < options.rounds; r++) {
      const order = configs.map((_, i) => configs[(i + r) % configs.length]!);
      for (const each of order) await round(each, `round ${r + 1}`, options, children, redis);
      console.log(
        `  round ${r + 1}  ${configs.map((c) => `${short(c)}: ${c.rates.at(-1)!.toFixed(0)} tasks/s, ${c.cpuPerTask.at(-1)!.toFixed(3)} server CPU ms/task`).join("; ")}`,
      );
    }
    report(configs, options);
    await benchSessions({
      memoryPort: m1.port,
      ...(redisPorts ? { redisPort: redisPorts[0], stats: redis!.stats } : {}),
      rounds: options.rounds,
      seconds: options.seconds,
      connections: options.connections,
    }).catch((error: unknown) => {
      throw new BenchFailure(`sessions: ${error instanceof Error ? error.message : String(error)}`);
    });
    return 0;
  } catch (error) {
    if (!(error instanceof BenchFailure)) throw error;
    console.log("");
    console.log(`[tasks] error: the measurement failed, so it gives no number:\n${error.message}`);
    return 1;
  } finally {
    await children.stopAll();
    await redis?.stats.close().catch(() => {});
    await redis?.server.stop();
  }
}

function short(config: Config): string {
  return config.label.split(" (")[0]!;
}

/** The three tables (raw throughput, server CPU per task, tasks per server CPU-second) and the notes. */
function report(
  configs: readonly Config[],
  options: { readonly rounds: number; readonly seconds: number; readonly connections: number },
): void {
  const base = configs[0]!;
  const byName = (name: string) => configs.find((c) => short(c) === name);
  const pairs = [
    [byName("memory, 2 instances"), byName("memory, 1 instance")],
    [byName("Redis, 2 instances"), byName("Redis, 1 instance")],
    [byName("Redis, 2 instances with affinity"), byName("Redis, 1 instance")],
  ].filter((pair): pair is [Config, Config] => pair[0] !== undefined && pair[1] !== undefined);
  // Not a scale-out target: the runtime's share of it, without a second process.
  const inOneProcess = [
    [byName("Redis, 2 instances in one process"), byName("Redis, 1 instance")],
  ].filter((pair): pair is [Config, Config] => pair[0] !== undefined && pair[1] !== undefined);
  printTable({
    title: `Tasks created and completed per second (tools/call answered with a task, tasks/get every 5 ms until completed), ${options.connections} clients at once`,
    unit: "tasks/s (checked results)",
    digits: 0,
    series: configs.map((c) => ({ label: c.label, values: c.rates })),
    ratios: [
      ...configs.slice(1).map((c) => ({
        label: `${short(c)} / memory, 1 instance`,
        values: c.rates.map((v, i) => v / base.rates[i]!),
      })),
      ...pairs.map(([two, one]) => ({
        label: `raw scale-out: ${short(two)} / ${short(one)}`,
        values: two.rates.map((v, i) => v / one.rates[i]!),
      })),
    ],
    notes: [
      `${options.rounds} rounds of ${options.seconds} s per configuration, the order rotating; medians: ${configs.map((c) => `${short(c)} ${median(c.rates).toFixed(0)}`).join(", ")}`,
      "the load generator, the servers and Redis share this machine's cores: raw tasks/s do not show what an instance adds; the tables below do",
    ],
  });
  printTable({
    title:
      "Server CPU per task (utime + stime of the server processes, /proc/<pid>/stat, over completed tasks)",
    unit: "server CPU ms per task",
    digits: 3,
    series: configs.map((c) => ({ label: c.label, values: c.cpuPerTask })),
    ratios: [
      ...pairs.map(([two, one]) => ({
        label: `CPU per task: ${short(two)} / ${short(one)}`,
        values: two.cpuPerTask.map((v, i) => v / one.cpuPerTask[i]!),
        target: "<= 1.1x",
        met: (m: number) => m <= 1.1,
      })),
      ...inOneProcess.map(([two, one]) => ({
        label: `CPU per task: ${short(two)} / ${short(one)}`,
        values: two.cpuPerTask.map((v, i) => v / one.cpuPerTask[i]!),
      })),
    ],
    notes: [
      `tasks per server CPU-second (medians): ${configs.map((c) => `${short(c)} ${(1000 / median(c.cpuPerTask)).toFixed(0)}`).join(", ")}`,
      `server waits per task (voluntary context switches, medians): ${configs.map((c) => `${short(c)} ${median(c.waitsPerTask).toFixed(2)}`).join(", ")}`,
      `scale-out per server CPU-second: ${[...pairs, ...inOneProcess].map(([two, one]) => `${short(two)} / ${short(one)} ${(median(one.cpuPerTask) / median(two.cpuPerTask)).toFixed(3)}x`).join(", ")}`,
      ...configs
        .filter((c) => c.redis)
        .map(
          (c) =>
            `${short(c)}: redis-server CPU ${median(c.redisCpuPerTask).toFixed(3)} ms per task; Redis commands per task (INFO commandstats, those scripts run included): ${perTask(c.commands, c.tasks)}`,
        ),
    ],
  });
}
