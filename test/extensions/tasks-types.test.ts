/**
 * The generated Tasks types are mutually assignable with the types of the
 * extension's own schema.ts (which imports the core types from
 * ./spec.types.js: here, the 2026-07-28 schema.ts), checked by tsc.
 */
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, SCHEMA_DIR, tempDir } from "../helpers/index.js";
import { strictErrors } from "../helpers/typecheck.js";

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
    // A problem in check.ts names the definition whose two versions disagree.
    const problems = strictErrors([check], { skipLibCheck: true }).map((line) => {
      const at = /^[^(]*check\.ts\((\d+),/.exec(line);
      const name =
        at && /check_(\w+)/.exec(readFileSync(check, "utf8").split("\n")[Number(at[1]) - 1] ?? "");
      return `${name?.[1] ?? ""} ${line.slice(0, 400)}`;
    });
    expect(names.length).toBe(20);
    expect(problems).toEqual([]);
  });
});
