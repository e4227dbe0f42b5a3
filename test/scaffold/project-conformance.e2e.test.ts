/**
 * `npm run conformance` in a scaffolded server project
 * (templates/server/scripts/conformance.mjs): the everything example with
 * the Tasks extension, installed from the npm registry, runs the official
 * conformance suite against itself for both requirement sets and passes;
 * the suite, no dependency of the project, is installed on first use at the
 * version mcp-gen's own conformance run uses. The minimal example, which lacks the suite's
 * fixture tools, fails it with exit code 1. Slow by nature: an install,
 * a build, and the suite's scenarios.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SUITE_VERSION } from "../../scripts/conformance/suite.js";
import { installShared } from "../helpers/installs.js";
import { projectEnv } from "../helpers/project.js";
import { runCli, tempDir } from "../helpers/run-cli.js";

const MINUTE = 60_000;
/** Where the script installs Node 22 when it has to: a folder of this test's, removed with it. */
const CACHE = tempDir("conformance-cache");

/** `npm run conformance` in `project`: its exit code and stdout. */
function conformance(
  project: string,
): Promise<{ code: number | null; stdout: string; all: string }> {
  return new Promise((resolve) => {
    const child = spawn("npm", ["run", "-s", "conformance"], {
      cwd: project,
      env: projectEnv({ MCP_GEN_CONFORMANCE_CACHE: CACHE }),
      stdio: ["ignore", "pipe", "pipe"],
      timeout: 8 * MINUTE,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    child.on("close", (code) => resolve({ code, stdout, all: `${stdout}${stderr}` }));
  });
}

/** Scaffolds a server project through the command line and installs it from the registry. */
async function scaffold(label: string, args: readonly string[]): Promise<string> {
  const cwd = tempDir(label);
  const made = await runCli(["server", "proj", ...args, "--quiet"], { cwd });
  expect(made.code, made.stderr).toBe(0);
  const project = join(cwd, "proj");
  await installShared(project);
  return project;
}

describe("npm run conformance in a server project", () => {
  it(
    "the everything example passes both requirement sets and prints the suite's summary lines",
    async () => {
      const project = await scaffold("conformance-everything", [
        "--example",
        "everything",
        "--extension",
        "tasks",
      ]);
      const manifest = JSON.parse(readFileSync(join(project, "package.json"), "utf8")) as {
        devDependencies: Record<string, string>;
      };
      expect(manifest.devDependencies).not.toHaveProperty("@modelcontextprotocol/conformance");
      const run = await conformance(project);
      expect(
        existsSync(
          join(
            CACHE,
            `conformance-${SUITE_VERSION}`,
            "node_modules/@modelcontextprotocol/conformance",
          ),
        ),
      ).toBe(true);
      process.stdout.write(run.stdout);
      expect(run.code, run.all).toBe(0);
      expect(run.stdout).toMatch(/^conformance 2026-07-28: Total: \d+ passed, 0 failed /m);
      expect(run.stdout).toMatch(/^conformance 2025-11-25: Total: \d+ passed, 0 failed /m);
    },
    15 * MINUTE,
  );

  it(
    "the minimal example, without the suite's fixtures, fails it with exit code 1",
    async () => {
      const project = await scaffold("conformance-minimal", []);
      const run = await conformance(project);
      process.stdout.write(run.stdout);
      expect(run.code, run.all).toBe(1);
      expect(run.stdout).toMatch(/^conformance 2026-07-28: Total: \d+ passed, [1-9]\d* failed /m);
    },
    15 * MINUTE,
  );
});
