import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { isJsonObject } from "./json.js";

let cached: string | undefined;

/**
 * The folder holding mcp-gen's own package.json, whether running from
 * source (generator/) or from the build (dist/generator/). Data files such
 * as schema/revisions.json and templates/ are found relative to it.
 */
export function packageRoot(): string {
  if (cached) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, "package.json");
    if (existsSync(candidate) && readPackageJson(candidate).name === "mcp-gen") {
      cached = dir;
      return dir;
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error("mcp-gen: cannot find its own package.json");
    dir = parent;
  }
}

/** mcp-gen's version, from its package.json. */
export function packageVersion(): string {
  const { version } = readPackageJson(join(packageRoot(), "package.json"));
  if (typeof version !== "string") throw new Error("mcp-gen: its package.json has no version");
  return version;
}

function readPackageJson(file: string): { name?: unknown; version?: unknown } {
  const manifest: unknown = JSON.parse(readFileSync(file, "utf8"));
  return isJsonObject(manifest) ? manifest : {};
}
