/**
 * loadSources: both input files are read before giving up, so their
 * problems are reported together; schema.json must hold definitions.
 */
import { describe, expect, it } from "vitest";
import { formatDiagnostic, McpGenError } from "../../generator/diagnostics.js";
import { loadSources, parseSchemaJson } from "../../generator/load/load-sources.js";
import { fixture } from "../helpers/run-cli.js";
import { testSources } from "../helpers/index.js";

function problems(read: () => unknown): string[] {
  try {
    read();
    return [];
  } catch (error) {
    if (!(error instanceof McpGenError)) throw error;
    return error.diagnostics.map(formatDiagnostic);
  }
}

async function loadProblems(spec: string, withoutSchemaTs = false): Promise<string[]> {
  return loadSources({ spec, sources: testSources(), withoutSchemaTs }).then(
    () => [],
    (error: unknown) => {
      if (!(error instanceof McpGenError)) throw error;
      return error.diagnostics.map(formatDiagnostic);
    },
  );
}

describe("loadSources", () => {
  it("reports a malformed schema.json and a schema.ts that does not parse together", async () => {
    expect(
      (await loadProblems(fixture("bad-both-files"))).map((l) => l.split(": error ")[0]),
    ).toEqual(["bad-both-files/schema.json:4:3", "bad-both-files/schema.ts:4:1"]);
  });

  it("does not read schema.ts when told to generate without it", async () => {
    expect(await loadProblems(fixture("bad-schema-ts"), true)).toEqual([]);
  });

  it("reads a folder without schema.ts as an unknown revision named after the folder, with the whole overlay", async () => {
    const sources = await loadSources({ spec: fixture("custom-schema"), sources: testSources() });
    expect(sources).toMatchObject({ revision: "custom-schema", known: false });
    expect(sources.patches.map((p) => p.file)).toEqual([
      "schema/patches/extension-defects.json",
      "schema/patches/upstream-defects.json",
    ]);
    expect(sources.schemaTs).toBeUndefined();
  });

  it("names a folder with schema.ts after the protocol version it declares", async () => {
    const sources = await loadSources({
      spec: fixture("golden-stateless"),
      sources: testSources(),
    });
    expect(sources).toMatchObject({ revision: "2099-01-01", known: false });
  });
});

describe("parseSchemaJson", () => {
  const FIX = "(fix: the file must hold an object with $defs (2020-12) or definitions (draft-07))";
  it.each([
    ["[]", `s/schema.json#: error MCPG208: schema.json has no definitions (an array) ${FIX}`],
    ['"schema"', `s/schema.json#: error MCPG208: schema.json has no definitions (string) ${FIX}`],
    [
      '{ "type": "object" }',
      `s/schema.json#: error MCPG208: schema.json has no definitions (neither $defs nor definitions) ${FIX}`,
    ],
    [
      '{ "$defs": [] }',
      `s/schema.json#: error MCPG208: schema.json has no definitions (neither $defs nor definitions) ${FIX}`,
    ],
  ])("%s", (text, want) => {
    expect(
      problems(() =>
        parseSchemaJson({ name: "s/schema.json", path: "/s/schema.json", sha256: "", text }),
      ),
    ).toEqual([want]);
  });
});
