/**
 * A normal client for scripts/limits/server.ts, in a process of its own so that
 * the load generator's work never delays it: calls tools/list on 127.0.0.1
 * at the port given as argv[2] every 100 ms, each call on a new connection
 * (as a client arriving while the load runs would), after one warm-up call
 * (then sends "ready"); on the message "stop" it sends { slowest, median,
 * failed, calls, overOneSecond } and exits.
 */
import { Agent, request } from "node:http";

const port = Number(process.argv[2]);
const agent = new Agent({ keepAlive: false });
const body = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "tools/list",
  params: {
    _meta: {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientInfo": { name: "prober", version: "1.0.0" },
      "io.modelcontextprotocol/clientCapabilities": {},
    },
  },
});
const headers = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": "2026-07-28",
  "mcp-method": "tools/list",
  "content-length": Buffer.byteLength(body),
};
const stats = { slowest: 0, median: 0, failed: 0, calls: 0, overOneSecond: 0 };
const times = [];

/** One call; resolves with how long it took, or -1 when it failed. */
function call() {
  return new Promise((resolve) => {
    const started = performance.now();
    const done = (ok) => resolve(ok ? performance.now() - started : -1);
    const req = request(
      { host: "127.0.0.1", port, path: "/mcp", method: "POST", agent, headers, timeout: 10_000 },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk) => (text += chunk));
        res.on("end", () => done(res.statusCode === 200 && text.includes('"tools"')));
        res.on("error", () => done(false));
      },
    );
    req.on("timeout", () => req.destroy(new Error("timeout")));
    req.on("error", () => done(false));
    req.end(body);
  });
}

let running = true;
process.on("message", (message) => {
  if (message === "stop") running = false;
});
await call();
process.send("ready");
while (running) {
  const started = performance.now();
  const took = await call();
  stats.calls++;
  if (took < 0) stats.failed++;
  const elapsed = performance.now() - started;
  stats.slowest = Math.max(stats.slowest, elapsed);
  times.push(elapsed);
  if (elapsed > 1000) stats.overOneSecond++;
  await new Promise((resolve) => setTimeout(resolve, 100));
}
agent.destroy();
times.sort((a, b) => a - b);
stats.median = times[Math.floor(times.length / 2)] ?? 0;
process.send(stats, () => process.exit(0));
