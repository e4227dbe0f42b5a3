/**
 * Control characters in text that reaches generated code (a tool's
 * description with a NUL, an ESC, a DEL) are written as `\uXXXX` in
 * src/tools.ts and the generated modules, never as the bytes.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../helpers/index.js";
import { runCli } from "../helpers/run-cli.js";

describe("control characters in a tool's description", () => {
  it("reach src/tools.ts and the generated tools module as \\uXXXX, never as the bytes", async () => {
    const cwd = tempDir("control-text");
    writeFileSync(
      join(cwd, "tools.json"),
      JSON.stringify([
        {
          name: "t",
          description: "nul\u0000 esc\u001b[31m del\u007f end",
          inputSchema: { type: "object" },
        },
      ]),
    );
    const run = await runCli(["server", "out", "--tools", "tools.json", "--quiet"], { cwd });
    expect(run.code, run.stderr).toBe(0);
    for (const file of [
      "src/tools.ts",
      "src/generated/tools.gen.ts",
      "src/generated/tool-schemas.gen.ts",
    ]) {
      const text = readFileSync(join(cwd, "out", file), "utf8");
      // eslint-disable-next-line no-control-regex -- the characters the test looks for
      expect(text, file).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/);
    }
    expect(readFileSync(join(cwd, "out", "src/tools.ts"), "utf8")).toContain(
      "nul\\u0000 esc\\u001b[31m del\\u007f end",
    );
  });
});
