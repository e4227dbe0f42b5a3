/**
 * Nothing from an extension schema becomes code, and the generated
 * protocol validators count own properties only. An extension whose
 * definitions carry a `tsType` with a statement, descriptions and titles
 * that end comments and strings (`*\/`, backticks, `${...}`, U+2028), and
 * properties named `constructor`, `toString`, `hasOwnProperty` and
 * `__proto__` generates, compiles under --strict, and validates those
 * names like any other: `{}` lacks a required `constructor`, a missing
 * optional `toString` is absent (not Object.prototype's function), and an
 * own `__proto__` is checked against its schema.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { beforeAll, describe, expect, it } from "vitest";
import { generate, writeOutput } from "../../generator/index.js";
import { listFiles } from "../../generator/write/write-output.js";
import { tempDir, testSources } from "../helpers/index.js";
import { strictErrors } from "../helpers/typecheck.js";

const PAYLOAD = 'globalThis.__mcpGenInjected = "ran"';
const BREAKOUT = `*/ ${PAYLOAD}; /* \`\${${PAYLOAD}}\` line\u2028separator\u2029 "quotes" \\`;

/** The parameters of hostile/check, written to break generated code and to confuse validators. */
const HOSTILE_PARAMS = {
  type: "object",
  title: BREAKOUT,
  description: BREAKOUT,
  properties: {
    constructor: { type: "string", description: BREAKOUT },
    toString: { type: "string" },
    hasOwnProperty: { type: "integer" },
    ["__proto__"]: { type: "object", properties: { polluted: { type: "boolean" } } },
    typed: { type: "string", tsType: `string; ${PAYLOAD}; type X = string` },
  },
  required: ["constructor"],
};

const MANIFEST = {
  id: "com.example/hostile",
  name: "hostile",
  description: BREAKOUT,
  revisions: ["2026-07-28"],
  schema: "schema.json",
  requests: { "hostile/check": { direction: "client-to-server" } },
};

const SCHEMA = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  $defs: {
    HostileParams: HOSTILE_PARAMS,
    HostileRequest: {
      type: "object",
      properties: {
        jsonrpc: { const: "2.0", type: "string" },
        id: { type: ["string", "integer"] },
        method: { const: "hostile/check", type: "string" },
        params: { $ref: "#/$defs/HostileParams" },
      },
      required: ["jsonrpc", "id", "method", "params"],
    },
    HostileResult: {
      type: "object",
      properties: { resultType: { const: "complete", type: "string" } },
      required: ["resultType"],
    },
  },
};

interface ValidationResult {
  readonly ok: boolean;
  readonly errors?: ReadonlyArray<{ readonly path: string; readonly message: string }>;
}

/** What these tests read of the generated module. */
interface HostileModule {
  validate(definition: string, value: unknown): ValidationResult;
  parseMessage(message: unknown): {
    ok: boolean;
    error?: { code: number; data?: { errors?: ReadonlyArray<{ path: string }> } };
  };
}

/** A value as JSON text gives it: `__proto__` is an own property, never the prototype. */
const json = (text: string): unknown => JSON.parse(text);

let out: string;
let mcp: HostileModule;

beforeAll(async () => {
  const dir = tempDir("hostile-ext");
  const extension = join(dir, "ext");
  mkdirSync(extension);
  writeFileSync(join(extension, "mcp-extension.json"), JSON.stringify(MANIFEST, null, 2));
  writeFileSync(join(extension, "schema.json"), JSON.stringify(SCHEMA, null, 2));
  out = join(dir, "out");
  const result = await generate({
    spec: "2026-07-28",
    extensions: [extension],
    out,
    sources: testSources(),
    stampVersion: false,
  });
  writeOutput(out, result.files, { force: true });
  mcp = (await import(join(out, "index.ts"))) as HostileModule;
});

describe("a hostile extension schema, generated", () => {
  it("compiles under tsc --strict", () => {
    const files = listFiles(out)
      .filter((f) => f.endsWith(".ts"))
      .map((f) => join(out, f));
    expect(strictErrors(files)).toEqual([]);
  });

  it("runs nothing from the schema and copies no keyword into code: its text is only in strings and comments", () => {
    expect((globalThis as Record<string, unknown>).__mcpGenInjected).toBeUndefined();
    for (const file of listFiles(out)) {
      const text = readFileSync(join(out, file), "utf8");
      const scanner = ts.createScanner(
        ts.ScriptTarget.ES2022,
        false,
        ts.LanguageVariant.Standard,
        text,
      );
      const identifiers: string[] = [];
      for (
        let token = scanner.scan();
        token !== ts.SyntaxKind.EndOfFileToken;
        token = scanner.scan()
      )
        if (token === ts.SyntaxKind.Identifier) identifiers.push(scanner.getTokenText());
      expect(identifiers, file).not.toContain("__mcpGenInjected");
      expect(identifiers, file).not.toContain("globalThis");
    }
  });

  it("requires an own constructor: {} lacks it", () => {
    const result = mcp.validate("HostileParams", {});
    expect(result.ok).toBe(false);
    expect(result.errors).toEqual([{ path: "/constructor", message: "is required" }]);
    expect(mcp.validate("HostileParams", { constructor: "made" }).ok).toBe(true);
  });

  it("takes a missing optional toString or hasOwnProperty as absent, and checks them when present", () => {
    expect(mcp.validate("HostileParams", json('{"constructor":"made"}')).ok).toBe(true);
    expect(mcp.validate("HostileParams", json('{"constructor":"made","toString":1}')).ok).toBe(
      false,
    );
    expect(
      mcp.validate("HostileParams", json('{"constructor":"made","hasOwnProperty":"x"}')).ok,
    ).toBe(false);
  });

  it("checks an own __proto__ against its schema", () => {
    expect(
      mcp.validate("HostileParams", json('{"constructor":"made","__proto__":{"polluted":true}}'))
        .ok,
    ).toBe(true);
    const bad = mcp.validate(
      "HostileParams",
      json('{"constructor":"made","__proto__":{"polluted":"yes"}}'),
    );
    expect(bad.ok).toBe(false);
    expect(bad.errors?.map((e) => e.path)).toEqual(["/__proto__/polluted"]);
  });

  it("does not take inherited properties as present, on the message path too", () => {
    const inherited = Object.create({ constructor: "inherited" }) as object;
    expect(mcp.validate("HostileParams", inherited).ok).toBe(false);
    const parsed = mcp.parseMessage({
      jsonrpc: "2.0",
      id: 1,
      method: "hostile/check",
      params: {},
    });
    expect(parsed.ok).toBe(false);
    expect(parsed.error?.code).toBe(-32602);
  });
});
