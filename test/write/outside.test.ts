/**
 * Nothing outside the output folder: a target of mcp-gen.json whose `out`
 * leads outside the folder of mcp-gen.json (by `..`, an absolute path or a
 * symbolic link) is refused with MCPG810 unless it says
 * `"allowOutside": true`; and a forced write (`--force`) removes a
 * symbolic link it finds in the output folder instead of writing or
 * deleting through it, so the folder the link points to keeps every file.
 */
import {
  lstatSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readConfig } from "../../generator/config/config.js";
import { formatDiagnostic, McpGenError } from "../../generator/diagnostics.js";
import { BANNER_MARK } from "../../generator/emit/file.js";
import { writeOutput } from "../../generator/write/write-output.js";
import { tempDir } from "../helpers/run-cli.js";

/** A folder `project` holding mcp-gen.json with one target writing `out`, beside a folder `elsewhere`. */
function project(target: Record<string, unknown>): { file: string; root: string } {
  const root = tempDir("outside");
  mkdirSync(join(root, "project"));
  mkdirSync(join(root, "elsewhere"));
  const file = join(root, "project", "mcp-gen.json");
  writeFileSync(file, JSON.stringify({ targets: [{ spec: "2026-07-28", ...target }] }));
  return { file, root };
}

function diagnosticsOf(file: string): string[] {
  try {
    readConfig(file);
    return [];
  } catch (error) {
    if (!(error instanceof McpGenError)) throw error;
    return error.diagnostics.map(formatDiagnostic);
  }
}

const refusal = (file: string, out: string) =>
  `${file}#/targets/0/out: error MCPG810: the target folder ${out} leads outside ${join(file, "..")}, the folder of mcp-gen.json (fix: put the output inside that folder, or add "allowOutside": true to the target if it is meant to write there)`;

describe("out in mcp-gen.json", () => {
  it("inside the folder of mcp-gen.json: accepted", () => {
    const { file } = project({ out: "src/mcp" });
    expect(diagnosticsOf(file)).toEqual([]);
  });

  it("leading out with ..: refused, naming allowOutside", () => {
    const { file } = project({ out: "../elsewhere/mcp" });
    expect(diagnosticsOf(file)).toEqual([refusal(file, "../elsewhere/mcp")]);
  });

  it("an absolute path elsewhere: refused", () => {
    const { file, root } = project({ out: "" });
    const out = join(root, "elsewhere", "mcp");
    writeFileSync(file, JSON.stringify({ targets: [{ spec: "2026-07-28", out }] }));
    expect(diagnosticsOf(file)).toEqual([refusal(file, out)]);
  });

  it("through a symbolic link to a folder elsewhere: refused", () => {
    const { file, root } = project({ out: "linked/mcp" });
    symlinkSync(join(root, "elsewhere"), join(root, "project", "linked"));
    expect(diagnosticsOf(file)).toEqual([refusal(file, "linked/mcp")]);
  });

  it('with "allowOutside": true: accepted', () => {
    const { file } = project({ out: "../elsewhere/mcp", allowOutside: true });
    expect(readConfig(file).targets[0]!.out).toMatch(/elsewhere\/mcp$/);
  });
});

describe("--force and symbolic links in the output folder", () => {
  const banner = (text: string) => `// ${BANNER_MARK}\n${text}\n`;

  it("a link to a folder elsewhere is replaced, not written through: that folder keeps its files", () => {
    const root = tempDir("force-link");
    const elsewhere = join(root, "elsewhere");
    mkdirSync(elsewhere);
    writeFileSync(join(elsewhere, "a.ts"), "someone else's a.ts\n");
    writeFileSync(join(elsewhere, "keep.txt"), "keep me\n");
    const out = join(root, "out");
    mkdirSync(out);
    symlinkSync(elsewhere, join(out, "sub"));
    symlinkSync(elsewhere, join(out, "stale"));
    writeOutput(out, [{ path: "sub/a.ts", contents: banner("new a") }], { force: true });
    expect(readFileSync(join(elsewhere, "a.ts"), "utf8")).toBe("someone else's a.ts\n");
    expect(readdirSync(elsewhere).sort()).toEqual(["a.ts", "keep.txt"]);
    expect(lstatSync(join(out, "sub")).isDirectory()).toBe(true);
    expect(readFileSync(join(out, "sub", "a.ts"), "utf8")).toBe(banner("new a"));
    expect(readdirSync(out)).toEqual(["sub"]);
  });

  it("a link where a file goes is replaced by the file, and what it pointed to stays", () => {
    const root = tempDir("force-link-file");
    const elsewhere = join(root, "elsewhere");
    mkdirSync(join(elsewhere, "index.ts"), { recursive: true });
    writeFileSync(join(elsewhere, "index.ts", "inner.txt"), "keep me\n");
    const out = join(root, "out");
    mkdirSync(out);
    symlinkSync(join(elsewhere, "index.ts"), join(out, "index.ts"));
    writeOutput(out, [{ path: "index.ts", contents: banner("index") }], { force: true });
    expect(readFileSync(join(elsewhere, "index.ts", "inner.txt"), "utf8")).toBe("keep me\n");
    expect(readFileSync(join(out, "index.ts"), "utf8")).toBe(banner("index"));
  });
});
