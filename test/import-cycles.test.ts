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

/**
 * The generator's folders in the order ARCHITECTURE.md states ("Stages
 * import only earlier stages"): a folder imports only folders listed
 * before it (and itself). The first rows are what every stage may use;
 * then the stages of generate(), in order; then the pipeline itself and
 * the commands built on it.
 */
const FOLDER_ORDER = [
  ["shared", "diagnostics"],
  ["load"],
  ["runtime"],
  ["check"],
  ["model"],
  ["check-model"],
  ["emit"],
  ["write"],
  ["index"],
  ["diff"],
  ["project", "types"],
  ["config"],
  ["scaffold", "upgrade"],
  ["dev"],
  ["cli"],
] as const;

/** A module's folder under generator/ (a file at the top counts as a folder of its own name). */
const folderOf = (file: string) =>
  file.includes("/") ? file.split("/")[0]! : file.replace(/\.ts$/, "");

it("every folder of generator/ has its place in the order", () => {
  const placed = new Set<string>(FOLDER_ORDER.flat());
  const folders = [...new Set([...importGraph(join(ROOT, "generator")).keys()].map(folderOf))];
  expect(folders.filter((folder) => !placed.has(folder)).sort()).toEqual([]);
});

it("each folder of generator/ imports only folders before it in the order", () => {
  const rank = new Map<string, number>(
    FOLDER_ORDER.flatMap((row, index) => row.map((folder) => [folder, index] as const)),
  );
  const graph = importGraph(join(ROOT, "generator"));
  const backward = [...graph].flatMap(([file, imports]) =>
    imports
      .filter((target) => graph.has(target))
      .filter((target) => {
        const from = folderOf(file);
        const to = folderOf(target);
        return from !== to && rank.get(to)! >= rank.get(from)!;
      })
      .map((target) => `${file} → ${target}`),
  );
  expect(backward).toEqual([]);
});

it("only generator/runtime/ imports the runtime (templates/runtime/)", () => {
  // emit/static/ is copied into generated modules as text, never imported: its imports are for type-checking.
  const importers = [...importGraph(join(ROOT, "generator"))]
    .filter(([file]) => !file.startsWith("emit/static/"))
    .filter(([, imports]) => imports.some((target) => target.includes("templates/runtime/")))
    .map(([file]) => file);
  expect(importers.length).toBeGreaterThan(0);
  expect(importers.filter((file) => !file.startsWith("runtime/"))).toEqual([]);
  // What the checks of a tools file import loads only the runtime's core, not its client or server.
  const rules = importGraph(join(ROOT, "generator")).get("runtime/rules.ts")!;
  expect(rules.length).toBeGreaterThan(0);
  expect(rules.filter((target) => !target.startsWith("../templates/runtime/core/"))).toEqual([]);
});
