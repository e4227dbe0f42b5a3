/**
 * The regenerate command in banners reads the same however and wherever the
 * command was typed: paths relative to the output folder, revision and known
 * extension names as they are, anything a shell would split quoted.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { regenerateCommand } from "../../generator/write/regenerate-command.js";
import { tempDir } from "../helpers/index.js";

const cwd = process.cwd();
afterEach(() => process.chdir(cwd));

describe("regenerateCommand", () => {
  it("is the same for every spelling of the output folder and from any working directory", () => {
    const project = tempDir("project");
    mkdirSync(join(project, "schemas", "next"), { recursive: true });
    mkdirSync(join(project, "src", "deep"), { recursive: true });
    const commands = new Set<string>();
    for (const [dir, spec, out] of [
      [project, "schemas/next", "src/mcp"],
      [project, "./schemas/next/", "./src/mcp/"],
      [project, join(project, "schemas", "next"), join(project, "src", "mcp")],
      [join(project, "src", "deep"), "../../schemas/next", "../mcp"],
    ] as const) {
      process.chdir(dir);
      commands.add(regenerateCommand(spec, ["tasks"], out));
    }
    expect([...commands]).toEqual([
      "mcp-gen generate --spec ../../schemas/next --extension tasks --out . (run in this file's folder)",
    ]);
  });

  it("keeps revision and known extension names (name or id); gives folders relative to the output", () => {
    const project = tempDir("project");
    process.chdir(project);
    expect(
      regenerateCommand("2026-07-28", ["io.modelcontextprotocol/tasks", "ext/echo"], "gen/mcp"),
    ).toBe(
      "mcp-gen generate --spec 2026-07-28 --extension io.modelcontextprotocol/tasks --extension ../../ext/echo --out . (run in this file's folder)",
    );
  });

  it("a folder named like a revision is a folder", () => {
    const project = tempDir("project");
    mkdirSync(join(project, "2026-07-28"));
    process.chdir(project);
    expect(regenerateCommand("2026-07-28", [], "out")).toBe(
      "mcp-gen generate --spec ../2026-07-28 --out . (run in this file's folder)",
    );
  });

  it("quotes what a shell would split or expand", () => {
    const project = tempDir("project");
    process.chdir(project);
    expect(regenerateCommand("my schemas/it's $HOME", [], "out")).toBe(
      `mcp-gen generate --spec '../my schemas/it'\\''s $HOME' --out . (run in this file's folder)`,
    );
  });
});
