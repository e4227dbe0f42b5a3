/**
 * The write stage: all files or none, never into a folder mcp-gen does not
 * own (unless forced), and file system refusals as diagnostics.
 */
import { chmodSync, mkdirSync, readdirSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { formatDiagnostic, McpGenError } from "../../generator/diagnostics.js";
import { BANNER_MARK } from "../../generator/emit/file.js";
import { checkOutput, listFiles, writeOutput } from "../../generator/write/write-output.js";
import { leftovers, snapshotFolder, tempDir } from "../helpers/run-cli.js";

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

describe("read-only targets are refused before anything is written", () => {
  /** Runs `write` with `path` made read-only (no write bit for anyone), then makes it writable again. */
  function withReadOnly(path: string, mode: number, write: () => void): string[] {
    chmodSync(path, mode);
    try {
      return problems(write);
    } finally {
      chmodSync(path, statSync(path).isDirectory() ? 0o755 : 0o644);
    }
  }

  it("a read-only output folder", () => {
    const parent = tempDir("out");
    const out = join(parent, "mcp");
    writeOutput(out, [file("index.ts", "export const v = 1;\n")]);
    const before = snapshotFolder(out);
    const lines = withReadOnly(out, 0o555, () =>
      writeOutput(out, [file("index.ts", "export const v = 2;\n")]),
    );
    expect(lines).toEqual([
      `${out}: error MCPG505: refusing to write ${out}: read-only: ${relative(process.cwd(), out)} (nothing was written) (fix: make them writable (chmod u+w), or choose another --out)`,
    ]);
    expect(snapshotFolder(out)).toEqual(before);
    expect(leftovers(parent)).toEqual([]);
  });

  it("a read-only file the write would replace", () => {
    const parent = tempDir("out");
    const out = join(parent, "mcp");
    writeOutput(out, [file("index.ts"), file("sub/a.gen.ts")]);
    const before = snapshotFolder(out);
    const lines = withReadOnly(join(out, "sub", "a.gen.ts"), 0o444, () =>
      writeOutput(out, [
        file("index.ts", "export const v = 2;\n"),
        file("sub/a.gen.ts", "export const a = 2;\n"),
      ]),
    );
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(
      `read-only: ${relative(process.cwd(), join(out, "sub", "a.gen.ts"))} (nothing was written)`,
    );
    expect(snapshotFolder(out)).toEqual(before);
    expect(leftovers(parent)).toEqual([]);
  });

  it("a new output folder under a read-only parent", () => {
    const parent = tempDir("out");
    const out = join(parent, "mcp");
    const lines = withReadOnly(parent, 0o555, () => writeOutput(out, [file("index.ts")]));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(
      `error MCPG505: refusing to write ${out}: read-only: ${relative(process.cwd(), parent)} (nothing was written)`,
    );
    expect(readdirSync(parent)).toEqual([]);
  });
});

describe("what a write changes", () => {
  it("leaves files whose bytes are already right alone, modification time included", () => {
    const out = join(tempDir("out"), "mcp");
    writeOutput(out, [file("same.ts"), file("changes.ts", "export const v = 1;\n")]);
    const past = new Date("2020-01-01T00:00:00Z");
    for (const name of ["same.ts", "changes.ts"]) utimesSync(join(out, name), past, past);
    writeOutput(out, [file("same.ts"), file("changes.ts", "export const v = 2;\n")]);
    expect(statSync(join(out, "same.ts")).mtime).toEqual(past);
    expect(statSync(join(out, "changes.ts")).mtime).not.toEqual(past);
  });

  it("removes files no longer emitted and the folders they leave empty", () => {
    const out = join(tempDir("out"), "mcp");
    writeOutput(out, [file("index.ts"), file("old/deep/gone.gen.ts"), file("kept/a.ts")]);
    writeOutput(out, [file("index.ts"), file("kept/a.ts")]);
    expect(listFiles(out)).toEqual(["index.ts", join("kept", "a.ts")]);
    expect(readdirSync(out).sort()).toEqual(["index.ts", "kept"]);
  });

  it("puts a file where a folder was, and a folder where a file was", () => {
    const out = join(tempDir("out"), "mcp");
    writeOutput(out, [file("a/inner.ts"), file("b")]);
    writeOutput(out, [file("a"), file("b/inner.ts")]);
    expect(listFiles(out)).toEqual(["a", join("b", "inner.ts")]);
  });

  it("returns a note for each temporary folder of a run that is gone, which it removes", () => {
    const parent = tempDir("out");
    const out = join(parent, "mcp");
    mkdirSync(`${out}.mcp-gen-tmp-999999999-abcdef01`);
    const notes = writeOutput(out, [file("index.ts")]).map(formatDiagnostic);
    expect(notes).toEqual([
      `${out}: note MCPG507: removed ${out}.mcp-gen-tmp-999999999-abcdef01, left by an interrupted run`,
    ]);
    expect(leftovers(parent)).toEqual([]);
  });
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
