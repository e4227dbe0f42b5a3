/**
 * The project's scripts/copy-generated.mjs, run as `npm run build` runs it
 * (a child process, after tsc): it copies src/generated's JavaScript where
 * tsc wrote the rest of that folder, found from tsconfig.json as tsc reads
 * it, and removes the validator modules of an earlier build. The projects
 * here are folders laid out as tsc leaves them, not compiled.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { copyGeneratedScript } from "../../generator/project/build-scripts.js";
import { tempDir } from "../helpers/index.js";

/** Writes `files` (path → text) under a new project folder holding the copy script. */
function project(files: Record<string, string>): string {
  const dir = tempDir("copy-generated");
  const script = copyGeneratedScript();
  for (const [path, text] of Object.entries({ [script.path]: script.contents, ...files })) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

function copy(dir: string, ...args: string[]): { code: number | null; stderr: string } {
  const run = spawnSync(process.execPath, [join(dir, "scripts", "copy-generated.mjs"), ...args], {
    encoding: "utf8",
    timeout: 30_000,
  });
  return { code: run.status, stderr: run.stderr };
}

/** The generated sources, and tsc's output of tools.gen.ts under `out`. */
const GENERATED = (out: string) => ({
  "src/generated/tools.gen.ts": "export {};\n",
  "src/generated/tool-validators-2020.gen.js": 'export const GENERATION = "a";\n',
  "src/generated/tool-validators-2020.gen.d.ts": "export declare const GENERATION: string;\n",
  [`${out}/generated/tools.gen.js`]: "export {};\n",
});

describe("scripts/copy-generated.mjs", () => {
  it("copies the validators beside tsc's output, and a second run writes nothing", () => {
    const dir = project({
      "tsconfig.json": JSON.stringify({ compilerOptions: { outDir: "dist", rootDir: "src" } }),
      ...GENERATED("dist"),
    });
    expect(copy(dir)).toEqual({ code: 0, stderr: "" });
    const copied = join(dir, "dist", "generated", "tool-validators-2020.gen.js");
    expect(readFileSync(copied, "utf8")).toBe('export const GENERATION = "a";\n');
    expect(existsSync(join(dir, "dist", "generated", "tool-validators-2020.gen.d.ts"))).toBe(true);
    const written = statSync(copied).mtimeMs;
    expect(copy(dir).code).toBe(0);
    expect(statSync(copied).mtimeMs).toBe(written);
  });

  it("reads outDir and rootDir as tsc does: comments, trailing commas, and a config it extends", () => {
    const dir = project({
      "tsconfig.base.json": `{
        // Where the build goes: "not a // comment"
        "compilerOptions": { "outDir": "./build/out", /* and from where */ "rootDir": "src", },
      }`,
      "tsconfig.json": `{ "extends": "./tsconfig.base", "compilerOptions": { "strict": true } }`,
      ...GENERATED("build/out"),
    });
    expect(copy(dir)).toEqual({ code: 0, stderr: "" });
    expect(existsSync(join(dir, "build", "out", "generated", "tool-validators-2020.gen.js"))).toBe(
      true,
    );
    expect(existsSync(join(dir, "dist"))).toBe(false);
  });

  it("fails, saying where it looked, when tsc's output is not where tsconfig.json says", () => {
    const dir = project({
      "tsconfig.json": JSON.stringify({ compilerOptions: { outDir: "dist", rootDir: "src" } }),
      ...GENERATED("elsewhere"),
    });
    const run = copy(dir);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      "copy-generated: tsc wrote no dist/generated/tools.gen.js, where the tool validators must go (from outDir and rootDir of tsconfig.json). Build with tsc first; if tsc writes elsewhere, set outDir and rootDir in that file itself.\n",
    );
    expect(existsSync(join(dir, "dist"))).toBe(false);
  });

  it("removes the validator modules of an earlier build whose source is gone, and nothing else", () => {
    const dir = project({
      "tsconfig.json": JSON.stringify({ compilerOptions: { outDir: "dist", rootDir: "src" } }),
      ...GENERATED("dist"),
      "dist/generated/tool-validators-2020-2.gen.js": "stale\n",
      "dist/generated/tool-validators-2020-2.gen.d.ts": "stale\n",
      "dist/generated/tools.gen.d.ts": "export {};\n",
      "dist/generated/notes.gen.js": "the user's\n",
    });
    expect(copy(dir).code).toBe(0);
    const out = join(dir, "dist", "generated");
    expect(existsSync(join(out, "tool-validators-2020-2.gen.js"))).toBe(false);
    expect(existsSync(join(out, "tool-validators-2020-2.gen.d.ts"))).toBe(false);
    for (const kept of [
      "tools.gen.js",
      "tools.gen.d.ts",
      "notes.gen.js",
      "tool-validators-2020.gen.js",
    ])
      expect(existsSync(join(out, kept)), kept).toBe(true);
  });

  it("reads the config named on its command line; one it cannot read stops the build, saying how to name another", () => {
    const dir = project({
      "tsconfig.build.json": JSON.stringify({ compilerOptions: { outDir: "lib", rootDir: "src" } }),
      ...GENERATED("lib"),
    });
    expect(copy(dir, "tsconfig.build.json")).toEqual({ code: 0, stderr: "" });
    expect(existsSync(join(dir, "lib", "generated", "tool-validators-2020.gen.js"))).toBe(true);
    const run = copy(dir);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^copy-generated: cannot read tsconfig\.json for outDir and rootDir: ENOENT[^\n]*\. Name the config tsc builds with: node scripts\/copy-generated\.mjs <tsconfig file>\n$/,
    );
    writeFileSync(join(dir, "tsconfig.json"), "{ not json");
    expect(copy(dir).stderr).toMatch(
      /^copy-generated: cannot read tsconfig\.json for outDir and rootDir: /,
    );
  });

  it("without outDir tsc writes beside the sources, and there is nothing to copy", () => {
    const dir = project({
      "tsconfig.json": JSON.stringify({ compilerOptions: { strict: true } }),
      "src/generated/tools.gen.ts": "export {};\n",
      "src/generated/tool-validators-2020.gen.js": "export {};\n",
    });
    expect(copy(dir)).toEqual({ code: 0, stderr: "" });
    expect(existsSync(join(dir, "dist"))).toBe(false);
  });
});
