/**
 * `npm run bench` with no benchmark of its own named (index.ts): the
 * benchmarks recorded in docs/benchmarks.md. A
 * benchmark prints numbers; it passes or fails nothing (the exit code is 0
 * even when a target is not met, and non-zero only when a run itself fails).
 *
 * Usage: npm run bench [-- [generation] [growth] [validation] [cold-import] [tools] [--rounds=N] [--batch-ms=N] [--baseline=DIR] [--tools=10,100,1000,10000]]
 *   With no name, all five run in that order (growth: the revision grown
 *   1, 4 and 16 times; tools: server projects of 10 to 10,000 tools,
 *   --tools choosing the sizes). --rounds overrides every benchmark's number
 *   of rounds (defaults: 7, 3, 20, 15, 5 start-ups); --batch-ms sets the
 *   duration of one validation batch (default 200); --baseline times the
 *   validators of another generation of generated/2026-07-28 (a folder
 *   holding its index.ts) beside the current ones.
 *
 * Schemas: MCP_GEN_SCHEMA_DIR, else ../shared/mcp-schema next to the repo.
 * dist/ is built first when it is missing.
 */
import { benchColdImport } from "./cold-import.js";
import {
  cpuSnapshot,
  ensureBuilt,
  machine,
  otherCpuPercent,
  printMachine,
  schemaDir,
} from "../shared/common.js";
import { benchGeneration } from "./generation.js";
import { benchGenerationGrowth } from "./generation-growth.js";
import { benchToolsScale } from "./tools-scale.js";
import { benchValidation } from "./validation.js";

const NAMES = ["generation", "growth", "validation", "cold-import", "tools"] as const;
type Name = (typeof NAMES)[number];

const args = process.argv.slice(2);
const option = (name: string): number | undefined => {
  const arg = args.find((a) => a.startsWith(`--${name}=`));
  if (arg === undefined) return undefined;
  const n = Number(arg.slice(name.length + 3));
  if (!Number.isInteger(n) || n < 1)
    throw new Error(`bench: --${name} needs a positive integer, got ${arg}`);
  return n;
};
const unknown = args.filter(
  (a) => !a.startsWith("--") && !(NAMES as readonly string[]).includes(a),
);
if (unknown.length > 0) {
  console.error(`bench: unknown benchmark ${unknown.join(", ")}; choose from ${NAMES.join(", ")}`);
  process.exit(2);
}
const picked = args.filter((a): a is Name => (NAMES as readonly string[]).includes(a));
const selected = new Set<Name>(picked.length > 0 ? picked : NAMES);
const rounds = option("rounds");
const batchMs = option("batch-ms") ?? 200;
const baseline = args.find((a) => a.startsWith("--baseline="))?.slice("--baseline=".length);
const toolSizes = (
  args.find((a) => a.startsWith("--tools="))?.slice("--tools=".length) ?? "10,100,1000,10000"
)
  .split(",")
  .map(Number);
if (toolSizes.some((n) => !Number.isInteger(n) || n < 1)) {
  console.error(
    `bench: --tools needs comma-separated positive whole numbers, got ${toolSizes.join(",")}`,
  );
  process.exit(2);
}

const dir = schemaDir();
ensureBuilt();
console.log("mcp-gen benchmarks");
printMachine(machine());
console.log(`  schemas: ${dir}`);

const met: Array<[Name, boolean]> = [];
const run = async (name: Name, bench: () => boolean | Promise<boolean>) => {
  const before = cpuSnapshot();
  met.push([name, await bench()]);
  const other = otherCpuPercent(before, cpuSnapshot());
  if (other !== undefined) {
    console.log(
      `  other processes used ${other.toFixed(0)}% of one core on average during this benchmark`,
    );
  }
};
if (selected.has("generation")) {
  await run("generation", () => benchGeneration({ rounds: rounds ?? 7, schemaDir: dir }));
}
if (selected.has("growth")) {
  await run("growth", () =>
    benchGenerationGrowth({ rounds: rounds ?? 3, schemaDir: dir, sizes: [1, 4, 16] }),
  );
}
if (selected.has("validation")) {
  await run("validation", () =>
    benchValidation({
      rounds: rounds ?? 20,
      batchMs,
      schemaDir: dir,
      ...(baseline !== undefined ? { baseline } : {}),
    }),
  );
}
if (selected.has("cold-import")) {
  await run("cold-import", () => benchColdImport({ rounds: rounds ?? 15, schemaDir: dir }));
}
if (selected.has("tools")) {
  await run("tools", () =>
    benchToolsScale({ sizes: toolSizes, rounds: rounds ?? 5, schemaDir: dir }),
  );
}

console.log("");
console.log("Targets");
for (const [name, ok] of met)
  console.log(
    `  ${name.padEnd(12)} ${name === "cold-import" ? "no target (comparison only)" : ok ? "all met" : "NOT all met"}`,
  );
