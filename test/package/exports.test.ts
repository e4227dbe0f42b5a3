/**
 * The package makes every committed revision importable by name
 * (`mcp-gen/2026-07-28`) from its build, without running the generator:
 * checked in a child process that imports the package by its own name.
 */
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { generatedTargets } from "../../scripts/generate/targets.js";
import { ROOT } from "../helpers/index.js";

function importInChild(code: string): string {
  return execFileSync(process.execPath, ["--input-type=module", "-e", code], {
    cwd: ROOT,
    encoding: "utf8",
  });
}

describe("package exports", () => {
  it.each(generatedTargets().map((t) => [t.folder, t] as const))(
    "mcp-gen/%s exports the generated API",
    (folder, target) => {
      const out = importInChild(
        `const m = await import("mcp-gen/${folder}"); console.log(JSON.stringify([m.PROTOCOL_VERSION, typeof m.validate, typeof m.parseMessage, typeof m.METHODS["tools/call"], m.ErrorCode.ParseError]));`,
      );
      expect(JSON.parse(out)).toEqual([target.spec, "function", "function", "object", -32700]);
    },
  );

  it("exports every folder of generated/ and nothing else", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
      exports: Record<string, unknown>;
    };
    const revisionExports = Object.keys(pkg.exports)
      .filter((k) => /^\.\/\d{4}/.test(k))
      .map((k) => k.slice(2))
      .sort();
    expect(revisionExports).toEqual(
      generatedTargets()
        .map((t) => t.folder)
        .sort(),
    );
  });

  it("mcp-gen exports the library API", () => {
    const out = importInChild(
      `const m = await import("mcp-gen"); console.log(typeof m.generate, typeof m.writeOutput, typeof m.checkOutput);`,
    );
    expect(out.trim()).toBe("function function function");
  });

  it("mcp-gen/config exports the mcp-gen.json API", () => {
    const out = importInChild(
      `const m = await import("mcp-gen/config"); console.log(typeof m.loadConfig, typeof m.generateConfig, typeof m.watchInputs);`,
    );
    expect(out.trim()).toBe("function function function");
  });

  it("mcp-gen/diff exports the diff API", () => {
    const out = importInChild(
      `const m = await import("mcp-gen/diff"); console.log(typeof m.diffRevisions, typeof m.formatDiff);`,
    );
    expect(out.trim()).toBe("function function");
  });

  it("mcp-gen/types exports the tool types API", () => {
    const out = importInChild(
      `const m = await import("mcp-gen/types"); console.log(typeof m.planToolTypes, typeof m.writeToolTypes, typeof m.checkToolTypes);`,
    );
    expect(out.trim()).toBe("function function function");
  });
});
