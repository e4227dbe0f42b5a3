/**
 * `npm run conformance`: scaffolds the "everything" example server with the
 * mcp-gen of this checkout, installs and builds it from the npm registry,
 * starts it on 127.0.0.1, and runs the official conformance suite against
 * it for both requirement sets (2026-07-28 and 2025-11-25). Prints each
 * report (scored and unscored scenarios) and exits 1 on any failed scored
 * check, 2 when something could not run.
 *
 *   npm run conformance [-- --keep] [--requirements 2026-07-28]
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { packageRoot } from "../generator/load/package-root.js";
import { scaffoldServer, writeProject } from "../generator/scaffold/scaffold.js";

const { values } = parseArgs({
  options: {
    keep: { type: "boolean", default: false },
    requirements: { type: "string", multiple: true },
  },
});
const REQUIREMENTS = values.requirements ?? ["2026-07-28", "2025-11-25"];

/** A free port on 127.0.0.1. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

function run(
  command: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
): { status: number; output: string; stdout: string } {
  const result = spawnSync(command, args, {
    cwd,
    env,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    maxBuffer: 64 * 1024 * 1024,
  });
  return {
    status: result.status ?? 2,
    output: `${result.stdout ?? ""}${result.stderr ?? ""}`,
    stdout: result.stdout ?? "",
  };
}

function must(step: string, result: { status: number; output: string }): void {
  if (result.status === 0) return;
  process.stderr.write(`conformance: ${step} failed:\n${result.output}\n`);
  process.exit(2);
}

const project = join(mkdtempSync(join(tmpdir(), "mcp-gen-everything-")), "everything");
process.stderr.write(`conformance: scaffolding the everything example in ${project}\n`);
const { files } = await scaffoldServer({
  dir: project,
  example: "everything",
  name: "mcp-gen-everything",
});
writeProject(project, files);
must("npm install", run("npm", ["install", "--no-audit", "--no-fund"], project));
must("npm run build", run("npm", ["run", "build"], project));

let failed = 0;
for (const requirements of REQUIREMENTS) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/mcp`;
  const start = `cd ${JSON.stringify(project)} && node dist/index.js`;
  const suite = run(
    process.execPath,
    [
      "--import",
      "tsx",
      join("scripts", "conformance.ts"),
      "--requirements",
      requirements,
      "--start",
      start,
      "--url",
      url,
    ],
    packageRoot(),
    { ...process.env, PORT: String(port) },
  );
  process.stdout.write(`${suite.stdout.trimEnd()}\n\n`);
  const last = /conformance: (\d+) passed, (\d+) failed\s*$/.exec(suite.stdout);
  if (!last || suite.status === 2 || suite.status === 3) {
    process.stderr.write(
      `conformance: the ${requirements} run did not complete (exit ${suite.status}):\n${suite.output}\n`,
    );
    process.exit(2);
  }
  failed += Number(last[2]);
}
if (!values.keep) rmSync(join(project, ".."), { recursive: true, force: true });
else process.stderr.write(`conformance: kept ${project}\n`);
process.exit(failed > 0 ? 1 : 0);
