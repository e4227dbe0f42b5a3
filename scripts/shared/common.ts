/**
 * Shared helpers of the benchmarks: where things are, statistics, the
 * machine description, and the tables every benchmark prints.
 *
 * Every comparison is a ratio of two measurements taken side by side in the
 * same run: A and B alternate, round after round, and the ratio is computed
 * per round (per pair) before taking the median, so slow drift of the machine
 * (thermal, other load) hits both sides alike.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { arch, availableParallelism, cpus, loadavg, platform, release, totalmem } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root (scripts/bench/ → ../..). */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** The revision every benchmark measures. */
export const REVISION = "2026-07-28";

/**
 * The upstream schema folder: MCP_GEN_SCHEMA_DIR when set, else
 * ../shared/mcp-schema next to the repository when it exists (the same
 * default as `npm run generate`). Sets MCP_GEN_SCHEMA_DIR so that the
 * generator, in this process and in children, reads the same files.
 */
export function schemaDir(): string {
  const fromEnv = process.env.MCP_GEN_SCHEMA_DIR;
  const shared = join(ROOT, "..", "shared", "mcp-schema");
  const dir = fromEnv ? resolve(fromEnv) : shared;
  if (!existsSync(join(dir, REVISION, "schema.json"))) {
    throw new Error(
      `bench: no ${REVISION}/schema.json under ${dir}. Set MCP_GEN_SCHEMA_DIR to a folder of <revision>/schema.json folders.`,
    );
  }
  process.env.MCP_GEN_SCHEMA_DIR = dir;
  return dir;
}

/** Newest modification time (ms) of the .ts files under `dir`. */
function newestTs(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestTs(path));
    else if (entry.name.endsWith(".ts")) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/**
 * Runs `npm run build` when the compiled generator or generated module is
 * missing or older than a source file (the generator, the generated
 * modules, the runtime), so that the benchmarks measure the code of this
 * checkout.
 */
export function ensureBuilt(): void {
  const needed = [
    join(ROOT, "dist", "generator", "cli", "main.js"),
    join(ROOT, "dist", "generated", REVISION, "index.js"),
  ];
  const missing = needed.some((f) => !existsSync(f));
  const stale =
    !missing &&
    Math.max(
      newestTs(join(ROOT, "generator")),
      newestTs(join(ROOT, "generated")),
      newestTs(join(ROOT, "templates", "runtime")),
    ) > Math.min(...needed.map((f) => statSync(f).mtimeMs));
  if (!missing && !stale) return;
  console.log(
    `dist/ is ${missing ? "missing" : "older than the sources"}: running npm run build ...`,
  );
  execFileSync("npm", ["run", "build"], { cwd: ROOT, stdio: "inherit" });
}

/**
 * Builds a scaffolded project as its `npm run build` does, with the
 * repository's TypeScript: tsc, then the project's copy of the generated
 * JavaScript tsc does not emit. Throws with the compiler's output.
 */
export function buildProject(project: string): void {
  const tsc = join(ROOT, "node_modules", "typescript", "bin", "tsc");
  execFileSync(process.execPath, [tsc, "-p", "."], { cwd: project, stdio: "pipe" });
  execFileSync(process.execPath, [join("scripts", "copy-generated.mjs")], {
    cwd: project,
    stdio: "pipe",
  });
}

// ---------------------------------------------------------------- statistics

export function median(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export const min = (xs: readonly number[]): number => Math.min(...xs);
export const max = (xs: readonly number[]): number => Math.max(...xs);

/** Per-pair ratios a[i] / b[i]. */
export function ratios(a: readonly number[], b: readonly number[]): number[] {
  if (a.length !== b.length) throw new Error("bench: ratio of series of different lengths");
  return a.map((x, i) => x / b[i]!);
}

// ---------------------------------------------------------------- timing

/** Nanoseconds since an arbitrary origin, as a number (exact below 2^53 ns ≈ 104 days). */
export const now = (): number => Number(process.hrtime.bigint());

// ---------------------------------------------------------------- machine

export interface Machine {
  cpu: string;
  cores: number;
  node: string;
  os: string;
  memory: string;
  commit: string;
  date: string;
  load: string;
}

export function machine(): Machine {
  let cpu = cpus()[0]?.model ?? "unknown";
  try {
    const info = readFileSync("/proc/cpuinfo", "utf8");
    const model = /^model name\s*:\s*(.+)$/m.exec(info)?.[1]?.trim();
    if (model) cpu = model;
  } catch {
    // not Linux: keep os.cpus()
  }
  let commit = "unknown";
  try {
    commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], {
      cwd: ROOT,
      encoding: "utf8",
    }).trim();
    const dirty = execFileSync("git", ["status", "--porcelain", "--untracked-files=no"], {
      cwd: ROOT,
      encoding: "utf8",
    }).trim();
    if (dirty) commit += " (with uncommitted changes)";
  } catch {
    // not a git checkout
  }
  return {
    cpu,
    cores: availableParallelism(),
    node: process.version,
    os: `${platform()} ${release()} ${arch()}`,
    memory: `${(totalmem() / 2 ** 30).toFixed(1)} GiB`,
    commit,
    date: new Date().toISOString().replace(/\.\d+Z$/, "Z"),
    load: loadavg()
      .map((x) => x.toFixed(2))
      .join(" "),
  };
}

export function printMachine(m: Machine): void {
  console.log("Machine");
  console.log(`  CPU:     ${m.cpu}`);
  console.log(`  cores:   ${m.cores}`);
  console.log(`  memory:  ${m.memory}`);
  console.log(`  OS:      ${m.os}`);
  console.log(`  Node:    ${m.node}`);
  console.log(`  commit:  ${m.commit}`);
  console.log(`  date:    ${m.date}`);
  console.log(`  load:    ${m.load} (1, 5, 15 min averages at start)`);
}

// ---------------------------------------------------------------- tables

export interface Series {
  label: string;
  /** One value per round, in `unit`. */
  values: number[];
}

export interface RatioSpec {
  label: string;
  /** Per-pair ratios. */
  values: number[];
  /** e.g. "<= 1.5x"; the check is done by `met`. */
  target?: string;
  met?: (medianRatio: number) => boolean;
}

export interface TableSpec {
  title: string;
  unit: string;
  /** Digits after the decimal point for values. */
  digits: number;
  series: Series[];
  ratios: RatioSpec[];
  notes?: string[];
}

function table(header: string[], rows: string[][], alignRight: boolean[]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const cell = (s: string, i: number) =>
    alignRight[i] ? s.padStart(widths[i]!) : s.padEnd(widths[i]!);
  const line = (r: string[]) => "  " + r.map(cell).join("  ").trimEnd();
  return [line(header), "  " + widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)];
}

const fmt = (x: number, digits: number) =>
  x.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** Prints one benchmark's table; returns whether every target with a check was met. */
export function printTable(spec: TableSpec): boolean {
  console.log("");
  console.log(spec.title);
  console.log("=".repeat(spec.title.length));
  const n = spec.series[0]?.values.length ?? 0;
  const rows = spec.series.map((s) => [
    s.label,
    fmt(median(s.values), spec.digits),
    fmt(min(s.values), spec.digits),
    fmt(max(s.values), spec.digits),
    String(s.values.length),
  ]);
  for (const l of table([`${spec.unit}`, "median", "min", "max", "rounds"], rows, [
    false,
    true,
    true,
    true,
    true,
  ]))
    console.log(l);
  console.log("");
  let allMet = true;
  const ratioRows = spec.ratios.map((r) => {
    const m = median(r.values);
    const met = r.met ? r.met(m) : undefined;
    if (met === false) allMet = false;
    return [
      r.label,
      `${fmt(m, 3)}x`,
      `${fmt(min(r.values), 3)}x`,
      `${fmt(max(r.values), 3)}x`,
      r.target ?? "-",
      met === undefined ? "-" : met ? "MET" : "NOT MET",
    ];
  });
  for (const l of table(
    ["ratio (per round)", "median", "min", "max", "target", "result"],
    ratioRows,
    [false, true, true, true, false, false],
  ))
    console.log(l);
  for (const note of spec.notes ?? []) console.log(`  ${note}`);
  if (n === 0) console.log("  (no rounds)");
  return allMet;
}

// ---------------------------------------------------------------- other load

export interface CpuSnapshot {
  /** ns since an arbitrary origin. */
  at: number;
  /** Busy clock ticks of the whole machine (all cores). */
  machineBusy: number;
  /** Clock ticks of this process and its waited-for children. */
  ours: number;
}

/** A snapshot of CPU use (Linux /proc; undefined elsewhere). */
export function cpuSnapshot(): CpuSnapshot | undefined {
  try {
    const cpu = readFileSync("/proc/stat", "utf8")
      .split("\n")[0]!
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number);
    // user nice system idle iowait irq softirq steal (guest time is already in user)
    const [user, nice, system, , , irq, softirq, steal] = cpu as [
      number,
      number,
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    const self = readFileSync("/proc/self/stat", "utf8");
    const fields = self
      .slice(self.lastIndexOf(")") + 2)
      .split(" ")
      .map(Number);
    // After "pid (comm) ": state is field 3, so utime (14) … cstime (17) are at indexes 11 … 14.
    const ours = fields[11]! + fields[12]! + fields[13]! + fields[14]!;
    return { at: now(), machineBusy: user + nice + system + irq + softirq + (steal ?? 0), ours };
  } catch {
    return undefined;
  }
}

/**
 * CPU that processes other than this benchmark (and its children) used
 * between two snapshots, as a percentage of one core on average.
 */
export function otherCpuPercent(
  a: CpuSnapshot | undefined,
  b: CpuSnapshot | undefined,
): number | undefined {
  if (!a || !b || b.at <= a.at) return undefined;
  const ticksPerSecond = 100; // USER_HZ on Linux
  const other = b.machineBusy - a.machineBusy - (b.ours - a.ours);
  return Math.max(0, (100 * other) / ticksPerSecond / ((b.at - a.at) / 1e9));
}
