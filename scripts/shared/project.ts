/**
 * The projects the long runs measure or attack, made here once: scaffolded
 * by this checkout's mcp-gen and linked to the repository's node_modules
 * (nothing installed: the generator's and the runtime's benchmarks), or
 * installed from the registry and built as their user would (the server
 * benchmark, the fuzzer, the conformance run).
 */
import { spawnSync } from "node:child_process";
import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { scaffoldClient, type ClientScaffoldOptions } from "../../generator/scaffold/client.js";
import {
  scaffoldServer,
  writeProject,
  type ServerScaffoldOptions,
} from "../../generator/scaffold/scaffold.js";
import { buildProject, now, ROOT } from "./common.js";

/** A step of a run's setup failed: the run could not start, which is no finding of the run. */
export class SetupError extends Error {}

/** Links this repository's node_modules into `project`: its compiler, types and dependencies stand in for the project's own. */
export function linkNodeModules(project: string): void {
  symlinkSync(join(ROOT, "node_modules"), join(project, "node_modules"), "dir");
}

/**
 * Scaffolds a project of `kind` into `options.dir` in memory, writes it and
 * links this repository's node_modules into it; with `build`, builds it as
 * its `npm run build` does. Returns the project folder.
 */
export async function linkedProject(
  kind: "server" | "client",
  options: ServerScaffoldOptions & ClientScaffoldOptions,
  { build = false }: { readonly build?: boolean } = {},
): Promise<string> {
  const { files } =
    kind === "server" ? await scaffoldServer(options) : await scaffoldClient(options);
  writeProject(options.dir, files);
  linkNodeModules(options.dir);
  if (build) buildProject(options.dir);
  return options.dir;
}

/**
 * Runs one step of a setup to its end, saying so on stdout (`[setup] label
 * ... 12.3 s`), with mcp-gen offline (it uses its committed output); throws
 * a SetupError with the step's output when it fails.
 */
export function setupStep(label: string, command: string, args: string[], cwd: string): void {
  process.stdout.write(`[setup] ${label} ... `);
  const t0 = now();
  const r = spawnSync(command, args, {
    cwd,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, MCP_GEN_OFFLINE: "1" },
    maxBuffer: 64 * 1024 * 1024,
    timeout: 10 * 60_000,
  });
  if (r.status !== 0) {
    console.log("FAILED");
    throw new SetupError(
      `${label} (${command} ${args.join(" ")} in ${cwd}) exited with ${r.status ?? r.signal ?? r.error}:\n${r.stdout ?? ""}${r.stderr ?? ""}`,
    );
  }
  console.log(`${((now() - t0) / 1e9).toFixed(1)} s`);
}

/** Installs a scaffolded project's dependencies from the registry and builds it, as its user would. */
export function installAndBuild(project: string): void {
  setupStep(
    "npm install --no-audit --no-fund",
    "npm",
    ["install", "--no-audit", "--no-fund"],
    project,
  );
  setupStep("npm run build", "npm", ["run", "build"], project);
}
