/**
 * The printer's constructs for mcp-gen's own modules (ts-print.ts over
 * doc.ts), with exact strings: on one line when they fit the print
 * width, broken one element per line when they do not.
 */
import { describe, expect, it } from "vitest";
import { PRINT_WIDTH } from "../../generator/emit/doc.js";
import {
  arrayLiteral,
  jsonLiteral,
  namedList,
  objectLiteral,
  parameterList,
  printCode,
  printInterface,
  tableLiteral,
} from "../../generator/emit/ts-print.js";

const long = (n: number) => `"${"x".repeat(n)}"`;

describe("printer constructs", () => {
  it("an array stays on its line when it fits, else one element per line with a trailing comma", () => {
    expect(printCode(["export const A = ", arrayLiteral(['"a"', '"b"']), " as const;"])).toBe(
      'export const A = ["a", "b"] as const;',
    );
    const items = [long(40), long(40)];
    expect(printCode(["export const A = ", arrayLiteral(items), " as const;"]).split("\n")).toEqual(
      ["export const A = [", `  ${items[0]},`, `  ${items[1]},`, "] as const;"],
    );
  });

  it("counts what follows a group on its line when deciding whether it fits", () => {
    const name = "x".repeat(PRINT_WIDTH - 'import { a } from "";'.length);
    expect(printCode(["import ", namedList(["a"]), ` from "${name}";`])).toBe(
      `import { a } from "${name}";`,
    );
    expect(printCode(["import ", namedList(["a"]), ` from "${name}x";`]).split("\n")).toEqual([
      "import {",
      "  a,",
      `} from "${name}x";`,
    ]);
  });

  it("an expanded object puts every member on its own line; nested objects break only when too long", () => {
    expect(
      printCode(
        tableLiteral([
          ["a", { object: [["b", "1"]] }],
          ["c", { array: [long(50), long(50)] }],
        ]),
      ).split("\n"),
    ).toEqual([
      "{",
      "  a: { b: 1 },",
      "  c: [",
      `    ${long(50)},`,
      `    ${long(50)},`,
      "  ],",
      "}",
    ]);
  });

  it("a member comment goes above its member", () => {
    expect(printCode(objectLiteral([["A", "1", "/**\n * Doc.\n */\n"]], true)).split("\n")).toEqual(
      ["{", "  /**", "   * Doc.", "   */", "  A: 1,", "}"],
    );
  });

  it("parameters break one per line with a trailing comma", () => {
    const params = [`a: ${long(45)}`, `b: ${long(45)}`];
    expect(printCode(["function f", parameterList(params), ": void {}"]).split("\n")).toEqual([
      "function f(",
      `  ${params[0]},`,
      `  ${params[1]},`,
      "): void {}",
    ]);
  });

  it("an interface of named members", () => {
    expect(printInterface("M", [['"a/b"', "T.A"]])).toBe('export interface M {\n  "a/b": T.A;\n}');
  });

  it("a JSON value quotes only keys that are not identifiers", () => {
    expect(printCode(jsonLiteral({ name: "t", "x-y": [1, true, null] }))).toBe(
      '{ name: "t", "x-y": [1, true, null] }',
    );
  });
});
