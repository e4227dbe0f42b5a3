/**
 * The generated Tasks types are mutually assignable with the types of the
 * extension's own schema.ts (which imports the core types from
 * ./spec.types.js: here, the 2026-07-28 schema.ts), checked by tsc.
 */
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { ROOT, SCHEMA_DIR, tempDir } from "../helpers/index.js";

describe("generated Tasks types ⇄ the Tasks extension's schema.ts", () => {
  it("every definition the extension adds is mutually assignable", () => {
    const dir = tempDir("tasks-types");
    // The extension's schema.ts imports its core types from ./spec.types.js; give it the 2026-07-28 schema.ts there.
    copyFileSync(join(SCHEMA_DIR, "2026-07-28", "schema.ts"), join(dir, "spec.types.ts"));
    copyFileSync(join(SCHEMA_DIR, "extensions", "tasks", "schema.ts"), join(dir, "tasks.ts"));
    const upstream = new Set(
      [
        ...readFileSync(join(dir, "tasks.ts"), "utf8").matchAll(
          /^export (?:interface|type) (\w+)/gm,
        ),
      ].map((m) => m[1]!),
    );
    const generatedTypes = join(ROOT, "generated", "2026-07-28+tasks", "types.gen.ts");
    const names = [...upstream].sort();
    const check = join(dir, "check.ts");
    writeFileSync(
      check,
      [
        `import type * as G from ${JSON.stringify(generatedTypes.replace(/\.ts$/, ".js"))};`,
        `import type * as S from "./tasks.js";`,
        ...names.map(
          (n) =>
            `export function check_${n}(g: G.${n}, s: S.${n}): [S.${n}, G.${n}] { return [g, s]; }`,
        ),
      ].join("\n"),
    );
    const program = ts.createProgram([check], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      types: [],
      skipLibCheck: true,
    });
    const problems = ts.getPreEmitDiagnostics(program).map((d) => {
      const line =
        d.file && d.start !== undefined ? d.file.text.slice(0, d.start).split("\n").length : 0;
      const where =
        d.file?.fileName === check
          ? (/check_(\w+)/.exec(d.file.text.split("\n")[line - 1] ?? "")?.[1] ?? "?")
          : (d.file?.fileName ?? "?");
      return `${where}: ${ts.flattenDiagnosticMessageText(d.messageText, " ").slice(0, 300)}`;
    });
    expect(names.length).toBe(20);
    expect(problems).toEqual([]);
  });
});
