/**
 * A number JSON cannot hold (`1e400`: JSON.parse reads Infinity, and a
 * schema's `maximum: 1e400` was written as `maximum: null`) is MCPG240 at
 * each place, in any JSON input, before anything is generated.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { McpGenError } from "../../generator/diagnostics.js";
import { parseJsonText } from "../../generator/load/json.js";
import { tempDir } from "../helpers/index.js";
import { runCli } from "../helpers/run-cli.js";

/** The diagnostics `run` throws, as code and pointer. */
function problems(run: () => unknown): Array<[string, string | undefined]> {
  try {
    run();
    return [];
  } catch (error) {
    if (!(error instanceof McpGenError)) throw error;
    return error.diagnostics.map((d) => [d.code, d.location?.pointer]);
  }
}

describe("a number JSON cannot hold", () => {
  it("is MCPG240 at each place, in any JSON input", () => {
    expect(
      problems(() =>
        parseJsonText(
          '{"maximum": 1e400, "items": [1, -2e308, 3], "ok": 1.7976931348623157e308}',
          "s.json",
        ),
      ),
    ).toEqual([
      ["MCPG240", "/maximum"],
      ["MCPG240", "/items/1"],
    ]);
  });

  it("stops a tools file before anything is generated", async () => {
    const cwd = tempDir("huge-number");
    writeFileSync(
      join(cwd, "tools.json"),
      '[{"name":"t","inputSchema":{"type":"object","properties":{"n":{"type":"number","maximum":1e400}}}}]',
    );
    const run = await runCli(["server", "out", "--tools", "tools.json", "--quiet"], { cwd });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("tools.json#/0/inputSchema/properties/n/maximum: error MCPG240");
  });
});
