// Child of benchmark 3 (A): a fresh node process imports the compiled
// generated module and calls one validator. Prints one JSON line.
// argv: <module file URL> <example.json> <guard export name>
import { readFileSync } from "node:fs";

const [moduleUrl, examplePath, guard] = process.argv.slice(2);
const value = JSON.parse(readFileSync(examplePath, "utf8"));

const t0 = process.hrtime.bigint();
const mod = await import(moduleUrl);
const t1 = process.hrtime.bigint();
const ok = mod[guard](value);
const t2 = process.hrtime.bigint();

process.stdout.write(
  JSON.stringify({
    ok,
    loadNs: Number(t1 - t0),
    callNs: Number(t2 - t1),
    totalNs: Number(t2 - t0),
  }) + "\n",
);
