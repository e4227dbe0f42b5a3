/**
 * `mcp-gen diff` along the spec's drafts: a definition kept under a new
 * name is reported as renamed (matched by shape), not as removed plus
 * added, and a method's MRTR result is followed through its rename.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { diffRevisions, type Change } from "../../generator/diff/index.js";
import { DRAFTS_DIR, testSources } from "../helpers/index.js";

const draft = (name: string) => join(DRAFTS_DIR!, name);
const diff = async (from: string, to: string) =>
  (await diffRevisions(draft(from), draft(to), { sources: testSources() })).diff;
const about = (changes: readonly Change[], subject: string) =>
  changes.filter((c) => c.category === "definition" && c.subject === subject);

describe("renames between drafts", () => {
  it("2026-03-09 → 2026-04-14 (consecutive): RetryAugmentedRequestParams is kept as InputResponseRequestParams", async () => {
    const { changes } = await diff("2026-03-09-a6eaf22a", "2026-04-14-4f206f70");
    expect(about(changes, "InputResponseRequestParams")).toEqual([
      expect.objectContaining({
        change: "changed",
        aspect: "name",
        from: "RetryAugmentedRequestParams",
        to: "InputResponseRequestParams",
        summary: "renamed from RetryAugmentedRequestParams (same shape)",
      }),
    ]);
    expect(about(changes, "RetryAugmentedRequestParams")).toEqual([]);
  });

  it("2026-04-14 → 2026-05-27: IncompleteResult is kept as InputRequiredResult, and the methods that answer it change only its literal", async () => {
    const { changes } = await diff("2026-04-14-4f206f70", "2026-05-27-906af9df");
    const renamed = about(changes, "InputRequiredResult");
    expect(renamed[0]).toMatchObject({
      aspect: "name",
      from: "IncompleteResult",
      to: "InputRequiredResult",
    });
    // resultType became required with the rest of the results: reported inside the renamed definition.
    expect(renamed.slice(1).map((c) => c.aspect)).toEqual(expect.arrayContaining(["property"]));
    expect(about(changes, "IncompleteResult")).toEqual([]);
    const toolsCall = changes.filter((c) => c.category === "method" && c.subject === "tools/call");
    expect(toolsCall).toContainEqual(
      expect.objectContaining({
        aspect: "result-type",
        detail: "InputRequiredResult",
        from: "incomplete",
        to: "input_required",
      }),
    );
    expect(toolsCall.filter((c) => c.aspect === "result-branch")).toEqual([]);
  });

  it("a definition that goes with no successor of its shape is still removed", async () => {
    const { changes } = await diff("2026-04-14-4f206f70", "2026-05-06-0d217bba");
    const removed = changes.filter(
      (c) =>
        c.category === "definition" && c.change === "removed" && c.subject === "IncompleteResult",
    );
    expect(removed).toHaveLength(1);
    expect(changes.some((c) => c.aspect === "name")).toBe(false);
  });
});
