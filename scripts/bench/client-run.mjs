// One client of `npm run bench:client`, in a process of its own: connects to the server at URL,
// calls its `echo` tool for WARMUP seconds (not measured), then for SECONDS, CONCURRENCY calls in
// flight, and prints one JSON line: { calls, seconds, p50Ms, p99Ms, cpuUs, allCalls }, cpuUs being
// the process's CPU (user + system, every thread) per recorded call and allCalls the calls of both
// phases. Every answer is checked.
//
//   node scripts/bench/client-run.mjs mcp-gen <url> <seconds> <warmup> <concurrency> <project> [<tools>]
//   node scripts/bench/client-run.mjs sdk     <url> <seconds> <warmup> <concurrency> <project> [<tools>]
//   node scripts/bench/client-run.mjs bare    <url> <seconds> <warmup> <concurrency> <project>
//
// With <tools>, each call is a tools/list read whole instead (the list case): the scaffolded
// client's listTools() (every page, as the project's list-tools command reads them), the SDK's
// client.listTools(); both checked to hold <tools> tools.
//
// mcp-gen: the scaffolded client's own connect() and typed wrapper (client.tools.echo: arguments
// checked against the inputSchema, the response against the revision's schema). sdk: the
// official SDK v2 client (@modelcontextprotocol/client) pinned to 2026-07-28. bare: no MCP
// client at all, the floor any client pays against this server: node:http with a keep-alive
// agent posting one fixed tools/call (the headers and `_meta` a 2026-07-28 server needs) and
// JSON.parse of the answer; no checks of arguments or result, no timeout, no discovery.
import { Agent, request } from "node:http";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [kind, url, seconds, warmup, concurrency, project, listed] = process.argv.slice(2);
/** With a tool count: the list case, each call a tools/list read whole, checked to hold that many tools. */
const LIST = listed === undefined ? undefined : Number(listed);

async function mcpGen() {
  const { connect } = await import(pathToFileURL(join(project, "dist", "connect.js")).href);
  const client = await connect({ url });
  if (LIST !== undefined)
    return {
      call: async () => checkList(await client.raw.listTools()),
      close: () => client.close(),
    };
  return { call: () => client.tools.echo({ text: "hi" }), close: () => client.close() };
}

/** A list call's result in the echo call's shape, once the list holds every tool. */
function checkList(tools) {
  if (tools.length !== LIST) throw new Error(`tools/list held ${tools.length} tools, not ${LIST}`);
  return { content: [{ text: "hi" }] };
}

async function sdk() {
  const { Client, StreamableHTTPClientTransport } = await import("@modelcontextprotocol/client");
  const client = new Client(
    { name: "bench-client-sdk", version: "1.0.0" },
    { versionNegotiation: { mode: { pin: "2026-07-28" } } },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  if (LIST !== undefined)
    return {
      call: async () => checkList((await client.listTools()).tools),
      close: () => client.close(),
    };
  return {
    call: () => client.callTool({ name: "echo", arguments: { text: "hi" } }),
    close: () => client.close(),
  };
}

/** The bare floor: the same call on the wire, with nothing a client library adds. */
function bare() {
  if (LIST !== undefined) throw new Error("the bare client has no list case");
  const agent = new Agent({ keepAlive: true });
  const meta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": { name: "bench-client-bare", version: "1.0.0" },
  };
  let id = 0;
  const post = (body) =>
    new Promise((resolve, reject) => {
      const headers = {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "content-length": Buffer.byteLength(body),
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/call",
        "mcp-name": "echo",
      };
      const req = request(url, { method: "POST", agent, headers }, (res) => {
        const chunks = [];
        res.on("data", (chunk) => chunks.push(chunk));
        res.on("end", () => {
          try {
            resolve(JSON.parse(Buffer.concat(chunks).toString("utf8")).result);
          } catch (error) {
            reject(error);
          }
        });
        res.on("error", reject);
      });
      req.on("error", reject);
      req.end(body);
    });
  const call = () =>
    post(
      JSON.stringify({
        jsonrpc: "2.0",
        id: ++id,
        method: "tools/call",
        params: { name: "echo", arguments: { text: "hi" }, _meta: meta },
      }),
    );
  return { call, close: async () => agent.destroy() };
}

const clients = { "mcp-gen": mcpGen, sdk, bare };
if (!(kind in clients)) throw new Error(`client-run: unknown client ${kind}`);
const client = await clients[kind]();
const latencies = [];
/** Every call made, warm-up included: the server's CPU is divided by it. */
let allCalls = 0;

/** Calls until `until` (hrtime ns), recording each call's duration when `record`. */
async function worker(until, record) {
  while (process.hrtime.bigint() < until) {
    const started = process.hrtime.bigint();
    const result = await client.call();
    allCalls++;
    if (result.content?.[0]?.text !== "hi")
      throw new Error(`unexpected answer: ${JSON.stringify(result)}`);
    if (record) latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
}

async function phase(durationS, record) {
  const until = process.hrtime.bigint() + BigInt(Math.round(Number(durationS) * 1e9));
  const started = process.hrtime.bigint();
  await Promise.all(Array.from({ length: Number(concurrency) }, () => worker(until, record)));
  return Number(process.hrtime.bigint() - started) / 1e9;
}

await phase(warmup, false);
const cpuBefore = process.cpuUsage();
const elapsed = await phase(seconds, true);
const cpu = process.cpuUsage(cpuBefore);
await client.close();
latencies.sort((a, b) => a - b);
const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
console.log(
  JSON.stringify({
    calls: latencies.length,
    seconds: elapsed,
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    cpuUs: (cpu.user + cpu.system) / latencies.length,
    allCalls,
  }),
);
