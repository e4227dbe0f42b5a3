/**
 * schema.ts facts through the cache folder: the second read takes the
 * kept facts, an entry that does not read back is read again and
 * replaced, a schema.ts that does not parse is never kept, and a cache
 * folder that cannot be written costs only the time.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { McpGenError } from "../../generator/diagnostics.js";
import { readSchemaTs } from "../../generator/load/read-schema-ts.js";
import { sha256 } from "../../generator/load/resolve-spec.js";
import { readSchemaTsCached } from "../../generator/load/schema-ts-cache.js";
import type { InputFile } from "../../generator/load/types.js";
import { SCHEMA_DIR, tempDir } from "../helpers/index.js";

function inputFile(text: string): InputFile {
  return { name: "x/schema.ts", path: "/x/schema.ts", sha256: sha256(text), text };
}

const upstream = inputFile(readFileSync(join(SCHEMA_DIR, "2026-07-28", "schema.ts"), "utf8"));

function entries(cache: string): string[] {
  return readdirSync(join(cache, "schema-ts")).map((name) => join(cache, "schema-ts", name));
}

describe("schema.ts facts in the cache folder", () => {
  it("keeps the facts of the first read and gives them, with the file, to the next", () => {
    const cache = tempDir("cache");
    const first = readSchemaTsCached(upstream, cache);
    expect(first).toEqual(readSchemaTs(upstream));
    const [entry] = entries(cache);
    expect(entries(cache)).toHaveLength(1);
    // What the next read returns comes from the entry: a fact changed in it shows.
    const kept = JSON.parse(readFileSync(entry!, "utf8")) as {
      constants: Record<string, { value: unknown }>;
    };
    expect(kept.constants.LATEST_PROTOCOL_VERSION!.value).toBe("2026-07-28");
    kept.constants.LATEST_PROTOCOL_VERSION!.value = "from the cache";
    writeFileSync(entry!, JSON.stringify(kept));
    const other = { ...upstream, name: "y/schema.ts", path: "/y/schema.ts" };
    const second = readSchemaTsCached(other, cache);
    expect(second.constants.LATEST_PROTOCOL_VERSION!.value).toBe("from the cache");
    expect(second.file).toBe(other);
  });

  it("keys the facts by the file's bytes", () => {
    const cache = tempDir("cache");
    readSchemaTsCached(inputFile("export const A = 1;\n"), cache);
    const b = readSchemaTsCached(inputFile("export const A = 2;\n"), cache);
    expect(b.constants.A!.value).toBe(2);
    expect(entries(cache)).toHaveLength(2);
  });

  it.each([
    ["cut short", (text: string) => text.slice(0, text.length / 2)],
    ["not an object", () => "[]"],
    [
      "a declaration without its index-signature flag",
      (text: string) => text.replace(/"indexSignature":(true|false)/, '"indexSignature":"no"'),
    ],
  ])("reads schema.ts again when the entry is %s, and replaces the entry", (_, spoil) => {
    const cache = tempDir("cache");
    readSchemaTsCached(upstream, cache);
    const [entry] = entries(cache);
    const good = readFileSync(entry!, "utf8");
    writeFileSync(entry!, spoil(good));
    expect(readSchemaTsCached(upstream, cache)).toEqual(readSchemaTs(upstream));
    expect(readFileSync(entry!, "utf8")).toBe(good);
  });

  it("never keeps a schema.ts that does not parse", () => {
    const cache = tempDir("cache");
    const broken = inputFile("export interface A {\n");
    for (let run = 0; run < 2; run++)
      expect(() => readSchemaTsCached(broken, cache)).toThrow(McpGenError);
    expect(readdirSync(cache)).toEqual([]);
  });

  it("reads the file when the cache folder cannot be written", () => {
    const cache = tempDir("cache");
    writeFileSync(join(cache, "schema-ts"), "a file where the folder would be");
    expect(readSchemaTsCached(upstream, cache)).toEqual(readSchemaTs(upstream));
    expect(readdirSync(cache)).toEqual(["schema-ts"]);
  });
});
