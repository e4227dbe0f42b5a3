/**
 * Benchmark 3: cold start of validation in a fresh node process.
 *
 *   A: import dist/generated/<rev>/index.js (the compiled generated module,
 *      whose ajv code was compiled at generation time) and call one guard.
 *   B: import ajv, read the validator schema of every definition from a JSON
 *      file, `new Ajv(options)` with the options and keywords of
 *      generator/emit/ajv-setup.ts, addSchema + getSchema (compile) every
 *      one of them, and call the same definition's validator.
 *
 * The schemas for B are computed once, before timing, with the generator's
 * own library code (generate() → compiledSchemas(model)), so they are
 * exactly what A's code was compiled from.
 *
 * Each child measures itself with process.hrtime from just before its first
 * import to just after the call (reading the example value happens before);
 * the parent also measures the whole process, spawn to exit, which adds
 * Node's own start-up to both sides. One warm-up run of each, then
 * alternating rounds (AB, BA, ...).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { generate } from "../../generator/index.js";
import { uses2020Keywords } from "../../generator/shared/json-schema-dialects.js";
import { compiledSchemas } from "../../generator/emit/emit-validators.js";
import { now, printTable, REVISION, ROOT, ratios } from "../shared/common.js";

export interface ColdImportOptions {
  rounds: number;
  schemaDir: string;
}

/** The definition whose validator both sides call, and its example. */
const DEFINITION = "CallToolRequest";
const EXAMPLE = "CallToolRequest/call-tool-request.json";

interface ChildResult {
  ok: boolean;
  loadNs: number;
  callNs: number;
  totalNs: number;
  compileNs?: number;
}

function runChild(script: string, args: string[]): { wallMs: number; child: ChildResult } {
  const t0 = now();
  const res = spawnSync(process.execPath, [join(ROOT, "scripts", "bench", script), ...args], {
    cwd: ROOT,
    encoding: "utf8",
  });
  const t1 = now();
  if (res.status !== 0)
    throw new Error(`bench: ${script} failed (exit ${res.status ?? res.signal}):\n${res.stderr}`);
  const child = JSON.parse(res.stdout.trim()) as ChildResult;
  if (child.ok !== true)
    throw new Error(`bench: ${script}: the ${DEFINITION} validator rejected ${EXAMPLE}`);
  return { wallMs: (t1 - t0) / 1e6, child };
}

export async function benchColdImport(o: ColdImportOptions): Promise<boolean> {
  process.stdout.write(`\n[3/3] cold import: computing validator schemas ...`);
  const tmp = mkdtempSync(join(tmpdir(), "mcp-gen-bench-"));
  try {
    const { model } = await generate({
      spec: REVISION,
      out: join(tmp, "unused"),
      stampVersion: false,
    });
    const schemas = compiledSchemas(model);
    const ajv2020 = schemas.some(uses2020Keywords);
    const schemasFile = join(tmp, "validator-schemas.json");
    writeFileSync(schemasFile, JSON.stringify({ ajv2020, schemas }));
    const example = join(o.schemaDir, REVISION, "examples", EXAMPLE);
    const moduleUrl = pathToFileURL(join(ROOT, "dist", "generated", REVISION, "index.js")).href;

    const a = () => runChild("cold-generated.mjs", [moduleUrl, example, `is${DEFINITION}`]);
    const setupUrl = pathToFileURL(join(ROOT, "dist", "generator", "emit", "ajv-setup.js")).href;
    const b = () => runChild("cold-ajv.mjs", [setupUrl, schemasFile, example, DEFINITION]);
    process.stdout.write(` warm-up + ${o.rounds} rounds `);
    a();
    b();
    const ra: ReturnType<typeof a>[] = [];
    const rb: ReturnType<typeof b>[] = [];
    for (let i = 0; i < o.rounds; i++) {
      if (i % 2 === 0) {
        ra.push(a());
        rb.push(b());
      } else {
        rb.push(b());
        ra.push(a());
      }
      process.stdout.write(".");
    }
    process.stdout.write("\n");

    const ms = (xs: number[]) => xs.map((x) => x / 1e6);
    const aIn = ms(ra.map((r) => r.child.totalNs));
    const bIn = ms(rb.map((r) => r.child.totalNs));
    const aWall = ra.map((r) => r.wallMs);
    const bWall = rb.map((r) => r.wallMs);
    return printTable({
      title: `3. Cold start: import the generated ${REVISION} validators vs compile the same schemas with ajv at run time`,
      unit: "ms per fresh process",
      digits: 1,
      series: [
        { label: `A  import dist/generated/${REVISION}/index.js + is${DEFINITION}()`, values: aIn },
        { label: "     of which: import", values: ms(ra.map((r) => r.child.loadNs)) },
        { label: `B  ajv: load + compile ${schemas.length} schemas + call`, values: bIn },
        {
          label: "     of which: read schemas + import ajv",
          values: ms(rb.map((r) => r.child.loadNs)),
        },
        {
          label: "     of which: addSchema + getSchema (compile)",
          values: ms(rb.map((r) => r.child.compileNs ?? NaN)),
        },
        { label: "A' whole process A (spawn to exit)", values: aWall },
        { label: "B' whole process B (spawn to exit)", values: bWall },
      ],
      ratios: [
        { label: "B / A  (inside the process)", values: ratios(bIn, aIn) },
        { label: "A / B  (inside the process)", values: ratios(aIn, bIn) },
        { label: "B' / A' (whole process)", values: ratios(bWall, aWall) },
      ],
      notes: [
        `ajv: ${ajv2020 ? "Ajv2020" : "Ajv (draft-07 engine)"}, the engine and options the generator compiles with; ${schemas.length} definitions, one schema each ($id = name)`,
        `validator called on both sides: ${DEFINITION} on examples/${EXAMPLE}`,
        "No target is set for this benchmark.",
      ],
    });
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
