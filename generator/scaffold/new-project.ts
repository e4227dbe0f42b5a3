/**
 * The checks a new project passes before anything is built: its folder,
 * its package name, its revision, and how mcp-gen.json records its
 * extensions.
 */
import { basename, relative, resolve, sep } from "node:path";
import { diagnostic, McpGenError } from "../diagnostics.js";
import { findManifest } from "../load/extensions.js";
import { knownRevisions, readRegistry } from "../load/registry.js";
import type { ProjectSettings } from "../project/settings.js";
import { FIRST_MODERN, PROJECT_REVISION } from "../runtime/revisions.js";

/** Checks a package name against npm's rules (the parts that matter for `npm install`). */
export function packageNameProblem(name: string): string | undefined {
  if (name.length === 0) return "it is empty";
  if (name.length > 214) return "it is longer than 214 characters";
  if (name !== name.toLowerCase()) return "it has uppercase letters";
  if (/^[._]/.test(name)) return "it starts with . or _";
  if (!/^(?:@[a-z0-9][a-z0-9._-]*\/)?[a-z0-9][a-z0-9._-]*$/.test(name))
    return "it has characters npm does not allow";
  if (["node_modules", "favicon.ico"].includes(name)) return "npm reserves it";
  return undefined;
}

/**
 * The revision of a new project: the project revision unless `spec` names
 * another, which must be a modern one (MCPG709). Only a known revision is
 * refused as too old; an unknown name goes on to resolution, which reports
 * it as unknown and suggests the revision it is closest to (MCPG101).
 */
export function projectRevision(spec: string | undefined, kind: ProjectSettings["kind"]): string {
  const revision = spec ?? PROJECT_REVISION;
  if (knownRevisions(readRegistry()).includes(revision) && revision < FIRST_MODERN)
    throw new McpGenError([diagnostic("MCPG709", { revision, kind }, { file: "--spec" })]);
  return revision;
}

/** The package name of a new project: `--name`, else the folder's name, checked against npm's rules (MCPG708). */
export function projectName(dir: string, name: string | undefined): string {
  const chosen = name ?? basename(resolve(dir));
  const problem = packageNameProblem(chosen);
  if (problem)
    throw new McpGenError([
      diagnostic("MCPG708", { name: chosen, reason: problem }, { file: name ? "--name" : dir }),
    ]);
  return chosen;
}

/**
 * How mcp-gen.json records an `--extension` argument: a known extension by
 * its name, any other by its path relative to the project, so that the
 * project regenerates from its own folder wherever it was scaffolded from.
 */
export function projectExtensionRef(ref: string, projectDir: string): string {
  const found = findManifest(ref);
  if (found.known) return found.manifest.name;
  return relative(resolve(projectDir), resolve(ref)).split(sep).join("/");
}
