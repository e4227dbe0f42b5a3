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
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import Handlebars from "handlebars";
import { diagnostic, McpGenError, type Diagnostic } from "../diagnostics.js";
import { BANNER_MARK, type EmittedFile } from "../emit/file.js";
import { propertyKey } from "../emit/names.js";
import { resolveSpecReference } from "../config/config.js";
import { generate } from "../index.js";
import { findManifest, knownExtensions } from "../load/extensions.js";
import { parseJsonText } from "../load/json.js";
import { readBoundedFile } from "../load/read-file.js";
import { packageRoot, packageVersion } from "../load/package-root.js";
import type { SchemaSources } from "../load/resolve-spec.js";
import { checkOutput, listFiles, writeOutput, type StaleFile } from "../write/write-output.js";
import { installSource } from "./install-source.js";
import {
  admitTools,
  emitToolsModule,
  readTools,
  TOOLS_MODULE,
  toolNamesIn,
  toolNamespace,
  toolNamespaces,
  type ToolSpec,
} from "./tools-module.js";

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
  readonly transport?: "stdio" | "http" | "both";
  /** Make the server an OAuth protected resource (needs the HTTP transport). */
  readonly auth?: boolean;
  readonly force?: boolean;
  readonly sources?: SchemaSources;
  /** How the project depends on mcp-gen (default: how the running mcp-gen was installed, see install-source.ts). */
  readonly mcpGenDependency?: string;
}

/** What a project records in mcp-gen.json, so `mcp-gen generate` can regenerate it. */
export type ProjectSettings = ServerSettings | ClientSettings;

/** What every project records. */
interface CommonSettings {
  readonly revision: string;
  /** Known extensions by name; others as the path of their folder or manifest, relative to the project. */
  readonly extensions: readonly string[];
  /** The tools file, relative to the project. */
  readonly tools: string;
  readonly example: "minimal" | "everything";
}

/** A server project's settings. */
export interface ServerSettings extends CommonSettings {
  readonly kind: "server";
  readonly transport: "stdio" | "http" | "both";
  /** OAuth authorization (HTTP only); the environment (MCP_AUTH_*) wins over it. */
  readonly auth?: AuthSettings;
}

/** mcp-gen.json's `auth`: the project's defaults for its authorization. */
export interface AuthSettings {
  /** The authorization server's issuer URL (MCP_AUTH_ISSUER wins). */
  readonly issuer?: string;
  /** This server's canonical resource URI (MCP_AUTH_RESOURCE wins; default: its public URL). */
  readonly resource?: string;
  /** Scopes every request needs. */
  readonly scopes?: readonly string[];
  /** Scopes by JSON-RPC method. */
  readonly methods?: Readonly<Record<string, readonly string[]>>;
  /** Scopes by tool name (each a tool of the tools file). */
  readonly tools?: Readonly<Record<string, readonly string[]>>;
  /** RFC 7662 introspection (MCP_AUTH_INTROSPECTION_URL, MCP_AUTH_CLIENT_ID win); the secret only from MCP_AUTH_CLIENT_SECRET. */
  readonly introspection?: { readonly url: string; readonly clientId?: string };
}

/** A client project's settings. */
export interface ClientSettings extends CommonSettings {
  readonly kind: "client";
  /** The server the tools were listed from (`--from-server`), for the record. */
  readonly fromServer?: string;
  /** Signs in with OAuth when a server asks: the project carries runtime/oauth and depends on oauth4webapi. */
  readonly auth?: boolean;
}

/** How a project regenerates its generated files: its own mcp-gen, through its package.json. */
export const REGENERATE = "npm run regenerate (in the project folder; settings in mcp-gen.json)";

/** The project settings file. */
export const SETTINGS_FILE = "mcp-gen.json";
/** The revision legacy clients are served with. */
const LEGACY_REVISION = "2025-11-25";
const FIRST_SCAFFOLDED = "2026-07-28";

/** A folder of mcp-gen's templates. */
export function templatesDir(...parts: string[]): string {
  return join(packageRoot(), "templates", ...parts);
}

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

/** Refuses a target outside the current folder by way of `..` (an absolute path says where it goes). */
export function checkTarget(dir: string): void {
  if (isAbsolute(dir)) return;
  const inside = relative(process.cwd(), resolve(dir));
  if (inside.startsWith("..") || isAbsolute(inside))
    throw new McpGenError([
      diagnostic(
        "MCPG707",
        {
          dir,
          reason: "it is outside the current folder (write the absolute path if you mean it)",
        },
        { file: dir },
      ),
    ]);
}

/**
 * A tools file's text, read within the input limits (a regular file, at
 * most LIMITS.fileBytes: MCPG214, MCPG211); a file that cannot be read is
 * the user's to fix (MCPG701), not a crash.
 */
export function readToolsFile(path: string, shown = path): string {
  try {
    return readBoundedFile(path, shown).toString("utf8");
  } catch (error) {
    if (error instanceof McpGenError) throw error;
    throw new McpGenError([
      diagnostic(
        "MCPG701",
        {
          reason: `cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
        },
        { file: shown },
      ),
    ]);
  }
}

/** The revision of a new project: 2026-07-28 or later (MCPG709). */
export function projectRevision(spec: string | undefined, kind: ProjectSettings["kind"]): string {
  const revision = spec ?? FIRST_SCAFFOLDED;
  if (/^\d{4}-\d{2}-\d{2}$/.test(revision) && revision < FIRST_SCAFFOLDED)
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

/** Builds every file of a new project; nothing is written. */
export async function scaffoldServer(
  options: ServerScaffoldOptions,
): Promise<{ files: EmittedFile[]; settings: ProjectSettings }> {
  checkTarget(options.dir);
  const revision = projectRevision(options.spec, "server");
  const name = projectName(options.dir, options.name);
  const example = options.example ?? "minimal";
  if (options.auth && options.transport === "stdio")
    throw new McpGenError([diagnostic("MCPG714", {}, { file: "--auth" })]);
  const extensions = (options.extensions ?? []).map((ref) => projectExtensionRef(ref, options.dir));
  const settings: ServerSettings = {
    kind: "server",
    revision,
    extensions,
    tools: "tools.json",
    example,
    transport: options.transport ?? "both",
    ...(options.auth ? { auth: { scopes: ["mcp"] } } : {}),
  };
  const toolsText = options.tools
    ? readToolsFile(options.tools)
    : exampleTools(example, projectExtensions(settings, options.dir));
  const tools = readTools(
    parseJsonText(toolsText, options.tools ?? "tools.json"),
    options.tools ?? "tools.json",
  );
  const own = userFiles(
    settings,
    options.dir,
    name,
    tools,
    toolsText,
    example,
    options.tools !== undefined,
    options.mcpGenDependency ?? installSource().specifier,
  );
  const generated = await generatedFiles(settings, options.dir, tools, options.sources);
  return { files: [...own, ...generated].sort((a, b) => (a.path < b.path ? -1 : 1)), settings };
}

/** The folders of a project that hold only files mcp-gen generates (each starts with its banner). */
export const GENERATED_DIRS = ["src/generated", "src/mcp-gen/runtime"] as const;

function isGenerated(path: string): boolean {
  return GENERATED_DIRS.some((dir) => path.startsWith(`${dir}/`));
}

/**
 * Writes a project. A new or empty folder gets every file at once. An
 * existing folder is refused unless `force`; with it, the generated folders
 * are rewritten (they must hold only mcp-gen's files), the user's files
 * that are missing are added, and every other file is left exactly as it
 * is. A user's file that would be overwritten with different contents is
 * never overwritten: the run is refused, naming every such file, before
 * anything is written. Returns how many files were written.
 */
export function writeProject(dir: string, files: readonly EmittedFile[], force = false): number {
  const target = resolve(dir);
  if (!force || !existsSync(target) || !statSync(target).isDirectory()) {
    writeOutput(dir, files, { requireEmpty: true });
    return files.length;
  }
  const own = files.filter((f) => !isGenerated(f.path));
  const conflicts = own
    .filter((f) => {
      const path = join(target, f.path);
      return (
        existsSync(path) && (!statSync(path).isFile() || readFileSync(path, "utf8") !== f.contents)
      );
    })
    .map((f) => f.path);
  if (conflicts.length > 0)
    throw new McpGenError([diagnostic("MCPG711", { dir, files: conflicts }, { file: dir })]);
  const groups = GENERATED_DIRS.map((sub) => ({
    sub,
    files: files
      .filter((f) => f.path.startsWith(`${sub}/`))
      .map((f) => ({ ...f, path: f.path.slice(sub.length + 1) })),
  }));
  // Foreign files in a generated folder are refused (MCPG501) before anything is written.
  for (const group of groups) checkOwned(join(target, group.sub), join(dir, group.sub));
  const missing = own.filter((file) => !existsSync(join(target, file.path)));
  for (const file of missing) writeNewFile(target, file);
  for (const group of groups) writeOutput(join(target, group.sub), group.files);
  return missing.length + groups.reduce((n, g) => n + g.files.length, 0);
}

/** Refuses a folder that holds files mcp-gen did not write, without writing anything. */
function checkOwned(folder: string, shown: string): void {
  const foreign = listFiles(folder).filter(
    (path) => !readHead(join(folder, path)).includes(BANNER_MARK),
  );
  if (foreign.length > 0)
    throw new McpGenError([diagnostic("MCPG501", { dir: shown, foreign }, { file: shown })]);
}

function readHead(path: string): string {
  return readFileSync(path, "utf8").slice(0, 256);
}

/** Writes a file that does not exist yet: to a temporary sibling first, then renamed into place. */
function writeNewFile(root: string, file: EmittedFile): void {
  const path = join(root, file.path);
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.mcp-gen-tmp-${process.pid}`;
  writeFileSync(temporary, file.contents, { flag: "wx" });
  renameSync(temporary, path);
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

/** An extension of a project, as mcp-gen.json names it, with its manifest. */
export interface ProjectExtension {
  /** What generate() is given: a known name, or the path resolved against the project. */
  readonly ref: string;
  readonly known: boolean;
  readonly id: string;
  readonly name: string;
  readonly capability?: string;
  readonly requests: readonly string[];
}

export function projectExtensions(
  settings: ProjectSettings,
  projectDir: string,
): ProjectExtension[] {
  return settings.extensions.map((entry) => {
    const isKnown = knownExtensions().some(
      (k) => k.manifest.name === entry || k.manifest.id === entry,
    );
    const ref = isKnown ? entry : resolve(projectDir, entry);
    const { manifest, known } = findManifest(ref);
    const serverSide =
      manifest.capability && (manifest.capability.sides ?? ["client", "server"]).includes("server");
    const requests = Object.entries(manifest.requests ?? {})
      .filter(([, r]) => (r.direction ?? "client-to-server") !== "server-to-client")
      .filter(([method]) => !(known && SERVED_BY_RUNTIME.has(method)))
      .map(([method]) => method)
      .sort();
    return {
      ref,
      known,
      id: manifest.id,
      name: manifest.name,
      ...(serverSide ? { capability: manifest.capability.definition } : {}),
      requests,
    };
  });
}

/**
 * Requests of known extensions that the runtime serves itself: the project
 * gets no stub for them.
 */
const SERVED_BY_RUNTIME: ReadonlySet<string> = new Set([
  "tasks/get",
  "tasks/update",
  "tasks/cancel",
]);

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
    extensions: extensions.map((e) => ({
      id: e.id,
      name: e.name,
      capability: e.capability,
      requests: e.requests.map((method) => ({ method })),
    })),
    http: settings.transport !== "stdio",
    stdio: settings.transport !== "http",
    both: settings.transport === "both",
    auth: settings.auth !== undefined,
    tools: tools.map((t) => ({
      name: t.name,
      // Computed for __proto__: as a plain key in an object literal it would set the prototype.
      key: propertyKey(t.name),
      namespace: namespaces.get(t.name),
      description: commentText(t.description ?? t.name),
    })),
  };
  const files: EmittedFile[] = [];
  const base = templatesDir("server");
  for (const path of listTemplateFiles(base)) {
    const target = path.replace(/\.hbs$/, "").replace(/^gitignore$/, ".gitignore");
    const text = readFileSync(join(base, path), "utf8");
    files.push({ path: target, contents: path.endsWith(".hbs") ? render(text, view) : text });
  }
  // An example replaces the stubs with working handlers; a user's tools.json keeps the stubs.
  const exampleDir = templatesDir("server", "examples", example);
  const overlays = new Set(extensions.map((e) => e.name));
  for (const path of listTemplateFiles(exampleDir)) {
    const [top] = path.split("/");
    if (path === "tools.json" || (ownTools && path === "src/tools.ts")) continue;
    if (top !== undefined && overlays.has(top)) {
      // An extension's folder in the example adds its tools' handlers (unless the tools are the user's).
      if (ownTools || path.endsWith("/tools.json")) continue;
      replace(files, {
        path: path.slice(top.length + 1),
        contents: readFileSync(join(exampleDir, path), "utf8"),
      });
    } else if (!isExtensionFolder(top, path)) {
      replace(files, { path, contents: readFileSync(join(exampleDir, path), "utf8") });
    }
  }
  files.push({
    path: "tools.json",
    contents: toolsText.endsWith("\n") ? toolsText : `${toolsText}\n`,
  });
  files.push({ path: SETTINGS_FILE, contents: `${JSON.stringify(settings, null, 2)}\n` });
  return files;
}

/** Whether an example's file lies in the folder of a known extension (copied only with that extension). */
function isExtensionFolder(top: string | undefined, path: string): boolean {
  return path.includes("/") && knownExtensions().some((k) => k.manifest.name === top);
}

/** Puts `file` in place of the file with its path, or adds it. */
export function replace(files: EmittedFile[], file: EmittedFile): void {
  const i = files.findIndex((f) => f.path === file.path);
  if (i >= 0) files[i] = file;
  else files.push(file);
}

/** Every file under a template folder, its examples/ left out, sorted. */
export function listTemplateFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (sub: string) => {
    for (const entry of readdirSync(join(dir, sub), { withFileTypes: true })) {
      const path = sub ? `${sub}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (path !== "examples") walk(path);
      } else out.push(path);
    }
  };
  walk("");
  return out.sort();
}

const handlebars = Handlebars.create();
handlebars.registerHelper("json", (value: unknown) => JSON.stringify(value));

/** Renders a Handlebars template (no escaping, unknown names an error). */
export function render(template: string, view: object): string {
  return handlebars.compile(template, { noEscape: true, strict: true })(view);
}

/**
 * The generated files of a project: the protocol modules (copied from
 * mcp-gen's committed generated/ when it has them, so no schema is
 * downloaded; generated otherwise), the legacy revision's module, the
 * tools module, and the runtime.
 */
export async function generatedFiles(
  settings: ProjectSettings,
  projectDir: string,
  tools: readonly ToolSpec[],
  sources?: SchemaSources,
): Promise<EmittedFile[]> {
  const extensions = projectExtensions(settings, projectDir);
  const tasks = extensions.some((e) => e.id === TASKS_EXTENSION_ID);
  const spec = resolveSpecReference(settings.revision, projectDir);
  const isRevisionName = !isAbsolute(spec); // a folder resolves to an absolute path
  const folder = [revisionFolder(spec, isRevisionName), ...extensions.map((e) => e.name)].join("+");
  const regenerate = REGENERATE;
  const reuse = isRevisionName && extensions.every((e) => e.known);
  const protocol = await protocolFiles(
    spec,
    extensions.map((e) => e.ref),
    folder,
    regenerate,
    reuse,
    sources,
  );
  const legacy = await protocolFiles(
    LEGACY_REVISION,
    [],
    LEGACY_REVISION,
    regenerate,
    true,
    sources,
  );
  const version = packageVersion();
  const banner = `/**\n * ${BANNER_MARK} ${version} for this project (${settings.revision}${settings.extensions.length ? ` with ${settings.extensions.join(", ")}` : ""}). Do not edit: regenerate instead.\n * Regenerate: ${regenerate}\n */\n/* eslint-disable */\n`;
  const runtimeEntry = settings.kind === "server" ? "index.js" : "client.js";
  const index = {
    path: "src/generated/protocol.gen.ts",
    contents: `${banner}\n/** The revision this ${settings.kind} ${settings.kind === "server" ? "serves, the one it serves legacy (initialize) clients with" : "speaks, the one it speaks with legacy (initialize) servers"}, and the helpers the tool validators call. */\nexport * as protocol from "./${folder}/index.js";\nexport * as legacy from "./${LEGACY_REVISION}/index.js";\nexport { deepEqual, runValidator, ucs2length } from "./${folder}/support.gen.js";\n${TYPES_DECLARATION(folder)}`,
  };
  const toolFiles = (
    await emitToolsModule(
      tools,
      banner,
      `../mcp-gen/runtime/${runtimeEntry}`,
      "./protocol.gen.js",
      settings.kind,
      { followTasks: tasks },
    )
  ).map((f) => ({ ...f, path: `src/generated/${f.path}` }));
  const typedClient =
    settings.kind === "client"
      ? [{ path: "src/generated/client.gen.ts", contents: `${banner}\n${clientModule(tasks)}` }]
      : [];
  return [
    ...protocol.map((f) => ({ ...f, path: `src/generated/${folder}/${f.path}` })),
    ...legacy.map((f) => ({ ...f, path: `src/generated/${LEGACY_REVISION}/${f.path}` })),
    index,
    ...typedClient,
    ...toolFiles,
    ...authFiles(settings, tools, banner),
    ...runtimeFiles(
      settings.kind,
      version,
      settings.kind === "client" ? settings.auth === true : settings.auth !== undefined,
    ),
  ];
}

/**
 * The revision's maps as one type (\`Types\` in protocol.gen.ts): a server
 * is \`McpServer<Types>\`, so that its handlers of extension methods get typed
 * params and results, and \`ctx.notify\` typed params.
 */
const TYPES_DECLARATION = (
  folder: string,
) => `import type * as revision from "./${folder}/index.js";

/** The revision's request params, results and notification params by method (its extensions' included), to type a server's handlers. */
export interface Types {
  readonly params: revision.ParamsByMethod;
  readonly results: revision.ResultByMethod;
  readonly notifications: revision.NotificationParamsByMethod;
}
`;

/** The Tasks extension's identifier: a client project with it follows tasks. */
export const TASKS_EXTENSION_ID = "io.modelcontextprotocol/tasks";

/**
 * A client project's typed client (`src/generated/client.gen.ts`): the
 * revision's requests as methods and the tools of tools.json as wrappers,
 * both typed and made from the generated tables (see runtime client/typed.ts).
 * With the Tasks extension the client declares it on every request and
 * its tool wrappers follow a task to its result.
 */
function clientModule(tasks: boolean): string {
  return `import {
  bindMethods,
  bindTools,
  declaringExtensions,
  McpClient,
  routeNotifications,
  type ClientOptions,
  type Completed,
  type Continuations as ContinuationsOf,
  type InputTypes,
  type ServerDescription,
  type TypedMethods,
  type Unfollowed,
} from "../mcp-gen/runtime/client.js";
import { legacy, protocol } from "./protocol.gen.js";
import { TOOL_CHECKS, type ToolWrappers } from "./tools.gen.js";

/** The params and results of the server's requests for input, as this revision types them. */
export interface Inputs extends InputTypes {
  readonly elicitParams: protocol.ElicitRequest["params"];
  readonly elicitResult: protocol.ElicitResult;
  readonly samplingParams: protocol.CreateMessageRequest["params"];
  readonly samplingResult: protocol.CreateMessageResult;
  readonly rootsParams: protocol.ListRootsRequest["params"];
  readonly rootsResult: protocol.ListRootsResult;
}

/** One method per request a client sends in this revision (\`tools/call\` is \`toolsCall\`), typed by its params and result. */
export type Methods = TypedMethods<typeof protocol.METHODS, protocol.ParamsByMethod, protocol.ResultByMethod>;

/** The results the revision's extensions add to tools/call, discriminated by resultType (none for a plain revision). */
export type ExtensionToolResult = Exclude<Completed<protocol.ResultOf<"tools/call">>, { readonly resultType: "complete" }>;

/** A continuation per extension resultType of tools/call, typed by its definition: it follows such a result to the tool's final result. */
export type Continuations = ContinuationsOf<ExtensionToolResult, Methods>;

/** A handler per notification, given its params as the revision (extensions included) types them. */
export type NotificationHandlers = {
  readonly [M in keyof protocol.NotificationParamsByMethod]?: (params: protocol.NotificationParamsByMethod[M]) => void;
};

/** What the runtime follows by itself: ${tasks ? "tasks of the Tasks extension" : "nothing"}. */
type FollowedByRuntime = ${tasks ? '"task"' : "never"};

/** A client of one server, typed for this project; \`K\` is the resultTypes it has continuations for. */
export interface Client<K extends keyof Continuations = never> {
  /** The requests of the revision, one method each; results are checked against the schema and discriminated by resultType. */
  readonly rpc: Methods;
  /** The tools of tools.json, one function each, their arguments and structured output checked; an extension result is followed by its continuation${tasks ? " (a task by the runtime)" : ""}, else returned as it is. */
  readonly tools: ToolWrappers<Unfollowed<ExtensionToolResult, K | FollowedByRuntime>>;
  /** The runtime's client, for anything else (a request by name, callTool, ${tasks ? "awaitTask, " : ""}listen). */
  readonly raw: McpClient<Inputs>;
  /** Finds out how to talk to the server (server/discover, or initialize for a legacy server). */
  connect(): Promise<ServerDescription>;
  /** Ends the connection. */
  close(): Promise<void>;
}

/**
 * How a client is made: the runtime's options without the protocol modules,
 * which this project brings; a continuation per extension resultType the
 * tool wrappers should follow, and a handler per notification.
 */
export type Options<K extends keyof Continuations = never> = Omit<ClientOptions<Inputs>, "protocol" | "legacy"> & {
  readonly continuations?: { readonly [RT in K]: NonNullable<Continuations[RT]> };
  readonly notifications?: NotificationHandlers;
};

/** A client of the server \`options.channel\` reaches, declaring the revision's extensions besides \`options.capabilities\`. */
export function createClient<K extends keyof Continuations = never>(options: Options<K>): Client<K> {
  const { continuations, notifications, ...clientOptions } = options;
  const capabilities = declaringExtensions(options.capabilities, protocol.EXTENSIONS);
  const raw = new McpClient<Inputs>({
    protocol,
    legacy,
    ...clientOptions,
    ...(capabilities ? { capabilities } : {}),
    onNotification: routeNotifications(notifications ?? {}, options.onNotification),
  });
  const rpc = bindMethods<Methods>(raw, protocol.METHODS);
  return {
    rpc,
    tools: bindTools<Client<K>["tools"]>(raw, TOOL_CHECKS, {${tasks ? " followTasks: true," : ""}
      continuations: continuations ?? {},
      rpc,
      checkFinal: (result) => protocol.validate("CallToolResult", result),
    }),
    raw,
    connect: () => raw.connect(),
    close: () => raw.close(),
  };
}
`;
}

/**
 * The folder under src/generated/ a revision's module goes in: a known
 * revision's name, or for a schema folder its own name made safe for a path
 * (kept apart from the legacy revision's folder, which sits beside it).
 */
function revisionFolder(spec: string, isRevisionName: boolean): string {
  if (isRevisionName) return spec;
  const name = basename(spec)
    .replace(/[^A-Za-z0-9._-]/g, "_")
    .replace(/^\.+/, "");
  return name === "" || name === LEGACY_REVISION ? `spec-${name || "folder"}` : name;
}

/**
 * A revision's module: mcp-gen's committed copy (banner adjusted) when there
 * is one and every extension is a known one (a user's extension may share a
 * known one's name), else freshly generated.
 */
async function protocolFiles(
  revision: string,
  extensions: readonly string[],
  folder: string,
  regenerate: string,
  reuse: boolean,
  sources?: SchemaSources,
): Promise<EmittedFile[]> {
  const committed = join(packageRoot(), "generated", folder);
  if (reuse && existsSync(committed)) {
    return readdirSync(committed)
      .sort()
      .map((path) => ({
        path,
        contents: readFileSync(join(committed, path), "utf8").replace(
          /^ \* Regenerate: .*$/m,
          ` * Regenerate: ${regenerate}`,
        ),
      }));
  }
  const result = await generate({
    spec: revision,
    extensions,
    out: `src/generated/${folder}`,
    regenerateCommand: regenerate,
    ...(sources ? { sources } : {}),
  });
  return [...result.files];
}

/**
 * The parts of templates/runtime each kind of project carries: the layers
 * its side needs (never the other side's: a server project has no client/)
 * and the entry file at the root of src/mcp-gen/runtime/. Each layer
 * imports only core/ and itself, so any such set compiles on its own.
 */
const RUNTIME_PARTS: Readonly<Record<ProjectSettings["kind"], readonly string[]>> = {
  server: ["index.ts", "core/", "server/", "scale/", "transport/"],
  client: ["client.ts", "core/", "client/", "transport/"],
};

/**
 * What a project with authorization carries besides: a server's auth/
 * alone needs jose, a client's OAuth alone needs oauth4webapi.
 */
const AUTH_PARTS: Readonly<Record<ProjectSettings["kind"], readonly string[]>> = {
  server: ["auth/"],
  client: ["oauth.ts", "oauth/"],
};

/**
 * The runtime a project of `kind` carries (with `auth`, its authorization
 * part too), copied with a banner naming mcp-gen's version.
 */
export function runtimeFiles(
  kind: ProjectSettings["kind"],
  version: string,
  auth = false,
): EmittedFile[] {
  const dir = templatesDir("runtime");
  const parts = auth ? [...RUNTIME_PARTS[kind], ...AUTH_PARTS[kind]] : RUNTIME_PARTS[kind];
  return listTemplateFiles(dir)
    .filter((f) => f.endsWith(".ts") && parts.some((part) => f === part || f.startsWith(part)))
    .map((f) => ({
      path: `src/mcp-gen/runtime/${f}`,
      contents: `/**\n * ${BANNER_MARK} ${version}: its ${kind} runtime, copied into this project. Do not edit: \`npm run regenerate\` replaces it.\n */\n${readFileSync(join(dir, f), "utf8")}`,
    }));
}

/** Reads a project's mcp-gen.json. */
export function readSettings(projectDir: string): ProjectSettings {
  const file = join(projectDir, SETTINGS_FILE);
  if (!existsSync(file))
    throw new McpGenError([diagnostic("MCPG710", { file, reason: "not found" }, { file })]);
  const value = parseJsonText(readFileSync(file, "utf8"), file) as unknown as ProjectSettings;
  const extensions = value.extensions as unknown;
  if (
    (value.kind !== "server" && value.kind !== "client") ||
    typeof value.revision !== "string" ||
    typeof value.tools !== "string" ||
    !Array.isArray(extensions) ||
    !extensions.every((e) => typeof e === "string")
  ) {
    throw new McpGenError([
      diagnostic(
        "MCPG710",
        {
          file,
          reason:
            'it needs kind "server" or "client", a revision, a tools file and an array of extensions',
        },
        { file },
      ),
    ]);
  }
  return value;
}

/**
 * Regenerates a project's generated files from its mcp-gen.json and
 * tools.json (`mcp-gen generate` in the project folder); with `check`,
 * only reports what differs. The user's files are never written.
 */
export async function regenerateProject(
  projectDir: string,
  options: {
    check?: boolean;
    sources?: SchemaSources;
    /** The tools as a server lists them now: generated from, and written to the tools file once the rest is written. */
    toolsText?: string;
  } = {},
): Promise<{
  files: EmittedFile[];
  stale: StaleFile[];
  diagnostics: readonly Diagnostic[];
  stubs: string[];
}> {
  const settings = readSettings(projectDir);
  const toolsPath = join(projectDir, settings.tools);
  const toolsText = options.toolsText ?? readToolsFile(toolsPath, settings.tools);
  const listed = parseJsonText(toolsText, settings.tools);
  // A client's tools are a server's, so a tool that cannot be typed is left out with a warning.
  const { tools, diagnostics } =
    settings.kind === "client"
      ? admitTools(listed, settings.tools)
      : { tools: readTools(listed, settings.tools), diagnostics: [] };
  const files = await generatedFiles(settings, projectDir, tools, options.sources);
  const groups = [
    { dir: "src/generated", files: files.filter((f) => f.path.startsWith("src/generated/")) },
    {
      dir: "src/mcp-gen/runtime",
      files: files.filter((f) => f.path.startsWith("src/mcp-gen/runtime/")),
    },
  ].map((g) => ({
    ...g,
    files: g.files.map((f) => ({ ...f, path: f.path.slice(g.dir.length + 1) })),
  }));
  const stale = groups.flatMap((g) =>
    checkOutput(join(projectDir, g.dir), g.files).map((s) => ({
      ...s,
      path: `${g.dir}/${s.path}`,
    })),
  );
  if (options.check) return { files, stale, diagnostics, stubs: [] };
  // A client calls its tools; only a server gets a handler stub for a new one.
  const stubs = settings.kind === "server" ? newToolStubs(projectDir, tools) : [];
  for (const g of groups) writeOutput(join(projectDir, g.dir), g.files);
  for (const stub of stubs) writeNewFile(resolve(projectDir), stub);
  if (options.toolsText !== undefined) writeFileSync(toolsPath, options.toolsText);
  return { files, stale, diagnostics, stubs: stubs.map((s) => s.path) };
}

/** Where the handler stub of a tool added to tools.json goes: a file of its own, found next to src/tools.ts. */
export function toolStubPath(name: string): string {
  return `src/tools/${name}.ts`;
}

/**
 * The handler stubs of tools that tools.json gained since the project was
 * last generated (the tools module lists the tools it was made from), each
 * in a file of its own that does not exist yet. A user's file is never
 * written over: a stub whose file exists is left out.
 */
function newToolStubs(projectDir: string, tools: readonly ToolSpec[]): EmittedFile[] {
  const previousModule = join(projectDir, "src", "generated", TOOLS_MODULE);
  const previous = existsSync(previousModule)
    ? toolNamesIn(readFileSync(previousModule, "utf8"))
    : undefined;
  if (previous === undefined) return [];
  const template = readFileSync(templatesDir("stubs", "tool.ts.hbs"), "utf8");
  return tools
    .filter(
      (t) => !previous.includes(t.name) && !existsSync(join(projectDir, toolStubPath(t.name))),
    )
    .map((t) => {
      const ident = toolNamespace(t.name).replace(/^./, (c) => c.toLowerCase());
      const view = {
        name: t.name,
        file: t.name,
        ident,
        key: propertyKey(t.name),
        toolLabel: `tool ${t.name}`,
        description: commentText(t.description ?? ""),
      };
      return { path: toolStubPath(t.name), contents: render(template, view) };
    });
}

/** Text that stays inside a block comment: no `*\/` to end it early, one line. */
function commentText(text: string): string {
  return text.replace(/\*\//g, "*\\/").replace(/[\r\n\u2028\u2029]+/g, " ");
}

/**
 * src/generated/auth.gen.ts of a server with authorization: mcp-gen.json's
 * `auth` as the defaults the environment may override. Authorization on a
 * server that serves only stdio is an error (MCPG714). A tool named in
 * `auth.tools` that is not in the tools file is an error (MCPG701), so a
 * renamed tool cannot silently lose its scopes.
 */
function authFiles(
  settings: ProjectSettings,
  tools: readonly ToolSpec[],
  banner: string,
): EmittedFile[] {
  if (settings.kind !== "server" || settings.auth === undefined) return [];
  const auth = settings.auth;
  // mcp-gen.json's schema lets `auth` be true, a client's setting: a server's is an object.
  if (typeof (auth as unknown) !== "object")
    throw new McpGenError([
      diagnostic(
        "MCPG801",
        {
          reason: `"auth" of a server is an object ({ "issuer": ..., "scopes": [...] }); true is a client's setting`,
        },
        { file: SETTINGS_FILE, pointer: "/auth" },
      ),
    ]);
  if (settings.transport === "stdio")
    throw new McpGenError([diagnostic("MCPG714", {}, { file: SETTINGS_FILE, pointer: "/auth" })]);
  const names = new Set(tools.map((t) => t.name));
  const unknown = Object.keys(auth.tools ?? {}).filter((name) => !names.has(name));
  if (unknown.length > 0)
    throw new McpGenError(
      unknown.map((name) =>
        diagnostic(
          "MCPG701",
          {
            reason: `auth.tools names ${name}, which is not a tool of ${settings.tools}; rename or remove it`,
          },
          {
            file: SETTINGS_FILE,
            pointer: `/auth/tools/${name.replace(/~/g, "~0").replace(/\//g, "~1")}`,
          },
        ),
      ),
    );
  const defaults = {
    ...(auth.issuer !== undefined ? { issuer: auth.issuer } : {}),
    ...(auth.resource !== undefined ? { resource: auth.resource } : {}),
    ...(auth.introspection !== undefined ? { introspection: auth.introspection } : {}),
    scopes: {
      always: auth.scopes ?? [],
      methods: auth.methods ?? {},
      tools: auth.tools ?? {},
    },
  };
  return [
    {
      path: "src/generated/auth.gen.ts",
      contents: `${banner}
import type { AuthDefaults } from "../mcp-gen/runtime/auth/index.js";

/** mcp-gen.json's auth: what the MCP_AUTH_* variables override. */
export const authDefaults: AuthDefaults = ${JSON.stringify(defaults, null, 2)};
`,
    },
  ];
}
