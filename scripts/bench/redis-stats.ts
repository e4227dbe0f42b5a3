/**
 * What the benchmarks read from the redis-server they started: how many
 * commands it ran (INFO commandstats, reset with CONFIG RESETSTAT before a
 * measurement) and how much memory keys take (MEMORY USAGE, INFO memory).
 * Commands a Lua script runs count as commands too: an EVALSHA that reads
 * and writes a key is three commands but one round trip.
 */
import { createClient, type RedisClientType } from "@redis/client";

type Client = RedisClientType;

/** A connection to the bench's redis-server, for statistics only. */
export class RedisStats {
  private constructor(private readonly client: Client) {}

  static async connect(url: string): Promise<RedisStats> {
    const client: Client = createClient({ url, disableOfflineQueue: true });
    client.on("error", () => {
      // The measurement's own error lines say what failed.
    });
    await client.connect();
    return new RedisStats(client);
  }

  /** CONFIG RESETSTAT: command counts start again from zero. */
  async reset(): Promise<void> {
    await this.client.configResetStat();
  }

  /** Calls per command since the last reset (this connection's INFO and RESETSTAT left out). */
  async commands(): Promise<Map<string, number>> {
    const info = await this.client.info("commandstats");
    const calls = new Map<string, number>();
    for (const line of info.split("\n")) {
      const match = /^cmdstat_([^:]+):calls=(\d+)/.exec(line.trim());
      if (!match || match[1] === "info" || match[1] === "config|resetstat") continue;
      calls.set(match[1]!, Number(match[2]));
    }
    return calls;
  }

  /** `used_memory` of INFO memory, in bytes. */
  async usedMemory(): Promise<number> {
    const info = await this.client.info("memory");
    return Number(/used_memory:(\d+)/.exec(info)?.[1] ?? NaN);
  }

  /** MEMORY USAGE of each of up to `sample` keys matching `pattern` (SCAN), in bytes. */
  async keyBytes(pattern: string, sample: number): Promise<number[]> {
    const sizes: number[] = [];
    for await (const keys of this.client.scanIterator({ MATCH: pattern, COUNT: 100 })) {
      for (const key of keys) {
        if (sizes.length >= sample) return sizes;
        const bytes = await this.client.memoryUsage(key);
        if (bytes !== null) sizes.push(bytes);
      }
    }
    return sizes;
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}

/** "12.0 (evalsha 4.0, get 4.0, set 2.0, ...)": commands per task, the most frequent first. */
export function perTask(calls: ReadonlyMap<string, number>, tasks: number): string {
  if (tasks === 0) return "n/a (no task completed)";
  const sorted = [...calls].sort((a, b) => b[1] - a[1]);
  const total = sorted.reduce((sum, [, n]) => sum + n, 0);
  const parts = sorted.filter(([, n]) => n / tasks >= 0.01);
  return `${(total / tasks).toFixed(2)} (${parts.map(([name, n]) => `${name} ${(n / tasks).toFixed(2)}`).join(", ")})`;
}
