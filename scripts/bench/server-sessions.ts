/**
 * The sessions part of `npm run bench:server -- --case=tasks`: 2025-era
 * sessions (`initialize`, answered with an Mcp-Session-Id) opened per
 * second on an instance keeping them in memory and on one sharing them
 * through Redis, and what one shared session takes in Redis (MEMORY USAGE
 * of its key, and INFO used_memory grown per session).
 */
import { Pool } from "undici";
import { median } from "../shared/common.js";
import type { RedisStats } from "./redis-stats.js";

const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-11-25",
    capabilities: { elicitation: {}, sampling: {} },
    clientInfo: { name: "bench-client", version: "1.0.0" },
  },
});

/** Opens sessions on `port` for `seconds` with `connections` clients; sessions per second. */
async function openSessions(port: number, seconds: number, connections: number): Promise<number> {
  const pool = new Pool(`http://127.0.0.1:${port}`, { connections: 64 });
  const deadline = performance.now() + seconds * 1000;
  const start = performance.now();
  let opened = 0;
  const client = async () => {
    while (performance.now() < deadline) {
      const response = await pool.request({
        path: "/mcp",
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: INITIALIZE,
        headersTimeout: 10_000,
        bodyTimeout: 10_000,
      });
      const text = await response.body.text();
      if (response.statusCode !== 200 || !response.headers["mcp-session-id"])
        throw new Error(`initialize: HTTP ${response.statusCode} ${text.slice(0, 200)}`);
      opened++;
    }
  };
  try {
    await Promise.all(Array.from({ length: connections }, client));
    return opened / ((performance.now() - start) / 1000);
  } finally {
    await pool.close();
  }
}

/** Measures and prints the sessions rows; throws when an initialize fails. */
export async function benchSessions(options: {
  readonly memoryPort: number;
  readonly redisPort?: number;
  readonly stats?: RedisStats;
  readonly rounds: number;
  readonly seconds: number;
  readonly connections: number;
}): Promise<void> {
  const memory: number[] = [];
  const redis: number[] = [];
  let grown = NaN;
  for (let round = 0; round < options.rounds; round++) {
    memory.push(await openSessions(options.memoryPort, options.seconds, options.connections));
    if (options.redisPort === undefined || !options.stats) continue;
    const before = await options.stats.usedMemory();
    const rate = await openSessions(options.redisPort, options.seconds, options.connections);
    redis.push(rate);
    grown = (await options.stats.usedMemory()) - before;
    grown /= rate * options.seconds;
  }
  console.log("");
  console.log(
    "2025-era sessions opened per second (initialize), " + `${options.connections} clients`,
  );
  console.log(`  in memory (one instance):          ${median(memory).toFixed(0)} sessions/s`);
  if (!options.stats || redis.length === 0) return;
  const sizes = await options.stats.keyBytes("mcp:session:*", 200);
  console.log(`  shared through Redis:              ${median(redis).toFixed(0)} sessions/s`);
  console.log(
    `  Redis memory per session: MEMORY USAGE of its key ${median(sizes).toFixed(0)} bytes (median of ${sizes.length}); ` +
      `INFO used_memory grew ${grown.toFixed(0)} bytes per session (last round)`,
  );
}
