/**
 * Copies the JavaScript mcp-gen generates into src/generated/ (the tool
 * validators, `*.gen.js`, each with its `*.gen.d.ts`) to where tsc writes
 * the rest of that folder, by `outDir` and `rootDir` of tsconfig.json. tsc
 * reads the declarations only, which keeps a big tools file's typecheck
 * cheap, and so does not emit the JavaScript itself: `npm run build` runs
 * this after tsc. `mcp-gen dev` does the same after each compile. A copy
 * already as new as its source is left alone, so a build with nothing to
 * do writes nothing; a validator module of an earlier build whose source
 * is gone is removed, so the output holds the current tools' modules only.
 *
 *   node scripts/copy-generated.mjs [tsconfig file, default tsconfig.json]
 */
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
} from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const project = join(dirname(fileURLToPath(import.meta.url)), "..");
const from = join(project, "src", "generated");

/**
 * JSON with comments and trailing commas, as tsconfig.json may be written.
 * Comments outside strings are blanked; a comma before a closing bracket
 * is dropped.
 */
function parseJsonc(text) {
  let plain = "";
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '"') {
      const string = /"(?:[^"\\]|\\.)*"/y;
      string.lastIndex = i;
      const found = string.exec(text)?.[0] ?? text.slice(i);
      plain += found;
      i += found.length - 1;
    } else if (text.startsWith("//", i)) {
      const end = text.indexOf("\n", i);
      i = end < 0 ? text.length : end - 1;
    } else if (text.startsWith("/*", i)) {
      const end = text.indexOf("*/", i + 2);
      i = end < 0 ? text.length : end + 1;
      plain += " ";
    } else plain += text[i];
  }
  return JSON.parse(plain.replace(/,(\s*[}\]])/g, "$1"));
}

/**
 * outDir and rootDir as tsc reads them from the config `file`, each
 * resolved from the config that sets it, following `extends` to other
 * files (a package's config is not read: its folders would be its own).
 */
function compilerFolders(file, depth = 0) {
  const config = parseJsonc(readFileSync(file, "utf8"));
  const bases = [config.extends ?? []]
    .flat()
    .filter((base) => typeof base === "string" && base.startsWith("."))
    .map((base) => resolve(dirname(file), base.endsWith(".json") ? base : `${base}.json`));
  // The file's own options win over those it extends, a later base over an earlier one.
  const folders = { outDir: undefined, rootDir: undefined };
  for (const base of depth < 8 ? bases : [])
    if (existsSync(base)) Object.assign(folders, defined(compilerFolders(base, depth + 1)));
  const options = config.compilerOptions ?? {};
  for (const name of ["outDir", "rootDir"])
    if (typeof options[name] === "string") folders[name] = resolve(dirname(file), options[name]);
  return folders;
}

/** The entries of `object` that are not undefined. */
function defined(object) {
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined));
}

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

/** Stops the build with `message`: the built project would fail its tool calls. */
function fail(message) {
  console.error(`copy-generated: ${message}`);
  process.exit(1);
}

const configFile = resolve(project, process.argv[2] ?? "tsconfig.json");
let folders;
try {
  folders = compilerFolders(configFile);
} catch (error) {
  fail(
    `cannot read ${relative(project, configFile)} for outDir and rootDir: ${error.message}. Name the config tsc builds with: node scripts/copy-generated.mjs <tsconfig file>`,
  );
}
const { outDir, rootDir } = folders;
// Without outDir tsc writes each file beside its source: the modules are where they belong.
if (outDir !== undefined && existsSync(from)) {
  // Without rootDir tsc starts from the sources' common folder; the scaffold keeps them all in src/.
  const to = join(outDir, relative(rootDir ?? join(project, "src"), from));
  if (!existsSync(join(to, "tools.gen.js")))
    fail(
      `tsc wrote no ${relative(project, join(to, "tools.gen.js"))}, where the tool validators must go (from outDir and rootDir of ${relative(project, configFile)}). Build with tsc first; if tsc writes elsewhere, set outDir and rootDir in that file itself.`,
    );
  for (const path of generatedJavaScript(from)) {
    const target = join(to, relative(from, path));
    if (isCurrent(target, path)) continue;
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(path, target);
  }
  for (const path of generatedJavaScript(to)) {
    const name = relative(to, path);
    if (name.split(/[\\/]/).at(-1).startsWith("tool-validators-") && !existsSync(join(from, name)))
      rmSync(path);
  }
}
