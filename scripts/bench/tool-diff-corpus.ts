/**
 * `npm run corpus:tool-diff`: the figures of `mcp-gen diff --tools` on the
 * corpus of tool-list histories (test/fixtures/tool-histories/, whose
 * steps.json says what a person expects of each step) and on the
 * single-step fixture (test/fixtures/tool-diff/). test/diff/ checks the
 * same expectations; this prints how far they hold and what the
 * counterexample search adds:
 *
 * - changes classified as expected, and gates right (each step under each
 *   `--fail-on`, plus the broken lists refused);
 * - how often subsumption alone cannot decide a party of a schema change,
 *   how many of those the search decides with a counterexample, and how
 *   many it gives up on (left "possibly breaking");
 * - how many breaking parties of schema changes carry a counterexample;
 * - the time of a diff with and without the search (CPU, in this process).
 *
 * It passes or fails nothing.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import {
  diffToolSources,
  failingChanges,
  FAIL_ON,
  type ToolChange,
  type ToolDiff,
} from "../../generator/diff/index.js";
import { McpGenError } from "../../generator/diagnostics.js";

const ROOT = join(import.meta.dirname, "..", "..");
const HISTORIES = join(ROOT, "test", "fixtures", "tool-histories");

interface Expected {
  tool: string;
  kind: string;
  schema?: string;
  path?: string;
  detail?: string;
  class?: string;
  breaking: string[];
  possiblyBreaking: string[];
}
interface Step {
  from: string;
  to: string;
  changes?: Expected[];
  error?: { side: string; code: string; pointer: string };
}

const key = (c: Expected | ToolChange) =>
  JSON.stringify([c.tool, c.kind, c.schema, c.path, c.detail, c.breaking, c.possiblyBreaking]);

const steps = readdirSync(HISTORIES).flatMap((server) =>
  (
    JSON.parse(readFileSync(join(HISTORIES, server, "steps.json"), "utf8")) as { steps: Step[] }
  ).steps.map((s) => ({
    ...s,
    from: join(HISTORIES, server, s.from),
    to: join(HISTORIES, server, s.to),
  })),
);
const single = join(ROOT, "test", "fixtures", "tool-diff");
const pairs = [
  ...steps,
  {
    from: join(single, "old.json"),
    to: join(single, "new.tools-list.json"),
    changes: JSON.parse(readFileSync(join(single, "expected.json"), "utf8")) as Expected[],
  },
];

let expectedChanges = 0;
let rightChanges = 0;
let gates = 0;
let rightGates = 0;
let refused = 0;
let refusedRight = 0;
let undecided = 0;
let decidedBySearch = 0;
let givenUp = 0;
let breakingParties = 0;
let shown = 0;
let withSearch = 0;
let withoutSearch = 0;
const gaveUpOn: string[] = [];

for (const step of pairs) {
  if ("error" in step && step.error) {
    refused++;
    const error = await diffToolSources(step.from, step.to).catch((e: unknown) => e);
    const d = error instanceof McpGenError ? error.diagnostics[0] : undefined;
    if (d?.code === step.error.code && d.location?.pointer === step.error.pointer) refusedRight++;
    continue;
  }
  const expected = step.changes!;
  const [searched, searchMs] = await timed(() => diffToolSources(step.from, step.to));
  const [plain, plainMs] = await timed(() =>
    diffToolSources(step.from, step.to, { counterexamples: false }),
  );
  withSearch += searchMs;
  withoutSearch += plainMs;
  expectedChanges += expected.length;
  const got = new Set(searched.changes.map(key));
  rightChanges += expected.filter((e) => got.has(key(e))).length;
  for (const gate of FAIL_ON) {
    gates++;
    const wanted =
      gate === "any"
        ? expected.length > 0
        : gate === "documentation"
          ? expected.some((e) => /^(title|description)-changed$/.test(e.kind))
          : expected.some((e) =>
              [...e.breaking, ...e.possiblyBreaking].includes(
                gate === "breaking-for-clients" ? "clients" : "servers",
              ),
            );
    if (failingChanges(searched, gate).length > 0 === wanted) rightGates++;
  }
  countSearch(plain, searched);
}

/** Parties of schema changes: undecided without the search, and what the search made of them. */
function countSearch(plain: ToolDiff, searched: ToolDiff): void {
  const at = (c: ToolChange) => JSON.stringify([c.tool, c.kind, c.schema, c.path, c.detail]);
  const after = new Map(searched.changes.map((c) => [at(c), c]));
  for (const before of plain.changes) {
    if (before.schema === undefined) continue;
    const now = after.get(at(before))!;
    for (const party of before.possiblyBreaking) {
      undecided++;
      if (now.breaking.includes(party)) decidedBySearch++;
      else {
        givenUp++;
        gaveUpOn.push(`${now.tool}: ${now.summary} (${party})`);
      }
    }
  }
  for (const change of searched.changes) {
    // An outputSchema added or removed has no schema on one side: there is no value to show.
    if (change.schema === undefined || /^output-schema-/.test(change.kind)) continue;
    for (const party of change.breaking) {
      breakingParties++;
      if (change.counterexamples?.some((e) => e.party === party)) shown++;
    }
  }
}

async function timed<T>(run: () => Promise<T>): Promise<[T, number]> {
  const start = performance.now();
  const value = await run();
  return [value, performance.now() - start];
}

const percent = (a: number, b: number) => (b === 0 ? "-" : `${((100 * a) / b).toFixed(0)}%`);
const compared = pairs.length - refused;
console.log(
  `corpus: ${compared} compared steps (${steps.length - refused} from ${readdirSync(HISTORIES).length} histories, 1 single-step fixture), ${refused} broken lists`,
);
console.log(`changes classified as expected: ${rightChanges} of ${expectedChanges}`);
console.log(
  `gates right: ${rightGates} of ${gates} (${compared} steps x ${FAIL_ON.length} --fail-on values); broken lists refused at their pointer: ${refusedRight} of ${refused}`,
);
console.log(
  `parties of schema changes subsumption left undecided: ${undecided}; decided by a counterexample: ${decidedBySearch}; given up (still possibly breaking): ${givenUp} (give-up rate ${percent(givenUp, undecided)})`,
);
for (const line of gaveUpOn) console.log(`  given up: ${line}`);
console.log(
  `breaking parties of schema changes shown by a counterexample: ${shown} of ${breakingParties} (${percent(shown, breakingParties)})`,
);
console.log(
  `time of all ${compared} diffs: ${withSearch.toFixed(0)} ms with the search, ${withoutSearch.toFixed(0)} ms without`,
);
