/**
 * The generator's modules import each other without cycles, so each
 * stage can be read (and loaded) on its own: every relative import of
 * every module under generator/ is followed, type-only imports included.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { expect, it } from "vitest";
import { ROOT } from "./helpers.js";

function modules(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return modules(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(/^(?:import|export)[^;]*?from "(\.{1,2}\/[^"]+)\.js";/gms)].map((m) =>
    resolve(dirname(file), `${m[1]}.ts`),
  );
}

it("generator/ has no import cycle", () => {
  const graph = new Map(modules(join(ROOT, "generator")).map((f) => [f, importsOf(f)]));
  const cycles: string[] = [];
  const state = new Map<string, "open" | "done">();
  const visit = (file: string, path: string[]): void => {
    if (state.get(file) === "done") return;
    if (state.get(file) === "open") {
      const cycle = [...path.slice(path.indexOf(file)), file];
      cycles.push(cycle.map((f) => relative(ROOT, f)).join(" → "));
      return;
    }
    state.set(file, "open");
    for (const next of graph.get(file) ?? []) visit(next, [...path, file]);
    state.set(file, "done");
  };
  for (const file of graph.keys()) visit(file, []);
  expect(cycles).toEqual([]);
});
