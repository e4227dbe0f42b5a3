/**
 * The package makes every committed revision importable by name
 * (`mcp-gen/2026-07-28`) from its build, without running the generator:
 * checked in a child process that imports the package by its own name.
 */
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { REVISIONS, ROOT } from "../helpers.js";

function importInChild(code: string): string {
  return execFileSync(process.execPath, ["--input-type=module", "-e", code], { cwd: ROOT, encoding: "utf8" });
}

describe("package exports", () => {
  it.each(REVISIONS)("mcp-gen/%s exports the generated API", (revision) => {
    const out = importInChild(
      `const m = await import("mcp-gen/${revision}"); console.log(JSON.stringify([m.PROTOCOL_VERSION, typeof m.validate, typeof m.parseMessage, typeof m.METHODS["tools/call"], m.ErrorCode.ParseError]));`,
    );
    expect(JSON.parse(out)).toEqual([revision, "function", "function", "object", -32700]);
  });

  it("mcp-gen exports the library API", () => {
    const out = importInChild(`const m = await import("mcp-gen"); console.log(typeof m.generate, typeof m.writeOutput, typeof m.checkOutput);`);
    expect(out.trim()).toBe("function function function");
  });
});
