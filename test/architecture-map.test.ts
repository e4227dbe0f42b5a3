/**
 * ARCHITECTURE.md is the map of the repository: every top-level folder,
 * every folder of generator/, templates/ and scripts/, and every layer of
 * the runtime is named in it, so a folder added without a place on the map
 * fails here.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { ROOT } from "./helpers/index.js";

const MAP = readFileSync(join(ROOT, "ARCHITECTURE.md"), "utf8");

/**
 * The files git keeps. Folders made by installing, building or running
 * tools (node_modules, .venv, caches) hold none of them, so they need no
 * place on the map.
 */
const TRACKED = execFileSync("git", ["ls-files", "-z"], { cwd: ROOT, encoding: "utf8" })
  .split("\0")
  .filter(Boolean);

/** The folders directly under `dir` (relative to the repository) that git keeps. */
function foldersOf(dir: string): string[] {
  const prefix = dir ? `${dir}/` : "";
  const folders = new Set<string>();
  for (const file of TRACKED) {
    if (!file.startsWith(prefix)) continue;
    const rest = file.slice(prefix.length).split("/");
    if (rest.length > 1) folders.add(`${prefix}${rest[0]}`);
  }
  return [...folders].sort();
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
