/**
 * `npm run limits:server`: what one hostile client can make a server keep.
 * Scaffolds `mcp-gen server --example everything --extension tasks`,
 * builds it, and for each load starts it afresh (node dist/index.js, heap
 * capped at --heap MiB) and sends:
 *
 * - listen: 1,050 `subscriptions/listen` POSTs from one client at once,
 *   held open for --hold seconds;
 * - filters: --filters listen POSTs (8 at a time) whose
 *   `resourceSubscriptions` is 1 MB of URIs, each held open;
 * - capabilities: --sessions 2025-era `initialize` requests one after the
 *   other, each with 3.75 MB of `capabilities.experimental`.
 *
 * Meanwhile a normal client (its own connections) calls `tools/list` every
 * 100 ms. Prints, per load, what the hostile client got (opened, refused,
 * reset), the normal client's slowest answer and its failures, the
 * server's peak RSS (VmHWM) and whether it died. A number, not a verdict:
 * the targets are tools/list within 1 s and a peak under 300 MB.
 *
 * --compare=<commit> runs the same loads against the mcp-gen of that commit
 * (archived and built in a temporary folder) first, and prints both.
 * Other options: --hold=10 --filters=300 --sessions=700 --heap=1024 --keep,
 * --loads=listen,filters,capabilities (which to run).
 */
import { execFileSync, fork, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { Agent, request, type IncomingMessage } from "node:http";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { buildProject, ensureBuilt, ROOT } from "../shared/common.js";

const option = (name: string, fallback: number): number => {
  const found = process.argv.find((a) => a.startsWith(`--${name}=`));
  const value = found ? Number(found.slice(name.length + 3)) : fallback;
  if (!Number.isInteger(value) || value < 0) throw new Error(`--${name} takes a whole number`);
  return value;
};
const HOLD_S = option("hold", 10);
const FILTERS = option("filters", 300);
const SESSIONS = option("sessions", 700);
const HEAP_MIB = option("heap", 1024);
const KEEP = process.argv.includes("--keep");
const LOADS = (
  process.argv.find((a) => a.startsWith("--loads="))?.slice("--loads=".length) ??
  "listen,filters,capabilities"
).split(",");
const COMPARE = process.argv.find((a) => a.startsWith("--compare="))?.slice("--compare=".length);

const MODERN = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "load", version: "1.0.0" },
  "io.modelcontextprotocol/clientCapabilities": {},
};

/** What one load did. */
interface Outcome {
  readonly load: string;
  readonly opened: number;
  readonly refused: number;
  readonly failed: number;
  readonly listSlowestMs: number;
  readonly listMedianMs: number;
  readonly listFailed: number;
  readonly listCalls: number;
  readonly listOverOneSecond: number;
  readonly peakRssMiB: number;
  readonly serverCpuSeconds: number;
  readonly died: string | undefined;
  readonly seconds: number;
  readonly listenQueueDrops: number;
}

/** A server started from a project's dist/. */
interface Server {
  readonly proc: ChildProcess;
  readonly port: number;
  readonly exited: Promise<string>;
  stderr: string;
}

async function startServer(project: string): Promise<Server> {
  const proc = spawn(
    process.execPath,
    [`--max-old-space-size=${HEAP_MIB}`, join("dist", "index.js")],
    { cwd: project, env: { ...process.env, PORT: "0", HOST: "127.0.0.1" }, stdio: "pipe" },
  );
  const server = { proc, port: 0, stderr: "" } as { -readonly [K in keyof Server]: Server[K] };
  server.exited = new Promise((resolve) =>
    proc.once("exit", (code, signal) => resolve(signal ?? `exit ${code}`)),
  );
  server.port = await new Promise<number>((resolve, reject) => {
    proc.stderr.on("data", (chunk: Buffer) => {
      server.stderr = (server.stderr + chunk.toString("utf8")).slice(-4000);
      const port = /listening on http:\/\/127\.0\.0\.1:(\d+)\/mcp/.exec(server.stderr)?.[1];
      if (port) resolve(Number(port));
    });
    void server.exited.then((how) =>
      reject(new Error(`the server ended (${how}):\n${server.stderr}`)),
    );
  });
  return server;
}

/** The CPU time a live process has used, in seconds (user and system, from /proc). */
function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

/**
 * Connections the kernel dropped because a listening socket's accept queue
 * was full (TcpExt ListenOverflows), on the whole machine: a client whose
 * connection is dropped tries again after a second, then three.
 */
function listenOverflows(): number {
  try {
    const lines = readFileSync("/proc/net/netstat", "utf8").split("\n");
    const names = lines.find((l) => l.startsWith("TcpExt:"))!.split(" ");
    const values = lines.filter((l) => l.startsWith("TcpExt:"))[1]!.split(" ");
    return Number(values[names.indexOf("ListenOverflows")]);
  } catch {
    return NaN;
  }
}

/** The peak resident memory of a live process, in MiB (its VmHWM). */
function peakRss(pid: number): number {
  try {
    return Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]) / 1024;
  } catch {
    return NaN;
  }
}

/** Headers of a modern POST. */
function modernHeaders(method: string, body: string): Record<string, string | number> {
  return {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": method,
    "content-length": Buffer.byteLength(body),
  };
}

/** What the normal client saw. */
interface ListStats {
  readonly slowest: number;
  readonly median: number;
  readonly failed: number;
  readonly calls: number;
  readonly overOneSecond: number;
}

/**
 * The normal client (scripts/limits/list-prober.mjs, a process of its own):
 * resolves once its warm-up call is answered; `stop` ends it with what it saw.
 */
async function normalClient(port: number): Promise<{ stop(): Promise<ListStats> }> {
  const child = fork(join(ROOT, "scripts", "limits", "list-prober.mjs"), [String(port)], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  await new Promise<void>((resolve, reject) => {
    child.once("message", () => resolve());
    child.once("exit", (code) => reject(new Error(`the prober exited (${code})`)));
  });
  return {
    stop: () =>
      new Promise<ListStats>((resolve) => {
        child.once("message", (stats) => resolve(stats as ListStats));
        child.send("stop");
      }),
  };
}

/** One POST of the hostile client: resolves with how it was answered; a 200 event stream stays open. */
function hostilePost(
  port: number,
  agent: Agent,
  headers: Record<string, string | number>,
  body: string,
  held: IncomingMessage[],
): Promise<"opened" | "refused" | "failed"> {
  return new Promise((resolve) => {
    const req = request(
      { host: "127.0.0.1", port, path: "/mcp", method: "POST", agent, headers },
      (res) => {
        const stream = res.headers["content-type"]?.startsWith("text/event-stream");
        if (res.statusCode === 200 && stream) {
          held.push(res);
          res.on("error", () => {});
          res.resume();
          let first = "";
          res.on("data", (chunk: Buffer) => {
            if (first !== "") return;
            first = chunk.toString("utf8");
            // An event stream whose first message is an error is a refusal (2025-era answers come on streams).
            resolve(first.includes('"error"') ? "refused" : "opened");
          });
          res.on("end", () => resolve(first === "" ? "failed" : "opened"));
          return;
        }
        res.resume();
        res.on("end", () => resolve(res.statusCode && res.statusCode < 500 ? "refused" : "failed"));
        res.on("error", () => resolve("failed"));
      },
    );
    req.on("error", () => resolve("failed"));
    req.end(body);
  });
}

/** Runs `load` against a fresh server of `project`, with the normal client alongside. */
async function measure(
  project: string,
  name: string,
  load: (
    port: number,
    agent: Agent,
    held: IncomingMessage[],
  ) => Promise<Array<"opened" | "refused" | "failed">>,
): Promise<Outcome> {
  const server = await startServer(project);
  const agent = new Agent({ keepAlive: true, maxSockets: Infinity });
  const held: IncomingMessage[] = [];
  const normal = await normalClient(server.port);
  const started = performance.now();
  const cpuBefore = cpuSeconds(server.proc.pid!);
  const overflowsBefore = listenOverflows();
  // Read as the load runs too, so a server that dies still has its peak.
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, peakRss(server.proc.pid!) || 0)), 200);
  let died: string | undefined;
  void server.exited.then((how) => (died = how));
  const results = await Promise.race([
    load(server.port, agent, held),
    server.exited.then(() => []),
  ]);
  await new Promise((r) => setTimeout(r, HOLD_S * 1000));
  clearInterval(sampler);
  peak = Math.max(peak, peakRss(server.proc.pid!) || 0);
  const cpu = cpuSeconds(server.proc.pid!) - cpuBefore;
  const listenQueueDrops = listenOverflows() - overflowsBefore;
  const list = await normal.stop();
  const diedUnderLoad = died;
  for (const stream of held) stream.destroy();
  agent.destroy();
  server.proc.kill("SIGKILL");
  await server.exited;
  return {
    load: name,
    opened: results.filter((r) => r === "opened").length,
    refused: results.filter((r) => r === "refused").length,
    failed: results.filter((r) => r === "failed").length,
    listSlowestMs: Math.round(list.slowest),
    listMedianMs: Math.round(list.median),
    listFailed: list.failed,
    listCalls: list.calls,
    listOverOneSecond: list.overOneSecond,
    peakRssMiB: Math.round(peak),
    serverCpuSeconds: Math.round(cpu * 10) / 10,
    died: diedUnderLoad,
    seconds: Math.round((performance.now() - started) / 100) / 10,
    listenQueueDrops,
  };
}

const listenBody = (id: number, notifications: Record<string, unknown>) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "subscriptions/listen",
    params: { _meta: MODERN, notifications },
  });

/** 1,050 listen streams from one client at once. */
const listenLoad = (port: number, agent: Agent, held: IncomingMessage[]) =>
  Promise.all(
    Array.from({ length: 1050 }, (_, i) => {
      const body = listenBody(i + 1, { toolsListChanged: true });
      return hostilePost(port, agent, modernHeaders("subscriptions/listen", body), body, held);
    }),
  );

/** Listen streams with 1 MB of resource URIs each, 8 at a time. */
async function filterLoad(port: number, agent: Agent, held: IncomingMessage[]) {
  const uris = Array.from(
    { length: 20_000 },
    (_, i) => `test://static/resource/${i}/${"u".repeat(20)}`,
  );
  const results: Array<"opened" | "refused" | "failed"> = [];
  let next = 0;
  const worker = async () => {
    while (next < FILTERS) {
      const id = ++next;
      const body = listenBody(id, { resourceSubscriptions: uris });
      results.push(
        await hostilePost(port, agent, modernHeaders("subscriptions/listen", body), body, held),
      );
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return results;
}

/** 2025-era initialize requests one after the other, each with 3.75 MB of capabilities. */
async function capabilitiesLoad(port: number, agent: Agent, held: IncomingMessage[]) {
  const experimental = { padding: { text: "c".repeat(3_750_000) } };
  const results: Array<"opened" | "refused" | "failed"> = [];
  for (let i = 0; i < SESSIONS; i++) {
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: i,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: { experimental },
        clientInfo: { name: "load", version: "1" },
      },
    });
    const headers = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "content-length": Buffer.byteLength(body),
    };
    const result = await hostilePost(port, agent, headers, body, []);
    results.push(result);
    if (result === "failed") break;
  }
  void held;
  return results;
}

/** Scaffolds and builds the everything example with the mcp-gen whose CLI is `cli`. */
function scaffold(cli: string, tmp: string, label: string): string {
  const project = join(tmp, label);
  process.stdout.write(`[setup] scaffolding and building ${label} ... `);
  execFileSync(
    process.execPath,
    [cli, "server", project, "--example", "everything", "--extension", "tasks", "--quiet"],
    { cwd: tmp, stdio: "pipe", env: { ...process.env, MCP_GEN_OFFLINE: "1" } },
  );
  symlinkSync(join(ROOT, "node_modules"), join(project, "node_modules"), "dir");
  buildProject(project);
  console.log("done");
  return project;
}

/** The mcp-gen of `commit`, archived and built in `tmp`; its CLI. */
function buildCommit(commit: string, tmp: string): string {
  const dir = join(tmp, `mcp-gen-${commit}`);
  process.stdout.write(`[setup] building mcp-gen at ${commit} ... `);
  execFileSync("sh", [
    "-c",
    `mkdir -p "${dir}" && git -C "${ROOT}" archive "${commit}" | tar -x -C "${dir}"`,
  ]);
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
  execFileSync(
    process.execPath,
    [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.build.json"],
    { cwd: dir, stdio: "pipe" },
  );
  console.log("done");
  return join(dir, "dist", "generator", "cli", "main.js");
}

async function runLoads(project: string): Promise<Outcome[]> {
  const loads = {
    listen: ["listen: 1,050 streams from one client", listenLoad],
    filters: [`filters: ${FILTERS} listens of 1 MB`, filterLoad],
    capabilities: [`capabilities: ${SESSIONS} initialize of 3.75 MB`, capabilitiesLoad],
  } as const;
  const outcomes: Outcome[] = [];
  for (const name of LOADS) {
    if (!(name in loads))
      throw new Error(`--loads: ${name} is none of ${Object.keys(loads).join(", ")}`);
    const [label, load] = loads[name as keyof typeof loads];
    outcomes.push(await measure(project, label, load));
  }
  return outcomes;
}

function print(label: string, outcomes: readonly Outcome[]): void {
  const load = loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");
  console.log(
    `\n${label} (server heap capped at ${HEAP_MIB} MiB; tools/list every 100 ms throughout; load average ${load})`,
  );
  for (const o of outcomes)
    console.log(
      `  ${o.load}: opened ${o.opened}, refused ${o.refused}, failed ${o.failed}; ` +
        `tools/list median ${o.listMedianMs} ms, slowest ${o.listSlowestMs} ms, over 1 s ${o.listOverOneSecond} and failed ${o.listFailed} of ${o.listCalls}; ` +
        `peak RSS ${o.peakRssMiB} MiB, server CPU ${o.serverCpuSeconds} s; ` +
        `connections dropped by a full accept queue ${o.listenQueueDrops}; ` +
        `${o.died ? `server died (${o.died})` : "server alive"}; ${o.seconds} s`,
    );
}

async function main(): Promise<void> {
  ensureBuilt();
  const tmp = mkdtempSync(join(tmpdir(), "mcp-gen-limits-server-"));
  try {
    if (COMPARE) {
      const before = scaffold(buildCommit(COMPARE, tmp), tmp, `before-${COMPARE}`);
      print(`mcp-gen at ${COMPARE}`, await runLoads(before));
    }
    const now = scaffold(join(ROOT, "dist", "generator", "cli", "main.js"), tmp, "this-checkout");
    print("this checkout", await runLoads(now));
  } finally {
    if (KEEP) console.log(`kept ${tmp}`);
    else rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
