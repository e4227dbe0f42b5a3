/**
 * Safety of the output as a whole: generated/ matches a fresh run byte for
 * byte (the drift check), two runs give the same bytes, the inputs are not
 * mutated, and everything generated compiles under tsc --strict in one
 * program.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { checkOutput, generate } from "../../generator/index.js";
import { loadSources } from "../../generator/load/load-sources.js";
import { buildModel } from "../../generator/model/build.js";
import { MODELS_FOLDER, modelFile } from "../../generator/model/committed-model.js";
import { runPasses } from "../../generator/model/passes/index.js";
import { emitFiles } from "../../generator/emit/index.js";
import { listFiles } from "../../generator/write/write-output.js";
import { generatedTargets } from "../../scripts/generate/targets.js";
import { REVISIONS, ROOT, testSources } from "../helpers/index.js";
import { strictErrors } from "../helpers/typecheck.js";

const REGENERATE = "npm run generate";

describe("generated/ is what the generator produces now (drift check)", () => {
  it("holds exactly the known targets, and their models", () => {
    expect(readdirSync(join(ROOT, "generated")).sort()).toEqual(
      [...generatedTargets().map((t) => t.folder), MODELS_FOLDER].sort(),
    );
    expect(readdirSync(join(ROOT, "generated", MODELS_FOLDER)).sort()).toEqual(
      generatedTargets()
        .map((t) => `${t.folder}.json`)
        .sort(),
    );
  });

  it.each(generatedTargets().map((t) => [t.folder, t] as const))(
    "generated/%s",
    async (folder, target) => {
      const result = await generate({
        spec: target.spec,
        extensions: target.extensions,
        out: join("generated", folder),
        sources: testSources(),
        regenerateCommand: REGENERATE,
      });
      const stale = [
        ...checkOutput(join(ROOT, "generated", folder), result.files),
        ...checkOutput(join(ROOT, "generated", MODELS_FOLDER), [
          modelFile(folder, result.model),
        ]).filter((problem) => problem.path === `${folder}.json`),
      ];
      expect(stale, "generated/ is stale: run `npm run generate` and commit the result").toEqual(
        [],
      );
    },
  );
});

describe("determinism", () => {
  it("two runs give identical bytes", async () => {
    const options = { spec: "2026-07-28", out: "out", sources: testSources(), stampVersion: false };
    const [a, b] = [await generate(options), await generate(options)];
    expect(b.files.map((f) => f.path)).toEqual(a.files.map((f) => f.path));
    b.files.forEach((f, i) => expect(f.contents === a.files[i]!.contents, f.path).toBe(true));
  });

  it("output does not depend on the clock", async () => {
    const options = { spec: "2025-06-18", out: "out", sources: testSources() };
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(new Date("2001-02-03T04:05:06Z"));
      const early = await generate(options);
      vi.setSystemTime(new Date("2039-12-31T23:59:59Z"));
      const late = await generate(options);
      late.files.forEach((f, i) =>
        expect(f.contents === early.files[i]!.contents, f.path).toBe(true),
      );
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("inputs are never mutated", () => {
  it.each(REVISIONS)(
    "%s: the source set is unchanged by build, passes and emit",
    async (revision) => {
      const sources = await loadSources({ spec: revision, sources: testSources() });
      const before = structuredClone({
        document: sources.schema.document,
        patches: sources.patches,
        ts: sources.schemaTs,
      });
      const built = buildModel(sources);
      const modelBefore = structuredClone(built.model);
      const passed = runPasses(built.model, {
        patches: sources.patches,
        definitionsKey: sources.schema.definitionsKey,
        extensions: sources.extensions,
      });
      // Some files come back ready, some still being emitted: Promise.all waits for the latter.
      // eslint-disable-next-line @typescript-eslint/await-thenable
      await Promise.all(emitFiles(passed, { regenerate: "x", options: {} }));
      expect({
        document: sources.schema.document,
        patches: sources.patches,
        ts: sources.schemaTs,
      }).toEqual(before);
      expect(built.model).toEqual(modelBefore);
    },
  );
});

describe("everything generated compiles under tsc --strict, in one program", () => {
  it("generated/ and test/golden/", () => {
    const roots = ["generated", join("test", "golden")].flatMap((dir) =>
      listFiles(join(ROOT, dir))
        .filter((f) => f.endsWith(".ts"))
        .map((f) => join(ROOT, dir, f)),
    );
    const problems = strictErrors(roots, {
      noUncheckedIndexedAccess: true,
      exactOptionalPropertyTypes: true,
      noImplicitOverride: true,
      skipLibCheck: false,
    });
    expect(roots.length).toBeGreaterThan(40);
    expect(problems).toEqual([]);
  });
});
