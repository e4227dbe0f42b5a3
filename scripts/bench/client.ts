/**
 * `npm run bench:client`: tools/call round trips per second and p50/p99 latency over Streamable
 * HTTP on 127.0.0.1, for a client scaffolded with this checkout's `mcp-gen client` (O) against
 * the official SDK v2 client (S), both calling the `echo` tool of the same server (the SDK v2
 * reference server of bench:server, scripts/bench/server-sdk.mjs) in the same run. Each
 * measurement is a fresh client process (scripts/bench/client-run.mjs); the clients take turns
 * round after round, the order rotating every round, and the ratio O / S is computed per round.
 * Target: O / S >= 2.5x in round trips per second.
 *
 * A third client, B, is no MCP client at all: node:http posting the same call and parsing the
 * answer. B / S is what a client that cost nothing would reach against this server in this run,
 * the ceiling of O / S. Each client's CPU per call (its whole process) and the server's CPU per
 * call while it served that client are measured in the same rounds.
 *
 * With --list=<n> it measures the list case instead: the server (the SDK's low-level server) lists
 * `echo` and n more tools of a realistic shape on one page, and each call is a tools/list read
 * whole (O: the scaffolded client's listTools(), S: the SDK client's listTools()). Target: O's time
 * per list at most 0.7x S's. The p50 of single lists is shown beside it: on a loaded machine a few
 * lists that wait for the CPU move the mean time per list much more than the p50.
 *
 * Usage: npm run bench:client [-- --rounds=5 --seconds=5 --warmup=1 --concurrency=1 --list=1000 --keep]
 *
 * It prints numbers and fails nothing: exit 0 also when the target is not met; 1 when an answer
 * was wrong or a process failed; 2 when the setup failed. Recorded in docs/benchmarks.md
 * ("Client round trips").
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  ensureBuilt,
  machine,
  median,
  printMachine,
  printTable,
  ratios,
  ROOT,
} from "../shared/common.js";
import { Children, procTicks, TICKS_PER_SECOND, waitForPort } from "../shared/processes.js";
import { freePort } from "../shared/free-port.js";
import { linkedProject } from "../shared/project.js";

const args = process.argv.slice(2);
const KNOWN = ["rounds", "seconds", "warmup", "concurrency", "list", "keep"];
for (const a of args) {
  const name = /^--([a-z]+)(=|$)/.exec(a)?.[1];
  if (!name || !KNOWN.includes(name)) {
    console.error(
      `bench:client: unknown argument ${a}; options: ${KNOWN.map((k) => `--${k}`).join(", ")}`,
    );
    process.exit(2);
  }
}
const option = (name: string, fallback: number): number => {
  const arg = args.find((a) => a.startsWith(`--${name}=`));
  const value = arg === undefined ? fallback : Number(arg.slice(name.length + 3));
  if (!(value > 0)) {
    console.error(`bench:client: --${name} must be a positive number`);
    process.exit(2);
  }
  return value;
};
const ROUNDS = option("rounds", 5);
const SECONDS = option("seconds", 5);
const WARMUP = option("warmup", 1);
const CONCURRENCY = option("concurrency", 1);
const KEEP = args.includes("--keep");
/** The list case's tool count besides echo, when --list is given. */
const LIST = args.some((a) => a.startsWith("--list=")) ? option("list", 0) : undefined;

type Kind = "mcp-gen" | "sdk" | "bare";

/** What one client process measured, and the server's CPU per call while it ran. */
interface Measurement {
  calls: number;
  seconds: number;
  p50Ms: number;
  p99Ms: number;
  /** The client process's CPU per recorded call, µs. */
  cpuUs: number;
  /** Calls of warm-up and recorded phase together. */
  allCalls: number;
  /** The server process's CPU over the client's whole run divided by allCalls, µs. */
  serverCpuUs: number;
}

/** Scaffolds the client for the server's echo tool and compiles it (node_modules linked in). */
async function buildClient(dir: string): Promise<string> {
  const tools = join(dir, "tools.json");
  writeFileSync(
    tools,
    JSON.stringify([
      {
        name: "echo",
        description: "Echo the text back",
        inputSchema: {
          type: "object",
          properties: { text: { type: "string" } },
          required: ["text"],
        },
      },
    ]),
  );
  return linkedProject(
    "client",
    { dir: join(dir, "client"), tools, name: "bench-client" },
    { build: true },
  );
}

/** Runs one measurement in a fresh process. */
function measure(kind: Kind, url: string, project: string, serverPid: number): Measurement {
  const serverBefore = procTicks(serverPid, false);
  const run = spawnSync(
    process.execPath,
    [
      join(ROOT, "scripts", "bench", "client-run.mjs"),
      ...[kind, url, String(SECONDS), String(WARMUP), String(CONCURRENCY), project],
      ...(LIST === undefined ? [] : [String(LIST + 1)]),
    ],
    { cwd: ROOT, encoding: "utf8", timeout: (SECONDS + WARMUP + 60) * 1000 },
  );
  if (run.status !== 0) {
    console.error(`bench:client: the ${kind} client failed (exit ${run.status}):\n${run.stderr}`);
    process.exit(1);
  }
  const serverTicks = procTicks(serverPid, false) - serverBefore;
  const measured = JSON.parse(run.stdout.trim().split("\n").at(-1)!) as Omit<
    Measurement,
    "serverCpuUs"
  >;
  return { ...measured, serverCpuUs: (serverTicks * 1e6) / TICKS_PER_SECOND / measured.allCalls };
}

ensureBuilt();
const tmp = mkdtempSync(join(tmpdir(), "mcp-gen-bench-client-"));
const children = new Children(() => rmSync(tmp, { recursive: true, force: true }));
const m = machine();
printMachine(m);
console.log(
  `\nrounds ${ROUNDS}, ${SECONDS} s each after ${WARMUP} s of warm-up, ${CONCURRENCY} call(s) in flight` +
    (LIST === undefined ? "" : `, the list case with ${LIST + 1} tools`),
);

let project: string;
let url: string;
let serverPid: number;
try {
  project = await buildClient(tmp);
  const port = await freePort();
  url = `http://127.0.0.1:${port}/mcp`;
  const server = children.spawn("sdk server", process.execPath, ["scripts/bench/server-sdk.mjs"], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      ...(LIST === undefined ? {} : { SDK_VARIANT: "lowlevel", BENCH_TOOLS: String(LIST) }),
    },
  });
  await waitForPort(port, 15_000, () => !server.exited);
  serverPid = server.pid;
} catch (error) {
  console.error(`bench:client: setup failed: ${(error as Error).message}`);
  await children.stopAll();
  rmSync(tmp, { recursive: true, force: true });
  process.exit(2);
}

// The bare client has no list case: reading a list whole is what the two clients are compared on.
const kinds: Kind[] = LIST === undefined ? ["mcp-gen", "sdk", "bare"] : ["mcp-gen", "sdk"];
const results: Record<Kind, Measurement[]> = { "mcp-gen": [], sdk: [], bare: [] };
for (let round = 0; round < ROUNDS; round++) {
  const order = [...kinds.slice(round % kinds.length), ...kinds.slice(0, round % kinds.length)];
  for (const kind of order) results[kind].push(measure(kind, url, project, serverPid));
  process.stderr.write(`round ${round + 1}/${ROUNDS} done\n`);
}
await children.stopAll();
if (KEEP) console.log(`kept ${tmp}`);
else rmSync(tmp, { recursive: true, force: true });

if (LIST !== undefined) {
  const msPerList = (xs: Measurement[]) => xs.map((x) => (x.seconds * 1000) / x.calls);
  const ours = msPerList(results["mcp-gen"]);
  const theirs = msPerList(results.sdk);
  const p50 = (xs: Measurement[]) => xs.map((x) => x.p50Ms);
  printTable({
    title: `tools/list read whole, ${LIST + 1} tools on one page (same SDK v2 low-level server)`,
    unit: "ms per list",
    digits: 2,
    series: [
      { label: "O: mcp-gen client", values: ours },
      { label: "S: SDK v2 client", values: theirs },
      { label: "O p50 of one list", values: p50(results["mcp-gen"]) },
      { label: "S p50 of one list", values: p50(results.sdk) },
    ],
    ratios: [
      {
        label: "O / S (time)",
        values: ratios(ours, theirs),
        target: "<= 0.7x",
        met: (r) => r <= 0.7,
      },
      { label: "O / S (p50)", values: ratios(p50(results["mcp-gen"]), p50(results.sdk)) },
    ],
    notes: [`median O / S in time per list: ${median(ratios(ours, theirs)).toFixed(3)}x`],
  });
  process.exit(0);
}

const rate = (xs: Measurement[]) => xs.map((x) => x.calls / x.seconds);
const ours = rate(results["mcp-gen"]);
const theirs = rate(results.sdk);
const floor = rate(results.bare);
printTable({
  title: "Client round trips (tools/call echo, same SDK v2 server)",
  unit: "round trips/s",
  digits: 0,
  series: [
    { label: "O: mcp-gen client", values: ours },
    { label: "S: SDK v2 client", values: theirs },
    { label: "B: bare node:http", values: floor },
  ],
  ratios: [
    { label: "O / S", values: ratios(ours, theirs), target: ">= 2.5x", met: (r) => r >= 2.5 },
    { label: "B / S (ceiling)", values: ratios(floor, theirs) },
    { label: "O / B", values: ratios(ours, floor) },
  ],
  notes: ["B / S: what a client that cost nothing would reach against this server, same rounds"],
});
const clientCpu = (kind: Kind) => results[kind].map((x) => x.cpuUs);
const serverCpu = (kind: Kind) => results[kind].map((x) => x.serverCpuUs);
printTable({
  title: "CPU per call (each process, all its threads)",
  unit: "µs",
  digits: 0,
  series: [
    { label: "client O", values: clientCpu("mcp-gen") },
    { label: "client S", values: clientCpu("sdk") },
    { label: "client B", values: clientCpu("bare") },
    { label: "server, serving O", values: serverCpu("mcp-gen") },
    { label: "server, serving S", values: serverCpu("sdk") },
    { label: "server, serving B", values: serverCpu("bare") },
  ],
  ratios: [
    { label: "client S / O", values: ratios(clientCpu("sdk"), clientCpu("mcp-gen")) },
    {
      label: "client O / B",
      values: ratios(clientCpu("mcp-gen"), clientCpu("bare")),
    },
  ],
});
printTable({
  title: "Latency per call",
  unit: "ms",
  digits: 3,
  series: [
    { label: "O p50", values: results["mcp-gen"].map((x) => x.p50Ms) },
    { label: "S p50", values: results.sdk.map((x) => x.p50Ms) },
    { label: "O p99", values: results["mcp-gen"].map((x) => x.p99Ms) },
    { label: "S p99", values: results.sdk.map((x) => x.p99Ms) },
  ],
  ratios: [
    {
      label: "S p50 / O p50",
      values: ratios(
        results.sdk.map((x) => x.p50Ms),
        results["mcp-gen"].map((x) => x.p50Ms),
      ),
    },
  ],
  notes: [`median O / S in round trips/s: ${median(ratios(ours, theirs)).toFixed(3)}x`],
});
