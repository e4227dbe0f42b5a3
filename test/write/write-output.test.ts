/**
 * The write stage: all files or none, never into a folder mcp-gen does not
 * own (unless forced), and file system refusals as diagnostics.
 */
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatDiagnostic, McpGenError } from "../../generator/diagnostics.js";
import { BANNER_MARK } from "../../generator/emit/file.js";
import { checkOutput, writeOutput } from "../../generator/write/write-output.js";
import { leftovers, snapshotFolder, tempDir } from "../cli/run-cli.js";

const file = (path: string, body = "export {};\n") => ({
  path,
  contents: `// ${BANNER_MARK} (test)\n${body}`,
});

function problems(write: () => void): string[] {
  try {
    write();
    return [];
  } catch (error) {
    if (!(error instanceof McpGenError)) throw error;
    return error.diagnostics.map(formatDiagnostic);
  }
}

describe("writeOutput", () => {
  it("writes every file, creating the folder and its parents", () => {
    const out = join(tempDir("out"), "a", "b");
    writeOutput(out, [file("index.ts"), file("sub/x.gen.ts")]);
    expect(Object.keys(snapshotFolder(out))).toEqual(["index.ts", join("sub", "x.gen.ts")]);
  });

  it("a write that fails halfway leaves the previous output byte-identical and no temporary folder", () => {
    const parent = tempDir("out");
    const out = join(parent, "mcp");
    writeOutput(out, [file("index.ts", "export const v = 1;\n")]);
    const before = snapshotFolder(out);
    // "x" is written as a file, so "x/y.gen.ts" cannot be.
    const lines = problems(() =>
      writeOutput(out, [file("index.ts", "export const v = 2;\n"), file("x"), file("x/y.gen.ts")]),
    );
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(
        `^${out}: error MCPG504: cannot write ${out}: EEXIST: file already exists, mkdir '${out}\\.mcp-gen-tmp-[^/]+/x' \\(fix: `,
      ),
    );
    expect(snapshotFolder(out)).toEqual(before);
    expect(leftovers(parent)).toEqual([]);
  });

  it("refuses a folder with files that do not carry the banner, naming at most five", () => {
    const out = tempDir("out");
    for (const name of ["a", "b", "c", "d", "e", "f"])
      writeFileSync(join(out, `${name}.ts`), "// mine\n");
    expect(problems(() => writeOutput(out, [file("index.ts")]))).toEqual([
      `${out}: error MCPG501: refusing to write into ${out}: it holds files mcp-gen did not write (a.ts, b.ts, c.ts, d.ts, e.ts, ...) ` +
        "(fix: choose an empty or mcp-gen-owned folder for --out, or pass --force to replace it)",
    ]);
    expect(readdirSync(out)).toHaveLength(6);
  });

  it("refuses a file where the folder should be, unless forced", () => {
    const out = join(tempDir("out"), "mcp");
    writeFileSync(out, "not a folder\n");
    expect(problems(() => writeOutput(out, [file("index.ts")]))).toEqual([
      `${out}: error MCPG501: refusing to write into ${out}: it holds files mcp-gen did not write ((it is a file)) ` +
        "(fix: choose an empty or mcp-gen-owned folder for --out, or pass --force to replace it)",
    ]);
    writeOutput(out, [file("index.ts")], { force: true });
    expect(Object.keys(snapshotFolder(out))).toEqual(["index.ts"]);
  });

  it("with force, replaces a folder mcp-gen does not own", () => {
    const out = tempDir("out");
    mkdirSync(join(out, "docs"));
    writeFileSync(join(out, "docs", "notes.md"), "mine\n");
    writeOutput(out, [file("index.ts")], { force: true });
    expect(Object.keys(snapshotFolder(out))).toEqual(["index.ts"]);
  });

  it.each(["../escape.ts", "/etc/escape.ts", "a/../../escape.ts"])(
    "refuses the emitted path %s",
    (path) => {
      const parent = tempDir("out");
      expect(problems(() => writeOutput(join(parent, "mcp"), [file(path)]))).toEqual([
        `error MCPG502: output path ${path} escapes the output folder (fix: emitted paths must be relative and stay inside --out)`,
      ]);
      expect(readdirSync(parent)).toEqual([]);
    },
  );
});

describe("checkOutput", () => {
  it("names stale, missing and extra files, sorted", () => {
    const out = tempDir("out");
    writeOutput(out, [file("a.ts"), file("b.ts"), file("c.ts")]);
    expect(
      checkOutput(out, [file("a.ts"), file("b.ts", "export const changed = 1;\n"), file("d.ts")]),
    ).toEqual([
      { path: "b.ts", state: "stale" },
      { path: "c.ts", state: "extra" },
      { path: "d.ts", state: "missing" },
    ]);
  });

  it("treats a file where the folder should be as a folder with nothing in it", () => {
    const out = join(tempDir("out"), "mcp");
    writeFileSync(out, "not a folder\n");
    expect(checkOutput(out, [file("a.ts")])).toEqual([{ path: "a.ts", state: "missing" }]);
  });
});
