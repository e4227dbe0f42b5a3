/**
 * `npm run bench:server`: requests per second and p50/p99 latency of
 * `tools/call` over Streamable HTTP on 127.0.0.1, for a server scaffolded with
 * this checkout's `mcp-gen server` (O) against the official SDK v2 reference
 * server with the same `echo` tool (S). One load generator (a separate child
 * process, undici keep-alive connections) drives one server at a time; the
 * two alternate round after round, the order flipping every round, and the
 * ratio O / S is computed per round. Target: O / S >= 2x in requests/s.
 *
 * Usage: npm run bench:server [-- --rounds=5 --seconds=5 --warmup=2 --connections=50 --sdk=mcpserver|lowlevel --keep]
 *        npm run bench:server -- --case=tasks [--rounds=5 --seconds=5 --warmup=2 --connections=50]
 *
 * `--case=tasks` measures the Tasks extension instead (scripts/bench/server-tasks.ts): tasks
 * created and completed per second with the in-memory store and with Redis (a redis-server
 * started for the run), on one instance and on two.
 *
 * Like `npm run bench`, it prints numbers and fails nothing: the exit code
 * is 0 when the target is not met, 1 when a response was wrong or a process
 * failed during the measurement, 2 when the setup failed. Every child is
 * stopped at the end, also on errors and on Ctrl-C.
 * Recorded in docs/benchmarks.md ("Server throughput").
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  ensureBuilt,
  machine,
  max,
  median,
  min,
  printMachine,
  printTable,
  ratios,
  ROOT,
} from "../shared/common.js";
import {
  ask,
  type Child,
  Children,
  firstMessage,
  otherPercent,
  treeSnapshot,
  waitForPort,
} from "../shared/processes.js";
import { benchTasks } from "./server-tasks.js";
import { freePort } from "../shared/free-port.js";
import { installAndBuild, SetupError, setupStep } from "../shared/project.js";

// ---------------------------------------------------------------- options

const args = process.argv.slice(2);
const KNOWN = ["rounds", "seconds", "warmup", "connections", "sdk", "keep", "case"];
for (const a of args) {
  const name = /^--([a-z]+)(=|$)/.exec(a)?.[1];
  if (!name || !KNOWN.includes(name)) {
    console.error(
      `bench:server: unknown argument ${a}; options: ${KNOWN.map((k) => `--${k}`).join(", ")}`,
    );
    process.exit(2);
  }
}
const option = (name: string, fallback: number): number => {
  const arg = args.find((a) => a.startsWith(`--${name}=`));
  if (arg === undefined) return fallback;
  const n = Number(arg.slice(name.length + 3));
  if (!Number.isInteger(n) || n < 1) {
    console.error(`bench:server: --${name} needs a positive integer, got ${arg}`);
    process.exit(2);
  }
  return n;
};
const ROUNDS = option("rounds", 5);
const SECONDS = option("seconds", 5);
const WARMUP = option("warmup", 2);
const CONNECTIONS = option("connections", 50);
/** Unrecorded traffic at the start of every measurement (fresh connections, warm caches). */
const RAMP = 0.5;
const SDK_VARIANT = args.find((a) => a.startsWith("--sdk="))?.slice(6) ?? "mcpserver";
if (SDK_VARIANT !== "mcpserver" && SDK_VARIANT !== "lowlevel") {
  console.error(`bench:server: --sdk is mcpserver or lowlevel, got ${SDK_VARIANT}`);
  process.exit(2);
}
const KEEP = args.includes("--keep");
const CASE = args.find((a) => a.startsWith("--case="))?.slice(7) ?? "echo";
if (CASE !== "echo" && CASE !== "tasks") {
  console.error(`bench:server: --case is echo or tasks, got ${CASE}`);
  process.exit(2);
}
if (CASE === "tasks") {
  ensureBuilt();
  console.log("mcp-gen server benchmark: the Tasks extension, in-memory store and Redis");
  printMachine(machine());
  process.exit(
    await benchTasks({
      rounds: ROUNDS,
      seconds: SECONDS,
      warmup: WARMUP,
      connections: CONNECTIONS,
    }),
  );
}
const TARGET = 2;

// ---------------------------------------------------------------- helpers

const version = (pkg: string): string => {
  try {
    return (
      JSON.parse(readFileSync(join(ROOT, "node_modules", pkg, "package.json"), "utf8")) as {
        version: string;
      }
    ).version;
  } catch {
    return "not installed";
  }
};

const fmt = (x: number, digits = 0): string =>
  x.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** Nearest-rank percentile of sorted values. */
function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[
    Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  ]!;
}

const TOOLS_JSON = [
  {
    name: "echo",
    description: "Echo the text back",
    inputSchema: {
      type: "object",
      properties: { text: { type: "string" } },
      required: ["text"],
    },
  },
];

const ECHO_TOOLS_TS = `/** The benchmark's echo tool (written by scripts/bench/server.ts). */
import type { ToolHandlers } from "../generated/tools.gen.js";

export const tools: ToolHandlers = {
  echo: ({ text }) => ({ content: [{ type: "text", text }] }),
};
`;

interface RunResult {
  ok: number;
  errors: number;
  errorSamples: string[];
  elapsedS: number;
  latenciesMs: number[];
  serverCpuMs?: number;
  loadgenCpuMs: number;
}

interface Side {
  key: "O" | "S";
  label: string;
  server: Child;
  url: string;
  rps: number[];
  p50: number[];
  p99: number[];
  cpuPerRequest: number[];
  loadgenCore: number[];
  latencies: number[];
  errors: number;
  errorSamples: string[];
}

// ---------------------------------------------------------------- main

let tmp: string | undefined;
const removeTmp = () => {
  if (tmp && !KEEP) rmSync(tmp, { recursive: true, force: true });
};
const children = new Children(removeTmp);

async function main(): Promise<number> {
  ensureBuilt();
  console.log(
    "mcp-gen server benchmark: tools/call over HTTP, scaffolded server vs the official SDK v2 server",
  );
  printMachine(machine());
  console.log(
    `  SDK:     @modelcontextprotocol/server ${version("@modelcontextprotocol/server")}, @modelcontextprotocol/node ${version("@modelcontextprotocol/node")}, zod ${version("zod")} (variant: ${SDK_VARIANT})`,
  );
  console.log(
    `  loadgen: undici ${version("undici")}, ${CONNECTIONS} keep-alive connections, one child process`,
  );
  console.log("");

  tmp = mkdtempSync(join(tmpdir(), "mcp-gen-bench-server-"));
  const project = join(tmp, "ours");
  writeFileSync(join(tmp, "tools.json"), `${JSON.stringify(TOOLS_JSON, null, 2)}\n`);
  setupStep(
    "mcp-gen server ours --tools tools.json",
    process.execPath,
    [
      join(ROOT, "dist", "generator", "cli", "main.js"),
      "server",
      project,
      "--tools",
      join(tmp, "tools.json"),
      "--quiet",
    ],
    tmp,
  );
  writeFileSync(join(project, "src", "tools.ts"), ECHO_TOOLS_TS);
  installAndBuild(project);

  const [portO, portS] = [await freePort(), await freePort()];
  const ours = children.spawn("our server", process.execPath, ["dist/index.js"], {
    cwd: project,
    env: { ...process.env, PORT: String(portO) },
  });
  const sdk = children.spawn(
    "the SDK server",
    process.execPath,
    [join(ROOT, "scripts", "bench", "server-sdk.mjs")],
    {
      cwd: ROOT,
      env: { ...process.env, PORT: String(portS), SDK_VARIANT },
    },
  );
  const loadgen = children.fork(
    "the load generator",
    join(ROOT, "scripts", "bench", "server-loadgen.mjs"),
    { cwd: ROOT },
  );
  const started = firstMessage(loadgen, 15_000);
  for (const [child, port] of [
    [ours, portO],
    [sdk, portS],
  ] as const) {
    try {
      await waitForPort(port, 15_000, () => !child.exited);
    } catch (error) {
      throw new SetupError(
        `${child.name} did not start: ${(error as Error).message}\n${child.output()}`,
      );
    }
  }
  await started;

  const sides: Side[] = [
    {
      key: "O",
      label: "mcp-gen scaffolded server (node dist/index.js)",
      server: ours,
      url: `http://127.0.0.1:${portO}/mcp`,
    },
    {
      key: "S",
      label: `SDK v2 createMcpHandler (${SDK_VARIANT === "mcpserver" ? "McpServer + zod" : "low-level Server"}, json, toNodeHandler)`,
      server: sdk,
      url: `http://127.0.0.1:${portS}/mcp`,
    },
  ].map((s) => ({
    ...s,
    key: s.key as "O" | "S",
    rps: [],
    p50: [],
    p99: [],
    cpuPerRequest: [],
    loadgenCore: [],
    latencies: [],
    errors: 0,
    errorSamples: [],
  }));
  const [O, S] = sides as [Side, Side];

  for (const side of sides) {
    const r = await ask<{ ok: boolean; body?: string; problem?: string }>(
      loadgen,
      { cmd: "check", url: side.url },
      15_000,
    );
    if (!r.ok)
      throw new SetupError(`${side.server.name} answered a tools/call wrongly: ${r.problem}`);
    console.log(`[check] ${side.key} ${side.url} answers: ${r.body}`);
  }

  const pids = [ours.pid, sdk.pid, loadgen.pid];
  const measure = (side: Side, seconds: number, ramp: number) =>
    ask<RunResult>(
      loadgen,
      {
        cmd: "run",
        url: side.url,
        connections: CONNECTIONS,
        rampSeconds: ramp,
        seconds,
        serverPid: side.server.pid,
      },
      (ramp + seconds) * 1000 + 60_000,
    );

  process.stdout.write(`[warm-up] ${WARMUP} s per server, not recorded ... `);
  for (const side of sides) await measure(side, WARMUP, 0);
  console.log("done");
  console.log(
    `[rounds] ${ROUNDS} rounds x ${SECONDS} s per server (after ${RAMP} s unrecorded on fresh connections), order flips every round`,
  );

  const roundOther: number[] = [];
  const before = treeSnapshot(pids);
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? [O, S] : [S, O];
    const roundStart = treeSnapshot(pids);
    for (const side of order) {
      const r = await measure(side, SECONDS, RAMP);
      if (side.server.exited)
        throw new Error(
          `${side.server.name} exited during the measurement (${side.server.exitCode ?? side.server.exitSignal}):\n${side.server.output()}`,
        );
      const sorted = Float64Array.from(r.latenciesMs).sort();
      side.rps.push(r.ok / r.elapsedS);
      side.p50.push(percentile(sorted, 50));
      side.p99.push(percentile(sorted, 99));
      if (r.serverCpuMs !== undefined && r.ok > 0) side.cpuPerRequest.push(r.serverCpuMs / r.ok);
      side.loadgenCore.push((100 * r.loadgenCpuMs) / (r.elapsedS * 1000));
      for (const ms of r.latenciesMs) side.latencies.push(ms);
      side.errors += r.errors;
      for (const e of r.errorSamples) if (side.errorSamples.length < 5) side.errorSamples.push(e);
    }
    const other = otherPercent(roundStart, treeSnapshot(pids));
    if (other !== undefined) roundOther.push(other);
    console.log(
      `  round ${round + 1}  ${order.map((s) => s.key).join(" then ")}   O ${fmt(O.rps.at(-1)!)} req/s, S ${fmt(S.rps.at(-1)!)} req/s, O/S ${fmt(O.rps.at(-1)! / S.rps.at(-1)!, 2)}x` +
        (other === undefined ? "" : `   other processes ${other.toFixed(0)}% of a core`),
    );
  }
  const otherAll = otherPercent(before, treeSnapshot(pids));

  const throughput = printTable({
    title: `Server throughput: tools/call of echo over HTTP (2026-07-28), ${CONNECTIONS} keep-alive connections, requests/s`,
    unit: "requests/s (checked responses)",
    digits: 0,
    series: sides.map((s) => ({ label: `${s.key}  ${s.label}`, values: s.rps })),
    ratios: [
      {
        label: "O / S  (throughput, ours vs SDK)",
        values: ratios(O.rps, S.rps),
        target: `>= ${TARGET}x`,
        met: (m) => m >= TARGET,
      },
    ],
    notes: [
      `${ROUNDS} rounds of ${SECONDS} s per server; order O S, S O, ...; one warm-up of ${WARMUP} s per server first`,
      `errors (wrong or failed responses, not counted as requests): O ${O.errors}, S ${S.errors}`,
      ...sides.flatMap((s) => s.errorSamples.map((e) => `  ${s.key} error: ${e}`)),
    ],
  });

  printTable({
    title: "Latency of one tools/call under that load, ms (from every recorded request)",
    unit: "ms per round",
    digits: 2,
    series: [
      { label: "O  p50", values: O.p50 },
      { label: "S  p50", values: S.p50 },
      { label: "O  p99", values: O.p99 },
      { label: "S  p99", values: S.p99 },
    ],
    ratios: [
      { label: "S / O  p50", values: ratios(S.p50, O.p50) },
      { label: "S / O  p99", values: ratios(S.p99, O.p99) },
    ],
    notes: sides.map((s) => {
      const sorted = Float64Array.from(s.latencies).sort();
      const p = (q: number) => fmt(percentile(sorted, q), 2);
      return `all ${fmt(sorted.length)} requests of ${s.key} pooled: p50 ${p(50)} ms, p99 ${p(99)} ms, max ${fmt(sorted.at(-1) ?? NaN, 2)} ms`;
    }),
  });

  if (O.cpuPerRequest.length === ROUNDS && S.cpuPerRequest.length === ROUNDS) {
    printTable({
      title:
        "Server CPU time per request, ms (utime + stime of the server process, /proc/<pid>/stat)",
      unit: "server CPU ms per request",
      digits: 3,
      series: [
        { label: "O", values: O.cpuPerRequest },
        { label: "S", values: S.cpuPerRequest },
      ],
      ratios: [
        { label: "S / O  (CPU per request)", values: ratios(S.cpuPerRequest, O.cpuPerRequest) },
      ],
      notes: [
        ...sides.map(
          (s) =>
            `the load generator used ${fmt(median(s.loadgenCore))}% of one core (median; ${fmt(min(s.loadgenCore))}-${fmt(max(s.loadgenCore))}) while driving ${s.key}`,
        ),
        "No target is set for CPU per request; it is printed because it depends less on the load generator sharing the cores.",
      ],
    });
  }
  if (otherAll !== undefined) {
    console.log(
      `  other processes used ${otherAll.toFixed(0)}% of one core on average during the rounds (per round: ${fmt(min(roundOther))}-${fmt(max(roundOther))}%)`,
    );
  }

  const ratio = median(ratios(O.rps, S.rps));
  console.log("");
  console.log("Target");
  console.log(
    `  throughput  ${throughput ? "met" : "NOT met"}: ours / SDK = ${fmt(ratio, 2)}x (median per round), target >= ${TARGET}x`,
  );
  if (O.errors + S.errors > 0) {
    console.log(`bench:server: ${O.errors + S.errors} responses were wrong or failed (see above)`);
    return 1;
  }
  return 0;
}

let code: number;
try {
  code = await main();
} catch (error) {
  const setup = error instanceof SetupError;
  console.error(
    `\nbench:server: ${setup ? "setup failed" : "the measurement failed"}: ${(error as Error).message}`,
  );
  code = setup ? 2 : 1;
}
await children.stopAll();
if (KEEP && tmp) console.log(`kept ${tmp}`);
removeTmp();
const left = children.running();
if (left.length > 0) {
  console.error(
    `bench:server: still running: ${left.map((c) => `${c.name} (pid ${c.pid})`).join(", ")}`,
  );
  code = code || 1;
}
process.exit(code);
