/**
 * `mcp-gen generate` through the real command line: a custom --spec folder,
 * --check and its exit code 1, who owns the output folder, and that a failed
 * run leaves no partial output behind.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { listFiles } from "../../generator/write/write-output.js";
import { ROOT } from "../helpers.js";
import { fixture, leftovers, runCli, snapshotFolder, tempDir } from "./run-cli.js";

const CUSTOM = fixture("custom-schema");
const FIX_SCHEMA_TS =
  "(fix: put the revision's schema.ts next to schema.json for literal unions, constants and deprecations)";
const FIX_STALE =
  "(fix: run the regenerate command in the file banner (npm run generate in this repository))";

/** Generates the custom fixture into `out`, and checks that it worked. */
async function generateCustom(out: string, ...extra: string[]): Promise<void> {
  const run = await runCli(["generate", "--spec", CUSTOM, "--out", out, "--quiet", ...extra]);
  expect(run.stderr, "generating the custom fixture failed").toBe("");
  expect(run.code).toBe(0);
}

describe("--spec <dir> with a small custom schema and no schema.ts", () => {
  it("generates, says what could not be known (MCPG206), progress on stderr and the result on stdout", async () => {
    const out = join(tempDir("out"), "mcp");
    const run = await runCli(["generate", "--spec", CUSTOM, "--out", out]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`wrote ${listFiles(out).length} files to ${out}\n`);
    expect(run.stderrLines).toEqual([
      `mcp-gen: generating ${CUSTOM}`,
      `custom-schema/schema.json: note MCPG206: no schema.ts beside schema.json, so the literal members of string unions (such as ResultType), deprecations and error code constant names could not be known ${FIX_SCHEMA_TS}`,
    ]);
    expect(listFiles(out)).toContain("types.gen.ts");
  });

  it("accepts a recursive definition (Tree → object with children: Tree[])", async () => {
    const out = join(tempDir("out"), "mcp");
    await generateCustom(out);
    expect(readFileSync(join(out, "types.gen.ts"), "utf8")).toContain("  children?: Tree[];\n");
  });

  it("--quiet drops the progress line and the notes, not the result", async () => {
    const out = join(tempDir("out"), "mcp");
    const run = await runCli(["generate", "--spec", CUSTOM, "--out", out, "--quiet"]);
    expect(run.code).toBe(0);
    expect(run.stderrLines).toEqual([]);
    expect(run.stdout).toBe(`wrote ${listFiles(out).length} files to ${out}\n`);
  });
});

describe("--spec <revision>", () => {
  it("generates a known revision, reporting its applied patches, and --check then passes", async () => {
    const out = join(tempDir("out"), "mcp");
    const run = await runCli(["generate", "--spec", "2026-07-28", "--out", out]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`wrote ${listFiles(out).length} files to ${out}\n`);
    expect(run.stderrLines[0]).toBe("mcp-gen: generating 2026-07-28");
    expect(run.stderrLines.slice(1).length).toBeGreaterThan(0);
    for (const line of run.stderrLines.slice(1))
      expect(line).toMatch(
        /^schema\/patches\/2026-07-28\.json: note MCPG303: applied patch "[\w-]+": /,
      );
    const check = await runCli([
      "generate",
      "--spec",
      "2026-07-28",
      "--out",
      out,
      "--check",
      "--quiet",
    ]);
    expect(check.code).toBe(0);
    expect(check.stdout).toBe(`${out} is up to date (${listFiles(out).length} files)\n`);
  });
});

describe("the built CLI", () => {
  it("writes the same bytes as the committed generated/2026-07-28+tasks", async () => {
    const out = join(tempDir("out"), "mcp");
    const run = await runCli([
      "generate",
      "--spec",
      "2026-07-28",
      "--extension",
      "tasks",
      "--out",
      out,
      "--quiet",
    ]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const committed = join(ROOT, "generated", "2026-07-28+tasks");
    expect(listFiles(out)).toEqual(listFiles(committed));
    const withoutRegenerateLine = (text: string) => text.replace(/^ \* Regenerate: .*$/m, "");
    for (const file of listFiles(out)) {
      expect(withoutRegenerateLine(readFileSync(join(out, file), "utf8")), file).toBe(
        withoutRegenerateLine(readFileSync(join(committed, file), "utf8")),
      );
    }
  });
});

describe("--check", () => {
  it("exits 0 when the folder is up to date and changes nothing", async () => {
    const out = join(tempDir("out"), "mcp");
    await generateCustom(out);
    const before = snapshotFolder(out);
    const run = await runCli(["generate", "--spec", CUSTOM, "--out", out, "--check", "--quiet"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`${out} is up to date (${Object.keys(before).length} files)\n`);
    expect(snapshotFolder(out)).toEqual(before);
  });

  it("exits 1 naming each stale, missing and extra file, and changes nothing", async () => {
    const out = join(tempDir("out"), "mcp");
    await generateCustom(out);
    writeFileSync(
      join(out, "index.ts"),
      `${readFileSync(join(out, "index.ts"), "utf8")}// edited\n`,
    );
    rmSync(join(out, "methods.gen.ts"));
    mkdirSync(join(out, "old"));
    writeFileSync(join(out, "old", "leftover.gen.ts"), "export {};\n");
    const before = snapshotFolder(out);
    const run = await runCli(["generate", "--spec", CUSTOM, "--out", out, "--check", "--quiet"]);
    expect(run.code).toBe(1);
    expect(run.stderrLines.filter((l) => l.includes("MCPG503"))).toEqual([
      `${join(out, "index.ts")}: error MCPG503: ${join(out, "index.ts")} is stale ${FIX_STALE}`,
      `${join(out, "methods.gen.ts")}: error MCPG503: ${join(out, "methods.gen.ts")} is missing ${FIX_STALE}`,
      `${join(out, "old", "leftover.gen.ts")}: error MCPG503: ${join(out, "old", "leftover.gen.ts")} is extra ${FIX_STALE}`,
    ]);
    expect(run.stdout).toBe(`${out} is stale: 3 of its files differ from a fresh generation\n`);
    expect(snapshotFolder(out)).toEqual(before);
  });

  it("exits 1 when the folder does not exist, and does not create it", async () => {
    const parent = tempDir("out");
    const run = await runCli([
      "generate",
      "--spec",
      CUSTOM,
      "--out",
      join(parent, "mcp"),
      "--check",
      "--quiet",
    ]);
    expect(run.code).toBe(1);
    expect(listFiles(parent)).toEqual([]);
  });
});

describe("who owns --out", () => {
  it("refuses a non-empty folder mcp-gen did not write, and leaves it as it was", async () => {
    const out = tempDir("out");
    writeFileSync(join(out, "notes.md"), "mine\n");
    writeFileSync(join(out, "types.gen.ts"), "// hand-written\n");
    const run = await runCli(["generate", "--spec", CUSTOM, "--out", out, "--quiet"]);
    expect(run.code).toBe(2);
    expect(run.stderrLines).toEqual([
      `${out}: error MCPG501: refusing to write into ${out}: it holds files mcp-gen did not write (notes.md, types.gen.ts) ` +
        "(fix: choose an empty or mcp-gen-owned folder for --out, or pass --force to replace it)",
    ]);
    expect(snapshotFolder(out)).toEqual({
      "notes.md": Buffer.from("mine\n").toString("base64"),
      "types.gen.ts": Buffer.from("// hand-written\n").toString("base64"),
    });
  });

  it("with --force, replaces such a folder (its own files are gone)", async () => {
    const out = join(tempDir("out"), "mcp");
    mkdirSync(out);
    writeFileSync(join(out, "notes.md"), "mine\n");
    await generateCustom(out, "--force");
    expect(listFiles(out)).not.toContain("notes.md");
    expect(listFiles(out)).toContain("types.gen.ts");
  });

  it("overwrites a folder it wrote before without --force, dropping files it no longer emits", async () => {
    const parent = tempDir("out");
    const out = join(parent, "mcp");
    await generateCustom(out);
    const fresh = snapshotFolder(out);
    const banner = readFileSync(join(out, "types.gen.ts"), "utf8");
    writeFileSync(join(out, "types.gen.ts"), `${banner}// stale\n`);
    writeFileSync(join(out, "removed.gen.ts"), banner);
    await generateCustom(out);
    expect(snapshotFolder(out)).toEqual(fresh);
    expect(leftovers(parent)).toEqual([]);
  });
});

describe("a failed run leaves no partial output", () => {
  it("bad input over an existing good output leaves it byte-identical", async () => {
    const parent = tempDir("out");
    const out = join(parent, "mcp");
    await generateCustom(out);
    const before = snapshotFolder(out);
    const run = await runCli(["generate", "--spec", fixture("bad-several"), "--out", out]);
    expect(run.code).toBe(2);
    expect(snapshotFolder(out)).toEqual(before);
    expect(leftovers(parent)).toEqual([]);
  });

  it("an --out that cannot be created is an input error (MCPG504), not a crash, and leaves nothing behind", async () => {
    const parent = tempDir("out");
    writeFileSync(join(parent, "a-file"), "");
    const out = join(parent, "a-file", "mcp");
    const run = await runCli(["generate", "--spec", CUSTOM, "--out", out, "--quiet"]);
    expect(run.code).toBe(2);
    expect(run.stderrLines).toEqual([
      `${out}: error MCPG504: cannot write ${out}: EEXIST: file already exists, mkdir '${join(parent, "a-file")}' (fix: choose an --out folder inside a folder you can write to)`,
    ]);
    expect(listFiles(parent)).toEqual(["a-file"]);
    expect(leftovers(parent)).toEqual([]);
  });
});
