/**
 * The JavaScript runtimes besides Node.js that scaffolded servers run on,
 * from the npm registry, pinned: `bun` and `deno` ship their binaries in
 * the npm package (a platform package per OS), and a Worker's project
 * installs its own wrangler (with workerd) as a devDependency. They are
 * not devDependencies of mcp-gen (together with wrangler about 390 MB that
 * only the slow tests use): each is installed once into a cache folder
 * shared by every test run, `node_modules/.cache/mcp-gen-runtimes/<name>@<version>`,
 * and found there the next time.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./index.js";
import { projectEnv } from "./project.js";

/** The versions the tests run (wrangler is the project's own devDependency: the scaffold pins it). */
export const RUNTIME_VERSIONS = { bun: "1.4.5", deno: "2.9.6" } as const;

/** A runtime installed by {@link runtimeBinary}. */
export type RuntimeName = keyof typeof RUNTIME_VERSIONS;

const CACHE = join(ROOT, "node_modules", ".cache", "mcp-gen-runtimes");

/**
 * The path of `name`'s binary, installed from the registry into the shared
 * cache when it is not there yet (written to a temporary folder and
 * renamed, so a run that stops half-way leaves nothing that looks done).
 */
export async function runtimeBinary(name: RuntimeName): Promise<string> {
  const dir = join(CACHE, `${name}@${RUNTIME_VERSIONS[name]}`);
  const binary = join(dir, "node_modules", ".bin", name);
  if (existsSync(binary)) return binary;
  const partial = `${dir}.partial-${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  writeFileSync(
    join(partial, "package.json"),
    JSON.stringify({ name: `runtime-${name}`, private: true }),
  );
  await new Promise<void>((resolve, reject) =>
    execFile(
      "npm",
      ["install", "--no-audit", "--no-fund", `${name}@${RUNTIME_VERSIONS[name]}`],
      { cwd: partial, env: installEnv(), timeout: 5 * 60_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) =>
        error ? reject(new Error(`npm install ${name} failed:\n${stdout}${stderr}`)) : resolve(),
    ),
  );
  const installed = join(partial, "node_modules", ".bin", name);
  if (!existsSync(installed)) {
    rmSync(partial, { recursive: true, force: true });
    throw new Error(`npm install ${name}@${RUNTIME_VERSIONS[name]} left no ${name} binary`);
  }
  if (existsSync(dir)) rmSync(partial, { recursive: true, force: true });
  else renameSync(partial, dir);
  return binary;
}

/**
 * The environment of the install: the project's, without the npm_* settings
 * of the npm that started the tests (its local prefix is the repository,
 * where the install would otherwise go).
 */
function installEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(projectEnv()).filter(([key]) => !/^npm_/i.test(key)));
}
