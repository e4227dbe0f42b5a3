/**
 * The runtime declares the shapes handlers return (server/content.ts)
 * because it imports no generated module. These checks keep them equal to
 * the generated protocol types of 2026-07-28 and 2025-11-25: each way
 * assignable (readonly aside), so a value the schema allows is never
 * refused by the compiler and a value the compiler allows is valid on the
 * wire. They are checked by `npm run typecheck`; the run-time part checks
 * that strictness reaches the result validators too.
 */
import { describe, expect, expectTypeOf, it } from "vitest";
import type * as current from "../../generated/2026-07-28/index.js";
import type * as legacy from "../../generated/2025-11-25/index.js";
import { parseResponse } from "../../generated/2026-07-28/index.js";
import type * as runtime from "../../templates/runtime/server/content.js";

/** T with every readonly modifier removed, all the way down. */
type Mutable<T> =
  T extends ReadonlyArray<infer I>
    ? Mutable<I>[]
    : T extends object
      ? { -readonly [K in keyof T]: Mutable<T[K]> }
      : T;

describe("the runtime's content types", () => {
  it("are the generated protocol types of 2026-07-28 and 2025-11-25, each way", () => {
    expectTypeOf<current.ContentBlock>().toExtend<runtime.ContentBlock>();
    expectTypeOf<Mutable<runtime.ContentBlock>>().toExtend<current.ContentBlock>();
    expectTypeOf<legacy.ContentBlock>().toExtend<runtime.ContentBlock>();
    expectTypeOf<Mutable<runtime.ContentBlock>>().toExtend<legacy.ContentBlock>();

    expectTypeOf<current.PromptMessage>().toExtend<runtime.PromptMessage>();
    expectTypeOf<Mutable<runtime.PromptMessage>>().toExtend<current.PromptMessage>();
    expectTypeOf<legacy.PromptMessage>().toExtend<runtime.PromptMessage>();
    expectTypeOf<Mutable<runtime.PromptMessage>>().toExtend<legacy.PromptMessage>();

    type CurrentContents = current.TextResourceContents | current.BlobResourceContents;
    type LegacyContents = legacy.TextResourceContents | legacy.BlobResourceContents;
    expectTypeOf<CurrentContents>().toExtend<runtime.ResourceContents>();
    expectTypeOf<Mutable<runtime.ResourceContents>>().toExtend<CurrentContents>();
    expectTypeOf<LegacyContents>().toExtend<runtime.ResourceContents>();
    expectTypeOf<Mutable<runtime.ResourceContents>>().toExtend<LegacyContents>();
  });

  it("refuse typos at compile time: a content type, a missing uri, a role", () => {
    // @ts-expect-error "txt" is no content type
    const typo: runtime.ContentBlock = { type: "txt", text: "x" };
    // @ts-expect-error resource contents need a uri
    const noUri: runtime.ResourceContents = { text: "x" };
    // @ts-expect-error a prompt message is from the user or the assistant
    const badRole: runtime.PromptMessage = { role: "system", content: { type: "text", text: "x" } };
    // The wire agrees: a result with such a block is refused by the generated validator.
    const reply = {
      jsonrpc: "2.0",
      id: 1,
      result: { resultType: "complete", content: [typo] },
    };
    expect(parseResponse(reply, "tools/call")).toMatchObject({ ok: false });
    expect([noUri, badRole]).toHaveLength(2);
  });
});
