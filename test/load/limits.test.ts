/**
 * Bounded input: nesting depth, number of definitions and file size have
 * limits; past them, one diagnostic with a stable code and exit 2, never a
 * stack overflow or a run that does not end.
 */
import { writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatDiagnostic, McpGenError } from "../../generator/diagnostics.js";
import { generate } from "../../generator/index.js";
import { LIMITS } from "../../generator/load/limits.js";
import { runCli, tempDir } from "../helpers/run-cli.js";
import { testSources } from "../helpers/index.js";

const ENVELOPES = {
  RequestId: { type: ["string", "integer"] },
  JSONRPCResultResponse: {
    type: "object",
    properties: { jsonrpc: { const: "2.0" }, id: { $ref: "#/$defs/RequestId" }, result: {} },
    required: ["jsonrpc", "id", "result"],
  },
  JSONRPCErrorResponse: {
    type: "object",
    properties: { jsonrpc: { const: "2.0" }, error: { type: "object" } },
    required: ["jsonrpc", "error"],
  },
};

/** A folder holding a schema.json of the given definitions (plus the JSON-RPC envelopes) and, optionally, text as schema.ts. */
function specFolder(definitions: object, schemaTs?: string): string {
  const dir = join(tempDir("limits"), "spec");
  mkdirSync(dir);
  writeFileSync(
    join(dir, "schema.json"),
    JSON.stringify({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      $defs: { ...ENVELOPES, ...definitions },
    }),
  );
  if (schemaTs !== undefined) writeFileSync(join(dir, "schema.ts"), schemaTs);
  return dir;
}

/** A schema `{type: object, properties: {a: …}}` nested `levels` times. */
function nested(levels: number): string {
  return `${'{"type":"object","properties":{"a":'.repeat(levels)}{"type":"string"}${"}}".repeat(levels)}`;
}

async function problems(spec: string): Promise<string[]> {
  try {
    await generate({ spec, out: "out", sources: testSources(), stampVersion: false });
    return [];
  } catch (error) {
    if (!(error instanceof McpGenError)) throw error;
    return error.diagnostics.map(formatDiagnostic);
  }
}

const TOO_DEEP_FIX =
  "(fix: flatten the schema: give deeply nested parts definitions of their own and refer to them with $ref)";

describe("bounded input", () => {
  it("20,000 levels of nesting in schema.json: one diagnostic, exit 2, through the CLI", async () => {
    const dir = join(tempDir("deep"), "deep");
    mkdirSync(dir);
    const text = `{"$schema":"https://json-schema.org/draft/2020-12/schema","$defs":{"Deep":${nested(20_000)}}}`;
    writeFileSync(join(dir, "schema.json"), text);
    const started = Date.now();
    const run = await runCli(["generate", "--spec", dir, "--out", join(dir, "out"), "--quiet"]);
    expect(run.code).toBe(2);
    expect(run.stderrLines).toEqual([
      `deep/schema.json#/$defs/Deep/properties/a/properties/a/…/properties/a/properties/a: error MCPG212: JSON values nest deeper than mcp-gen follows (${LIMITS.jsonDepth} levels) here ${TOO_DEEP_FIX}`,
    ]);
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it("a schema just inside the depth limit generates", async () => {
    // Two JSON levels per schema level, plus $defs and the definition itself.
    const levels = Math.floor((LIMITS.jsonDepth - 3) / 2);
    const spec = specFolder({ Deep: JSON.parse(nested(levels)) as object });
    expect(await problems(spec)).toEqual([]);
  });

  it("20,000 levels of brackets in schema.ts: one diagnostic with line and column", async () => {
    const spec = specFolder(
      {},
      `export type Deep = ${"(".repeat(20_000)}string${")".repeat(20_000)};\n`,
    );
    expect(await problems(spec)).toEqual([
      `spec/schema.ts:1:${20 + LIMITS.tsDepth}: error MCPG212: brackets nest deeper than mcp-gen follows (${LIMITS.tsDepth} levels) here ${TOO_DEEP_FIX}`,
    ]);
  });

  it("more definitions than the limit: one diagnostic", async () => {
    const many = Object.fromEntries(
      Array.from({ length: LIMITS.definitions }, (_, i) => [`D${i}`, { type: "string" }]),
    );
    expect(await problems(specFolder(many))).toEqual([
      `spec/schema.json#/$defs: error MCPG213: the schema has ${LIMITS.definitions + 3} definitions, more than mcp-gen generates from (${LIMITS.definitions}) (fix: split the schema, or generate from the definitions the protocol needs)`,
    ]);
  });

  it("a file larger than the limit is refused unread", async () => {
    const spec = specFolder({});
    writeFileSync(join(spec, "schema.json"), " ".repeat(LIMITS.fileBytes + 1));
    expect(await problems(spec)).toEqual([
      `spec/schema.json: error MCPG211: the file is ${LIMITS.fileBytes + 1} bytes, more than mcp-gen reads (${LIMITS.fileBytes} bytes) (fix: point mcp-gen at the schema file itself; MCP schemas are a few hundred kilobytes)`,
    ]);
  });
});
