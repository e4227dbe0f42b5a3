/**
 * Runs once before the suite:
 * - builds dist/, so tests that run the CLI as a child process test the
 *   code under review, not a stale build. The fast suite only needs its
 *   JavaScript: each file is transpiled on its own by TypeScript's own
 *   emitter (about 7 s on 2 cores, where `tsc -p tsconfig.build.json`
 *   takes 27 s checking and writing declarations); the types are
 *   checked by `npm run lint`. The slow suite (global-setup-e2e.ts)
 *   packs and installs the package, so it builds dist/ as `npm run build`
 *   does, declarations included;
 * - finds the upstream files the tests read (every revision's schemas, the
 *   2026-07-28 examples, the Tasks extension and its specification) the
 *   way mcp-gen finds schemas: MCP_GEN_SCHEMA_DIR, then ../shared/mcp-schema
 *   beside the repository, then the user cache; when none holds them all,
 *   the cache is filled from what those folders have and a verified
 *   download of the rest (unless MCP_GEN_OFFLINE=1). Every file must have
 *   its pinned sha256. Tests themselves never download.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import ts from "typescript";
import type { TestProject } from "vitest/node";
import { formatDiagnostic, McpGenError } from "../generator/diagnostics.js";
import { readRegistry } from "../generator/load/registry.js";
import { defaultSchemaSources } from "../generator/load/resolve-spec.js";
import { everyPinnedSet, gapsIn, pullEverything } from "../generator/load/upstream-files.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** The folder holding every upstream file the tests read, verified. */
    schemaDir: string;
  }
}

const ROOT = resolve(import.meta.dirname, "..");

export default async function setup(project: TestProject): Promise<void> {
  transpileDist();
  project.provide("schemaDir", await upstreamFolder());
}

/** dist/ as `npm run build` writes it: checked, with declarations. */
export function buildDist(): void {
  execFileSync("npx", ["tsc", "-p", "tsconfig.build.json"], { cwd: ROOT, stdio: "inherit" });
  execFileSync("node", ["scripts/build/copy-generated-js.mjs"], { cwd: ROOT, stdio: "inherit" });
}

/**
 * The folders tsconfig.build.json compiles, whole: its build also emits
 * files it excludes as roots but imports (generator/emit/static/).
 */
const SOURCES = ["generator", "generated", join("templates", "runtime")];

/**
 * dist/'s JavaScript, each source file transpiled alone with
 * tsconfig.build.json's options: no type check, no declarations. Alone, a
 * file cannot tell NodeNext that the package is an ES module, so the
 * module kind is ES2022, which NodeNext emits for this package's files too.
 */
export function transpileDist(): void {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(ROOT, "tsconfig.build.json"),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, " "));
      },
    },
  )!;
  const compilerOptions = { ...config.options, module: ts.ModuleKind.ES2022 };
  for (const folder of SOURCES)
    for (const entry of readdirSync(join(ROOT, folder), { recursive: true, encoding: "utf8" })) {
      if (!entry.endsWith(".ts") || entry.endsWith(".d.ts")) continue;
      const file = join(folder, entry);
      const source = readFileSync(join(ROOT, file), "utf8");
      const { outputText } = ts.transpileModule(source, { fileName: file, compilerOptions });
      const out = join(ROOT, "dist", file.replace(/\.ts$/, ".js"));
      mkdirSync(dirname(out), { recursive: true });
      writeFileSync(out, outputText);
    }
  // generated/'s JavaScript modules (the ajv validators) are not compiled: tsc reads their declarations.
  execFileSync("node", ["scripts/build/copy-generated-js.mjs"], { cwd: ROOT, stdio: "ignore" });
}

export async function upstreamFolder(): Promise<string> {
  const sources = defaultSchemaSources();
  const registry = readRegistry();
  const sets = everyPinnedSet(registry);
  const candidates = [
    ...(process.env.MCP_GEN_SCHEMA_DIR ? [process.env.MCP_GEN_SCHEMA_DIR] : []),
    resolve(ROOT, "..", "shared", "mcp-schema"),
    join(sources.cacheDir, "schemas"),
  ].filter((dir) => existsSync(dir));
  for (const dir of candidates) {
    const gaps = gapsIn(dir, sets);
    if (gaps.mismatched.length > 0)
      throw new Error(
        `tests: these upstream files do not have their pinned sha256: ${gaps.mismatched.join(", ")}. ` +
          "Delete them (or fix MCP_GEN_SCHEMA_DIR) and run the tests again.",
      );
    if (gaps.missing.length === 0) return dir;
  }
  const pulled = await pullEverything(registry, sources, candidates).then(
    (dir) => ({ dir }),
    (error: unknown) => ({ error }),
  );
  if ("dir" in pulled) {
    process.stderr.write(`tests: upstream files gathered in ${pulled.dir}\n`);
    return pulled.dir;
  }
  if (!(pulled.error instanceof McpGenError)) throw pulled.error;
  const lines = pulled.error.diagnostics.map(formatDiagnostic);
  const shown =
    lines.length > 5 ? [...lines.slice(0, 5), `... and ${lines.length - 5} more`] : lines;
  // Not the McpGenError itself: its diagnostics, all of them, would fill the screen.
  throw new Error(
    `tests need the upstream MCP files; set MCP_GEN_SCHEMA_DIR to a folder that holds them, or run online:\n${shown.join("\n")}`,
  );
}
