/**
 * The generator's modules import each other without cycles, so each
 * stage can be read (and loaded) on its own: every relative import of
 * every module under generator/ is followed, type-only imports included.
 */
import { join } from "node:path";
import { expect, it } from "vitest";
import { findCycle, importGraph } from "./helpers/import-graph.js";
import { ROOT } from "./helpers/index.js";

it("generator/ has no import cycle", () => {
  expect(findCycle(importGraph(join(ROOT, "generator")))?.join(" → ")).toBe(undefined);
});

/** Stages that come before emit: they may import neither emit/ nor write/. */
const EARLY_STAGES = ["load/", "check/"];
const LATE_STAGES = ["emit/", "write/"];

it("load/ and check/ never import emit/ or write/", () => {
  const backward = [...importGraph(join(ROOT, "generator"))].flatMap(([file, imports]) =>
    EARLY_STAGES.some((stage) => file.startsWith(stage))
      ? imports
          .filter((target) => LATE_STAGES.some((stage) => target.startsWith(stage)))
          .map((target) => `${file} → ${target}`)
      : [],
  );
  expect(backward).toEqual([]);
});

it("only generator/runtime/ imports the runtime (templates/runtime/)", () => {
  // emit/static/ is copied into generated modules as text, never imported: its imports are for type-checking.
  const importers = [...importGraph(join(ROOT, "generator"))]
    .filter(([file]) => !file.startsWith("emit/static/"))
    .filter(([, imports]) => imports.some((target) => target.includes("templates/runtime/")))
    .map(([file]) => file);
  expect(importers).toEqual(["runtime/client.ts", "runtime/rules.ts", "runtime/server.ts"]);
  // What the checks of a tools file import loads only the runtime's core, not its client or server.
  const rules = importGraph(join(ROOT, "generator")).get("runtime/rules.ts")!;
  expect(rules.length).toBeGreaterThan(0);
  expect(rules.filter((target) => !target.startsWith("../templates/runtime/core/"))).toEqual([]);
});
