/**
 * The generated error codes of every revision against the constants its
 * upstream schema.ts exports, read with the TypeScript compiler API from
 * the upstream folder (not through mcp-gen's loader): every numeric
 * `export const` is an error code the revision defines.
 *
 * - Each constant is in ErrorCode under its name in PascalCase, with its
 *   value, and in ERROR_CODES as a code to send (json-rpc or spec).
 * - Each code ERROR_CODES records lists exactly the revisions whose
 *   schema.ts exports it, or whose specification text defines it
 *   (schema/error-codes.json: codes no schema.ts has a constant for).
 * - A code this revision does not define is legacy and receive-only.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { REVISIONS, ROOT, SCHEMA_DIR } from "../helpers/index.js";

type Info = {
  name: string;
  code: number;
  policy: string;
  receiveOnly: boolean;
  revisions: readonly string[];
};
type Generated = {
  ErrorCode: Record<string, number>;
  ERROR_CODES: Record<number, Info>;
};

/** The numeric constants a schema.ts exports: `export const NAME = -32700;`. */
function exportedNumbers(file: string): Map<string, number> {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest);
  const found = new Map<string, number>();
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    const exported = statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    if (!exported || !(statement.declarationList.flags & ts.NodeFlags.Const)) continue;
    for (const declaration of statement.declarationList.declarations) {
      const value = numberOf(declaration.initializer);
      if (ts.isIdentifier(declaration.name) && value !== undefined)
        found.set(declaration.name.text, value);
    }
  }
  return found;
}

/** The value of a numeric literal, negated or not; undefined for anything else. */
function numberOf(node: ts.Expression | undefined): number | undefined {
  if (node === undefined) return undefined;
  if (ts.isNumericLiteral(node)) return Number(node.text);
  if (
    ts.isPrefixUnaryExpression(node) &&
    node.operator === ts.SyntaxKind.MinusToken &&
    ts.isNumericLiteral(node.operand)
  )
    return -Number(node.operand.text);
  return undefined;
}

/** `URL_ELICITATION_REQUIRED` → `UrlElicitationRequired`. */
const pascal = (constant: string) =>
  constant
    .toLowerCase()
    .split("_")
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join("");

const upstream = new Map(
  REVISIONS.map((r) => [r, exportedNumbers(join(SCHEMA_DIR, r, "schema.ts"))] as const),
);
/** Codes defined in specification text, by code: the revisions that define them. */
const specText = new Map(
  (
    JSON.parse(readFileSync(join(ROOT, "schema", "error-codes.json"), "utf8")) as {
      codes: Array<{ code: number; revisions: string[] }>;
    }
  ).codes.map((c) => [c.code, c.revisions] as const),
);

/** The revisions that define `code`: their schema.ts exports it, or their specification text does. */
const definedBy = (code: number) =>
  REVISIONS.filter(
    (r) => [...upstream.get(r)!.values()].includes(code) || specText.get(code)?.includes(r),
  );

describe("error codes against the constants upstream schema.ts exports", () => {
  it("reads constants from every schema.ts, the five JSON-RPC codes at least", () => {
    for (const revision of REVISIONS)
      expect([...upstream.get(revision)!.values()]).toEqual(
        expect.arrayContaining([-32700, -32600, -32601, -32602, -32603]),
      );
    expect(upstream.get("2026-07-28")!.get("HEADER_MISMATCH")).toBe(-32020);
  });

  it.each(REVISIONS)("%s", async (revision) => {
    const generated = (await import(join(ROOT, "generated", revision, "index.js"))) as Generated;
    const problems: string[] = [];
    for (const [constant, code] of upstream.get(revision)!) {
      if (generated.ErrorCode[pascal(constant)] !== code)
        problems.push(`ErrorCode.${pascal(constant)} is not ${code} (schema.ts: ${constant})`);
      const info = generated.ERROR_CODES[code];
      if (!info || !["json-rpc", "spec"].includes(info.policy) || info.receiveOnly)
        problems.push(`${constant} (${code}) is not a code to send: ${JSON.stringify(info)}`);
    }
    for (const info of Object.values(generated.ERROR_CODES)) {
      const expected = definedBy(info.code);
      if (JSON.stringify(info.revisions) !== JSON.stringify(expected))
        problems.push(
          `${info.code} lists ${info.revisions.join(", ")}; upstream: ${expected.join(", ")}`,
        );
      const here = expected.includes(revision);
      if (!here && (info.policy !== "legacy" || !info.receiveOnly))
        problems.push(`${info.code} is not defined by ${revision} but is ${info.policy}`);
      if (here && info.policy === "legacy")
        problems.push(`${info.code} is defined by ${revision} but recorded as legacy`);
      if (generated.ErrorCode[info.name] !== info.code)
        problems.push(`ErrorCode.${info.name} is not ${info.code}`);
    }
    expect(problems).toEqual([]);
    // Every constant of this revision and of those before it is recorded: none dropped.
    const upTo = REVISIONS.slice(0, REVISIONS.indexOf(revision) + 1);
    const expectedCodes = new Set([
      ...upTo.flatMap((r) => [...upstream.get(r)!.values()]),
      ...[...specText]
        .filter(([, rs]) => rs.some((r) => upTo.includes(r as never)))
        .map(([c]) => c),
    ]);
    expect(
      Object.keys(generated.ERROR_CODES)
        .map(Number)
        .sort((a, b) => a - b),
    ).toEqual([...expectedCodes].sort((a, b) => a - b));
  });
});
