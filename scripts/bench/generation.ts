/**
 * Benchmark 1: full generation of one revision, whole process, against
 * json-schema-to-typescript alone on the same schema.json.
 *
 *   A: node dist/generator/cli/main.js generate --spec <rev> --out <fresh tmp dir> --quiet
 *   B: node node_modules/json-schema-to-typescript/dist/src/cli.js -i <schema.json> -o <tmp file> --unreachableDefinitions
 *      (what node_modules/.bin/json2ts runs, started with the same node binary)
 *
 * Wall time from spawn to exit (process.hrtime around spawnSync), one
 * warm-up run of each, then rounds that run A then B, or B then A, in turn.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { now, printTable, REVISION, ROOT, ratios } from "../shared/common.js";

export interface GenerationOptions {
  rounds: number;
  schemaDir: string;
}

/** One contender: a node process started in a fresh temporary folder. */
export interface Run {
  label: string;
  run: (tmp: string) => { command: string; args: string[] };
  env?: NodeJS.ProcessEnv;
}

/** The orders A and B run in, round after round. */
export const ORDERS = [
  [0, 1],
  [1, 0],
] as const;

const PEAK_RSS_PRELOAD = pathToFileURL(join(ROOT, "scripts", "bench", "report-peak-rss.mjs")).href;

/**
 * Runs `r` once, to its end, in a fresh temporary folder (with an empty
 * compiled-code cache of its own): its wall time
 * and, with `peakRss`, the peak RSS the process reports of itself through
 * the report-peak-rss.mjs preload (Node does not give a parent its
 * child's resource usage).
 */
export function timeOnce(
  r: Run,
  baseEnv: NodeJS.ProcessEnv,
  peakRss = false,
): { ms: number; peakRssMiB?: number } {
  const tmp = mkdtempSync(join(tmpdir(), "mcp-gen-bench-"));
  const rssFile = join(tmp, "peak-rss");
  // An empty cache folder per run: mcp-gen keeps compiled validators between runs, which would time a lookup.
  const env: NodeJS.ProcessEnv = { ...baseEnv, MCP_GEN_CACHE_DIR: join(tmp, "cache"), ...r.env };
  if (peakRss) {
    env.MCP_GEN_BENCH_RSS_FILE = rssFile;
    env.NODE_OPTIONS = `${env.NODE_OPTIONS ?? ""} --import ${PEAK_RSS_PRELOAD}`.trim();
  }
  try {
    const { command, args } = r.run(tmp);
    const t0 = now();
    const res = spawnSync(command, args, {
      cwd: ROOT,
      env,
      stdio: ["ignore", "ignore", "pipe"],
      encoding: "utf8",
    });
    const t1 = now();
    if (res.status !== 0)
      throw new Error(
        `bench: ${r.label} failed (exit ${res.status ?? res.signal}):\n${res.stderr}`,
      );
    const ms = (t1 - t0) / 1e6;
    return peakRss ? { ms, peakRssMiB: Number(readFileSync(rssFile, "utf8")) / 1024 } : { ms };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

export function benchGeneration(o: GenerationOptions): boolean {
  const schemaJson = join(o.schemaDir, REVISION, "schema.json");
  const json2ts = realpathSync(join(ROOT, "node_modules", ".bin", "json2ts"));
  // Offline so that a missing schema fails instead of timing a download.
  const env = { ...process.env, MCP_GEN_SCHEMA_DIR: o.schemaDir, MCP_GEN_OFFLINE: "1" };
  const mcpGen: Run = {
    label: "mcp-gen generate",
    run: (tmp) => ({
      command: process.execPath,
      args: [
        join(ROOT, "dist", "generator", "cli", "main.js"),
        "generate",
        "--spec",
        REVISION,
        "--out",
        join(tmp, "out"),
        "--quiet",
      ],
    }),
  };
  const j2t: Run = {
    label: "json2ts",
    run: (tmp) => ({
      command: process.execPath,
      args: [json2ts, "-i", schemaJson, "-o", join(tmp, "schema.d.ts"), "--unreachableDefinitions"],
    }),
  };

  process.stdout.write(`\n[1/3] generation: warm-up + ${o.rounds} rounds `);
  const contenders = [mcpGen, j2t];
  for (const c of contenders) timeOnce(c, env);
  const a: number[] = [];
  const b: number[] = [];
  const times = [a, b];
  for (let i = 0; i < o.rounds; i++) {
    for (const k of ORDERS[i % ORDERS.length]!) times[k]!.push(timeOnce(contenders[k]!, env).ms);
    process.stdout.write(".");
  }
  process.stdout.write("\n");

  return printTable({
    title: `1. Full generation of ${REVISION} vs json-schema-to-typescript alone (whole process, wall time)`,
    unit: "ms per run",
    digits: 0,
    series: [
      { label: `A  mcp-gen generate --spec ${REVISION} --quiet`, values: a },
      { label: "B  json2ts -i schema.json --unreachableDefinitions", values: b },
    ],
    ratios: [{ label: "A / B", values: ratios(a, b), target: "<= 2.0x", met: (m) => m <= 2.0 }],
    notes: [
      `schema.json: ${schemaJson}`,
      "Each run writes into a fresh temporary folder; one warm-up run of each first; rounds run A then B and B then A in turn",
    ],
  });
}
