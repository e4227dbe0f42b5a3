/**
 * The rules that read meaning from shape, at their edges: `mcp-gen generate`
 * prints a note per inference, and results that no property tells apart
 * are refused with a diagnostic naming both definitions and what they
 * share (an edited copy of a draft, made in a temporary folder).
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatDiagnostic, McpGenError } from "../../generator/diagnostics.js";
import { generate } from "../../generator/index.js";
import { DRAFTS_DIR, tempDir, testSources } from "../helpers/index.js";
import { runCli } from "../helpers/run-cli.js";

const draft = (name: string) => join(DRAFTS_DIR!, name);

describe("mcp-gen generate on a draft", () => {
  it("prints a note per inference: the MRTR result by shape, its envelope, and how results without resultType are told apart", async () => {
    const out = join(tempDir("draft-notes"), "out");
    const run = await runCli(["generate", "--spec", draft("2026-02-23-ac8b3e6b"), "--out", out]);
    expect(run.code, run.stderr).toBe(0);
    const notes = run.stderr.split("\n").filter((line) => line.includes("MCPG306"));
    expect(notes).toHaveLength(2);
    expect(notes[0]).toContain(
      "IncompleteResult has the MRTR shape (inputRequests and/or requestState), carried by JSONRPCIncompleteResultResponse for any request; it carries no resultType",
    );
    expect(notes[1]).toContain(
      "IncompleteResult is told apart from the other results of its methods by inputRequests or requestState",
    );
  });
});

describe("results no property tells apart", () => {
  it("are refused, naming both definitions and the properties they share", async () => {
    const dir = join(tempDir("draft-edited"), "edited");
    mkdirSync(dir);
    const source = draft("2026-03-09-a6eaf22a");
    copyFileSync(join(source, "schema.ts"), join(dir, "schema.ts"));
    // Without inputRequests and requestState, IncompleteResult and the open GetTaskPayloadResult look alike.
    const schema = JSON.parse(readFileSync(join(source, "schema.json"), "utf8")) as {
      $defs: Record<string, { properties: Record<string, unknown> }>;
    };
    delete schema.$defs.IncompleteResult!.properties.inputRequests;
    delete schema.$defs.IncompleteResult!.properties.requestState;
    writeFileSync(join(dir, "schema.json"), JSON.stringify(schema));
    const failed = await generate({ spec: dir, out: "out", sources: testSources() }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failed).toBeInstanceOf(McpGenError);
    const refusals = (failed as McpGenError).diagnostics
      .filter((d) => d.code === "MCPG409")
      .map(formatDiagnostic);
    expect(refusals).toContain(
      'edited/schema.json#/$defs/GetTaskPayloadRequest: error MCPG409: the results of "tasks/result" cannot be told apart: IncompleteResult and GetTaskPayloadResult carry no resultType, and neither requires a property the other does not declare (both declare: _meta, result_type) (fix: give the results a resultType (a const in schema.json, or a ResultType literal in schema.ts whose doc links the result with {@link}), give one of them a required property of its own, or add a patch to schema/patches/)',
    );
  });
});
