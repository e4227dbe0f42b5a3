/**
 * The runtime declares the shapes handlers return (server/content.ts)
 * because it imports no generated module. content-types.check.ts keeps
 * them equal to the generated protocol types of 2026-07-28 and 2025-11-25,
 * each way assignable (readonly aside), so a value the schema allows is
 * never refused by the compiler and a value the compiler allows is valid on
 * the wire; and it holds the typos the compiler must refuse. This test
 * compiles it in process under --strict (and shows that a false assertion
 * would be caught); the run-time part checks that strictness reaches the
 * result validators too.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { parseResponse } from "../../../generated/2026-07-28/index.js";
import { tempDir } from "../../helpers/index.js";
import { strictErrors } from "../../helpers/typecheck.js";

const CHECKS = join(import.meta.dirname, "content-types.check.ts");
const OPTIONS = { noUncheckedIndexedAccess: true };

describe("the runtime's content types", () => {
  // One compile for both files: the checks as they are, and a copy with one assertion made false and one typo fixed.
  let errors: string[];
  beforeAll(() => {
    const dir = tempDir("content-types");
    const wrong = join(dir, "wrong.check.ts");
    writeFileSync(
      wrong,
      readFileSync(CHECKS, "utf8")
        .replaceAll('"../../', `"${join(import.meta.dirname, "..", "..")}/`)
        .replace(
          "Assert<Extends<current.ContentBlock, runtime.ContentBlock>>",
          "Assert<Extends<string, runtime.ContentBlock>>",
        )
        .replace('{ type: "txt", text: "x" }', '{ type: "text", text: "x" }'),
    );
    errors = strictErrors([CHECKS, wrong], OPTIONS, dir);
  });

  it("are the generated protocol types of 2026-07-28 and 2025-11-25, each way, and refuse typos", () => {
    expect(errors.filter((e) => !e.startsWith("wrong.check.ts("))).toEqual([]);
  });

  it("a false assertion or a typo the compiler lets through fails the check", () => {
    expect(errors).toEqual([
      expect.stringMatching(/^wrong\.check\.ts\(\d+,\d+\): error TS2344: /),
      expect.stringMatching(
        /^wrong\.check\.ts\(\d+,\d+\): error TS2578: Unused '@ts-expect-error'/,
      ),
    ]);
  });

  it("the wire agrees: a result with a block of no content type is refused by the generated validator", () => {
    const reply = {
      jsonrpc: "2.0",
      id: 1,
      result: { resultType: "complete", content: [{ type: "txt", text: "x" }] },
    };
    expect(parseResponse(reply, "tools/call")).toMatchObject({ ok: false });
  });
});
