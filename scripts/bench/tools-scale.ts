/**
 * `npm run bench -- tools`: a server project of 10, 100, 1,000 and 10,000
 * tools (bench-tool.ts), as its user lives with it. Per size, through the
 * CLI (`node dist/generator/cli/main.js`):
 *
 * - scaffold: `mcp-gen server p --tools tools.json`, with an empty cache
 *   folder (nothing compiled before);
 * - regenerate: `mcp-gen generate` in the project afterwards (the tools
 *   unchanged: what a developer's loop costs);
 * - typecheck: the project's `tsc --noEmit -p .`, its time and peak RSS;
 * - start-up: `node dist/index.js --stdio` (built with `tsc -p .`
 *   and its copy of the generated JavaScript) to the answer of its first
 *   tools/list (median of the rounds).
 *
 * Targets (each against the 10-tool project): scaffold and regenerate
 * linear in the tools, 1,000 tools in at most 5 s; typecheck at most 2x,
 * peak under 600 MiB; start-up at most 1.5x.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { benchTools } from "./bench-tool.js";
import { buildProject, median, now, ROOT } from "../shared/common.js";
import { linkNodeModules } from "../shared/project.js";
import { firstToolList, MODERN } from "./stdio-opening.js";

export interface ToolsScaleOptions {
  readonly sizes: readonly number[];
  /** Start-ups measured per size (the median is reported). */
  readonly rounds: number;
  readonly schemaDir: string;
}

const CLI = join(ROOT, "dist", "generator", "cli", "main.js");
const TSC = join(ROOT, "node_modules", "typescript", "bin", "tsc");
const PEAK_RSS_PRELOAD = pathToFileURL(join(ROOT, "scripts", "bench", "report-peak-rss.mjs")).href;

/**
 * One size's measurements: seconds, and MiB for the typecheck's peak. A
 * typecheck that failed (tsc out of memory) leaves the typecheck and
 * start-up out and says why.
 */
interface SizeResult {
  readonly tools: number;
  readonly scaffold: number;
  readonly regenerate: number;
  readonly typecheck?: number;
  readonly typecheckPeakMiB?: number;
  readonly startup?: number;
  readonly failed?: string;
}

/** Runs `args` with node in `cwd` to its end: seconds, and the peak RSS (MiB) the process reports. */
function runNode(
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): { seconds: number; peakMiB: number } {
  const rssFile = join(cwd, ".peak-rss");
  const started = now();
  const run = spawnSync(process.execPath, args, {
    cwd,
    env: {
      ...env,
      MCP_GEN_BENCH_RSS_FILE: rssFile,
      NODE_OPTIONS: `${env.NODE_OPTIONS ?? ""} --import ${PEAK_RSS_PRELOAD}`.trim(),
    },
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  const seconds = (now() - started) / 1e9;
  if (run.status !== 0)
    throw new Error(
      `bench tools: ${args.join(" ")} failed (exit ${run.status ?? run.signal}):\n${run.stdout}${run.stderr}`,
    );
  const peakMiB = Number(readFileSync(rssFile, "utf8")) / 1024;
  rmSync(rssFile, { force: true });
  return { seconds, peakMiB };
}

async function measureSize(tools: number, o: ToolsScaleOptions): Promise<SizeResult> {
  const work = mkdtempSync(join(tmpdir(), "mcp-gen-bench-tools-"));
  try {
    const env = {
      ...process.env,
      MCP_GEN_SCHEMA_DIR: o.schemaDir,
      MCP_GEN_CACHE_DIR: join(work, "cache"),
      MCP_GEN_OFFLINE: "1",
    };
    writeFileSync(join(work, "tools.json"), benchTools(tools));
    const scaffold = runNode([CLI, "server", "p", "--tools", "tools.json", "--quiet"], work, env);
    const project = join(work, "p");
    const regenerate = runNode([CLI, "generate", "--quiet"], project, env);
    linkNodeModules(project);
    const measured = { tools, scaffold: scaffold.seconds, regenerate: regenerate.seconds };
    let typecheck: { seconds: number; peakMiB: number };
    try {
      typecheck = runNode([TSC, "--noEmit", "-p", "."], project, env);
    } catch (error) {
      const heap = /heap out of memory/.test((error as Error).message);
      return { ...measured, failed: heap ? "tsc ran out of heap" : (error as Error).message };
    }
    buildProject(project);
    const startups: number[] = [];
    for (let round = 0; round < o.rounds; round++)
      startups.push(await firstToolList(["dist/index.js", "--stdio"], project, MODERN));
    return {
      ...measured,
      typecheck: typecheck.seconds,
      typecheckPeakMiB: typecheck.peakMiB,
      startup: median(startups) / 1000,
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const cell = (text: string, width: number) => text.padStart(width);

/** Measures every size, prints one table with each size against the first, and says whether the targets are met. */
export async function benchToolsScale(o: ToolsScaleOptions): Promise<boolean> {
  console.log("");
  console.log(
    `tools: a server project per size, through the CLI (start-up: median of ${o.rounds})`,
  );
  const results: SizeResult[] = [];
  for (const size of o.sizes) results.push(await measureSize(size, o));
  const base = results[0]!;
  const x = (value: number | undefined, of: number | undefined) =>
    value === undefined || of === undefined ? "–" : `${(value / of).toFixed(2)}x`;
  const fixed = (value: number | undefined, digits: number, scale = 1) =>
    value === undefined ? "–" : (value * scale).toFixed(digits);
  console.log(
    [
      cell("tools", 6),
      cell("scaffold s", 11),
      cell("regen s", 9),
      cell("typecheck s", 12),
      cell("vs first", 9),
      cell("peak MiB", 9),
      cell("start-up ms", 12),
      cell("vs first", 9),
    ].join(" "),
  );
  for (const r of results)
    console.log(
      [
        cell(r.tools.toLocaleString("en-US"), 6),
        cell(r.scaffold.toFixed(2), 11),
        cell(r.regenerate.toFixed(2), 9),
        cell(fixed(r.typecheck, 2), 12),
        cell(x(r.typecheck, base.typecheck), 9),
        cell(fixed(r.typecheckPeakMiB, 0), 9),
        cell(fixed(r.startup, 0, 1000), 12),
        cell(x(r.startup, base.startup), 9),
        ...(r.failed ? [`  ${r.failed}`] : []),
      ].join(" "),
    );
  const thousand = results.find((r) => r.tools === 1000);
  const within = (value: number | undefined, limit: number | undefined) =>
    value !== undefined && limit !== undefined && value <= limit;
  const checks: Array<[string, boolean]> = thousand
    ? [
        ["1,000 tools scaffold in at most 5 s", thousand.scaffold <= 5],
        ["1,000 tools regenerate in at most 5 s", thousand.regenerate <= 5],
        [
          "1,000 tools typecheck in at most 2x the first size",
          within(thousand.typecheck, base.typecheck && 2 * base.typecheck),
        ],
        ["1,000 tools typecheck under 600 MiB", within(thousand.typecheckPeakMiB, 599.99)],
        [
          "1,000 tools start in at most 1.5x the first size",
          within(thousand.startup, base.startup && 1.5 * base.startup),
        ],
      ]
    : [];
  for (const [what, ok] of checks) console.log(`  ${ok ? "met" : "NOT met"}: ${what}`);
  // The targets are the 1,000-tool project's: a run without that size meets none of them.
  if (!thousand) console.log("  not checked: the targets are for 1,000 tools (--tools=...,1000)");
  return thousand !== undefined && checks.every(([, ok]) => ok);
}
