/**
 * For every definition of every revision, the generated type and
 * schema.ts's type of the same name are mutually assignable, checked by
 * the TypeScript compiler in one program per revision; and the generated
 * types are one per definition of upstream schema.json, no more and none
 * missing, so a dropped definition fails too.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { REVISIONS, ROOT, SCHEMA_DIR, tempDir } from "../helpers/index.js";

const exported = (text: string) =>
  [...text.matchAll(/^export (?:interface|type) (\w+)/gm)].map((m) => m[1]!);

/** Compiles `G.X ⇄ S.X` assignments for every shared name; returns the names that fail. */
function incompatible(revision: string): { checked: string[]; failing: Map<string, string> } {
  const generatedTypes = join(ROOT, "generated", revision, "types.gen.ts");
  const upstream = join(SCHEMA_DIR, revision, "schema.ts");
  const upstreamNames = new Set(exported(readFileSync(upstream, "utf8")));
  const checked = exported(readFileSync(generatedTypes, "utf8"));
  const dir = tempDir("compat");
  const checkFile = join(dir, "check.ts");
  const lines = checked.map(
    (n) => `export function check_${n}(g: G.${n}, s: S.${n}): [S.${n}, G.${n}] { return [g, s]; }`,
  );
  writeFileSync(
    checkFile,
    [
      `import type * as G from ${JSON.stringify(generatedTypes.replace(/\.ts$/, ".js"))};`,
      `import type * as S from ${JSON.stringify(upstream.replace(/\.ts$/, ".js"))};`,
      ...lines,
    ].join("\n"),
  );
  const program = ts.createProgram([checkFile], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: [],
    skipLibCheck: true,
  });
  const failing = new Map<string, string>();
  for (const d of ts.getPreEmitDiagnostics(program)) {
    const line =
      d.file && d.start !== undefined ? d.file.text.slice(0, d.start).split("\n").length : 0;
    const name =
      d.file?.fileName === checkFile
        ? (/check_(\w+)/.exec(d.file.text.split("\n")[line - 1] ?? "")?.[1] ?? "?")
        : `${d.file?.fileName ?? "?"}`;
    failing.set(name, ts.flattenDiagnosticMessageText(d.messageText, " ").slice(0, 300));
  }
  expect(
    checked.every((n) => upstreamNames.has(n)),
    "every generated type has a schema.ts counterpart",
  ).toBe(true);
  return { checked, failing };
}

describe("generated types are mutually assignable with schema.ts", () => {
  it.each(REVISIONS)("%s", (revision) => {
    const { checked, failing } = incompatible(revision);
    expect(checked.length).toBeGreaterThan(70);
    expect(Object.fromEntries(failing)).toEqual({});
  });
});

/** The names of the interfaces and type aliases a TypeScript file exports, by the compiler's parser. */
function exportedTypeNames(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest);
  return source.statements
    .filter((s) => ts.isInterfaceDeclaration(s) || ts.isTypeAliasDeclaration(s))
    .filter((s) => s.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword))
    .map((s) => s.name.text)
    .sort();
}

describe("generated types are one per upstream schema.json definition", () => {
  it.each(REVISIONS)("%s", (revision) => {
    const schema = JSON.parse(readFileSync(join(SCHEMA_DIR, revision, "schema.json"), "utf8")) as {
      $defs?: object;
      definitions?: object;
    };
    const definitions = Object.keys(schema.$defs ?? schema.definitions ?? {}).sort();
    expect(definitions.length).toBeGreaterThan(70);
    expect(exportedTypeNames(join(ROOT, "generated", revision, "types.gen.ts"))).toEqual(
      definitions,
    );
    // schema.ts, the other half of the compatibility check, names the same set.
    expect(exportedTypeNames(join(SCHEMA_DIR, revision, "schema.ts"))).toEqual(definitions);
  });
});
