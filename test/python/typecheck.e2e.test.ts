/**
 * generated-python/ type-checks under pyright strict (pinned in
 * package.json, from npm), every package at once, with the venv's pydantic.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, tempDir } from "../helpers/index.js";
import { pythonAvailable, pythonTargets, runPython } from "../helpers/python.js";

const PYRIGHT = join(ROOT, "node_modules", ".bin", "pyright");

describe.skipIf(!pythonAvailable())("generated-python/ as Python tools see it", () => {
  it("is clean under pyright strict, all revisions and Tasks", async () => {
    const dir = tempDir("pyright");
    const targets = pythonTargets();
    const config = {
      typeCheckingMode: "strict",
      pythonVersion: "3.9",
      venvPath: ROOT,
      venv: ".venv",
      extraPaths: targets.map((t) => t.dir),
    };
    writeFileSync(join(dir, "pyrightconfig.json"), JSON.stringify(config));
    const run = await runPython(
      ["-p", join(dir, "pyrightconfig.json"), "--outputjson", ...targets.map((t) => t.dir)],
      {
        command: PYRIGHT,
        timeoutMs: 600_000,
      },
    );
    const report = JSON.parse(run.stdout) as {
      generalDiagnostics: Array<{
        file: string;
        message: string;
        range: { start: { line: number } };
      }>;
      summary: { filesAnalyzed: number; errorCount: number; warningCount: number };
    };
    const problems = report.generalDiagnostics.map(
      (d) => `${d.file}:${d.range.start.line + 1}: ${d.message.split("\n")[0]}`,
    );
    expect(problems.slice(0, 20)).toEqual([]);
    expect(report.summary.errorCount + report.summary.warningCount).toBe(0);
    expect(report.summary.filesAnalyzed).toBeGreaterThanOrEqual(targets.length * 9);
  }, 900_000);
});
