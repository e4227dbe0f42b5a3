/**
 * `npm run bench:python`: mcp-gen's Python output against the two anchors
 * the Python world has, side by side in one run. It prints numbers and
 * passes or fails nothing.
 *
 * 1. Generation: wall time of `mcp-gen generate --target python` (the built
 *    CLI) and of datamodel-code-generator on the same 2026-07-28
 *    schema.json, each a child process, in alternating rounds.
 * 2. Exactness: the 2026-07-28 examples and their mutations (the corpus of
 *    the differential test), validated by each side's model of the
 *    example's definition; the TypeScript validators' verdict is the
 *    reference. Counted: examples refused, negatives accepted, definitions
 *    with any wrong verdict, definitions without a model of that name.
 *    Sides: mcp-gen (generated-python/2026-07-28), datamodel-code-generator's
 *    models.py, and the official SDK's wire types (mcp-types, the package
 *    `mcp.types` is made of; its 2026-07-28 module).
 * 3. Validation speed: ns per message on the mix of scripts/bench/validation.ts
 *    (every example whose definition both sides have and both accept):
 *    parse_message for JSON-RPC messages, the definition's model otherwise,
 *    against mcp-types' model of the same definition. Target: mcp-gen within
 *    1.5x of mcp-types, or faster.
 *
 * Needs .venv (npm run setup:python) and datamodel-code-generator: the
 * command in DATAMODEL_CODEGEN, else .venv-bench/bin/datamodel-codegen or
 * .venv/bin/datamodel-codegen (pip install datamodel-code-generator); without
 * it, that anchor is left out and the script says so.
 *
 * Usage: npm run bench:python [-- --rounds=N] [--batch-ms=N]
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as mcp from "../../generated/2026-07-28/index.js";
import type { JsonValue } from "../../generator/shared/json-value.js";
import { mutations } from "../../test/helpers/mutations.js";
import {
  ensureBuilt,
  machine,
  median,
  printMachine,
  REVISION,
  ROOT,
  schemaDir,
} from "../shared/common.js";
import { readdirSync, readFileSync } from "node:fs";

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const arg = args.find((a) => a.startsWith(`--${name}=`));
  return arg ? Number(arg.slice(name.length + 3)) : fallback;
};
const rounds = option("rounds", 5);
const batchMs = option("batch-ms", 300);
const PYTHON = join(ROOT, ".venv", "bin", "python");
const ANCHORS = join(ROOT, "scripts", "bench", "python-anchors.py");
const PACKAGE = `${join(ROOT, "generated-python", REVISION)}:mcp_gen_${REVISION.replace(/-/g, "_")}`;

interface Case {
  readonly definition: string;
  readonly value: JsonValue;
  readonly example: boolean;
}

function corpus(dir: string): Case[] {
  const root = join(dir, REVISION, "examples");
  const cases: Case[] = [];
  for (const definition of readdirSync(root).sort())
    for (const file of readdirSync(join(root, definition))
      .filter((f) => f.endsWith(".json"))
      .sort()) {
      const value = JSON.parse(readFileSync(join(root, definition, file), "utf8")) as JsonValue;
      cases.push({ definition, value, example: true });
      for (const m of mutations(value)) cases.push({ definition, value: m, example: false });
    }
  return cases;
}

function dmcgCommand(): string | undefined {
  const candidates = [
    process.env.DATAMODEL_CODEGEN,
    join(ROOT, ".venv-bench", "bin", "datamodel-codegen"),
    join(ROOT, ".venv", "bin", "datamodel-codegen"),
  ];
  return candidates.find((c): c is string => c !== undefined && existsSync(c));
}

function timeMs(command: string, commandArgs: readonly string[], env: NodeJS.ProcessEnv): number {
  const start = process.hrtime.bigint();
  const run = spawnSync(command, commandArgs, { env, encoding: "utf8", timeout: 600_000 });
  if (run.status !== 0) throw new Error(`${command} failed: ${run.stderr.slice(0, 2000)}`);
  return Number(process.hrtime.bigint() - start) / 1e6;
}

function verdicts(side: string, where: string, cases: readonly Case[]): string[] {
  const input =
    cases.map((c) => JSON.stringify({ definition: c.definition, value: c.value })).join("\n") +
    "\n";
  const python = side === "dmcg" ? join(dmcgCommand()!, "..", "python") : PYTHON;
  const out = execFileSync(python, [ANCHORS, "verdicts", side, where], {
    input,
    maxBuffer: 1 << 28,
  });
  return out.toString().split("\n").slice(0, cases.length);
}

interface Exactness {
  examplesRefused: number;
  negativesAccepted: number;
  definitionsWrong: number;
  definitionsMissing: number;
}

function exactness(
  cases: readonly Case[],
  reference: readonly boolean[],
  verdict: readonly string[],
): Exactness {
  const wrong = new Set<string>();
  const missing = new Set<string>();
  let examplesRefused = 0;
  let negativesAccepted = 0;
  cases.forEach((c, i) => {
    if (verdict[i] === "-") return void missing.add(c.definition);
    const accepts = verdict[i] === "1";
    if (accepts === reference[i]) return;
    wrong.add(c.definition);
    if (c.example && reference[i]) examplesRefused++;
    if (!reference[i] && accepts) negativesAccepted++;
  });
  return {
    examplesRefused,
    negativesAccepted,
    definitionsWrong: wrong.size,
    definitionsMissing: missing.size,
  };
}

const dir = schemaDir();
ensureBuilt();
console.log("mcp-gen Python benchmarks");
printMachine(machine());
const cases = corpus(dir);
const reference = cases.map((c) => mcp.validate(c.definition as mcp.DefinitionName, c.value).ok);
const definitions = new Set(cases.map((c) => c.definition)).size;
console.log(
  `  corpus: ${cases.filter((c) => c.example).length} examples of ${definitions} definitions, ${cases.length - cases.filter((c) => c.example).length} mutations (${reference.filter((r) => !r).length} refused by the TypeScript validators)`,
);

const work = mkdtempSync(join(tmpdir(), "mcp-gen-bench-python-"));
try {
  const dmcg = dmcgCommand();
  const schema = join(dir, REVISION, "schema.json");
  const env = { ...process.env, MCP_GEN_SCHEMA_DIR: dir };
  const cli = join(ROOT, "dist", "generator", "cli", "main.js");
  const ours: number[] = [];
  const theirs: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const mine = () =>
      ours.push(
        timeMs(
          process.execPath,
          [
            cli,
            "generate",
            "--spec",
            REVISION,
            "--target",
            "python",
            "--out",
            join(work, "mcp-gen"),
            "--force",
            "--quiet",
          ],
          env,
        ),
      );
    const other = () =>
      dmcg &&
      theirs.push(
        timeMs(
          dmcg,
          [
            "--input",
            schema,
            "--input-file-type",
            "jsonschema",
            "--output-model-type",
            "pydantic_v2.BaseModel",
            "--formatters",
            "black",
            "isort",
            "--output",
            join(work, "dmcg.py"),
          ],
          env,
        ),
      );
    if (round % 2 === 0) {
      mine();
      other();
    } else {
      other();
      mine();
    }
  }
  console.log(
    "\n1. Generation of 2026-07-28 (wall time of one CLI run, median of",
    rounds,
    "rounds)",
  );
  console.log(`  mcp-gen --target python       ${median(ours).toFixed(0)} ms`);
  if (dmcg)
    console.log(
      `  datamodel-code-generator      ${median(theirs).toFixed(0)} ms   (mcp-gen / it: ${(median(ours) / median(theirs)).toFixed(2)}x)`,
    );
  else
    console.log(
      "  datamodel-code-generator      not installed (pip install datamodel-code-generator, or set DATAMODEL_CODEGEN)",
    );

  console.log(`\n2. Exactness on the corpus (reference: the TypeScript validators)`);
  const sides: Array<[string, string, string]> = [
    ["mcp-gen", "mcp-gen", PACKAGE],
    ["mcp-types 2.3.0", "mcp-types", "-"],
  ];
  if (dmcg) sides.push(["datamodel-code-generator", "dmcg", join(work, "dmcg.py")]);
  console.log(
    "  side                        examples refused  negatives accepted  definitions wrong  without a model",
  );
  for (const [label, side, where] of sides) {
    const e = exactness(cases, reference, verdicts(side, where, cases));
    console.log(
      `  ${label.padEnd(28)}${String(e.examplesRefused).padStart(16)}${String(e.negativesAccepted).padStart(20)}${`${e.definitionsWrong} of ${definitions}`.padStart(19)}${String(e.definitionsMissing).padStart(17)}`,
    );
  }

  console.log(
    `\n3. Validation speed (ns per message, median of ${rounds} rounds of about ${batchMs} ms each)`,
  );
  const examples = cases.filter((c) => c.example);
  const ourVerdicts = verdicts("mcp-gen", PACKAGE, examples);
  const typesVerdicts = verdicts("mcp-types", "-", examples);
  const mix = examples.filter((_, i) => ourVerdicts[i] === "1" && typesVerdicts[i] === "1");
  const input =
    mix.map((c) => JSON.stringify({ definition: c.definition, value: c.value })).join("\n") + "\n";
  const speed = JSON.parse(
    execFileSync(PYTHON, [ANCHORS, "speed", PACKAGE, String(rounds), String(batchMs)], {
      input,
      maxBuffer: 1 << 26,
    }).toString(),
  ) as { messages: number; G: number[]; T: number[]; medianRatio: number };
  console.log(
    `  mix: ${speed.messages} examples (both sides have the definition and accept the example)`,
  );
  console.log(`  mcp-gen       ${median(speed.G).toFixed(0)} ns/message`);
  console.log(`  mcp-types     ${median(speed.T).toFixed(0)} ns/message`);
  console.log(
    `  mcp-gen / mcp-types: ${speed.medianRatio.toFixed(2)}x (median of per-round ratios; target <= 1.5x)`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
