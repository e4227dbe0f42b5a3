/**
 * Where the running mcp-gen came from, as an npm dependency specifier, so
 * that a scaffolded project depends on the very mcp-gen that made it and
 * `npm run regenerate` runs that copy (never a package looked up by name).
 *
 * npm records how a package was installed only in lockfiles: the
 * project's package-lock.json and the hidden node_modules/.package-lock.json
 * (`resolved`: a registry URL, `file:` a tarball, `git+...` a commit). A
 * folder install is a symbolic link, so the package's real path is the
 * folder itself. A global install keeps no lockfile; there the installed
 * folder is what the project can depend on.
 *
 * A path on this machine (a tarball, an installed folder) does not exist on
 * a teammate's. So the command line gives the project a copy of that
 * mcp-gen as a tarball in its own `vendor/` folder and records the relative
 * `file:vendor/mcp-gen-<version>.tgz` (see `vendoredCopy`): the project
 * installs wherever it is cloned, and installing a tarball runs no scripts.
 * A checkout of mcp-gen's own sources stays a `file:<folder>` dependency,
 * for working on mcp-gen itself.
 */
import { execFileSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { isJsonObject } from "../load/json.js";
import { packageRoot, packageVersion } from "../load/package-root.js";

/** How a project can depend on an mcp-gen, and why that specifier was chosen. */
export interface InstallSource {
  /** The specifier a package.json records: `0.1.0`, `file:/abs/mcp-gen-0.1.0.tgz`, `file:/abs/folder`, `git+https://…#sha`. */
  readonly specifier: string;
  readonly kind: "registry" | "tarball" | "folder" | "git";
  /** For a tarball or folder on this machine: its absolute path. */
  readonly path?: string;
}

/**
 * The install source of the mcp-gen at `root` (default: the running one).
 * Never throws: a lockfile that cannot be read falls back to the folder.
 */
export function installSource(
  root: string = packageRoot(),
  version: string = packageVersion(),
): InstallSource {
  const real = realpathSync(root);
  const parts = real.split(sep);
  const at = parts.lastIndexOf("node_modules");
  // A checkout, or a folder npm linked: the folder is the source.
  if (at < 0) return folder(real);
  const owner = parts.slice(0, at).join(sep) || sep;
  const key = relative(owner, real).split(sep).join("/");
  for (const lockfile of [
    join(owner, "node_modules", ".package-lock.json"),
    join(owner, "package-lock.json"),
    join(owner, "npm-shrinkwrap.json"),
  ]) {
    const resolved = resolvedIn(lockfile, key);
    if (resolved !== undefined) return fromResolved(resolved, owner, version, real);
  }
  return folder(real);
}

/** The `resolved` field of `key` (`node_modules/mcp-gen`) in an npm lockfile, if there is one. */
function resolvedIn(lockfile: string, key: string): string | undefined {
  if (!existsSync(lockfile)) return undefined;
  try {
    const lock: unknown = JSON.parse(readFileSync(lockfile, "utf8"));
    if (!isJsonObject(lock) || !isJsonObject(lock.packages)) return undefined;
    const entry = lock.packages[key];
    if (!isJsonObject(entry)) return undefined;
    return typeof entry.resolved === "string" ? entry.resolved : undefined;
  } catch {
    return undefined;
  }
}

function fromResolved(
  resolved: string,
  owner: string,
  version: string,
  real: string,
): InstallSource {
  if (resolved.startsWith("file:")) {
    const path = resolved.slice("file:".length);
    const absolute = isAbsolute(path) ? path : resolve(owner, path);
    return /\.(tgz|tar\.gz|tar)$/.test(absolute)
      ? { specifier: fileSpecifier(absolute), kind: "tarball", path: absolute }
      : folder(real);
  }
  if (/^(git\+|git:|github:)/.test(resolved)) return { specifier: resolved, kind: "git" };
  if (/^https?:\/\//.test(resolved)) {
    // The registry's tarball URL ends in <name>-<version>.tgz; anything else is a URL npm can fetch again.
    return basename(new URL(resolved).pathname) === `mcp-gen-${version}.tgz`
      ? { specifier: version, kind: "registry" }
      : { specifier: resolved, kind: "tarball" };
  }
  return folder(real);
}

function folder(real: string): InstallSource {
  return { specifier: fileSpecifier(real), kind: "folder", path: real };
}

/** `file:` and an absolute path in forward slashes, as npm reads it on every platform. */
function fileSpecifier(path: string): string {
  return `file:${path.split(sep).join("/")}`;
}

/** The folder of a project that holds its copy of mcp-gen. */
export const VENDOR_DIR = "vendor";

/** A copy of mcp-gen for a project's `vendor/` folder, and how its package.json names it. */
export interface VendoredCopy {
  /** `file:vendor/mcp-gen-<version>.tgz`: relative, so it holds wherever the project is. */
  readonly specifier: string;
  /** Where the copy goes, relative to the project. */
  readonly path: string;
  readonly bytes: Buffer;
}

/**
 * The copy of mcp-gen a project should carry, or undefined when its
 * dependency is portable as it is (the registry, git) or is a checkout of
 * mcp-gen's sources. An installed folder (a global install) is packed with
 * `npm pack --ignore-scripts`; a tarball is copied as it is.
 */
export function vendoredCopy(
  source: InstallSource = installSource(),
  version: string = packageVersion(),
): VendoredCopy | undefined {
  if (source.path === undefined) return undefined;
  if (source.kind === "folder" && isCheckout(source.path)) return undefined;
  const name = `mcp-gen-${version}.tgz`;
  const bytes = source.kind === "tarball" ? readFileSync(source.path) : packFolder(source.path);
  return { specifier: `file:${VENDOR_DIR}/${name}`, path: `${VENDOR_DIR}/${name}`, bytes };
}

/** A clone with mcp-gen's sources (it builds its own dist/), not an installed copy. */
function isCheckout(folder: string): boolean {
  return (
    existsSync(join(folder, "tsconfig.build.json")) && !folder.split(sep).includes("node_modules")
  );
}

/** The tarball `npm pack` makes of an installed mcp-gen folder, without running its scripts. */
function packFolder(folder: string): Buffer {
  const into = mkdtempSync(join(tmpdir(), "mcp-gen-pack-"));
  try {
    try {
      execFileSync(
        "npm",
        ["pack", folder, "--ignore-scripts", "--silent", "--pack-destination", into],
        { stdio: ["ignore", "ignore", "pipe"], timeout: 120_000 },
      );
    } catch (error) {
      const stderr = (error as { stderr?: Buffer }).stderr?.toString("utf8").trim();
      throw new Error(
        `could not copy the installed mcp-gen at ${folder} into the project (npm pack failed: ${stderr || (error as Error).message}); ` +
          "pass --mcp-gen-dependency <specifier> to record another dependency",
        { cause: error },
      );
    }
    const [tarball] = readdirSync(into).filter((f) => f.endsWith(".tgz"));
    if (tarball === undefined) throw new Error(`npm pack ${folder} made no tarball`);
    return readFileSync(join(into, tarball));
  } finally {
    rmSync(into, { recursive: true, force: true });
  }
}

/**
 * Writes the copy into the project through a temporary file and a rename,
 * so a half-written tarball never carries the name package.json points at.
 * An identical copy already there is left as it is.
 */
export function writeVendoredCopy(projectDir: string, copy: VendoredCopy): void {
  const path = join(projectDir, copy.path);
  if (existsSync(path) && readFileSync(path).equals(copy.bytes)) return;
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.mcp-gen-tmp-${process.pid}`;
  writeFileSync(temporary, copy.bytes);
  renameSync(temporary, path);
}
