/**
 * Generation driven by mcp-gen.json: every target, and in a project made
 * by `mcp-gen server` or `mcp-gen client` the project's own generated files. Every target is
 * generated in memory first; only when all of them succeeded is anything
 * written (or, with `check`, compared).
 */
import { relative, sep } from "node:path";
import { collectProblems, McpGenError, type Diagnostic } from "../diagnostics.js";
import type { EmittedFile } from "../emit/file.js";
import { generateFiles } from "../index.js";
import { checkingSources, type SchemaSources } from "../load/resolve-spec.js";
import { regenerateProject } from "../project/regenerate.js";
import { serverDrift, type ServerDrift } from "./server-drift.js";
import { assertCanWrite, checkOutput, writeOutput, type StaleFile } from "../write/write-output.js";
import { CONFIG_FILE, type Config, type ConfigTarget } from "./config.js";

/** Options of {@link generateConfig}. */
export interface ConfigRunOptions {
  /** Compare with what is there instead of writing. */
  readonly check?: boolean;
  /** Replace target folders that hold files mcp-gen did not write. */
  readonly force?: boolean;
  readonly sources?: SchemaSources;
}

/** What one target produced. */
export interface TargetOutcome {
  readonly target: ConfigTarget;
  readonly files: readonly EmittedFile[];
  /** Notes and warnings of its generation and write. */
  readonly diagnostics: readonly Diagnostic[];
  /** With `check`: the files that differ. */
  readonly stale?: readonly StaleFile[];
}

/** What the project's own generated files came to. */
export interface ProjectOutcome {
  readonly files: readonly EmittedFile[];
  /** Warnings of its regeneration (a client's tools left out of the typed wrappers, MCPG720). */
  readonly diagnostics: readonly Diagnostic[];
  /** With `check`: the files that differ, relative to the project. */
  readonly stale?: readonly StaleFile[];
  /** Handler stubs written for tools new in tools.json, relative to the project. */
  readonly stubs: readonly string[];
  /** Tools the project was generated with before that tools.json no longer has: their handlers are the user's to delete. */
  readonly removed: readonly string[];
  /** Project files the build's copy step needed, written by this run (scripts/copy-generated.mjs, package.json). */
  readonly build?: readonly string[];
  /**
   * In a client made with --from-server: the recorded tools against the
   * server's now. With `check` the project is stale when this has changes;
   * without, the tools file and the typed wrappers now follow the server.
   */
  readonly drift?: ServerDrift;
}

/** What a run of a configuration did. */
export interface ConfigOutcome {
  readonly targets: readonly TargetOutcome[];
  readonly project?: ProjectOutcome;
}

/**
 * The command a target's banners name. It names the settings file
 * relative to the target folder, so it reads the same whatever the
 * working directory or the spelling of the path was.
 */
export function targetRegenerateCommand(config: Config, target: ConfigTarget): string {
  const file = relative(target.out, config.file).split(sep).join("/");
  return `mcp-gen generate (settings: ${file}, target ${target.name})`;
}

/** How to bring a stale target up to date, for --check's diagnostics. */
export function configRegenerateHint(config: Config): string {
  return `run mcp-gen generate in ${config.dir} (settings: ${CONFIG_FILE})`;
}

/**
 * Generates every target of `config`, then writes them all (and
 * regenerates the project's files), or with `check` compares them all.
 * Throws one McpGenError with the problems of every target that failed
 * or could not be written, before anything is written.
 */
export async function generateConfig(
  config: Config,
  options: ConfigRunOptions = {},
): Promise<ConfigOutcome> {
  // A check compiles for itself: what it compares with never comes from a file in the cache.
  const sources = options.check ? checkingSources(options.sources) : options.sources;
  const problems: Diagnostic[] = [];
  const generated: Array<Omit<TargetOutcome, "stale">> = [];
  for (const target of config.targets) {
    const result = await collectProblems(problems, () =>
      generateFiles({
        spec: target.spec,
        extensions: target.extensions,
        out: target.out,
        regenerateCommand: targetRegenerateCommand(config, target),
        ...(sources ? { sources } : {}),
      }),
    );
    if (result) generated.push({ target, files: result.files, diagnostics: result.diagnostics });
  }
  if (problems.length > 0) throw new McpGenError(problems);
  if (!options.check)
    for (const g of generated)
      await collectProblems(problems, () =>
        assertCanWrite(g.target.out, g.files, { force: options.force ?? false }),
      );
  if (problems.length > 0) throw new McpGenError(problems);
  // The project generates everything before it writes anything, so a failure here leaves every folder as it was.
  const drift = config.project ? await serverDrift(config.dir) : undefined;
  const followServer = drift !== undefined && drift.diff.changes.length > 0 && !options.check;
  const project = config.project
    ? await regenerateProject(config.dir, {
        check: options.check ?? false,
        ...(sources ? { sources } : {}),
        ...(followServer ? { toolsText: drift.toolsText } : {}),
      })
    : undefined;
  const projectOutcome = project
    ? {
        project: {
          files: project.files,
          diagnostics: project.diagnostics,
          stubs: project.stubs,
          removed: project.removed,
          ...(project.build && project.build.length > 0 ? { build: project.build } : {}),
          ...(options.check ? { stale: project.stale } : {}),
          ...(drift ? { drift } : {}),
        },
      }
    : {};
  if (options.check)
    return {
      targets: generated.map((g) => ({ ...g, stale: checkOutput(g.target.out, g.files) })),
      ...projectOutcome,
    };
  const targets = generated.map((g) => ({
    ...g,
    diagnostics: [
      ...g.diagnostics,
      ...writeOutput(g.target.out, g.files, { force: options.force ?? false }),
    ],
  }));
  return { targets, ...projectOutcome };
}
