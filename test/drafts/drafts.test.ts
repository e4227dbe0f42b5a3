/**
 * The spec's history as a test: every draft state in
 * ../shared/mcp-schema/drafts/ generates without an error, compiles under
 * --strict, and says what its own schema.ts says (expectations.ts): its
 * MRTR methods and their resultType literal, its resultType set, its error
 * codes. The MRTR result was renamed on the way (IncompleteResult,
 * InputRequiredResult), so was its literal ("incomplete", "input_required"),
 * and for a while results carried no resultType: all of it is read from
 * shape. Folders are listed at run time, so a new one is tested with no
 * change here.
 */
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { formatDiagnostic } from "../../generator/diagnostics.js";
import { generate, type GenerateResult } from "../../generator/index.js";
import { writeOutput } from "../../generator/write/write-output.js";
import { DRAFTS_DIR, tempDir, testSources } from "../helpers/index.js";
import { strictErrors } from "../helpers/typecheck.js";
import { EXPECTATIONS } from "./expectations.js";

if (!DRAFTS_DIR)
  throw new Error(
    "test/drafts needs the spec's draft states in ../shared/mcp-schema/drafts/ (one folder per draft holding schema.json and schema.ts)",
  );
const DRAFTS = readdirSync(DRAFTS_DIR, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

/** What the test reads of a generated module. */
interface DraftModule {
  METHODS: Record<string, { mrtr: boolean; results: Record<string, string> }>;
  RESULT_TYPES: readonly string[];
  MRTR_RESULT_TYPE?: string;
  ERROR_CODES: Record<number, { policy: string }>;
  parseResponse: (input: unknown, method: string) => { ok: boolean; message?: unknown };
}

interface GeneratedDraft {
  readonly result: GenerateResult;
  readonly out: string;
}

/**
 * Generates every draft into a temporary folder, then compiles them all
 * under --strict in one program (one parse of the standard library for
 * all seven): the problems by draft.
 */
async function generateAll(): Promise<{
  drafts: Map<string, GeneratedDraft>;
  errors: Map<string, string[]>;
}> {
  const drafts = new Map<string, GeneratedDraft>();
  for (const draft of DRAFTS) {
    const result = await generate({
      spec: join(DRAFTS_DIR!, draft),
      out: "out",
      sources: testSources(),
      stampVersion: false,
    }).catch((error: unknown) => ({ error }));
    if ("error" in result) continue;
    const out = join(tempDir(`draft-${draft}`), "mcp");
    writeOutput(out, result.files);
    writeFileSync(join(out, "package.json"), '{ "type": "module" }\n');
    drafts.set(draft, { result, out });
  }
  const problems = strictErrors(
    [...drafts.values()].map((d) => join(d.out, "index.ts")),
    { noEmit: false, outDir: undefined },
    "/",
  );
  const errors = new Map(
    [...drafts].map(([draft, { out }]) => [
      draft,
      problems.filter((p) => p.includes(out.slice(1))),
    ]),
  );
  return { drafts, errors };
}

const all = generateAll();

async function generated(draft: string): Promise<GeneratedDraft & { errors: string[] }> {
  const { drafts, errors } = await all;
  const found = drafts.get(draft);
  if (!found)
    throw new Error(
      `${draft} did not generate: ${await generate({
        spec: join(DRAFTS_DIR!, draft),
        out: "out",
        sources: testSources(),
      }).then(
        () => "",
        (e: unknown) => String(e),
      )}`,
    );
  return { ...found, errors: errors.get(draft) ?? [] };
}

async function moduleOf(draft: string): Promise<DraftModule> {
  const { out } = await generated(draft);
  return (await import(pathToFileURL(join(out, "index.js")).href)) as DraftModule;
}

it("the drafts folder holds the seven draft states this test was written with, at least", () => {
  expect(DRAFTS).toEqual(expect.arrayContaining(Object.keys(EXPECTATIONS)));
});

describe.each(DRAFTS)("draft %s", (draft) => {
  const expected = EXPECTATIONS[draft];

  it("generates without an error, and compiles under --strict", async () => {
    const { result, errors } = await generated(draft);
    expect(result.diagnostics.filter((d) => d.severity === "error").map(formatDiagnostic)).toEqual(
      [],
    );
    expect(errors).toEqual([]);
  }, 300_000);

  it("has an expectation written from its schema.ts in test/drafts/expectations.ts", () => {
    expect(
      expected,
      `no expectation for ${draft}: read its schema.ts and add its MRTR methods, resultTypes and error codes to test/drafts/expectations.ts`,
    ).toBeDefined();
  });

  it.runIf(expected)(
    "its MRTR methods, resultTypes and error codes are the draft's own",
    async () => {
      const { result } = await generated(draft);
      const loaded = await moduleOf(draft);
      const mrtr = Object.entries(loaded.METHODS)
        .filter(([, entry]) => entry.mrtr)
        .map(([method]) => method)
        .sort();
      expect(mrtr).toEqual([...expected!.mrtr].sort());
      expect(loaded.MRTR_RESULT_TYPE).toBe(expected!.mrtrResultType);
      expect(result.model.mrtrResultType).toBe(expected!.mrtrResultType);
      expect(loaded.RESULT_TYPES).toEqual(expected!.resultTypes);
      const codes = Object.entries(loaded.ERROR_CODES)
        .filter(([, info]) => info.policy !== "legacy")
        .map(([code]) => Number(code))
        .sort((a, b) => a - b);
      expect(codes).toEqual([...expected!.errorCodes].sort((a, b) => a - b));
    },
    300_000,
  );

  it.runIf(expected?.mrtrResult)(
    "parseResponse tells the MRTR result from a complete one, by the draft's literal or by shape",
    async () => {
      const loaded = await moduleOf(draft);
      const literal = expected!.mrtrResultType;
      const discriminant = expected!.discriminant ?? "resultType";
      const answer = (result: object) => ({ jsonrpc: "2.0", id: 1, result });
      const typed = (result: object, value: string) =>
        literal === undefined ? result : { ...result, [discriminant]: value };
      expect(Object.values(loaded.METHODS["tools/call"]!.results)).toContain(expected!.mrtrResult);
      const asked = loaded.parseResponse(
        answer(typed({ requestState: "opaque" }, literal ?? "")),
        "tools/call",
      );
      expect(asked).toMatchObject({ ok: true });
      const completed = loaded.parseResponse(
        answer(typed({ content: [{ type: "text", text: "done" }] }, "complete")),
        "tools/call",
      );
      expect(completed).toMatchObject({ ok: true });
      // Selected by shape, the MRTR result keeps what it was sent; a complete one without resultType is read as "complete".
      const resultOf = (parsed: { message?: unknown }) =>
        (parsed.message as { result: Record<string, unknown> }).result;
      if (discriminant !== "resultType" || literal === undefined) {
        expect(resultOf(asked)).toEqual(typed({ requestState: "opaque" }, literal ?? ""));
        expect(resultOf(completed).resultType).toBe("complete");
      }
    },
    300_000,
  );
});
