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
 */
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { basename, isAbsolute, join, relative, resolve, sep } from "node:path";
import { isJsonObject } from "../load/json.js";
import { packageRoot, packageVersion } from "../load/package-root.js";

/** How a project can depend on an mcp-gen, and why that specifier was chosen. */
export interface InstallSource {
  /** The specifier a package.json records: `0.1.0`, `file:/abs/mcp-gen-0.1.0.tgz`, `file:/abs/folder`, `git+https://…#sha`. */
  readonly specifier: string;
  readonly kind: "registry" | "tarball" | "folder" | "git";
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
  if (at < 0) return { specifier: fileSpecifier(real), kind: "folder" };
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
  return { specifier: fileSpecifier(real), kind: "folder" };
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
      ? { specifier: fileSpecifier(absolute), kind: "tarball" }
      : { specifier: fileSpecifier(real), kind: "folder" };
  }
  if (/^(git\+|git:|github:)/.test(resolved)) return { specifier: resolved, kind: "git" };
  if (/^https?:\/\//.test(resolved)) {
    // The registry's tarball URL ends in <name>-<version>.tgz; anything else is a URL npm can fetch again.
    return basename(new URL(resolved).pathname) === `mcp-gen-${version}.tgz`
      ? { specifier: version, kind: "registry" }
      : { specifier: resolved, kind: "tarball" };
  }
  return { specifier: fileSpecifier(real), kind: "folder" };
}

/** `file:` and an absolute path in forward slashes, as npm reads it on every platform. */
function fileSpecifier(path: string): string {
  return `file:${path.split(sep).join("/")}`;
}
