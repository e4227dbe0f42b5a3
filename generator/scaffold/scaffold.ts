/**
 * `mcp-gen server <dir>`: a runnable, typed MCP server project.
 *
 * A project has two kinds of files. The user's own (package.json, README,
 * src/*.ts, test/, tools.json, mcp-gen.json) are written once, from the
 * Handlebars templates in templates/server (view models only, no logic)
 * and the example folders. The generated ones (src/generated/,
 * src/mcp-gen/runtime/) carry mcp-gen's banner and are rewritten by
 * `mcp-gen generate` in the project whenever the spec or tools.json
 * changes; nothing else is ever touched.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { diagnostic, McpGenError } from "../diagnostics.js";
import type { EmittedFile } from "../emit/file.js";
import { byPath } from "../shared/emitted-file.js";
import { propertyKey } from "../emit/names.js";
import { knownExtensions } from "../load/extensions.js";
import type { SchemaSources } from "../load/resolve-spec.js";
import { planProject } from "../project/index.js";
import { installSource } from "./install-source.js";
import { projectExtensionRef, projectName, projectRevision } from "./new-project.js";
import { compilesWithTsc, copyGeneratedScript } from "../project/build-scripts.js";
import {
  commentText,
  listTemplateFiles,
  render,
  renderProject,
  templatesDir,
} from "../project/render.js";
import {
  projectExtensions,
  type ProjectExtension,
  type ProjectSettings,
  type ServerSettings,
} from "../project/settings.js";
import { checkTargetParts, defaultTransport, type Target } from "../project/targets.js";
import { toolNamespaces } from "../check/tool-rules.js";
import { readToolsFile, type ToolSpec } from "../load/tools-file.js";

// The scaffold's parts, from where callers have always imported them.
export { generatedFiles, runtimeFiles } from "../project/generated-files.js";
export { regenerateProject, toolStubPath } from "../project/regenerate.js";
export { listTemplateFiles, render, replace, templatesDir } from "../project/render.js";
export * from "../project/settings.js";
export { readToolsFile } from "../load/tools-file.js";
export { GENERATED_DIRS, writeProject } from "../write/write-project.js";

/** What `mcp-gen server` is asked for. */
export interface ServerScaffoldOptions {
  readonly dir: string;
  /** The revision (default 2026-07-28). */
  readonly spec?: string;
  /** The package name (default: the folder's name). */
  readonly name?: string;
  readonly extensions?: readonly string[];
  /** A tools.json to take the tools from (default: the example's). */
  readonly tools?: string;
  readonly example?: "minimal" | "everything";
  /** Default: both, or http for workers. */
  readonly transport?: "stdio" | "http" | "both";
  /** The runtime it runs on (default node). */
  readonly target?: Target;
  /** Make the server an OAuth protected resource (needs the HTTP transport). */
  readonly auth?: boolean;
  readonly force?: boolean;
  readonly sources?: SchemaSources;
  /** How the project depends on mcp-gen (default: how the running mcp-gen was installed, see install-source.ts). */
  readonly mcpGenDependency?: string;
}

/** Builds every file of a new project; nothing is written. */
export async function scaffoldServer(
  options: ServerScaffoldOptions,
): Promise<{ files: EmittedFile[]; settings: ProjectSettings }> {
  const revision = projectRevision(options.spec, "server");
  const name = projectName(options.dir, options.name);
  const example = options.example ?? "minimal";
  if (options.auth && options.transport === "stdio")
    throw new McpGenError([diagnostic("MCPG714", {}, { file: "--auth" })]);
  const extensions = (options.extensions ?? []).map((ref) => projectExtensionRef(ref, options.dir));
  const target = options.target ?? "node";
  const settings: ServerSettings = {
    kind: "server",
    revision,
    extensions,
    tools: "tools.json",
    example,
    transport: options.transport ?? defaultTransport(target),
    // A Node.js project records no target, as before targets existed.
    ...(target !== "node" ? { target } : {}),
    ...(options.auth ? { auth: { scopes: ["mcp"] } } : {}),
  };
  checkTargetParts({
    target,
    transport: settings.transport,
    auth: options.auth === true,
    extensionIds: projectExtensions(settings, options.dir).map((e) => e.id),
  });
  const toolsText = options.tools
    ? readToolsFile(options.tools)
    : exampleTools(example, projectExtensions(settings, options.dir));
  const plan = await planProject({
    dir: options.dir,
    settings,
    tools: { text: toolsText, file: options.tools ?? "tools.json" },
    ...(options.sources ? { sources: options.sources } : {}),
  });
  const own = userFiles(
    settings,
    options.dir,
    name,
    plan.tools,
    toolsText,
    example,
    options.tools !== undefined,
    options.mcpGenDependency ?? installSource().specifier,
  );
  return { files: byPath([...own, ...plan.files]), settings };
}

/**
 * An example's tools.json, with the tools of each extension that has a
 * folder in the example (`examples/everything/tasks/`) appended.
 */
function exampleTools(example: string, extensions: readonly ProjectExtension[]): string {
  const read = (...path: string[]) =>
    readFileSync(templatesDir("server", "examples", ...path), "utf8");
  const base = read(example, "tools.json");
  const added = extensions
    .filter((e) => existsSync(templatesDir("server", "examples", example, e.name, "tools.json")))
    .flatMap((e) => JSON.parse(read(example, e.name, "tools.json")) as unknown[]);
  if (added.length === 0) return base;
  return `${JSON.stringify([...(JSON.parse(base) as unknown[]), ...added], null, 2)}\n`;
}

/** The user's own files: templates rendered with a small view model, example sources copied. */
function userFiles(
  settings: ServerSettings,
  projectDir: string,
  name: string,
  tools: readonly ToolSpec[],
  toolsText: string,
  example: string,
  ownTools: boolean,
  mcpGenDependency: string,
): EmittedFile[] {
  const extensions = projectExtensions(settings, projectDir);
  const namespaces = toolNamespaces(tools);
  const view = {
    name,
    mcpGen: mcpGenDependency,
    revision: settings.revision,
    stubs: extensions.some((e) => e.requests.length > 0),
    // Tasks are what a shared Redis store is for; without them the package is installed only on demand.
    redis: extensions.some((e) => e.id === "io.modelcontextprotocol/tasks"),
    typedSettings: extensions.some((e) => e.declaredBy.server && e.capability),
    extensions: extensions.map((e) => ({
      id: e.id,
      name: e.name,
      capability: e.capability,
      declared: e.declaredBy.server,
      settings: e.settings.server,
      requests: e.requests.map((method) => ({ method })),
    })),
    http: settings.transport !== "stdio",
    stdio: settings.transport !== "http",
    both: settings.transport === "both",
    auth: settings.auth !== undefined,
    target: settings.target ?? "node",
    node: (settings.target ?? "node") === "node",
    bun: settings.target === "bun",
    deno: settings.target === "deno",
    workers: settings.target === "workers",
    workerName: workerName(name),
    tools: tools.map((t) => ({
      name: t.name,
      // Computed for __proto__: as a plain key in an object literal it would set the prototype.
      key: propertyKey(t.name),
      namespace: namespaces.get(t.name),
      description: commentText(t.description ?? t.name),
    })),
  };
  return renderProject(
    settings,
    view,
    [
      ...targetOverlay(settings.target ?? "node", view),
      ...exampleOverlay(example, extensions, ownTools),
      ...(compilesWithTsc(settings) ? [copyGeneratedScript()] : []),
    ],
    toolsText,
  );
}

/** A Worker's name from the package's: lowercase letters, digits and dashes, at most 63 (Cloudflare's rule). */
function workerName(packageName: string): string {
  const bare = packageName.replace(/^@[^/]+\//, "");
  const name = bare
    .replace(/[^a-z0-9-]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 63);
  return name === "" ? "mcp-server" : name;
}

/**
 * The files of a target other than node that replace or add to the
 * template's (its entry file, deno.json, wrangler.toml), from
 * templates/server/targets/<target>/, rendered with the project's view.
 */
function targetOverlay(target: Target, view: object): EmittedFile[] {
  if (target === "node") return [];
  const dir = templatesDir("server", "targets", target);
  return listTemplateFiles(dir).map((path) => {
    const text = readFileSync(join(dir, path), "utf8");
    return {
      path: path.replace(/\.hbs$/, ""),
      contents: path.endsWith(".hbs") ? render(text, view) : text,
    };
  });
}

/**
 * The files of a server example that replace the template's: its stubs
 * become working handlers, and an extension's folder in the example adds
 * its tools' handlers. A user's tools.json keeps the stubs.
 */
function exampleOverlay(
  example: string,
  extensions: readonly ProjectExtension[],
  ownTools: boolean,
): EmittedFile[] {
  const exampleDir = templatesDir("server", "examples", example);
  const overlays = new Set(extensions.map((e) => e.name));
  const files: EmittedFile[] = [];
  for (const path of listTemplateFiles(exampleDir)) {
    const [top] = path.split("/");
    if (path === "tools.json" || (ownTools && path === "src/tools.ts")) continue;
    if (top !== undefined && overlays.has(top)) {
      if (ownTools || path.endsWith("/tools.json")) continue;
      files.push({
        path: path.slice(top.length + 1),
        contents: readFileSync(join(exampleDir, path), "utf8"),
      });
    } else if (!isExtensionFolder(top, path)) {
      files.push({ path, contents: readFileSync(join(exampleDir, path), "utf8") });
    }
  }
  return files;
}

/** Whether an example's file lies in the folder of a known extension (copied only with that extension). */
function isExtensionFolder(top: string | undefined, path: string): boolean {
  return path.includes("/") && knownExtensions().some((k) => k.manifest.name === top);
}
