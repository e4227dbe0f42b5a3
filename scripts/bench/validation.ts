/**
 * Benchmark 2: ns per message on a mix of the spec examples of one revision.
 *
 *   G: the generated validators (generated/<rev>/index.js), each resolved
 *      once per example as Z's zod schema is: parseMessage(value) for
 *      JSON-RPC messages (examples with both `jsonrpc` and `method`; it
 *      still finds the definition from `method` on every call, which Z is
 *      spared), the definition's guard is<Definition>(value) for everything
 *      else. Both get the parsed value, not text, so G measures validation
 *      only.
 *   N: the same with validate(definition, value) for the non-messages, which
 *      looks the definition up by name on every call (for reference).
 *   Z: the official SDK's zod schemas (@modelcontextprotocol/core):
 *      schema.safeParse(value).success, with the schema named for the
 *      example's definition in zod-mapping.json (same-name exports only).
 *   J: JSON.parse(text) of each example's own file text.
 *   B: with `baseline` (a folder holding another generation of
 *      generated/<rev>/, e.g. one made before a change to the emitter):
 *      G's calls on that folder's module, to see what a change costs,
 *      side by side in the same process and rounds.
 *
 * The mix is every example whose definition has a zod schema and that G, N
 * and Z accept. One process; after a calibrating warm-up, every round runs
 * G, N, Z and J (in the next of their orders), each for enough iterations
 * over the whole mix to take about `batchMs`. Every result is counted and
 * the counts are checked, so no call can be optimized away; each side gets
 * its own copy of the values, and the inputs are checked unchanged
 * afterwards.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { isDeepStrictEqual } from "node:util";
import * as zod from "@modelcontextprotocol/core";
import * as generated from "../../generated/2026-07-28/index.js";
import { parseMessage, validate, type DefinitionName } from "../../generated/2026-07-28/index.js";
import { median, now, printTable, REVISION, ROOT, ratios } from "../shared/common.js";

export interface ValidationOptions {
  rounds: number;
  batchMs: number;
  schemaDir: string;
  /** A folder holding another generation of generated/<rev>/ (its index.ts), timed as B. */
  baseline?: string;
}

interface SafeParser {
  safeParse(value: unknown): { success: boolean };
}

interface Case {
  name: string;
  text: string;
  via: "parseMessage" | "guard";
  gen: (value: unknown) => boolean;
  genValue: unknown;
  byName: (value: unknown) => boolean;
  byNameValue: unknown;
  zod: SafeParser;
  zodValue: unknown;
  base: (value: unknown) => boolean;
  baseValue: unknown;
}

/** What G calls, from a generated module: parseMessage and the is<Definition> guards. */
type GeneratedModule = Record<string, unknown> & {
  parseMessage: (value: unknown) => { ok: boolean };
};

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

function loadCases(schemaDir: string, baseline: GeneratedModule | undefined) {
  const root = join(schemaDir, REVISION, "examples");
  const zodExports = zod as unknown as Record<string, SafeParser | undefined>;
  // Definition → same-name zod export of @modelcontextprotocol/core ("none" when it has none).
  const map = JSON.parse(
    readFileSync(join(ROOT, "scripts", "bench", "zod-mapping.json"), "utf8"),
  ) as Record<string, string>;
  const cases: Case[] = [];
  const unmapped: string[] = [];
  const rejected: string[] = [];
  let total = 0;
  for (const def of readdirSync(root).sort()) {
    for (const file of readdirSync(join(root, def))
      .filter((f) => f.endsWith(".json"))
      .sort()) {
      total++;
      const name = `${def}/${file}`;
      const zodName = map[def];
      if (!zodName || zodName === "none") {
        unmapped.push(name);
        continue;
      }
      const schema = zodExports[zodName];
      if (!schema || typeof schema.safeParse !== "function")
        throw new Error(`bench: @modelcontextprotocol/core has no ${zodName} (mapping of ${def})`);
      const text = readFileSync(join(root, def, file), "utf8");
      const sample = JSON.parse(text) as unknown;
      const message = isObject(sample) && "jsonrpc" in sample && "method" in sample;
      const gen = message ? (v: unknown) => parseMessage(v).ok : guardOf(generated, def);
      const base = !baseline
        ? gen
        : message
          ? (v: unknown) => baseline.parseMessage(v).ok
          : guardOf(baseline, def);
      const byName = message ? gen : (v: unknown) => validate(def as DefinitionName, v).ok;
      const c: Case = {
        name,
        text,
        via: message ? "parseMessage" : "guard",
        gen,
        genValue: JSON.parse(text),
        byName,
        byNameValue: JSON.parse(text),
        zod: schema,
        zodValue: JSON.parse(text),
        base,
        baseValue: JSON.parse(text),
      };
      const g = gen(c.genValue);
      if (byName(c.byNameValue) !== g)
        throw new Error(`bench: is${def} and validate("${def}") disagree on ${name}`);
      if (base(c.baseValue) !== g)
        throw new Error(`bench: the baseline and the generated module disagree on ${name}`);
      const z = schema.safeParse(c.zodValue).success;
      if (g && z) cases.push(c);
      else
        rejected.push(
          `${name} (${[g ? "" : "mcp-gen rejects", z ? "" : "zod rejects"].filter(Boolean).join(", ")})`,
        );
    }
  }
  return { cases, total, unmapped, rejected };
}

/** The generated guard `is<Definition>` of a definition. */
function guardOf(module: object, def: string): (value: unknown) => boolean {
  const guard = (module as Record<string, unknown>)[`is${def}`];
  if (typeof guard !== "function") throw new Error(`bench: the generated module has no is${def}`);
  return guard as (value: unknown) => boolean;
}

// One loop function per contender, written out rather than shared: a shared
// loop would mix the contenders' call-site feedback in V8, so each would be
// timed through a call site the others made megamorphic.

function runGen(cases: readonly Case[], iters: number): number {
  let ok = 0;
  for (let i = 0; i < iters; i++) {
    for (let j = 0; j < cases.length; j++) {
      const c = cases[j]!;
      if (c.gen(c.genValue)) ok++;
    }
  }
  return ok;
}

function runByName(cases: readonly Case[], iters: number): number {
  let ok = 0;
  for (let i = 0; i < iters; i++) {
    for (let j = 0; j < cases.length; j++) {
      const c = cases[j]!;
      if (c.byName(c.byNameValue)) ok++;
    }
  }
  return ok;
}

function runBase(cases: readonly Case[], iters: number): number {
  let ok = 0;
  for (let i = 0; i < iters; i++) {
    for (let j = 0; j < cases.length; j++) {
      const c = cases[j]!;
      if (c.base(c.baseValue)) ok++;
    }
  }
  return ok;
}

function runZod(cases: readonly Case[], iters: number): number {
  let ok = 0;
  for (let i = 0; i < iters; i++) {
    for (let j = 0; j < cases.length; j++) {
      const c = cases[j]!;
      if (c.zod.safeParse(c.zodValue).success) ok++;
    }
  }
  return ok;
}

function runJson(cases: readonly Case[], iters: number): number {
  let ok = 0;
  for (let i = 0; i < iters; i++) {
    for (let j = 0; j < cases.length; j++) {
      if (JSON.parse(cases[j]!.text) !== undefined) ok++;
    }
  }
  return ok;
}

/** The harness alone: one indirect call per message that does nothing useful. */
function runNoop(cases: readonly Case[], iters: number): number {
  let ok = 0;
  const noop = (v: unknown) => v !== undefined;
  for (let i = 0; i < iters; i++) {
    for (let j = 0; j < cases.length; j++) {
      if (noop(cases[j]!.genValue)) ok++;
    }
  }
  return ok;
}

/**
 * The orders the measured contenders run in, round after round: a
 * Williams design, in which each contender runs right after each other
 * one equally often (for an odd count, each row is followed by its
 * reverse), so that none always follows the same one (and its garbage).
 * For four: 0132, 1203, 2310, 3021.
 */
function runOrders(n: number): number[][] {
  const first = Array.from({ length: n }, (_, k) => (k % 2 === 1 ? (k + 1) / 2 : (n - k / 2) % n));
  const rows = Array.from({ length: n }, (_, r) => first.map((x) => (x + r) % n));
  return n % 2 === 0 ? rows : rows.flatMap((row) => [row, [...row].reverse()]);
}

interface Contender {
  key: "G" | "N" | "Z" | "J" | "H" | "B";
  run: (cases: readonly Case[], iters: number) => number;
  iters: number;
  ns: number[];
}

/** ns per message of one batch; throws unless every message was accepted. */
function batch(c: Contender, cases: readonly Case[], iters: number): number {
  const t0 = now();
  const ok = c.run(cases, iters);
  const t1 = now();
  if (ok !== iters * cases.length)
    throw new Error(`bench: ${c.key} accepted ${ok} of ${iters * cases.length} messages`);
  return (t1 - t0) / (iters * cases.length);
}

/** Warms a contender up for about `ms` and returns iterations per batch of about `batchMs`. */
function calibrate(c: Contender, cases: readonly Case[], ms: number, batchMs: number): number {
  let iters = 1;
  let spent = 0;
  let ns = 0;
  while (spent < ms * 1e6) {
    const t0 = now();
    ns = batch(c, cases, iters);
    spent += now() - t0;
    if (ns * iters * cases.length < 20e6) iters *= 2;
  }
  return Math.max(1, Math.round((batchMs * 1e6) / (ns * cases.length)));
}

export async function benchValidation(o: ValidationOptions): Promise<boolean> {
  const baseline = o.baseline === undefined ? undefined : await loadBaseline(o.baseline);
  const { cases, total, unmapped, rejected } = loadCases(o.schemaDir, baseline);
  if (cases.length === 0) throw new Error("bench: no example is accepted by both sides");
  const viaMessage = cases.filter((c) => c.via === "parseMessage").length;
  const bytes = cases.reduce((n, c) => n + Buffer.byteLength(c.text), 0);

  const contenders: Contender[] = [
    { key: "H", run: runNoop, iters: 0, ns: [] },
    { key: "G", run: runGen, iters: 0, ns: [] },
    { key: "N", run: runByName, iters: 0, ns: [] },
    { key: "Z", run: runZod, iters: 0, ns: [] },
    { key: "J", run: runJson, iters: 0, ns: [] },
    ...(baseline ? [{ key: "B" as const, run: runBase, iters: 0, ns: [] }] : []),
  ];
  process.stdout.write(`\n[2/3] validation: warm-up + ${o.rounds} rounds `);
  for (const c of contenders) c.iters = calibrate(c, cases, 1000, o.batchMs);
  const [harness, ...measured] = contenders;
  const orders = runOrders(measured.length);
  for (let r = 0; r < o.rounds; r++) {
    // H first (it allocates nothing), then the others in the next of their orders.
    for (const c of [harness!, ...orders[r % orders.length]!.map((i) => measured[i]!)]) {
      c.ns.push(batch(c, cases, c.iters));
    }
    process.stdout.write(".");
  }
  process.stdout.write("\n");

  for (const c of cases) {
    if (
      !isDeepStrictEqual(c.genValue, JSON.parse(c.text)) ||
      !isDeepStrictEqual(c.byNameValue, JSON.parse(c.text)) ||
      !isDeepStrictEqual(c.baseValue, JSON.parse(c.text))
    )
      throw new Error(`bench: the generated validator changed its input ${c.name}`);
  }
  const zodMutated = cases.filter((c) => !isDeepStrictEqual(c.zodValue, JSON.parse(c.text))).length;

  const [h, g, n, z, j, b] = contenders.map((c) => c.ns) as [
    number[],
    number[],
    number[],
    number[],
    number[],
    number[] | undefined,
  ];
  const iters = contenders.map((c) => `${c.key} ${c.iters}`).join(", ");
  return printTable({
    title: `2. Validation of ${REVISION} spec examples: ns per message (one process, interleaved)`,
    unit: "ns per message",
    digits: 0,
    series: [
      { label: "G  mcp-gen generated (parseMessage / is<Definition>)", values: g },
      { label: "N  the same, validate(name, value) for non-messages", values: n },
      { label: "Z  @modelcontextprotocol/core zod safeParse", values: z },
      { label: "J  JSON.parse(text)", values: j },
      { label: "H  harness only (no-op call, for reference)", values: h },
      ...(b ? [{ label: `B  G on the baseline ${o.baseline}`, values: b }] : []),
    ],
    ratios: [
      {
        label: "Z / G  (how many times faster than zod)",
        values: ratios(z, g),
        target: ">= 10x",
        met: (m) => m >= 10,
      },
      {
        label: "G / J  (cost relative to JSON.parse)",
        values: ratios(g, j),
        target: "<= 0.1x",
        met: (m) => m <= 0.1,
      },
      { label: "N / J  (validate by name, for reference)", values: ratios(n, j) },
      ...(b ? [{ label: "G / B  (cost relative to the baseline)", values: ratios(g, b) }] : []),
    ],
    notes: [
      `mix: ${cases.length} examples accepted by both sides, of ${total} examples (${total - unmapped.length} have a same-name zod schema, ${unmapped.length} have none)`,
      `     ${viaMessage} JSON-RPC messages through parseMessage(value), ${cases.length - viaMessage} through is<Definition>(value) (G) or validate(definition, value) (N); ${Math.round(bytes / cases.length)} bytes of JSON text on average`,
      ...rejected.map((r) => `     left out: ${r}`),
      `iterations over the whole mix per batch: ${iters}; each round runs H, then ${measured.map((c) => c.key).join(", ")} in the next of their ${orders.length} orders`,
      `median harness overhead ${median(h).toFixed(1)} ns/message is included in G, N, Z and J alike (not subtracted)`,
      ...(zodMutated > 0
        ? [`zod changed ${zodMutated} of its own input copies while parsing`]
        : []),
    ],
  });
}

/** The baseline's generated module: `<folder>/index.ts` (or index.js), loaded as G's is. */
async function loadBaseline(folder: string): Promise<GeneratedModule> {
  const index = readdirSync(folder).find((f) => f === "index.ts" || f === "index.js");
  if (index === undefined)
    throw new Error(`bench: --baseline ${folder} holds no index.ts or index.js of a generation`);
  const module = (await import(pathToFileURL(resolve(folder, index)).href)) as GeneratedModule;
  if (typeof module.parseMessage !== "function")
    throw new Error(`bench: --baseline ${folder}: its index exports no parseMessage`);
  return module;
}
