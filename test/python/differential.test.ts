/**
 * The Python package and the TypeScript validators give the same verdict
 * on every input: the spec's 2026-07-28 examples, the negatives the
 * TypeScript tests reject (the example defects, every mutation of every
 * example: each member removed or replaced by a value of each JSON type or
 * of another MCP shape), and seeded random mutations of mutations. Each
 * definition is checked with `validate`, each JSON-RPC message also with
 * parse_message / parseMessage, in 2026-07-28 and in 2026-07-28 with Tasks.
 */
import { describe, expect, it } from "vitest";
import * as mcp from "../../generated/2026-07-28/index.js";
import * as tasks from "../../generated/2026-07-28+tasks/index.js";
import { isJsonObject, type JsonValue } from "../../generator/load/json.js";
import { examples } from "../helpers/index.js";
import { mutations, REPLACEMENTS } from "../helpers/mutations.js";
import { pythonAvailable, pythonTargets, runPython } from "../helpers/python.js";

interface Case {
  readonly definition: string;
  readonly value: JsonValue;
  readonly origin: string;
}

/** Every example, and every mutation of each (the corpus the TypeScript tests reject from). */
function corpus(): Case[] {
  const cases: Case[] = [];
  for (const e of examples()) {
    const origin = `${e.definition}/${e.file}`;
    cases.push({ definition: e.definition, value: e.value as JsonValue, origin });
    for (const value of mutations(e.value as JsonValue))
      cases.push({ definition: e.definition, value, origin: `${origin} (mutated)` });
  }
  return cases;
}

/** A small deterministic generator (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `value` with a few random nodes replaced, removed or duplicated under a new name. */
function fuzz(value: JsonValue, next: () => number, rounds: number): JsonValue {
  let out = value;
  for (let i = 0; i < rounds; i++) out = fuzzOnce(out, next, 0);
  return out;
}

function fuzzOnce(value: JsonValue, next: () => number, depth: number): JsonValue {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  if (Array.isArray(value) && value.length > 0 && next() < 0.7) {
    const i = Math.floor(next() * value.length);
    return value.map((v, j) => (j === i ? fuzzOnce(v, next, depth + 1) : v));
  }
  if (isJsonObject(value) && Object.keys(value).length > 0 && next() < 0.75) {
    const key = pick(Object.keys(value));
    const roll = next();
    if (roll < 0.15) {
      const { [key]: _removed, ...rest } = value;
      return rest;
    }
    if (roll < 0.25) return { ...value, [`${key}_extra`]: value[key]! };
    return { ...value, [key]: fuzzOnce(value[key]!, next, depth + 1) };
  }
  const numbers: JsonValue[] = [0, -1, 1.0000001, 2 ** 53, -32602, 1e20];
  return pick([...REPLACEMENTS, ...numbers, "", "complete", "input_required", "2.0"]);
}

const FUZZ_PER_EXAMPLE = 25;

function fuzzed(seed: number): Case[] {
  const next = random(seed);
  return examples().flatMap((e) =>
    Array.from({ length: FUZZ_PER_EXAMPLE }, () => ({
      definition: e.definition,
      value: fuzz(e.value as JsonValue, next, 1 + Math.floor(next() * 3)),
      origin: `${e.definition}/${e.file} (fuzzed, seed ${seed})`,
    })),
  );
}

type Verdicts = (cases: readonly Case[]) => boolean[];

const typescript: Record<string, { validate: Verdicts; parse: Verdicts }> = {
  "2026-07-28": {
    validate: (cases) =>
      cases.map((c) => mcp.validate(c.definition as mcp.DefinitionName, c.value).ok),
    parse: (cases) => cases.map((c) => mcp.parseMessage(c.value).ok),
  },
  "2026-07-28+tasks": {
    validate: (cases) =>
      cases.map((c) => tasks.validate(c.definition as tasks.DefinitionName, c.value).ok),
    parse: (cases) => cases.map((c) => tasks.parseMessage(c.value).ok),
  },
};

/** The Python package's verdicts, with the first problem of each refusal. */
async function python(folder: string, lines: readonly object[]): Promise<string[]> {
  const target = pythonTargets().find((t) => t.folder === folder)!;
  const run = await runPython(["test/python/verdicts.py", target.dir, target.module], {
    input: `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`,
  });
  expect(run.code, run.stderr).toBe(0);
  return run.stdout.split("\n").slice(0, lines.length);
}

function isMessage(value: JsonValue): boolean {
  return isJsonObject(value) && "jsonrpc" in value && "method" in value;
}

describe.skipIf(!pythonAvailable())("Python and TypeScript agree on every input", () => {
  const cases = [...corpus(), ...fuzzed(1), ...fuzzed(2)];

  it("has the examples, their mutations and the fuzzed inputs", () => {
    expect(cases.length).toBeGreaterThan(15_000);
  });

  it.each(Object.keys(typescript))("%s: validate", async (folder) => {
    const expected = typescript[folder]!.validate(cases);
    const actual = await python(
      folder,
      cases.map((c) => ({ definition: c.definition, value: c.value })),
    );
    const disagreements = cases
      .map((c, i) => ({ c, ts: expected[i], py: actual[i]! }))
      .filter(({ ts, py }) => ts !== py.startsWith("1"))
      .map(
        ({ c, ts, py }) =>
          `${c.origin}: TypeScript ${ts ? "accepts" : "refuses"}, Python ${py}; ${JSON.stringify(c.value).slice(0, 300)}`,
      );
    expect(disagreements.slice(0, 10)).toEqual([]);
    // Both sides refuse a good share: the corpus is no set of near-copies of the examples.
    expect(expected.filter((ok) => !ok).length).toBeGreaterThan(cases.length / 3);
  });

  it.each(Object.keys(typescript))("%s: parse_message on JSON-RPC messages", async (folder) => {
    const messages = cases.filter((c) => isMessage(c.value));
    const expected = typescript[folder]!.parse(messages);
    const actual = await python(
      folder,
      messages.map((c) => ({ message: c.value })),
    );
    const disagreements = messages
      .map((c, i) => ({ c, ts: expected[i], py: actual[i]! }))
      .filter(({ ts, py }) => ts !== py.startsWith("1"))
      .map(
        ({ c, ts, py }) =>
          `${c.origin}: TypeScript ${ts ? "accepts" : "refuses"}, Python ${py}; ${JSON.stringify(c.value).slice(0, 300)}`,
      );
    expect(messages.length).toBeGreaterThan(1000);
    expect(disagreements.slice(0, 10)).toEqual([]);
  });

  it("the negatives of the TypeScript tests are refused by Python too", async () => {
    const negatives = [
      {
        definition: "CallToolResultResponse",
        value: { jsonrpc: "2.0", id: 1, result: { resultType: "complete" } },
      },
      {
        definition: "CallToolResultResponse",
        value: { jsonrpc: "2.0", id: 1, result: { resultType: "anything" } },
      },
      { definition: "InputRequiredResult", value: { resultType: "input_required" } },
      {
        definition: "CallToolRequest",
        value: { jsonrpc: "2.0", id: true, method: "tools/call", params: { name: "x" } },
      },
      { definition: "RequestId", value: 1.5 },
      { definition: "Role", value: "system" },
    ];
    const defects = examples().filter(
      (e) =>
        `${e.definition}/${e.file}` ===
        "ReadResourceResultResponse/read-resource-result-response.json",
    );
    const all = [
      ...negatives,
      ...defects.map((e) => ({ definition: e.definition, value: e.value })),
    ];
    for (const c of all)
      expect(mcp.validate(c.definition as mcp.DefinitionName, c.value).ok).toBe(false);
    const verdicts = await python("2026-07-28", all);
    expect(verdicts.map((v) => v.charAt(0))).toEqual(all.map(() => "0"));
  });
});
