/**
 * `Completed<R>` (templates/runtime/client/typed.ts), what a typed client
 * method resolves with: the MRTR result leaves the union whatever its
 * literal ("input_required", a draft's "incomplete"), known by its shape;
 * complete results stay, a task that waits for input too, and so does an
 * extension's own resultType. Checked by the compiler (npm run typecheck).
 */
import { describe, expectTypeOf, it } from "vitest";
import type * as Tasks from "../../../generated/2026-07-28+tasks/index.js";
import type { Completed } from "../../../templates/runtime/client/typed.js";

/** A draft's MRTR result: another name, another literal, the same shape. */
interface IncompleteResult {
  _meta?: Record<string, unknown>;
  inputRequests?: Record<string, unknown>;
  requestState?: string;
  [key: string]: unknown;
}
interface DraftCallToolResult {
  content: unknown[];
  [key: string]: unknown;
}
type DraftToolsCall =
  | (IncompleteResult & { resultType: "incomplete" })
  | (DraftCallToolResult & { resultType: "complete" });

describe("Completed<R>", () => {
  it("drops 2026-07-28's InputRequiredResult and keeps the complete result and the task", () => {
    expectTypeOf<Completed<Tasks.ResultByMethod["tools/call"]>>().toEqualTypeOf<
      | (Tasks.CallToolResult & { resultType: "complete" })
      | (Tasks.CreateTaskResult & { resultType: "task" })
    >();
  });

  it("drops a draft's MRTR result under its own literal", () => {
    expectTypeOf<Completed<DraftToolsCall>>().toEqualTypeOf<
      DraftCallToolResult & { resultType: "complete" }
    >();
  });

  it("keeps a complete task that waits for input (it declares inputRequests too)", () => {
    expectTypeOf<Completed<Tasks.ResultByMethod["tasks/get"]>>().toEqualTypeOf<
      Tasks.ResultByMethod["tasks/get"]
    >();
  });
});
