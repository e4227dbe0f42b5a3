/**
 * The checks a message passes before it is validated (templates/runtime/core/limits.ts,
 * transport/bounded-read.ts): the depth scan jumps over strings, so brackets and
 * quotes inside them (escaped, after runs of backslashes) never count, and it agrees
 * with the depth of the parsed value, as the check on the parsed value does; a body
 * read in many chunks is the text sent, whatever chunk a multi-byte character is split
 * across.
 */
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { nestsDeeperThan, valueNestsDeeperThan } from "../../../templates/runtime/core/limits.js";
import { BodyTooLarge, readTextWithin } from "../../../templates/runtime/transport/bounded-read.js";

/** The nesting of objects and arrays in a parsed value. */
function depthOf(value: unknown): number {
  if (value === null || typeof value !== "object") return 0;
  const children = Array.isArray(value) ? value : Object.values(value);
  return 1 + Math.max(0, ...children.map(depthOf));
}

const STRINGS = [
  "plain",
  "[[[[{{{{",
  'a "quoted" word',
  "a backslash \\",
  'two backslashes \\\\" then a quote',
  "}}]]",
  "\\\\\\",
  "",
  "unicode ✓ [ \u2028",
];

/** Values nesting 0..6 levels, with every string above as keys and leaves. */
function* values(): Generator<unknown> {
  for (const text of STRINGS)
    for (let depth = 0; depth <= 6; depth++) {
      let value: unknown = text;
      for (let d = 0; d < depth; d++) value = d % 2 ? [value, text] : { [text]: value, x: text };
      yield value;
    }
}

describe("nestsDeeperThan", () => {
  it("agrees with the parsed depth, whatever the strings hold", () => {
    let checked = 0;
    for (const value of values()) {
      const text = JSON.stringify(value);
      const depth = depthOf(value);
      for (let limit = 0; limit <= 7; limit++) {
        expect(nestsDeeperThan(text, limit), `${text} at limit ${limit}`).toBe(depth > limit);
        checked++;
      }
    }
    expect(checked).toBe(STRINGS.length * 7 * 8);
  });

  it("an unterminated string ends the scan without counting what follows", () => {
    expect(nestsDeeperThan('{"a": "[[[[[[', 2)).toBe(false);
    expect(nestsDeeperThan('[[["a\\"]]]]]', 2)).toBe(true);
  });
});

describe("valueNestsDeeperThan", () => {
  it("agrees with the text scan and the parsed depth", () => {
    for (const value of values()) {
      const text = JSON.stringify(value);
      for (let limit = 0; limit <= 7; limit++)
        expect(valueNestsDeeperThan(JSON.parse(text), limit), `${text} at limit ${limit}`).toBe(
          nestsDeeperThan(text, limit),
        );
    }
  });

  it("answers for a value far deeper than the stack allows, looking no deeper than the limit", () => {
    const deep = JSON.parse(`${"[".repeat(100_000)}${"]".repeat(100_000)}`) as unknown;
    expect(valueNestsDeeperThan(deep, 64)).toBe(true);
    // An object, an array, an object and an array: four levels.
    expect(valueNestsDeeperThan({ a: [1, "x", null, { b: [] }] }, 4)).toBe(false);
    expect(valueNestsDeeperThan({ a: [1, "x", null, { b: [] }] }, 3)).toBe(true);
    expect(valueNestsDeeperThan("[[[[", 0)).toBe(false);
  });
});

describe("readTextWithin", () => {
  /** The bytes as an async iterable of `size`-byte chunks, as a response body arrives. */
  function chunksOf(bytes: Uint8Array, size: number): AsyncIterable<Uint8Array> {
    const chunks: Uint8Array[] = [];
    for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.subarray(at, at + size));
    return Readable.from(chunks, { objectMode: true });
  }

  it("is the text sent, in one chunk or split anywhere (inside characters too)", async () => {
    const text = `{"tools":${JSON.stringify(Array.from({ length: 50 }, (_, i) => `tool ✓ é ${i} 😀`))}}`;
    const bytes = new TextEncoder().encode(text);
    for (const size of [1, 2, 3, 7, 64, bytes.length])
      expect(await readTextWithin(chunksOf(bytes, size), bytes.length), `chunks of ${size}`).toBe(
        text,
      );
  });

  it("stops past the limit", async () => {
    const bytes = new Uint8Array(100);
    let stopped = false;
    await expect(
      readTextWithin(chunksOf(bytes, 10), 99, { stop: () => (stopped = true) }),
    ).rejects.toBeInstanceOf(BodyTooLarge);
    expect(stopped).toBe(true);
  });
});
