/**
 * Compiled validator code through the cache folder: a second compile of
 * the same schemas takes the kept code, anything the code depends on
 * changes the key, an entry that does not match its hash is compiled again
 * and replaced, the folder keeps only the entries used last, and a run
 * that finds its code kept writes the same files as one that compiles.
 */
import { readdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  compiledCodeKey,
  compileValidators,
  importClosure,
  type ValidatorSources,
} from "../../generator/emit/compile-validators.js";
import { generate } from "../../generator/index.js";
import {
  compiledCodeCacheIn,
  MAX_ENTRIES,
  type CompiledCodeCache,
} from "../../generator/load/code-cache.js";
import { tempDir, testSources } from "../helpers/index.js";

const SOURCES: ValidatorSources = {
  schemas: [
    { $id: "Point", type: "object", required: ["x"], properties: { x: { type: "number" } } },
  ],
  exports: { validatePoint: "Point" },
};

/** A cache in memory that counts what is asked of it. */
function countingCache(): CompiledCodeCache & { gets: number; sets: number } {
  const kept = new Map<string, string>();
  return {
    gets: 0,
    sets: 0,
    get(key) {
      this.gets++;
      return kept.get(key);
    },
    set(key, code) {
      this.sets++;
      kept.set(key, code);
    },
  };
}

function entries(cache: string): string[] {
  return readdirSync(join(cache, "compiled")).sort();
}

describe("compiling through a cache", () => {
  it("compiles once and gives the kept code the second time", () => {
    const cache = countingCache();
    const first = compileValidators(SOURCES, {}, cache);
    expect(first).toBe(compileValidators(SOURCES, {}));
    expect(compileValidators(SOURCES, {}, cache)).toBe(first);
    expect({ gets: cache.gets, sets: cache.sets }).toEqual({ gets: 2, sets: 1 });
  });

  it("takes what the cache holds under the key, so a kept entry is what a run uses", () => {
    const cache = countingCache();
    cache.set(compiledCodeKey(SOURCES, {}), "/* kept */");
    expect(compileValidators(SOURCES, {}, cache)).toBe("/* kept */");
  });

  it("keys the code by the schemas, the export names and the choices", () => {
    const key = compiledCodeKey(SOURCES, {});
    const changedSchema = {
      ...SOURCES,
      schemas: [{ ...SOURCES.schemas[0]!, required: [] }],
    };
    const keys = [
      key,
      compiledCodeKey(changedSchema, {}),
      compiledCodeKey({ ...SOURCES, exports: { validate: "Point" } }, {}),
      compiledCodeKey(SOURCES, { allErrors: true }),
      compiledCodeKey(SOURCES, { dialect: "2020-12" }),
    ];
    expect(new Set(keys).size).toBe(keys.length);
    expect(compiledCodeKey(structuredClone(SOURCES), {})).toBe(key);
  });

  it("fingerprints the compiler by every module of mcp-gen it imports", () => {
    const start = new URL("../../generator/emit/compile-validators.ts", import.meta.url);
    const generator = fileURLToPath(new URL("../../generator/", import.meta.url));
    const modules = [...importClosure(start).keys()].map((url) =>
      fileURLToPath(url).slice(generator.length),
    );
    // ajv's set-up, mcp-gen's keywords, and what they import in turn.
    for (const module of [
      "emit/compile-validators.ts",
      "emit/ajv-setup.ts",
      "shared/ajv.ts",
      "shared/schema-walk.ts",
      "emit/names.ts",
    ])
      expect(modules).toContain(module);
  });
});

describe("compiled code in the cache folder", () => {
  it("keeps an entry with its hash, and ignores one whose code does not match it", () => {
    const dir = tempDir("cache");
    const cache = compiledCodeCacheIn(dir);
    const key = compiledCodeKey(SOURCES, {});
    expect(cache.get(key)).toBeUndefined();
    cache.set(key, "code");
    expect(cache.get(key)).toBe("code");
    const path = join(dir, "compiled", entries(dir)[0]!);
    const entry = JSON.parse(readFileSync(path, "utf8")) as { code: string };
    writeFileSync(path, JSON.stringify({ ...entry, code: "edited" }));
    expect(cache.get(key)).toBeUndefined();
    writeFileSync(path, readFileSync(path, "utf8").slice(0, 20));
    expect(cache.get(key)).toBeUndefined();
    // Compiling through it replaces the entry.
    const code = compileValidators(SOURCES, {}, cache);
    expect(cache.get(key)).toBe(code);
  });

  it(`keeps the ${MAX_ENTRIES} entries used last and leaves other files alone`, () => {
    const dir = tempDir("cache");
    const cache = compiledCodeCacheIn(dir);
    const keyOf = (i: number) => i.toString(16).padStart(64, "0");
    for (let i = 0; i < MAX_ENTRIES; i++) {
      cache.set(keyOf(i), `code ${i}`);
      // Each older than the next, by seconds, whatever the file system's time resolution.
      const path = join(dir, "compiled", `${keyOf(i)}.json`);
      const time = new Date(Date.now() - (MAX_ENTRIES - i) * 10_000);
      utimesSync(path, time, time);
    }
    writeFileSync(join(dir, "compiled", "notes.txt"), "mine");
    expect(cache.get(keyOf(0))).toBe("code 0"); // used now: the newest
    cache.set(keyOf(MAX_ENTRIES), "one more");
    const left = entries(dir);
    expect(left).toHaveLength(MAX_ENTRIES + 1);
    expect(left).toContain("notes.txt");
    expect(left).toContain(`${keyOf(0)}.json`);
    expect(left).not.toContain(`${keyOf(1)}.json`);
    expect(cache.get(keyOf(MAX_ENTRIES))).toBe("one more");
  });

  it("refuses a key that is not a hash, so no entry is written outside its folder", () => {
    const cache = compiledCodeCacheIn(tempDir("cache"));
    expect(() => cache.set("../../escape", "x")).toThrow(/not a compiled-code key/);
  });

  it("costs only the time when the folder cannot be written", () => {
    // A file where the folder should be: no entry can be made, whoever runs the test (root included).
    const dir = tempDir("cache");
    writeFileSync(join(dir, "compiled"), "not a folder");
    const cache = compiledCodeCacheIn(dir);
    expect(compileValidators(SOURCES, {}, cache)).toBe(compileValidators(SOURCES, {}));
    expect(cache.get(compiledCodeKey(SOURCES, {}))).toBeUndefined();
  });
});

describe("generate with the cache folder", () => {
  it("writes the same files from kept code as from compiling, and uses what it kept", async () => {
    const sources = { ...testSources(), cacheDir: tempDir("cache") };
    const options = { spec: "2026-07-28", out: "out", sources, stampVersion: false };
    const first = await generate(options);
    const kept = entries(sources.cacheDir);
    expect(kept).toHaveLength(2); // the validators and the problem-listing validators
    const second = await generate(options);
    expect(second.files).toEqual(first.files);
    expect(entries(sources.cacheDir)).toEqual(kept);
    // The second run's validators came from the entries: one marked shows in its output.
    const cache = compiledCodeCacheIn(sources.cacheDir);
    const key = kept[0]!.replace(/\.json$/, "");
    cache.set(key, `${cache.get(key)!}\n// marked in the cache`);
    const third = await generate(options);
    expect(third.files.filter((f) => f.contents.includes("// marked in the cache"))).toHaveLength(
      1,
    );
  });
});
