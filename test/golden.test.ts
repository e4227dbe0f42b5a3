/**
 * Golden cases: one folder per case under test/fixtures/golden-<case>/
 * (schema.json and optionally schema.ts), emitted files compared with
 * test/golden/<case>/.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "vitest";
import { generate } from "../generator/index.js";
import { expectGoldenFiles } from "./helpers/golden-files.js";
import { ROOT, testSources } from "./helpers/index.js";

const cases = readdirSync(join(ROOT, "test", "fixtures"))
  .filter((name) => name.startsWith("golden-"))
  .sort();

describe("golden cases", () => {
  it.each(cases)("%s", async (name) => {
    const caseName = name.slice("golden-".length);
    const result = await generate({
      spec: join("test", "fixtures", name),
      out: join("test", "golden", caseName),
      sources: testSources(),
      stampVersion: false,
    });
    await expectGoldenFiles(caseName, result.files);
  });
});
