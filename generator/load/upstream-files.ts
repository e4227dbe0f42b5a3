/**
 * Every upstream file mcp-gen pins, as sets kept together in one folder
 * each: the known revisions' schemas and example messages, the known
 * extensions' schemas, and further documents (an extension's
 * specification text). A folder holding all of them in that layout
 * (`2026-07-28/schema.json`, `2026-07-28/examples/...`,
 * `extensions/tasks/...`) is what MCP_GEN_SCHEMA_DIR names, and what the
 * cache's `schemas/` folder becomes after `mcp-gen schema pull --all`.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync } from "node:fs";
import { dirname, join } from "node:path";
import { diagnostic, McpGenError } from "../diagnostics.js";
import { extensionSet, knownExtensions } from "./extensions.js";
import { knownRevisions, type Registry } from "./registry.js";
import {
  downloadPinnedSets,
  examplesSet,
  revisionSet,
  sha256,
  type PinnedSet,
  type SchemaSources,
} from "./resolve-spec.js";

/** Every pinned set, in a stable order: revisions (schemas, then examples), extensions, documents. */
export function everyPinnedSet(registry: Registry): PinnedSet[] {
  const revisions = knownRevisions(registry).flatMap((revision) => {
    const examples = examplesSet(revision, registry);
    return [revisionSet(revision, registry), ...(examples ? [examples] : [])];
  });
  const extensions = knownExtensions().map((k) => extensionSet(k.manifest));
  const documents = Object.entries(registry.documents).map(([folder, files]) => ({
    folder,
    files,
  }));
  return [...revisions, ...extensions, ...documents];
}

/** What a folder lacks of the pinned sets: files not there, and files with other bytes. */
export interface FolderGaps {
  readonly missing: readonly string[];
  readonly mismatched: readonly string[];
}

/** Checks that `root` holds every file of `sets`, each with its pinned sha256. */
export function gapsIn(root: string, sets: readonly PinnedSet[]): FolderGaps {
  const missing: string[] = [];
  const mismatched: string[] = [];
  for (const set of sets)
    for (const [name, pinned] of Object.entries(set.files)) {
      const path = join(root, set.folder, name);
      if (!existsSync(path)) missing.push(`${set.folder}/${name}`);
      else if (sha256(readFileSync(path)) !== pinned.sha256) mismatched.push(path);
    }
  return { missing, mismatched };
}

/**
 * Fills the cache's `schemas/` folder with every pinned set it lacks:
 * copied (verified) from `copyFrom` folders that hold the set whole, else
 * downloaded (verified) unless downloads are off. Returns the folder;
 * throws MCPG102-style diagnostics naming what could not be had.
 */
export async function pullEverything(
  registry: Registry,
  sources: SchemaSources,
  copyFrom: readonly string[] = [],
): Promise<string> {
  const root = join(sources.cacheDir, "schemas");
  const lacking = everyPinnedSet(registry).filter((set) => !isWhole(root, set));
  const toDownload: PinnedSet[] = [];
  for (const set of lacking) {
    const source = copyFrom.find((dir) => isWhole(dir, set));
    if (source) copySet(source, root, set);
    else toDownload.push(set);
  }
  if (toDownload.length > 0) {
    if (!sources.allowDownload)
      throw new McpGenError([
        diagnostic("MCPG108", {
          missing: toDownload.map((s) => s.folder),
          looked: [...copyFrom, root],
        }),
      ]);
    await downloadPinnedSets(toDownload, sources);
  }
  return root;
}

function isWhole(root: string, set: PinnedSet): boolean {
  const gaps = gapsIn(root, [set]);
  return gaps.missing.length === 0 && gaps.mismatched.length === 0;
}

/** Copies a set file by file, each to a temporary name renamed into place, so a kill leaves no half file. */
function copySet(from: string, to: string, set: PinnedSet): void {
  for (const name of Object.keys(set.files)) {
    const target = join(to, set.folder, name);
    const temporary = `${target}.${process.pid}.tmp`;
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(join(from, set.folder, name), temporary);
    renameSync(temporary, target);
  }
}
