/**
 * generate() compiles validators from a model built without schema.ts,
 * while schema.ts is read, and the validators emitter uses that result
 * only when the complete model's validator sources are the same. These
 * tests hold both halves: the sources are the same for every known
 * revision and extension (so the early result serves them), and a result
 * compiled from other sources is never used.
 */
import { describe, expect, it } from "vitest";
import { compileValidators } from "../../generator/emit/compile-validators.js";
import { emitValidators, validatorSources } from "../../generator/emit/emit-validators.js";
import { loadSourcesInStages } from "../../generator/load/load-sources.js";
import type { SourceSet } from "../../generator/load/types.js";
import { buildModel } from "../../generator/model/build.js";
import { runPasses } from "../../generator/model/passes/index.js";
import type { McpModel } from "../../generator/model/types.js";
import { REVISIONS, testSources } from "../helpers.js";

function modelOf(sources: SourceSet): McpModel {
  return runPasses(buildModel(sources).model, {
    patches: sources.patches,
    definitionsKey: sources.schema.definitionsKey,
    extensions: sources.extensions,
  });
}

async function stagedModels(
  spec: string,
  extensions: string[] = [],
): Promise<{ early: McpModel; complete: McpModel }> {
  const staged = await loadSourcesInStages({ spec, sources: testSources(), extensions });
  expect(staged.early).toBeDefined();
  return { early: modelOf(staged.early!), complete: modelOf(await staged.complete) };
}

describe("validators compiled before schema.ts is read", () => {
  const cases: Array<[string, string[]]> = [
    ...REVISIONS.map((r): [string, string[]] => [r, []]),
    ["2026-07-28", ["tasks"]],
  ];

  it.each(cases)(
    "come from the same validator sources as the complete model for %s %j",
    async (spec, extensions) => {
      const { early, complete } = await stagedModels(spec, extensions);
      expect(early.declarations.length).toBe(complete.declarations.length);
      expect(validatorSources(early)).toEqual(validatorSources(complete));
    },
  );

  it("are used when their sources match and never when they do not", async () => {
    const { complete: model } = await stagedModels("2025-11-25");
    const { complete: other } = await stagedModels("2026-07-28");
    const fresh = await emitValidators(model, "/* banner */\n");
    const matching = {
      sources: validatorSources(model),
      compiled: { code: "// precompiled", imports: [] },
    };
    expect((await emitValidators(model, "/* banner */\n", matching)).contents).toContain(
      "// precompiled",
    );
    const foreign = {
      sources: validatorSources(other),
      compiled: compileValidators(validatorSources(other)),
    };
    expect((await emitValidators(model, "/* banner */\n", foreign)).contents).toBe(fresh.contents);
  });

  it("are not attempted when schema.json does not read; the complete stage reports why", async () => {
    const staged = await loadSourcesInStages({
      spec: "test/fixtures/bad-json",
      sources: testSources(),
    });
    expect(staged.early).toBeUndefined();
    await expect(staged.complete).rejects.toThrow(/MCPG/);
  });
});
