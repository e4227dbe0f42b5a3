/**
 * `npm run conformance`: scaffolds the "everything" example server and client with the mcp-gen of
 * this checkout, installs and builds them from the npm registry, and runs the official
 * conformance suite for both requirement sets (2026-07-28 and 2025-11-25): against the server,
 * started on 127.0.0.1, and with the client (its src/conformance.ts). Prints each report and exits
 * 1 on any failed scored check, 2 when something could not run. Everything it writes is in one
 * temporary folder, removed at the end unless --keep.
 *
 * The server is scaffolded with the Tasks extension, so the set's tasks-* scenarios, which it lists
 * as unscored (an extension), are counted too (--score ^tasks-).
 *
 * The client's auth/ scenarios count like the others: the everything client signs in with OAuth
 * (runtime oauth/) whenever a mock server asks. The set lists the flows without a browser (client
 * credentials, DPoP, enterprise-managed authorization, workload identity) as unscored extensions;
 * the everything client implements them, so they are counted too (CLIENT_EXTENSIONS).
 *
 *   npm run conformance [-- --keep] [--requirements 2026-07-28] [--leg server|client]
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { packageRoot } from "../../generator/load/package-root.js";
import { scaffoldClient } from "../../generator/scaffold/client.js";
import { scaffoldServer, writeProject } from "../../generator/scaffold/scaffold.js";
import { shortfalls } from "./floors.js";
import { freePort } from "../shared/free-port.js";

const { values } = parseArgs({
  options: {
    keep: { type: "boolean", default: false },
    requirements: { type: "string", multiple: true },
    leg: { type: "string", multiple: true },
  },
});
/** The client scenarios of extensions the everything client implements, counted as required ones. */
const CLIENT_EXTENSIONS =
  "^auth/(client-credentials-basic|client-credentials-jwt|dpop|dpop-nonce|enterprise-managed-authorization|wif-jwt-bearer)$";
const REQUIREMENTS = values.requirements ?? ["2026-07-28", "2025-11-25"];
const LEGS = values.leg ?? ["server", "client"];
for (const leg of LEGS)
  if (leg !== "server" && leg !== "client") {
    process.stderr.write(`conformance: --leg ${leg}: choose server or client\n`);
    process.exit(2);
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

/** Runs the suite (scripts/conformance/index.ts suite: score.ts) with `args`; the number of failed checks it reports (a shortfall counts as one). */
function score(what: string, args: string[], env: NodeJS.ProcessEnv = process.env): number {
  const suite = run(
    process.execPath,
    ["--import", "tsx", join("scripts", "conformance", "index.ts"), "suite", ...args],
    packageRoot(),
    env,
  );
  process.stdout.write(`${suite.stdout.trimEnd()}\n\n`);
  const last = /conformance: (\d+) passed, (\d+) failed\s*$/.exec(suite.stdout);
  if (!last || suite.status === 2 || suite.status === 3) {
    process.stderr.write(
      `conformance: the ${what} run did not complete (exit ${suite.status}):\n${suite.output}\n`,
    );
    process.exit(2);
  }
  const short = shortfalls(what, suite.stdout);
  for (const line of short) process.stderr.write(`conformance: ${line}\n`);
  return Number(last[2]) + short.length;
}

const root = mkdtempSync(join(tmpdir(), "mcp-gen-everything-"));
const projects = { server: join(root, "server"), client: join(root, "client") };
process.stderr.write(`conformance: scaffolding the everything examples in ${root}\n`);
if (LEGS.includes("server")) {
  const { files } = await scaffoldServer({
    dir: projects.server,
    example: "everything",
    extensions: ["tasks"],
    name: "mcp-gen-everything",
  });
  writeProject(projects.server, files);
}
if (LEGS.includes("client")) {
  const { files } = await scaffoldClient({
    dir: projects.client,
    example: "everything",
    name: "mcp-gen-everything-client",
  });
  writeProject(projects.client, files);
}
for (const leg of LEGS) {
  const project = projects[leg as keyof typeof projects];
  must(`npm install (${leg})`, run("npm", ["install", "--no-audit", "--no-fund"], project));
  must(`npm run build (${leg})`, run("npm", ["run", "build"], project));
}

let failed = 0;
for (const requirements of REQUIREMENTS) {
  if (LEGS.includes("server")) {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/mcp`;
    const start = `cd ${JSON.stringify(projects.server)} && node dist/index.js`;
    failed += score(
      `${requirements} server`,
      [
        ...["--requirements", requirements, "--start", start, "--url", url],
        ...["--score", "^tasks-"],
        ...["--out", join(root, `results-server-${requirements}`)],
      ],
      { ...process.env, PORT: String(port) },
    );
  }
  if (LEGS.includes("client")) {
    // exec: the suite kills only the shell on a timeout; every scenario starts at once, hence the long timeout.
    const command = `exec node ${JSON.stringify(join(projects.client, "dist", "conformance.js"))}`;
    failed += score(`${requirements} client`, [
      "--requirements",
      requirements,
      "--command",
      command,
      "--timeout",
      "120000",
      "--score",
      CLIENT_EXTENSIONS,
      "--out",
      join(root, `results-client-${requirements}`),
    ]);
  }
}
if (!values.keep) rmSync(root, { recursive: true, force: true });
else process.stderr.write(`conformance: kept ${root}\n`);
process.exit(failed > 0 ? 1 : 0);
