/**
 * Real installs from the npm registry, shared: projects with the same
 * dependencies get one `npm install`, linked into each. A scaffold's
 * package.json decides what is installed, exactly as a user's `npm install`
 * would, but a test file that makes three client projects pays for one.
 * (The fast suite installs nothing: it links the repository's node_modules.)
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "./index.js";
import { projectEnv } from "./project.js";

const installs = new Map<string, Promise<string>>();

/** The part of a package.json that decides what `npm install` puts in node_modules. */
function dependencySet(project: string): Record<string, unknown> {
  const manifest = JSON.parse(readFileSync(join(project, "package.json"), "utf8")) as Record<
    string,
    unknown
  >;
  return {
    dependencies: manifest.dependencies ?? {},
    devDependencies: manifest.devDependencies ?? {},
  };
}

function npmInstall(dir: string): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(
      "npm",
      ["install", "--no-audit", "--no-fund"],
      { cwd: dir, env: projectEnv(), timeout: 8 * 60_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) =>
        error ? reject(new Error(`npm install in ${dir} failed:\n${stdout}${stderr}`)) : resolve(),
    );
  });
}

/**
 * Installs `project`'s dependencies from the registry, once per dependency
 * set in this test file, and links the installed node_modules into it.
 */
export async function installShared(project: string): Promise<void> {
  const set = dependencySet(project);
  const key = createHash("sha256").update(JSON.stringify(set)).digest("hex").slice(0, 16);
  if (!installs.has(key))
    installs.set(
      key,
      (async () => {
        const dir = join(tempDir("install"), key);
        mkdirSync(dir);
        writeFileSync(
          join(dir, "package.json"),
          JSON.stringify({ name: "shared-install", private: true, type: "module", ...set }),
        );
        await npmInstall(dir);
        return join(dir, "node_modules");
      })(),
    );
  const modules = await installs.get(key)!;
  if (!existsSync(join(project, "node_modules")))
    symlinkSync(modules, join(project, "node_modules"), "dir");
}
