/**
 * The modules mcp-gen lays out itself skip prettier, so their layout must be
 * the one prettier prints. These tests sweep names and values across the
 * print width, where prettier's choices change, and compare with prettier.
 */
import { runInNewContext } from "node:vm";
import * as prettier from "prettier";
import { describe, expect, it } from "vitest";
import { resultUnion } from "../../generator/emit/emit-result-types.js";
import { emitValidateApi } from "../../generator/emit/emit-validate-api.js";
import { TsFileBuilder } from "../../generator/emit/file.js";
import {
  breakableMember,
  expandedObject,
  list,
  PRINT_WIDTH,
  stringLiteral,
  textWidth,
  type TableValue,
} from "../../generator/emit/layout.js";
import { literal } from "../../generator/emit/names.js";
import { PRETTIER_OPTIONS } from "../../generator/format/format.js";
import type { McpModel, RequestNode } from "../../generator/model/types.js";

const format = (code: string) =>
  prettier.format(code, { ...PRETTIER_OPTIONS, parser: "typescript" });

/** Identifiers of every length from 1 to `max`. */
const namesUpTo = (max: number) => Array.from({ length: max }, (_, i) => `N${"x".repeat(i)}`);

describe("layout", () => {
  it("measures wide characters as two columns and marks as none", () => {
    expect(textWidth("abc")).toBe(3);
    expect(textWidth("日本")).toBe(4);
    expect(textWidth("e\u0301")).toBe(1);
  });

  it("quotes strings as prettier does, preferring the quote that needs fewer escapes", async () => {
    const values = [
      "plain",
      'say "hi"',
      "it's",
      `"it's"`,
      `'a' "b" "c"`,
      'back\\slash "q"',
      "line\nbreak",
      'tab\t"x"',
      "é — ü",
      '\\"',
    ];
    const code = `${values.map((v, i) => `export const v${i} = ${stringLiteral(v)};`).join("\n")}\n`;
    expect(code).toBe(await format(code));
    for (const [i, v] of values.entries())
      expect(runInNewContext(stringLiteral(v)) as unknown, `value ${i}`).toBe(v);
  });

  it("lays out validators.gen.ts as prettier does for definition names of every length", async () => {
    const model = {
      revision: "2026-07-28",
      sources: [],
      declarations: namesUpTo(110).map((name) => ({ name })),
    } as unknown as McpModel;
    const file = emitValidateApi(model, "/* banner */\n");
    expect(file.contents).toBe(await format(file.contents));
  });

  it("lays out import lists as prettier does, on one line or one name per line", async () => {
    for (const count of [1, 2, 3, 5, 8]) {
      for (const length of [4, 10, 20, 40, 95]) {
        const names = Array.from({ length: count }, (_, i) => `n${i}${"x".repeat(length)}`);
        const file = new TsFileBuilder("x.ts")
          .importValues("./a-module.js", ...names)
          .importTypes("./types.js", ...names.map((n) => `T${n}`));
        const contents = file.add("export {};").build("/* banner */\n");
        expect(contents.contents).toBe(await format(contents.contents));
      }
    }
  });

  it("breaks a member after its colon exactly when prettier does", async () => {
    for (const depth of [1, 2]) {
      const keys = [...namesUpTo(100), '"a/b"', '"a/bc"', "[-32002]", "[1]"];
      const values = (key: string) => [
        literal(key.replace(/\W/g, "").toLowerCase()),
        `compiled.validate${key.replace(/\W/g, "")}`,
        literal("v".repeat(100 - key.length)),
        literal("v".repeat(93)),
      ];
      const lines = keys.flatMap((key) =>
        values(key).map((value) => breakableMember(depth, key, value)),
      );
      const code =
        depth === 1
          ? `const x = {\n${lines.join("\n")}\n};\n`
          : `const x = {\n  y: {\n${lines.join("\n")}\n  },\n};\n`;
      expect(code).toBe(await format(code));
    }
  });

  it("lays out data tables (nested objects, arrays, strings, numbers) as prettier does", async () => {
    const entries = namesUpTo(60).map((name, i): readonly [string, TableValue] => [
      i % 3 === 0 ? stringLiteral(`${name.toLowerCase()}/list`) : name,
      {
        object: [
          ["id", stringLiteral(name)],
          ["code", String(-32000 - i)],
          ["flag", String(i % 2 === 0)],
          [
            "results",
            {
              object: Array.from(
                { length: 1 + (i % 3) },
                (_, j) => [`k${j}${"x".repeat(i % 9)}`, stringLiteral(`${name}Result`)] as const,
              ),
            },
          ],
          [
            "revisions",
            {
              array: Array.from({ length: i % 6 }, (_, j) => stringLiteral(`2025-0${j}-0${i % 9}`)),
            },
          ],
          ["doc", stringLiteral("d".repeat(i * 2))],
          ["description", stringLiteral("d".repeat(i * 2))],
        ],
      },
    ]);
    const code = `export const TABLE = ${expandedObject(entries)} as const;\n`;
    expect(code).toBe(await format(code));
  });

  it("keeps a list on one line only while it fits the print width", async () => {
    const lines: string[] = [];
    for (let n = 1; n < 40; n++)
      lines.push(
        list(
          0,
          `export const a${"x".repeat(n * 2)} = `,
          "[",
          Array.from({ length: n % 7 }, (_, i) => literal(`v${i}${"y".repeat(n)}`)),
          "]",
          " as const;",
          false,
        ),
      );
    const code = `${lines.join("\n")}\n`;
    expect(code).toBe(await format(code));
    expect(lines.some((l) => l.includes("\n"))).toBe(true);
    expect(lines.some((l) => !l.includes("\n") && l.length > PRINT_WIDTH - 10)).toBe(true);
  });
});

describe("result unions", () => {
  const request = (definition: string, results: Array<[string, string | undefined]>) =>
    ({
      method: "x/y",
      definition,
      results: results.map(([d, resultType]) => ({ definition: d, resultType })),
    }) as unknown as RequestNode;

  it("lay out one pinned branch, two and three as prettier does for names of every length", async () => {
    const unions = namesUpTo(90).flatMap((name) => [
      resultUnion(request(name, [[name, "complete"]])),
      resultUnion(request(name, [[name, undefined]])),
      resultUnion(
        request(name, [
          ["InputRequiredResult", "input_required"],
          [name, "complete"],
        ]),
      ),
      resultUnion(
        request("R", [
          [name, "input_required"],
          ["B", "complete"],
          ["C", "task"],
        ]),
      ),
    ]);
    const code = `${unions.join("\n\n")}\n`;
    expect(code).toBe(await format(code));
  });
});
