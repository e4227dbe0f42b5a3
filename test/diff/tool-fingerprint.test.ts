/**
 * Tool-contract fingerprints: RFC 8785 canonical JSON of a tool's name,
 * inputSchema, outputSchema, annotations and execution, hashed with
 * SHA-256; the same in `mcp-gen tools fingerprint` and `diff --tools --json`.
 */
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  canonicalJson,
  diffToolSources,
  fingerprintToolSource,
  toolFingerprint,
} from "../../generator/diff/index.js";
import { isJsonObject, type JsonObject, type JsonValue } from "../../generator/load/json.js";
import { runCli, tempDir } from "../helpers/run-cli.js";

/** The value with every object's keys in reverse order. */
function reversed(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(reversed);
  if (!isJsonObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([k, v]) => [k, reversed(v)]),
  );
}

const sha256 = (text: string) =>
  `sha256:${createHash("sha256").update(text, "utf8").digest("hex")}`;

const tool: JsonObject = {
  name: "get_forecast",
  title: "Forecast",
  description: "Daily forecast.",
  inputSchema: {
    type: "object",
    properties: { days: { type: "integer", maximum: 16, minimum: 1 }, city: { type: "string" } },
    required: ["city"],
  },
  annotations: { readOnlyHint: true },
  _meta: { "example.com/cost": 1 },
};

describe("canonical JSON (RFC 8785)", () => {
  it.each<[string, Parameters<typeof canonicalJson>[0], string]>([
    [
      "sorts keys by UTF-16 code units, at every depth",
      { b: 1, a: { d: [2, { f: 0, e: 1 }], c: null } },
      '{"a":{"c":null,"d":[2,{"e":1,"f":0}]},"b":1}',
    ],
    [
      "orders non-ASCII keys by code unit, not by locale",
      { "\u20ac": 1, "\u00e9": 2, z: 3, "1": 4 },
      '{"1":4,"z":3,"é":2,"€":1}',
    ],
    [
      "writes numbers as ECMAScript does",
      [1.0, 1e21, 0.1, -0, 1e-7, 100],
      "[1,1e+21,0.1,0,1e-7,100]",
    ],
    [
      "escapes strings as JSON.stringify does",
      ['a"b\\c\n\u0001\u2028'],
      '["a\\"b\\\\c\\n\\u0001\u2028"]',
    ],
  ])("%s", (_title, value, text) => {
    expect(canonicalJson(value)).toBe(text);
  });
});

describe("a tool's contract fingerprint", () => {
  it("is the SHA-256 of the canonical JSON of its name, schemas, annotations and execution", () => {
    const canonical =
      '{"annotations":{"readOnlyHint":true},"inputSchema":{"properties":{"city":{"type":"string"},"days":{"maximum":16,"minimum":1,"type":"integer"}},"required":["city"],"type":"object"},"name":"get_forecast"}';
    expect(toolFingerprint(tool)).toBe(sha256(canonical));
  });

  it("does not change with key order, title, description, icons or _meta; changes with anything in the contract", () => {
    const same = [
      { ...tool, description: "Another text.", title: "T", icons: [], _meta: {} },
      reversed(tool) as JsonObject,
    ];
    for (const t of same) expect(toolFingerprint(t)).toBe(toolFingerprint(tool));
    const changed = [
      { ...tool, name: "get_forecasts" },
      { ...tool, inputSchema: { ...(tool.inputSchema as JsonObject), required: [] } },
      { ...tool, outputSchema: { type: "object" } },
      { ...tool, annotations: { readOnlyHint: false } },
      { ...tool, execution: { taskSupport: "optional" } },
    ];
    for (const t of changed) expect(toolFingerprint(t)).not.toBe(toolFingerprint(tool));
  });
});

describe("mcp-gen tools fingerprint", () => {
  it("prints each tool's fingerprint and the list's, the same as diff --tools --json", async () => {
    const dir = tempDir("fingerprint");
    const file = join(dir, "tools.json");
    const other = { name: "ping", inputSchema: { type: "object" } };
    writeFileSync(file, JSON.stringify({ tools: [tool, other] }));
    const run = await runCli(["tools", "fingerprint", file]);
    expect(run.code, run.stderr).toBe(0);
    const list = sha256(
      canonicalJson({ get_forecast: toolFingerprint(tool), ping: toolFingerprint(other) }),
    );
    expect(run.stdout).toBe(
      `${toolFingerprint(tool)}  get_forecast\n${toolFingerprint(other)}  ping\n${list}  (the list: 2 tools)\n`,
    );
    const json = await runCli(["tools", "fingerprint", file, "--json"]);
    expect(JSON.parse(json.stdout)).toEqual(await fingerprintToolSource(file));
    const diff = await diffToolSources(file, file);
    expect(diff.from.fingerprint).toBe(list);
    expect(diff.to.fingerprints).toEqual({
      get_forecast: toolFingerprint(tool),
      ping: toolFingerprint(other),
    });
  });

  it("refuses a list that is no valid tool list, at its pointer, exit 2", async () => {
    const dir = tempDir("fingerprint-bad");
    writeFileSync(join(dir, "tools.json"), JSON.stringify([{ name: "get_me", inputSchema: null }]));
    const run = await runCli(["tools", "fingerprint", join(dir, "tools.json")]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("tools.json#/0/inputSchema");
  });
});
