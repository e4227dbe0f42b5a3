/**
 * Golden cases of the Python emitter: the fixtures of test/golden.test.ts
 * (test/fixtures/golden-<case>/) written as Python packages, compared with
 * test/golden/python-<case>/ byte for byte. Update with
 * `npx vitest -u test/python/golden.test.ts`, read the diff, commit.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "vitest";
import { generate } from "../../generator/index.js";
import { expectGoldenFiles } from "../helpers/golden-files.js";
import { ROOT, testSources } from "../helpers/index.js";

const cases = readdirSync(join(ROOT, "test", "fixtures"))
  .filter((name) => name.startsWith("golden-"))
  .sort();

describe("golden cases, Python", () => {
  it.each(cases)("%s", async (name) => {
    const caseName = `python-${name.slice("golden-".length)}`;
    const result = await generate({
      spec: join("test", "fixtures", name),
      out: join("test", "golden", caseName),
      sources: testSources(),
      stampVersion: false,
      target: "python",
    });
    await expectGoldenFiles(caseName, result.files);
  });
});
