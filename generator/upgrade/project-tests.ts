/**
 * The project's own tests, run by `mcp-gen upgrade` in the temporary copy
 * that holds the new generated files. A project whose test script is
 * vitest (as a scaffold's is) is run with vitest's JSON report, so each
 * failing test is named with its file and message; any other test script
 * is run as `npm test` and judged by its exit code, with the end of its
 * output as the message.
 */
import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";

/** A test that failed in the copy. */
export interface FailedTest {
  /** The test file, relative to the project with `/` (empty when the runner does not say). */
  readonly file: string;
  /** The test's full name (describe blocks and title), or what failed when no test did. */
  readonly name: string;
  /** The first line of its failure message. */
  readonly message: string;
}

/** What the project's tests did in the copy. */
export interface TestRun {
  /** The command as the user would run it: `npm test`. */
  readonly command: string;
  readonly exitCode: number;
  /** How many tests passed (0 when the runner does not say). */
  readonly passed: number;
  readonly failures: readonly FailedTest[];
}

/** The longest a project's tests may run in the copy before they count as failed. */
const TEST_TIMEOUT_MS = 10 * 60_000;
/** How much of a non-vitest test script's output is kept as its message. */
const TAIL_LINES = 5;

/**
 * Runs the tests of the project at `project` (a copy); `scratch` is a
 * folder for the report. Undefined when the project has no test script.
 */
export async function runProjectTests(
  project: string,
  scratch: string,
): Promise<TestRun | undefined> {
  const pkg = JSON.parse(readFileSync(join(project, "package.json"), "utf8")) as {
    scripts?: Record<string, string>;
  };
  const script = pkg.scripts?.test;
  if (script === undefined) return undefined;
  const vitest = join(project, "node_modules", "vitest", "vitest.mjs");
  if (/^vitest run\s*$/.test(script) && existsSync(vitest)) {
    const report = join(scratch, "vitest-report.json");
    const { code } = await run(
      [process.execPath, vitest, "run", "--reporter=json", `--outputFile=${report}`],
      project,
    );
    if (existsSync(report))
      return { command: "npm test", exitCode: code, ...readReport(report, project) };
    return { command: "npm test", exitCode: code, passed: 0, failures: [] };
  }
  const { code, output } = await run(["npm", "run", "--silent", "test"], project);
  const tail = output.trim().split("\n").slice(-TAIL_LINES).join(" | ");
  return {
    command: "npm test",
    exitCode: code,
    passed: 0,
    failures:
      code === 0 ? [] : [{ file: "", name: "npm test", message: tail || `exit code ${code}` }],
  };
}

interface VitestReport {
  readonly numPassedTests?: number;
  readonly testResults?: ReadonlyArray<{
    readonly name: string;
    readonly status?: string;
    readonly message?: string;
    readonly assertionResults?: ReadonlyArray<{
      readonly fullName?: string;
      readonly title?: string;
      readonly status: string;
      readonly failureMessages?: readonly string[];
    }>;
  }>;
}

/** The failing tests of vitest's JSON report; a file that failed without a failing test is listed as the file. */
function readReport(file: string, project: string): { passed: number; failures: FailedTest[] } {
  const report = JSON.parse(readFileSync(file, "utf8")) as VitestReport;
  const failures: FailedTest[] = [];
  for (const result of report.testResults ?? []) {
    const path = relative(project, result.name).split(sep).join("/");
    const failed = (result.assertionResults ?? []).filter((a) => a.status === "failed");
    for (const test of failed)
      failures.push({
        file: path,
        name: test.fullName ?? test.title ?? "(unnamed test)",
        message: firstLine(test.failureMessages?.[0] ?? "failed"),
      });
    if (failed.length === 0 && result.status === "failed")
      failures.push({
        file: path,
        name: "(the file)",
        message: firstLine(result.message ?? "failed"),
      });
  }
  return { passed: report.numPassedTests ?? 0, failures };
}

function firstLine(text: string): string {
  return (
    text
      .split("\n")
      .find((l) => l.trim() !== "")
      ?.trim() ?? text
  );
}

/**
 * Runs a command in the copy, in an environment without the variables of
 * a test runner that may be running mcp-gen itself (vitest would take a
 * nested run for one of its workers) and without color.
 */
function run(argv: readonly string[], cwd: string): Promise<{ code: number; output: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1", CI: "1" };
  for (const key of Object.keys(env))
    if (key.startsWith("VITEST") || key === "FORCE_COLOR") delete env[key];
  delete env.NODE_ENV;
  return new Promise((done) => {
    execFile(
      argv[0]!,
      argv.slice(1),
      { cwd, env, maxBuffer: 64 * 1024 * 1024, timeout: TEST_TIMEOUT_MS },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        done({ code, output: `${stdout}${stderr}` });
      },
    );
  });
}
