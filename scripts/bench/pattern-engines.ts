/**
 * `npm run bench:patterns`: how long one check of a string against the
 * hostile `"pattern": "^(a+)+$"` takes with JavaScript's RegExp (what a tool
 * validator ran before) and with re2js (what a client's validators run,
 * generator/shared/linear-patterns.ts), for strings of `a`s ending in `!`
 * (never a match, the worst case for backtracking). Each RegExp check runs
 * in a child process killed after --limit seconds (default 150): a stalled
 * RegExp cannot be interrupted. Prints one line per length.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { RE2JS } from "re2js";

const PATTERN = "^(a+)+$";
const found = process.argv.find((a) => a.startsWith("--limit="));
const LIMIT_S = found ? Number(found.slice("--limit=".length)) : 150;
const LENGTHS = [20, 24, 26, 28, 29, 30, 31, 40, 1_000, 100_000];

/** Seconds one RegExp check of `text` took in a child process, or undefined past the limit. */
function nativeSeconds(length: number): number | undefined {
  const code = `const t = "a".repeat(${length}) + "!"; const r = new RegExp(${JSON.stringify(PATTERN)}, "u"); const s = process.hrtime.bigint(); r.test(t); process.stdout.write(String(Number(process.hrtime.bigint() - s) / 1e9));`;
  const run = spawnSync(process.execPath, ["-e", code], {
    encoding: "utf8",
    timeout: LIMIT_S * 1000,
  });
  return run.status === 0 ? Number(run.stdout) : undefined;
}

/** Seconds one re2js check of `text` took (compiled once, as a validator module does). */
function linearSeconds(length: number): number {
  const re = RE2JS.compile(RE2JS.translateRegExp(PATTERN));
  const text = `${"a".repeat(length)}!`;
  re.test("aa!"); // warm
  const started = process.hrtime.bigint();
  re.test(text);
  return Number(process.hrtime.bigint() - started) / 1e9;
}

const seconds = (s: number | undefined) =>
  s === undefined
    ? `> ${LIMIT_S} s (killed)`
    : s < 0.001
      ? `${(s * 1e6).toFixed(0)} µs`
      : `${s.toFixed(3)} s`;

console.log(
  `"${PATTERN}" against "a" × n + "!" (node ${process.version}, load ${execFileSync("cat", ["/proc/loadavg"], { encoding: "utf8" }).split(" ").slice(0, 3).join(" ")})`,
);
let nativeStalled = false;
for (const length of LENGTHS) {
  // Past the first length RegExp cannot finish, the longer ones cannot either.
  const native = nativeStalled ? undefined : nativeSeconds(length);
  if (native === undefined) nativeStalled = true;
  console.log(
    `  n = ${length}: RegExp ${seconds(native)}, re2js ${seconds(linearSeconds(length))}`,
  );
}
