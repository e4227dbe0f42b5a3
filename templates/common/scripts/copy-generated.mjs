/**
 * Copies the JavaScript mcp-gen generates into src/generated/ (the tool
 * validators, `*.gen.js`, each with its `*.gen.d.ts`) to the same place
 * under dist/. tsc reads the declarations only, which keeps a big tools
 * file's typecheck cheap, and so does not emit the JavaScript itself:
 * `npm run build` runs this after tsc. `mcp-gen dev` does the same after
 * each compile. A copy already as new as its source is left alone, so a
 * build with nothing to do writes nothing.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const project = join(dirname(fileURLToPath(import.meta.url)), "..");
const from = join(project, "src", "generated");
const to = join(project, "dist", "generated");

/** Every generated JavaScript module under `dir`, with its declarations. */
function* generatedJavaScript(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* generatedJavaScript(path);
    else if (entry.name.endsWith(".gen.js") || entry.name.endsWith(".gen.d.ts")) yield path;
  }
}

/** Whether `copy` exists with the size of `source` and was written after it. */
function isCurrent(copy, source) {
  if (!existsSync(copy)) return false;
  const [a, b] = [statSync(copy), statSync(source)];
  return a.size === b.size && a.mtimeMs >= b.mtimeMs;
}

if (existsSync(from)) {
  for (const path of generatedJavaScript(from)) {
    const target = join(to, relative(from, path));
    if (isCurrent(target, path)) continue;
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(path, target);
  }
}
