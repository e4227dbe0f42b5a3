/**
 * ARCHITECTURE.md is the map of the repository: every top-level folder,
 * every folder of generator/, templates/ and scripts/, and every layer of
 * the runtime is named in it, so a folder added without a place on the map
 * fails here.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { ROOT } from "./helpers/index.js";

const MAP = readFileSync(join(ROOT, "ARCHITECTURE.md"), "utf8");

/** Folders the map need not name: installed, built or the repository's own. */
const UNMAPPED = new Set([".git", "node_modules", "dist", ".cache"]);

/** The folders directly under `dir` (relative to the repository) that git keeps. */
function foldersOf(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !UNMAPPED.has(entry.name))
    .map((entry) => (dir ? `${dir}/${entry.name}` : entry.name))
    .sort();
}

it.each([
  ["the repository", ""],
  ["generator/", "generator"],
  ["templates/", "templates"],
  ["templates/runtime/", "templates/runtime"],
  ["scripts/", "scripts"],
  ["test/runtime/", "test/runtime"],
])("ARCHITECTURE.md names every folder of %s", (_label, dir) => {
  const folders = foldersOf(dir);
  expect(folders.length).toBeGreaterThan(2);
  // A folder is named by its path from the repository, or by its own name as `name/` in the part about its parent.
  const unnamed = folders.filter((folder) => {
    const name = folder.split("/").pop()!;
    return !MAP.includes(`${folder}/`) && !MAP.includes(`\`${name}/\``);
  });
  expect(unnamed).toEqual([]);
});
