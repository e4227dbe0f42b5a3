/**
 * docs/server.md lists every limit the server runtime reads from the
 * environment, with the default the code has: every `MCP_*` variable the
 * settings readers name (transport, server limits, stdio, Redis) is in the
 * page, and the rows of the limits added for what a peer can make the
 * server keep state the code's defaults. Each limit is reached at the limit
 * and one past it in its own test (listen-streams, server-limits, batches,
 * redis-hostile, redis-prefix).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_BATCH_ITEMS, MAX_MESSAGE_BYTES } from "../../templates/runtime/core/limits.js";
import { SERVER_LIMITS, STREAM_DEFAULTS } from "../../templates/runtime/index.js";
import { ROOT } from "../helpers/index.js";

const SERVER_DOC = readFileSync(join(ROOT, "docs", "server.md"), "utf8");

/** The files whose functions read the server's settings from the environment. */
const READERS = [
  "templates/runtime/transport/fetch-settings.ts",
  "templates/runtime/transport/settings.ts",
  "templates/runtime/transport/stdio.ts",
  "templates/runtime/server/limits.ts",
  "templates/runtime/server/lists.ts",
  "templates/runtime/scale/redis.ts",
];

/** The cells of the docs table row for `option`, trimmed. */
function row(option: string): string[] {
  const line = SERVER_DOC.split("\n").find((l) => l.includes(`| \`${option}\``));
  if (line === undefined) throw new Error(`docs/server.md has no table row for ${option}`);
  return line.split("|").map((cell) => cell.trim());
}

describe("docs/server.md and the settings", () => {
  it("names every MCP_* variable the runtime's settings readers read", () => {
    const named = new Set<string>();
    for (const file of READERS)
      for (const match of readFileSync(join(ROOT, file), "utf8").matchAll(/"(MCP_[A-Z_]+)"/g))
        named.add(match[1]!);
    expect(named.size).toBeGreaterThan(15);
    const missing = [...named].filter((variable) => !SERVER_DOC.includes(`\`${variable}\``));
    expect(missing).toEqual([]);
  });

  it.each([
    [
      "maxListenStreamsPerClient",
      "MCP_MAX_LISTEN_STREAMS_PER_CLIENT",
      `\`${STREAM_DEFAULTS.perClient}\``,
    ],
    ["maxListenStreams", "MCP_MAX_LISTEN_STREAMS", `\`${STREAM_DEFAULTS.max}\``],
    [
      "listenIdleMs",
      "MCP_LISTEN_IDLE_MS",
      `\`${STREAM_DEFAULTS.idleMs}\` (${STREAM_DEFAULTS.idleMs / 60_000} minutes)`,
    ],
    ["listenLifetimeMs", "MCP_LISTEN_LIFETIME_MS", `\`${STREAM_DEFAULTS.lifetimeMs}\` (one hour)`],
    ["maxBatchItems", "MCP_MAX_BATCH_ITEMS", `\`${MAX_BATCH_ITEMS}\``],
    [
      "maxListenFilterBytes",
      "MCP_MAX_LISTEN_FILTER_BYTES",
      `\`${SERVER_LIMITS.maxListenFilterBytes}\` (64 KiB)`,
    ],
    [
      "maxClientInfoBytes",
      "MCP_MAX_CLIENT_INFO_BYTES",
      `\`${SERVER_LIMITS.maxClientInfoBytes}\` (64 KiB)`,
    ],
  ])("%s: its variable and default", (option, variable, shown) => {
    const cells = row(option);
    expect(cells).toContain(`\`${variable}\``);
    expect(cells[cells.indexOf(`\`${option}\``) + 1]).toBe(shown);
  });

  it("the stdio line limit, its variable and default", () => {
    expect(SERVER_DOC).toContain(
      `\`MCP_MAX_LINE_BYTES\` (default \`${MAX_MESSAGE_BYTES}\`, 4 MiB)`,
    );
    expect(STREAM_DEFAULTS).toEqual({
      perClient: 16,
      max: 500,
      idleMs: 600_000,
      lifetimeMs: 3_600_000,
    });
  });
});
