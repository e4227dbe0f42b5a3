/**
 * A project's generated files, one line per stage, as `generate()` is for
 * a revision: the settings are checked → the tools are checked (once, by
 * the rule of the project's kind) → the files are planned → grouped by the
 * generated folder they go in. Nothing is written.
 *
 * Every command that makes or changes a project's generated files goes
 * through {@link planProject}, and they differ only in what they do with
 * the plan:
 * - `mcp-gen server` and `mcp-gen client` (scaffold/) add the user's own
 *   files and write the whole project;
 * - `mcp-gen generate` in a project (regenerate.ts) writes the groups, and
 *   with `--check` compares them instead; `mcp-gen dev` runs it on every
 *   change of the project's inputs;
 * - `mcp-gen upgrade` (upgrade/) plans the files of the new revision,
 *   writes them into a copy of the project to typecheck and test there,
 *   then into the project.
 */
import { droppedPatternWarnings } from "../check/tool-patterns.js";
import type { Diagnostic } from "../diagnostics.js";
import type { EmittedFile } from "../emit/file.js";
import type { SchemaSources } from "../load/resolve-spec.js";
import type { ToolSpec } from "../load/tools-file.js";
import { generatedGroups, type GeneratedGroup } from "../write/write-project.js";
import { generatedFiles } from "./generated-files.js";
import { checkProjectSettings, linearPatternsOf, type ProjectSettings } from "./settings.js";
import { checkProjectTools, type ToolsText } from "./tools.js";

/** What {@link planProject} plans from. */
export interface ProjectRequest {
  /** The project folder: the settings' paths (extensions, a spec folder) are relative to it. */
  readonly dir: string;
  readonly settings: ProjectSettings;
  /** The tools file's text (or the tools a server listed), and how diagnostics name it. */
  readonly tools: ToolsText;
  /** Where revisions come from (default: the environment). */
  readonly sources?: SchemaSources;
  /**
   * What the tools add to the settings before the files are planned: a new
   * client takes the Tasks extension when a tool may run as a task
   * (scaffold/client.ts). Absent: the settings stand as they are.
   */
  readonly withTools?: (settings: ProjectSettings, tools: readonly ToolSpec[]) => ProjectSettings;
}

/** A project's generated files, planned. */
export interface ProjectPlan {
  /** The settings the files were planned with. */
  readonly settings: ProjectSettings;
  /** The tools that passed the check. */
  readonly tools: readonly ToolSpec[];
  /** Warnings of the tools check (a client's tools left out of its wrappers, MCPG720; patterns left out of linear-time validators). */
  readonly diagnostics: readonly Diagnostic[];
  /** Every generated file, paths relative to the project. */
  readonly files: readonly EmittedFile[];
  /** The same files by the generated folder they go in (paths relative to it). */
  readonly groups: readonly GeneratedGroup[];
}

/** Plans a project's generated files. Throws McpGenError with what its settings or tools break. */
export async function planProject(request: ProjectRequest): Promise<ProjectPlan> {
  checkProjectSettings(request.settings, request.dir);
  const checked = checkProjectTools(request.settings.kind, request.tools);
  const settings = request.withTools?.(request.settings, checked.tools) ?? request.settings;
  const files = await generatedFiles(settings, request.dir, checked.tools, request.sources);
  const groups = generatedGroups(files);
  const diagnostics = [
    ...checked.diagnostics,
    ...(linearPatternsOf(settings)
      ? droppedPatternWarnings(checked.tools, request.tools.file)
      : []),
  ];
  return { settings, tools: checked.tools, diagnostics, files, groups };
}
