/**
 * No source file of the generator, the runtime or the scripts grows past
 * 600 lines: a file that long holds more than one concern, and is split
 * where its concerns meet. A file allowed past the cap is listed here with
 * the reason it is one concern all the same.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { ROOT } from "./helpers/index.js";

const CAP = 600;

/** The folders the cap holds for. */
const FOLDERS = ["generator", "templates/runtime", "scripts"] as const;

/** Source files, by what they are written in. */
const SOURCE = /\.(ts|mts|js|mjs|sh)$/;

/** Files allowed past the cap, each with why it stays one file. None today. */
const ALLOWED: Readonly<Record<string, string>> = {};

/** Every source file under `dir` (relative to the repository), with its line count. */
function sourceLines(dir: string): Array<{ file: string; lines: number }> {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && SOURCE.test(entry.name))
    .map((entry) => {
      const file = join(entry.parentPath, entry.name).slice(ROOT.length + 1);
      const text = readFileSync(join(ROOT, file), "utf8");
      return { file, lines: text.split("\n").length - (text.endsWith("\n") ? 1 : 0) };
    })
    .sort((a, b) => (a.file < b.file ? -1 : 1));
}

const files = FOLDERS.flatMap(sourceLines);

it(`no source file of ${FOLDERS.join(", ")} is over ${CAP} lines, but those allowed with a reason`, () => {
  expect(files.length).toBeGreaterThan(100);
  const over = files
    .filter(({ file, lines }) => lines > CAP && ALLOWED[file] === undefined)
    .map(({ file, lines }) => `${file}: ${lines} lines`);
  expect(over).toEqual([]);
});

it("every file allowed past the cap is still past it, and says why", () => {
  for (const [file, reason] of Object.entries(ALLOWED)) {
    expect(files.find((f) => f.file === file)?.lines ?? 0, file).toBeGreaterThan(CAP);
    expect(reason.length, file).toBeGreaterThan(20);
  }
});
