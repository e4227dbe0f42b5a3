// The load generator of `npm run bench:server`: one child process (forked with
// an IPC channel), separate from both servers, that drives one server at a
// time with undici keep-alive connections. Every request is a valid
// 2026-07-28 `tools/call` of `echo` (headers MCP-Protocol-Version, Mcp-Method,
// Mcp-Name; `_meta` with protocolVersion and clientCapabilities {}); every
// response is checked (HTTP 200, JSON-RPC id, the echoed text) and failures
// are counted, never timed.
//
// Messages from the parent (process.send), one at a time:
//   { cmd: "check", url }                        one checked request; answers { ok, body, problem? }
//   { cmd: "run", url, connections, rampSeconds, seconds, serverPid }
//       a fresh Pool of `connections` keep-alive connections; `rampSeconds` of
//       unrecorded traffic (connections open, caches warm), then `seconds` of
//       recorded traffic. Answers { ok, errors, errorSamples, elapsedS, latenciesMs,
//       serverCpuMs, loadgenCpuMs } for the recorded part only.
//   { cmd: "exit" }
import { readFileSync } from "node:fs";
import { Pool } from "undici";

const CLK_TCK = 100; // USER_HZ on Linux
/** utime + stime of a process in ms (/proc/<pid>/stat), or undefined off Linux. */
function procCpuMs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLK_TCK;
  } catch {
    return undefined;
  }
}
const selfCpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

const HEADERS = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": "2026-07-28",
  "mcp-method": "tools/call",
  "mcp-name": "echo",
};
const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};

let nextId = 0;

/** One checked tools/call; returns the latency in ms, or a string saying what was wrong. */
async function call(pool, path, seen) {
  const id = ++nextId;
  const text = `hello ${id}`;
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name: "echo", arguments: { text }, _meta: META },
  });
  const t0 = process.hrtime.bigint();
  let status;
  let out;
  try {
    const res = await pool.request({ path, method: "POST", headers: HEADERS, body });
    status = res.statusCode;
    out = await res.body.text();
  } catch (error) {
    return `request failed: ${error?.code ?? ""} ${error?.message ?? error}`;
  }
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (seen) seen.body = out;
  if (status !== 200) return `HTTP ${status}: ${out.slice(0, 300)}`;
  let reply;
  try {
    reply = JSON.parse(out);
  } catch {
    return `not JSON: ${out.slice(0, 300)}`;
  }
  if (reply?.id !== id)
    return `id ${JSON.stringify(reply?.id)} instead of ${id}: ${out.slice(0, 300)}`;
  const content = reply.result?.content;
  if (
    reply.result?.isError === true ||
    !Array.isArray(content) ||
    content.length !== 1 ||
    content[0]?.type !== "text" ||
    content[0].text !== text
  ) {
    return `wrong result for ${JSON.stringify(text)}: ${out.slice(0, 300)}`;
  }
  return ms;
}

function newPool(url, connections) {
  return new Pool(url.origin, {
    connections,
    pipelining: 1,
    keepAliveTimeout: 60_000,
    headersTimeout: 10_000,
    bodyTimeout: 10_000,
  });
}

/** `connections` loops of back-to-back requests until the deadline; records into `rec` when given. */
async function drive(pool, path, connections, seconds, rec) {
  const deadline = performance.now() + seconds * 1000;
  const loop = async () => {
    while (performance.now() < deadline) {
      const r = await call(pool, path);
      if (!rec) continue;
      if (typeof r === "number") rec.latencies.push(r);
      else {
        rec.errors++;
        if (rec.errorSamples.length < 3) rec.errorSamples.push(r);
      }
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: connections }, loop));
  return (performance.now() - t0) / 1000;
}

async function run({ url, connections, rampSeconds, seconds, serverPid }) {
  const target = new URL(url);
  if (!["127.0.0.1", "localhost", "[::1]"].includes(target.hostname))
    throw new Error("loadgen: loopback targets only");
  const pool = newPool(target, connections);
  try {
    if (rampSeconds > 0) await drive(pool, target.pathname, connections, rampSeconds, undefined);
    const rec = { latencies: [], errors: 0, errorSamples: [] };
    const server0 = procCpuMs(serverPid);
    const self0 = selfCpuMs();
    const elapsedS = await drive(pool, target.pathname, connections, seconds, rec);
    const server1 = procCpuMs(serverPid);
    const self1 = selfCpuMs();
    return {
      ok: rec.latencies.length,
      errors: rec.errors,
      errorSamples: rec.errorSamples,
      elapsedS,
      latenciesMs: rec.latencies,
      serverCpuMs: server0 === undefined || server1 === undefined ? undefined : server1 - server0,
      loadgenCpuMs: self1 - self0,
    };
  } finally {
    await pool.destroy();
  }
}

async function check({ url }) {
  const target = new URL(url);
  const pool = newPool(target, 1);
  try {
    const seen = {};
    const r = await call(pool, target.pathname, seen);
    return typeof r === "number"
      ? { ok: true, body: seen.body }
      : { ok: false, body: seen.body, problem: r };
  } finally {
    await pool.destroy();
  }
}

process.on("message", async (message) => {
  try {
    if (message.cmd === "exit") process.exit(0);
    const result = message.cmd === "check" ? await check(message) : await run(message);
    process.send({ result });
  } catch (error) {
    process.send({ error: String(error?.stack ?? error) });
  }
});
// The parent going away (IPC closed) ends this process too.
process.on("disconnect", () => process.exit(0));
process.send({ ready: true });
