/**
 * The tool diff against histories of tool lists (test/fixtures/tool-histories/<server>/): three
 * servers of our own (an issue tracker, a file system, a weather service), each a series of
 * snapshots as a server publishes them (tools files, tools/list results, whole JSON-RPC
 * responses), and steps.json, which says for each step what a person expects: every change with
 * its class and the parties it breaks (with the reason in `why`), whether a counterexample must
 * show it, the version bump, or the error a broken list must give. Every gate follows from that.
 * scripts/tool-diff-corpus.ts prints the figures of the same corpus.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv } from "ajv";
import formatsPlugin from "ajv-formats";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import {
  diffToolSources,
  failingChanges,
  FAIL_ON,
  type ToolChange,
  type ToolDiff,
} from "../../generator/diff/index.js";
import { McpGenError } from "../../generator/diagnostics.js";
import { isJsonObject, parsePointer, type JsonValue } from "../../generator/load/json.js";
import { ROOT } from "../helpers/index.js";
import { runCli, tempDir } from "../helpers/run-cli.js";

const HISTORIES = join(ROOT, "test", "fixtures", "tool-histories");
const SERVER = join(ROOT, "test", "diff", "fixtures", "tools-server.mjs");
const addFormats = formatsPlugin as unknown as typeof formatsPlugin.default;

interface ExpectedChange {
  why: string;
  tool: string;
  kind: string;
  schema?: "input" | "output";
  path?: string;
  detail?: string;
  class: string;
  breaking: string[];
  possiblyBreaking: string[];
  counterexamples?: string[];
}

interface Step {
  from: string;
  to: string;
  why: string;
  bump?: string;
  changes?: ExpectedChange[];
  error?: { side: "from" | "to"; code: string; pointer: string };
}

const histories = readdirSync(HISTORIES).map((server) => ({
  server,
  steps: (
    JSON.parse(readFileSync(join(HISTORIES, server, "steps.json"), "utf8")) as { steps: Step[] }
  ).steps,
}));
const steps = histories.flatMap(({ server, steps }) =>
  steps.map((step) => ({
    ...step,
    label: `${server}: ${step.from} -> ${step.to} (${step.why})`,
    fromFile: join(HISTORIES, server, step.from),
    toFile: join(HISTORIES, server, step.to),
  })),
);
const compared = steps.filter((s) => !s.error);

/** The fields a classification is judged on. */
function classification(c: ToolChange | ExpectedChange) {
  return {
    tool: c.tool,
    kind: c.kind,
    schema: c.schema,
    path: c.path,
    detail: c.detail,
    class: c.class,
    breaking: c.breaking,
    possiblyBreaking: c.possiblyBreaking,
    counterexamples:
      "why" in c
        ? (c.counterexamples ?? [])
        : (c.counterexamples ?? []).map((example) => example.party),
  };
}

const diffs = new Map<string, Promise<ToolDiff>>();
function diffOf(step: (typeof steps)[number]): Promise<ToolDiff> {
  let diff = diffs.get(step.label);
  if (!diff) diffs.set(step.label, (diff = diffToolSources(step.fromFile, step.toFile)));
  return diff;
}

describe("the tool-history corpus", () => {
  it("has every kind of change, in 18 steps or more of three servers", () => {
    expect(compared.length).toBeGreaterThanOrEqual(18);
    const kinds = new Set(compared.flatMap((s) => s.changes!.map((c) => c.kind)));
    for (const kind of [
      "tool-added",
      "tool-removed",
      "tool-renamed",
      "title-changed",
      "description-changed",
      "property-added",
      "property-removed",
      "property-required",
      "property-optional",
      "enum-value-added",
      "enum-value-removed",
      "type-changed",
      "schema-changed",
      "additional-properties-changed",
      "output-schema-added",
      "output-schema-removed",
      "annotation-changed",
      "execution-changed",
      "other-changed",
    ])
      expect(kinds, kind).toContain(kind);
    expect(steps.some((s) => s.error)).toBe(true);
  });

  it.each(compared.map((s) => [s.label, s] as const))(
    "%s: every change classified as expected, with its counterexamples and the bump",
    async (_label, step) => {
      const diff = await diffOf(step);
      expect(diff.changes.map(classification)).toEqual(step.changes!.map(classification));
      expect(diff.suggestedBump.level).toBe(step.bump);
      const changedTools = new Set(step.changes!.map((c) => c.tool));
      expect(new Set(diff.changes.map((c) => c.tool))).toEqual(changedTools);
    },
  );

  it.each(compared.map((s) => [s.label, s] as const))(
    "%s: every gate fails exactly when a change of its sort is expected",
    async (_label, step) => {
      const diff = await diffOf(step);
      const expected = step.changes!;
      const wanted = {
        "breaking-for-clients": expected.some(
          (c) => c.breaking.includes("clients") || c.possiblyBreaking.includes("clients"),
        ),
        "breaking-for-servers": expected.some(
          (c) => c.breaking.includes("servers") || c.possiblyBreaking.includes("servers"),
        ),
        documentation: expected.some((c) => c.class === "documentation"),
        any: expected.length > 0,
      };
      for (const gate of FAIL_ON)
        expect(failingChanges(diff, gate).length > 0, gate).toBe(wanted[gate]);
    },
  );

  it("every counterexample is accepted by one side's schema and refused by the other's, by an ajv of its own", async () => {
    let checked = 0;
    for (const step of compared) {
      const diff = await diffOf(step);
      const before = toolsOf(step.fromFile);
      const after = toolsOf(step.toFile);
      for (const change of diff.changes)
        for (const example of change.counterexamples ?? []) {
          const [accepting, refusing] =
            example.acceptedBy === "old" ? [before, after] : [after, before];
          const where = exampleSchemaPath(change);
          expect(accepts(accepting, change, where, example.value), change.summary).toBe(true);
          expect(accepts(refusing, change, where, example.value), change.summary).toBe(false);
          checked++;
        }
    }
    expect(checked).toBeGreaterThan(30);
  });

  it('shows "" for string -> anyOf[string minLength 1, null], and the lost value of an enum narrowed in a oneOf branch', async () => {
    const query = (await diffOf(stepOf("tracker", "v5.json"))).changes.find(
      (c) => c.tool === "search_issues" && c.path === "/properties/query",
    )!;
    expect(query.counterexamples).toEqual([
      { party: "clients", acceptedBy: "old", value: "" },
      { party: "servers", acceptedBy: "new", value: null },
    ]);
    expect(query.reasons[0]).toBe(
      'clients may send "", which the new schema refuses (found by trying values; the keywords alone did not decide: no single branch of the anyOf accepts every value; several together might)',
    );
    const location = (await diffOf(stepOf("weather", "v1.json"))).changes[0]!;
    expect(location.counterexamples).toEqual([
      {
        party: "clients",
        acceptedBy: "old",
        value: { kind: "city", name: "x", match: "fuzzy" },
      },
    ]);
  });
});

describe("a list that is not a valid tool list", () => {
  it.each(steps.filter((s) => s.error).map((s) => [s.label, s] as const))(
    "%s: is refused at its pointer, exit 2",
    async (_label, step) => {
      const error = await diffToolSources(step.fromFile, step.toFile).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(McpGenError);
      const file = step.error!.side === "from" ? step.fromFile : step.toFile;
      expect((error as McpGenError).diagnostics.map((d) => [d.code, d.location])).toEqual([
        [step.error!.code, { file, pointer: step.error!.pointer }],
      ]);
      const run = await runCli(["diff", "--tools", step.fromFile, step.toFile, "--fail-on", "any"]);
      expect(run.code).toBe(2);
      expect(run.stdout).toBe("");
      expect(run.stderr).toContain(`${file}#${step.error!.pointer}`);
    },
  );

  it("is refused from a live server too: mcp-gen's client refuses a tools/list result with a null inputSchema (MCPG721)", async () => {
    const dir = tempDir("null-input-schema");
    const tools = join(dir, "tools.json");
    const broken = JSON.parse(
      readFileSync(join(HISTORIES, "tracker", "v4.response.json"), "utf8"),
    ) as { result: { tools: unknown[] } };
    writeFileSync(tools, JSON.stringify(broken.result.tools));
    const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(SERVER)} ${JSON.stringify(tools)}`;
    const run = await runCli([
      "diff",
      "--tools",
      join(HISTORIES, "tracker", "v3.tools-list.json"),
      command,
      "--fail-on",
      "any",
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("MCPG721");
  });

  it("a tool the protocol refuses though a tools file's checks pass is MCPG732, at its pointer", async () => {
    const dir = tempDir("protocol-refuses");
    const list = [
      { name: "ok", inputSchema: { type: "object" } },
      { name: "bad", inputSchema: { type: "object" }, annotations: { readOnlyHint: "yes" } },
    ];
    writeFileSync(join(dir, "a.json"), JSON.stringify(list));
    const error = await diffToolSources(join(dir, "a.json"), join(dir, "a.json")).catch(
      (e: unknown) => e,
    );
    // Both sides are the one file: its problem is reported for each.
    expect((error as McpGenError).diagnostics.map((d) => [d.code, d.location?.pointer])).toEqual([
      ["MCPG732", "/1/annotations/readOnlyHint"],
      ["MCPG732", "/1/annotations/readOnlyHint"],
    ]);
  });
});

function stepOf(server: string, from: string) {
  return steps.find((s) => s.label.startsWith(`${server}: ${from} ->`))!;
}

function toolsOf(file: string): JsonValue[] {
  const value = JSON.parse(readFileSync(file, "utf8")) as JsonValue;
  if (Array.isArray(value)) return value;
  if (isJsonObject(value) && Array.isArray(value.tools)) return value.tools;
  if (isJsonObject(value) && isJsonObject(value.result) && Array.isArray(value.result.tools))
    return value.result.tools;
  throw new Error(`${file} holds no tools`);
}

/** Where in the tool's schema a change's counterexample sits: a property's change shows the object holding it. */
function exampleSchemaPath(change: ToolChange): string {
  const path = change.path ?? "";
  return /^property-/.test(change.kind) ? path.replace(/\/properties\/[^/]+$/, "") : path;
}

const ajvs = { "2020-12": new Ajv2020({ strict: false }), "draft-07": new Ajv({ strict: false }) };
for (const ajv of Object.values(ajvs)) addFormats(ajv);

/** Whether the tool of `tools` named in `change` accepts `value` at `path` of the change's schema. */
function accepts(tools: JsonValue[], change: ToolChange, path: string, value: JsonValue): boolean {
  const tool = tools.find((t) => isJsonObject(t) && t.name === change.tool);
  if (!isJsonObject(tool)) throw new Error(`no tool ${change.tool}`);
  const root = tool[change.schema === "output" ? "outputSchema" : "inputSchema"];
  if (!isJsonObject(root)) throw new Error(`${change.tool} has no ${change.schema} schema`);
  let schema: JsonValue = root;
  for (const segment of parsePointer(path))
    schema = isJsonObject(schema) ? schema[segment]! : (schema as JsonValue[])[Number(segment)]!;
  // The subschema beside the root's definitions, which its $refs name.
  const { $schema: _s, ...whole } = root;
  const document: Record<string, JsonValue> = { allOf: [schema] };
  for (const key of ["$defs", "definitions"])
    if (root[key] !== undefined) document[key] = root[key];
  const ajv = root.$schema === undefined ? ajvs["2020-12"] : ajvs["draft-07"];
  return ajv.validate(path === "" ? whole : document, value);
}
