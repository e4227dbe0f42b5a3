/**
 * For every definition of every revision, the generated type and
 * schema.ts's type of the same name are mutually assignable, checked by
 * the TypeScript compiler in one program per revision.
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
