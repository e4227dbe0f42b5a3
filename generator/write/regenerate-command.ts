/**
 * The regenerate command a banner names for a run with flags. `--check`
 * compares whole files, banners included, so the command must read the
 * same however and wherever it was typed: the same output folder spelled
 * `src/mcp`, `./src/mcp/` or as an absolute path, from the project root or
 * from a subfolder. Every path is therefore given relative to the output
 * folder, and the command is to be run there:
 *
 *   mcp-gen generate --spec ../../schemas/next --extension tasks --out . (run in this file's folder)
 *
 * Revision names and known extension names are written as they are.
 */
import { existsSync, statSync } from "node:fs";
import { relative, resolve, sep } from "node:path";
import { knownExtensions } from "../load/extensions.js";

const REVISION_NAME = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The command for `--spec <spec> [--extension ...] [--target python] --out <out>`,
 * independent of the working directory. A Python package's modules are one
 * folder down, so its command is to be run where pyproject.toml is.
 */
export function regenerateCommand(
  spec: string,
  extensions: readonly string[],
  out: string,
  target: "typescript" | "python" = "typescript",
): string {
  const outDir = resolve(out);
  const fromOut = (path: string) => relative(outDir, resolve(path)).split(sep).join("/") || ".";
  const specWord = REVISION_NAME.test(spec) && !isFolder(spec) ? spec : fromOut(spec);
  const extensionWords = extensions.map((e) => (isKnownExtension(e) ? e : fromOut(e)));
  const words = [
    "mcp-gen generate --spec",
    shellWord(specWord),
    ...extensionWords.map((e) => `--extension ${shellWord(e)}`),
    ...(target === "python" ? ["--target python"] : []),
    "--out .",
  ];
  const where = target === "python" ? "the folder of pyproject.toml" : "this file's folder";
  return `${words.join(" ")} (run in ${where})`;
}

function isFolder(path: string): boolean {
  return existsSync(path) && statSync(path).isDirectory();
}

function isKnownExtension(ref: string): boolean {
  return knownExtensions().some((k) => k.manifest.name === ref || k.manifest.id === ref);
}

/** A word a POSIX shell reads back as is: quoted when it holds anything but safe characters. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
