/**
 * Compile-time checks of content-types.test.ts: the runtime's content types
 * (server/content.ts) and the generated protocol types of 2026-07-28 and
 * 2025-11-25 are assignable each way (readonly aside). This file is not run;
 * the test compiles it under --strict and fails on any error here.
 */
import type * as current from "../../../generated/2026-07-28/types.gen.js";
import type * as legacy from "../../../generated/2025-11-25/types.gen.js";
import type * as runtime from "../../../templates/runtime/server/content.js";

/** Compiles only when T is true. */
type Assert<T extends true> = T;
/** Whether every A is a B. */
type Extends<A, B> = [A] extends [B] ? true : false;

/** T with every readonly modifier removed, all the way down. */
type Mutable<T> =
  T extends ReadonlyArray<infer I>
    ? Mutable<I>[]
    : T extends object
      ? { -readonly [K in keyof T]: Mutable<T[K]> }
      : T;

type CurrentContents = current.TextResourceContents | current.BlobResourceContents;
type LegacyContents = legacy.TextResourceContents | legacy.BlobResourceContents;

export type Checks = [
  Assert<Extends<current.ContentBlock, runtime.ContentBlock>>,
  Assert<Extends<Mutable<runtime.ContentBlock>, current.ContentBlock>>,
  Assert<Extends<legacy.ContentBlock, runtime.ContentBlock>>,
  Assert<Extends<Mutable<runtime.ContentBlock>, legacy.ContentBlock>>,

  Assert<Extends<current.PromptMessage, runtime.PromptMessage>>,
  Assert<Extends<Mutable<runtime.PromptMessage>, current.PromptMessage>>,
  Assert<Extends<legacy.PromptMessage, runtime.PromptMessage>>,
  Assert<Extends<Mutable<runtime.PromptMessage>, legacy.PromptMessage>>,

  Assert<Extends<CurrentContents, runtime.ResourceContents>>,
  Assert<Extends<Mutable<runtime.ResourceContents>, CurrentContents>>,
  Assert<Extends<LegacyContents, runtime.ResourceContents>>,
  Assert<Extends<Mutable<runtime.ResourceContents>, LegacyContents>>,
];

// @ts-expect-error "txt" is no content type
export const typo: runtime.ContentBlock = { type: "txt", text: "x" };
// @ts-expect-error resource contents need a uri
export const noUri: runtime.ResourceContents = { text: "x" };
const text = { type: "text", text: "x" } as const;
// @ts-expect-error a prompt message is from the user or the assistant
export const badRole: runtime.PromptMessage = { role: "system", content: text };
