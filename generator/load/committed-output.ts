/**
 * mcp-gen ships the output of every known revision, alone and with each
 * known extension, in generated/ (`generated/2026-07-28+tasks/`). When a
 * known revision's schemas cannot be had (offline, nothing cached), that
 * output is what generation would have produced: the same files, banner
 * aside, since the schemas are pinned by sha256. This module finds it and
 * gives it this run's regenerate command.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { EmittedFile } from "../shared/emitted-file.js";
import { knownExtensions } from "./extensions.js";
import { packageRoot } from "./package-root.js";

/** The regenerate line of a banner; the only line a committed banner changes. */
const REGENERATE_LINE = /^ \* Regenerate: .*$/m;

/**
 * The committed output for a known revision and known extensions, with
 * `regenerate` in its banners; undefined when mcp-gen ships none for this
 * combination (an unknown revision, a user's extension, several extensions).
 */
export function committedOutput(
  revision: string,
  extensions: readonly string[],
  regenerate: string,
): { folder: string; files: EmittedFile[] } | undefined {
  const folder = committedFolder(revision, extensions);
  if (folder === undefined) return undefined;
  const dir = join(packageRoot(), "generated", folder);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return undefined;
  const files = readdirSync(dir)
    .sort()
    .map((path) => ({
      path,
      contents: readFileSync(join(dir, path), "utf8").replace(
        REGENERATE_LINE,
        ` * Regenerate: ${regenerate}`,
      ),
    }));
  return { folder: `generated/${folder}`, files };
}

/**
 * The name generated/ gives a known revision with known extensions
 * (`2026-07-28+tasks`); undefined for anything else (a folder, a user's
 * extension). Whether mcp-gen ships that combination is for the caller to
 * look up.
 */
export function committedFolder(
  revision: string,
  extensions: readonly string[],
): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(revision)) return undefined;
  const names = extensions.map(
    (ref) =>
      knownExtensions().find((k) => k.manifest.name === ref || k.manifest.id === ref)?.manifest
        .name,
  );
  if (names.some((n) => n === undefined)) return undefined;
  return [revision, ...names].join("+");
}
