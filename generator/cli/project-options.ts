/**
 * What `mcp-gen server` and `mcp-gen client` share: the options that mean
 * the same for both kinds of project, and how the project comes to depend
 * on mcp-gen and is written.
 */
import type { EmittedFile } from "../emit/file.js";
import { PROJECT_REVISION } from "../runtime/revisions.js";

/** The project folder. */
export const DIR_POSITIONAL = {
  type: "string",
  demandOption: true,
  describe: "The project folder (new or empty)",
} as const;

/** `--spec`: the revision (default: the project revision); `describe` says what it means for the kind of project. */
export function specOption(describe: string) {
  return { type: "string", default: PROJECT_REVISION, requiresArg: true, describe } as const;
}

export const NAME_OPTION = {
  type: "string",
  requiresArg: true,
  describe: "The package name (default: the folder's name)",
} as const;

export const EXTENSION_OPTION = {
  type: "string",
  array: true,
  default: [] as string[],
  describe: "An extension to include (tasks, or a folder with mcp-extension.json); repeatable",
} as const;

export const FORCE_OPTION = {
  type: "boolean",
  default: false,
  describe:
    "Scaffold into a folder that is not empty: refresh src/generated and src/mcp-gen, add missing files, keep every other file (refused, naming them, where your files differ from the scaffold's)",
} as const;

export const MCP_GEN_DEPENDENCY_OPTION = {
  type: "string",
  requiresArg: true,
  describe:
    "How the project depends on mcp-gen, for npm run regenerate (a version, a tarball, a folder or a git URL; default: how this mcp-gen was installed)",
} as const;

/** `--target`: the runtime a server project is scaffolded for (generator/project/targets.ts). */
export const TARGET_OPTION = {
  choices: ["node", "bun", "deno", "workers"] as const,
  default: "node" as const,
  describe:
    "The runtime the server runs on: node (node:http), bun (Bun.serve), deno (Deno.serve) or workers (a Cloudflare Worker); each gets its entry file, scripts and README",
} as const;

export const QUIET_OPTION = {
  type: "boolean",
  default: false,
  describe: "Print only the result",
} as const;

/** How a new project depends on mcp-gen, and what to write beside it. */
export interface ProjectDependency {
  /** For the scaffold's options: absent means how the running mcp-gen was installed. */
  readonly options: { readonly mcpGenDependency?: string };
  /** Writes the vendored copy of mcp-gen the dependency names, if it names one. */
  readonly writeBeside: (dir: string) => void;
}

/**
 * The dependency on mcp-gen a new project records: `--mcp-gen-dependency`
 * when given, else a copy in vendor/ when the running mcp-gen has no form
 * that installs on a teammate's machine.
 */
export async function projectDependency(given: string | undefined): Promise<ProjectDependency> {
  if (given !== undefined) return { options: { mcpGenDependency: given }, writeBeside: () => {} };
  const { vendoredCopy, writeVendoredCopy } = await import("../scaffold/install-source.js");
  const copy = vendoredCopy();
  if (!copy) return { options: {}, writeBeside: () => {} };
  return {
    options: { mcpGenDependency: copy.specifier },
    writeBeside: (dir) => writeVendoredCopy(dir, copy),
  };
}

/** Writes a new project and the vendored copy it depends on; returns how many files were written. */
export async function writeNewProject(
  dir: string,
  files: readonly EmittedFile[],
  force: boolean,
  dependency: ProjectDependency,
): Promise<number> {
  const { writeProject } = await import("../write/write-project.js");
  const written = writeProject(dir, files, force);
  dependency.writeBeside(dir);
  return written;
}
