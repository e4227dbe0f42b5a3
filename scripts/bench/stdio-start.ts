/**
 * `npm run bench:stdio-start`: how long a stdio server takes from spawn to
 * its first `tools/list` answer. A server scaffolded with this checkout's
 * `mcp-gen server` (the minimal example, built with tsc), started as its
 * README says, `node dist/index.js --stdio`, against an official SDK v1
 * (@modelcontextprotocol/sdk) stdio server with one tool. Each round spawns
 * each server once, in an order that flips every round, writes a client's
 * opening at once (2026-07-28: `server/discover` then `tools/list`;
 * 2025-11-25: `initialize`, `notifications/initialized`, `tools/list`) and
 * stops the clock at the line that answers `tools/list`. Prints medians of
 * N rounds and the ratio mcp-gen / SDK per round.
 *
 * Usage: npm run bench:stdio-start [-- --rounds=20 --keep]
 *
 * Like the other benchmarks it fails nothing: exit code 0 with numbers, 2
 * when the setup failed or a server did not answer.
 * Recorded in docs/benchmarks.md ("Stdio start-up").
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { linkedProject } from "../shared/project.js";
import { ensureBuilt, machine, printMachine, printTable, ratios, ROOT } from "../shared/common.js";
import { firstToolList, LEGACY, MODERN } from "./stdio-opening.js";

const { values } = parseArgs({
  options: { rounds: { type: "string", default: "20" }, keep: { type: "boolean", default: false } },
});
const ROUNDS = Number(values.rounds);
if (!Number.isInteger(ROUNDS) || ROUNDS < 1) {
  console.error(`bench:stdio-start: --rounds=${values.rounds}: expected a positive integer`);
  process.exit(2);
}

/** The official SDK v1 server: one tool, stdio. */
const SDK_SERVER = `import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
const server = new McpServer({ name: "sdk-v1", version: "1.0.0" });
server.registerTool("echo", { description: "Echo" }, () => ({ content: [{ type: "text", text: "hi" }] }));
await server.connect(new StdioServerTransport());
`;

function setup(dir: string): Promise<void> {
  return (async () => {
    const project = await linkedProject(
      "server",
      { dir: join(dir, "server"), name: "bench-stdio" },
      { build: true },
    );
    writeFileSync(join(project, "sdk-server.mjs"), SDK_SERVER);
  })();
}

ensureBuilt();
const dir = mkdtempSync(join(tmpdir(), "mcp-gen-bench-stdio-"));
const project = join(dir, "server");
try {
  await setup(dir);
  const sdkVersion = (
    JSON.parse(
      readFileSync(
        join(ROOT, "node_modules", "@modelcontextprotocol", "sdk", "package.json"),
        "utf8",
      ),
    ) as { version: string }
  ).version;
  printMachine(machine());
  const cases = {
    discover: () => firstToolList(["dist/index.js", "--stdio"], project, MODERN),
    initialize: () => firstToolList(["dist/index.js", "--stdio"], project, LEGACY),
    sdk: () => firstToolList(["sdk-server.mjs"], project, LEGACY),
  };
  const times: Record<keyof typeof cases, number[]> = { discover: [], initialize: [], sdk: [] };
  // One unmeasured round warms the file system cache for both.
  for (const run of Object.values(cases)) await run();
  for (let round = 0; round < ROUNDS; round++) {
    const order = Object.keys(cases) as Array<keyof typeof cases>;
    if (round % 2 === 1) order.reverse();
    for (const name of order) times[name].push(await cases[name]());
  }
  printTable({
    title: `stdio start-up: spawn to the first tools/list answer, ${ROUNDS} rounds`,
    unit: "ms",
    digits: 1,
    series: [
      {
        label: "mcp-gen (node dist/index.js --stdio), discover + tools/list",
        values: times.discover,
      },
      {
        label: "mcp-gen (node dist/index.js --stdio), initialize + tools/list",
        values: times.initialize,
      },
      {
        label: `official SDK v1 ${sdkVersion}, one tool, initialize + tools/list`,
        values: times.sdk,
      },
    ],
    ratios: [
      { label: "mcp-gen 2026-07-28 / SDK v1", values: ratios(times.discover, times.sdk) },
      { label: "mcp-gen 2025-11-25 / SDK v1", values: ratios(times.initialize, times.sdk) },
    ],
  });
} catch (error) {
  console.error(`bench:stdio-start: ${(error as Error).message}`);
  process.exitCode = 2;
} finally {
  if (values.keep) console.log(`kept ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
}
