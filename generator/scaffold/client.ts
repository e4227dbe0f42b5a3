/**
 * `mcp-gen client <dir>`: a typed MCP client project. It shares the server
 * scaffold's machinery (settings.ts, render.ts, generated-files.ts,
 * regenerate.ts: checks, templates, the protocol modules, the tools module,
 * the runtime, mcp-gen.json, regeneration); what
 * is a client's own is here: its templates (templates/client), the tools
 * it learns from a live server (`--from-server`), and how it treats a tool
 * list, which is a server's and so untrusted: a tool mcp-gen cannot type
 * safely is left out of the typed wrappers with a warning, never turned
 * into code, and stays callable by name.
 */
import { readFileSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { diagnostic, McpGenError, type Diagnostic } from "../diagnostics.js";
import type { EmittedFile } from "../emit/file.js";
import { isJsonObject } from "../load/json.js";
import type { SchemaSources } from "../load/resolve-spec.js";
import { planProject } from "../project/index.js";
import { copyGeneratedScript } from "../project/build-scripts.js";
import { listTemplateFiles, renderProject, templatesDir } from "../project/render.js";
import {
  clientSignsIn,
  projectExtensions,
  TASKS_EXTENSION_ID,
  type ClientSettings,
} from "../project/settings.js";
import { readToolsFile } from "../load/tools-file.js";
import { isUrl, listServerTools } from "../runtime/from-server.js";
import { installSource } from "./install-source.js";
import { projectExtensionRef, projectName, projectRevision } from "./new-project.js";
import { byPath } from "../shared/emitted-file.js";
import { FIRST_MODERN } from "../runtime/revisions.js";
import type { ToolSpec } from "../load/tools-file.js";

/** What `mcp-gen client` is asked for. */
export interface ClientScaffoldOptions {
  readonly dir: string;
  /** The revision (default 2026-07-28). */
  readonly spec?: string;
  /** The package name (default: the folder's name). */
  readonly name?: string;
  readonly extensions?: readonly string[];
  /** A tools.json to take the server's tools from. */
  readonly tools?: string;
  /** A server to list the tools from: the URL of its MCP endpoint, or the command that starts it. */
  readonly fromServer?: string;
  readonly example?: "minimal" | "everything";
  /**
   * Sign in with OAuth when a server asks (the everything example always
   * does: the conformance suite's auth scenarios need it).
   */
  readonly auth?: boolean;
  readonly sources?: SchemaSources;
  /** The project's devDependency on mcp-gen (default: how the running mcp-gen was installed). */
  readonly mcpGenDependency?: string;
}

/** A new client project, and the warnings about tools left out of its wrappers. */
export interface ClientScaffold {
  readonly files: EmittedFile[];
  readonly settings: ClientSettings;
  readonly diagnostics: readonly Diagnostic[];
}

/** The folder a `--from-server` command runs in (this process's), relative to the project in `dir`, with `/`. */
function commandFolder(dir: string): string {
  return relative(resolve(dir), process.cwd()).split(sep).join("/") || ".";
}

/** Builds every file of a new client project; nothing is written. */
export async function scaffoldClient(options: ClientScaffoldOptions): Promise<ClientScaffold> {
  if (options.tools !== undefined && options.fromServer !== undefined)
    throw new McpGenError([diagnostic("MCPG722", {}, { file: "--from-server" })]);
  const revision = projectRevision(options.spec, "client");
  const name = projectName(options.dir, options.name);
  const example = options.example ?? "minimal";
  const listed =
    options.fromServer !== undefined ? await listServerTools(options.fromServer) : undefined;
  const toolsText = listed
    ? `${JSON.stringify(listed.tools, null, 2)}\n`
    : options.tools !== undefined
      ? readToolsFile(options.tools)
      : readFileSync(templatesDir("client", "examples", example, "tools.json"), "utf8");
  const asked: ClientSettings = {
    kind: "client",
    revision,
    extensions: (options.extensions ?? []).map((ref) => projectExtensionRef(ref, options.dir)),
    tools: "tools.json",
    example,
    ...(options.fromServer !== undefined ? { fromServer: options.fromServer } : {}),
    // A command line ran here: regeneration runs it in the same folder, so its relative paths hold.
    ...(options.fromServer !== undefined && !isUrl(options.fromServer)
      ? { fromServerFolder: commandFolder(options.dir) }
      : {}),
    ...(options.auth === true || example === "everything" ? { auth: true } : {}),
  };
  const plan = await planProject({
    dir: options.dir,
    settings: asked,
    tools: { text: toolsText, file: options.tools ?? "tools.json" },
    withTools: (settings, tools) => ({
      ...settings,
      extensions: withTasksWhenUsed(settings.extensions, tools, revision, options.dir),
    }),
    ...(options.sources ? { sources: options.sources } : {}),
  });
  const settings = plan.settings as ClientSettings;
  const diagnostics = [
    ...(listed?.warnings ?? []).map((reason) =>
      diagnostic("MCPG723", { server: options.fromServer!, reason }, { file: "--from-server" }),
    ),
    ...plan.diagnostics,
  ];
  const own = clientFiles(
    settings,
    options.dir,
    name,
    plan.tools,
    toolsText,
    options.mcpGenDependency ?? installSource().specifier,
  );
  return { files: byPath([...own, ...plan.files]), settings, diagnostics };
}

/**
 * The project's extensions, with the Tasks extension added when a tool
 * may run as a task (`execution.taskSupport` optional or required) and it
 * is not there yet and the revision is a modern one: the client then
 * declares it and its wrappers follow tasks, which a `required` tool cannot
 * be called without.
 */
function withTasksWhenUsed(
  extensions: readonly string[],
  tools: readonly ToolSpec[],
  revision: string,
  projectDir: string,
): string[] {
  // The extension is defined for the modern revisions only (a schema folder is left as the user set it).
  const modern = /^\d{4}-\d{2}-\d{2}$/.test(revision) && revision >= FIRST_MODERN;
  const usesTasks = tools.some((tool) => {
    const support = isJsonObject(tool.execution) ? tool.execution.taskSupport : undefined;
    return support === "optional" || support === "required";
  });
  const declared = projectExtensions(
    { kind: "client", revision: "", extensions, tools: "", example: "minimal" },
    projectDir,
  ).some((e) => e.id === TASKS_EXTENSION_ID);
  return modern && usesTasks && !declared ? [...extensions, "tasks"] : [...extensions];
}

/** The user's own files of a client project. */
function clientFiles(
  settings: ClientSettings,
  projectDir: string,
  name: string,
  tools: readonly ToolSpec[],
  toolsText: string,
  mcpGenDependency: string,
): EmittedFile[] {
  const view = {
    name,
    revision: settings.revision,
    extensions: projectExtensions(settings, projectDir).map((e) => ({ id: e.id, name: e.name })),
    tools: tools.map((t) => ({ name: t.name })),
    firstTool: tools[0]?.name ?? "",
    fromServer: settings.fromServer ?? "",
    mcpGen: mcpGenDependency,
    auth: clientSignsIn(settings),
  };
  const exampleDir = templatesDir("client", "examples", settings.example);
  const overlay = listTemplateFiles(exampleDir)
    .filter((path) => path !== "tools.json")
    .map((path) => ({ path, contents: readFileSync(join(exampleDir, path), "utf8") }));
  return renderProject(settings, view, [...overlay, copyGeneratedScript()], toolsText);
}
