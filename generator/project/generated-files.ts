/**
 * The generated files of a project (src/generated/, src/mcp-gen/runtime/):
 * the protocol modules, the tools module, the typed client of a client
 * project, the authorization defaults of a server with auth, a server's
 * list settings, and the runtime. Each starts with mcp-gen's banner;
 * `npm run regenerate` rewrites them all.
 */
import { readFileSync } from "node:fs";
import { basename, isAbsolute, join } from "node:path";
import { resolveSpecReference } from "../load/references.js";
import { projectBanner, runtimeBanner, type EmittedFile } from "../emit/file.js";
import { generate } from "../index.js";
import { committedOutput } from "../load/committed-output.js";
import { packageVersion } from "../load/package-root.js";
import { compiledCodeCacheIn } from "../load/code-cache.js";
import { LEGACY_REVISION } from "../runtime/revisions.js";
import { defaultSchemaSources, type SchemaSources } from "../load/resolve-spec.js";
import { authFiles } from "./auth-module.js";
import { listsFiles } from "./lists-module.js";
import { clientModule } from "./client-module.js";
import { listTemplateFiles, templatesDir } from "./render.js";
import {
  clientSignsIn,
  linearPatternsOf,
  projectExtensions,
  REGENERATE,
  TASKS_EXTENSION_ID,
  type ProjectSettings,
} from "./settings.js";
import { emitToolSchemas } from "../emit/emit-tool-schemas.js";
import { emitToolsModule } from "../emit/emit-tools.js";
import type { ToolSpec } from "../load/tools-file.js";

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
  const protocol = await protocolFiles(
    spec,
    extensions.map((e) => e.ref),
    folder,
    regenerate,
    sources,
  );
  const legacy = await protocolFiles(LEGACY_REVISION, [], LEGACY_REVISION, regenerate, sources);
  const version = packageVersion();
  const banner = projectBanner(version, settings.revision, settings.extensions, regenerate);
  const runtimeEntry = settings.kind === "server" ? "index.js" : "client.js";
  const index = {
    path: "src/generated/protocol.gen.ts",
    contents: `${banner}\n/** The revision this ${settings.kind} ${settings.kind === "server" ? "serves, the one it serves legacy (initialize) clients with" : "speaks, the one it speaks with legacy (initialize) servers"}, and the helpers the tool validators and tool schemas call. */\nexport * as protocol from "./${folder}/index.js";\nexport * as legacy from "./${LEGACY_REVISION}/index.js";\nexport { deepEqual, runValidator, ucs2length } from "./${folder}/support.gen.js";\nexport { standardSchema, toolJsonSchema, type StandardSchema } from "./${folder}/standard-schema.gen.js";\n${TYPES_DECLARATION(folder)}`,
  };
  const toolFiles = (
    await emitToolsModule(
      tools,
      banner,
      `../mcp-gen/runtime/${runtimeEntry}`,
      "./protocol.gen.js",
      settings.kind,
      {
        followTasks: tasks,
        ...(sources?.compiledCodeCache === false
          ? {}
          : { cache: compiledCodeCacheIn((sources ?? defaultSchemaSources()).cacheDir) }),
        linearPatterns: linearPatternsOf(settings),
      },
    )
  ).map((f) => ({ ...f, path: `src/generated/${f.path}` }));
  const toolSchemas = emitToolSchemas(tools, banner, "./tools.gen.js", "./protocol.gen.js");
  const typedClient =
    settings.kind === "client"
      ? [
          clientModule(
            banner,
            Object.fromEntries(
              extensions.filter((e) => e.declaredBy.client).map((e) => [e.id, e.settings.client]),
            ),
          ),
        ]
      : [];
  return [
    ...protocol.map((f) => ({ ...f, path: `src/generated/${folder}/${f.path}` })),
    ...legacy.map((f) => ({ ...f, path: `src/generated/${LEGACY_REVISION}/${f.path}` })),
    index,
    ...typedClient,
    ...toolFiles,
    { ...toolSchemas, path: `src/generated/${toolSchemas.path}` },
    ...authFiles(settings, tools, banner),
    ...listsFiles(settings, protocol.find((f) => f.path === "types.gen.ts")?.contents, banner),
    ...runtimeFiles(
      settings.kind,
      version,
      settings.kind === "client" ? clientSignsIn(settings) : settings.auth !== undefined,
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
 * A revision's module: mcp-gen's committed copy (banner adjusted) when it
 * ships one for the revision and its extensions (load/committed-output.ts),
 * so no schema is downloaded; else freshly generated.
 */
async function protocolFiles(
  revision: string,
  extensions: readonly string[],
  folder: string,
  regenerate: string,
  sources?: SchemaSources,
): Promise<readonly EmittedFile[]> {
  const committed = committedOutput(revision, extensions, regenerate);
  if (committed) return committed.files;
  const result = await generate({
    spec: revision,
    extensions,
    out: `src/generated/${folder}`,
    regenerateCommand: regenerate,
    ...(sources ? { sources } : {}),
  });
  return result.files;
}

/**
 * The parts of templates/runtime each kind of project carries: the layers
 * its side needs, the entry files at the root of src/mcp-gen/runtime/ (a
 * server's index.ts, and fetch.ts for the Fetch runtimes: Bun, Deno,
 * Workers), and the other side's protocol layer for the project's tests (a
 * server's tests call it with McpClient, a client's tests call an McpServer
 * defined in the test, both in memory: transport/in-memory.ts). Each layer
 * imports only core/ and itself, so any such set compiles on its own.
 */
const RUNTIME_PARTS: Readonly<Record<ProjectSettings["kind"], readonly string[]>> = {
  server: [
    "index.ts",
    "fetch.ts",
    "client.ts",
    "core/",
    "server/",
    "client/",
    "scale/",
    "transport/",
  ],
  client: ["client.ts", "core/", "client/", "server/", "transport/"],
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
      contents: `${runtimeBanner(version, kind)}${readFileSync(join(dir, f), "utf8")}`,
    }));
}
