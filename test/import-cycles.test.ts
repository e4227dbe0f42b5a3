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
