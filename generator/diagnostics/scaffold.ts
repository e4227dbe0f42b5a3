/** The catalog's diagnostics of one stage: Scaffolding projects and their tools files (7xx). */
import { entry } from "./entry.js";

export const SCAFFOLD_DIAGNOSTICS = {
  MCPG701: entry<{ reason: string; fix?: string }>({
    severity: "error",
    message: (p) => `tools file: ${p.reason}`,
    fix: (p) =>
      p.fix ??
      "tools.json is an array of tools: { name, description, inputSchema, outputSchema?, annotations? }",
  }),
  MCPG702: entry<{ name: string }>({
    severity: "error",
    message: (p) => `tool name "${p.name}" is not 1 to 128 of A-Z a-z 0-9 _ - .`,
    fix: () => "rename the tool (MCP tool names are letters, digits, underscore, hyphen and dot)",
  }),
  MCPG703: entry<{ dialect: string }>({
    severity: "error",
    message: (p) =>
      `tool schema dialect "${p.dialect}" is not supported (MCP tool schemas are 2020-12 by default, or draft-07 when declared)`,
    fix: () => "drop $schema for 2020-12, or declare http://json-schema.org/draft-07/schema#",
  }),
  MCPG704: entry<{ ref: string }>({
    severity: "error",
    message: (p) =>
      `remote $ref "${p.ref}" in a tool schema (mcp-gen never fetches referenced schemas)`,
    fix: () => "inline the referenced schema under $defs and point the $ref at #/$defs/...",
  }),
  MCPG718: entry<{ ref: string }>({
    severity: "error",
    message: (p) =>
      `local $ref "${p.ref}" in a tool schema points to nothing the schema has: it goes through a name every JavaScript object inherits (constructor, __proto__, toString, ...), not a member of the schema`,
    fix: () => "put the referenced schema under $defs and point the $ref at #/$defs/<its name>",
  }),
  MCPG705: entry<{ subschemas: number; depth: number; limits: string }>({
    severity: "error",
    message: (p) =>
      `tool schema too large: ${p.subschemas} subschemas, depth ${p.depth} (limits: ${p.limits})`,
    fix: () => "simplify the schema, or split the tool",
  }),
  MCPG706: entry<{ reason: string }>({
    severity: "error",
    message: (p) => `cannot compile a tool schema: ${p.reason}`,
    fix: () =>
      "correct the keyword named above (data/… is its path in this schema) so that the schema is valid JSON Schema",
  }),
  MCPG719: entry<{ type: string; suggestion?: string }>({
    severity: "error",
    message: (p) =>
      `"type": ${p.type} is no JSON Schema type${p.suggestion ? `; did you mean "${p.suggestion}"?` : ""}`,
    fix: () =>
      "use one of string, number, integer, boolean, object, array, null (or an array of them)",
  }),
  MCPG707: entry<{ dir: string; reason: string }>({
    severity: "error",
    message: (p) => `cannot scaffold into ${p.dir}: ${p.reason}`,
    fix: () =>
      "choose a new or empty folder (or pass --force to refresh a project mcp-gen made: your own files are kept)",
  }),
  MCPG708: entry<{ name: string; reason: string }>({
    severity: "error",
    message: (p) => `package name "${p.name}" is not valid: ${p.reason}`,
    fix: () =>
      "use lowercase letters, digits, -, . and _ (optionally @scope/name), at most 214 characters",
  }),
  MCPG709: entry<{ revision: string; kind: "server" | "client" }>({
    severity: "error",
    message: (p) =>
      p.kind === "server"
        ? `mcp-gen scaffolds servers for 2026-07-28 and later; ${p.revision} is served only as the legacy era of such a server`
        : `mcp-gen scaffolds clients for 2026-07-28 and later; ${p.revision} is spoken only as the legacy era of such a client`,
    fix: (p) =>
      p.kind === "server"
        ? "scaffold with --spec 2026-07-28: its server also answers 2025-11-25 clients on the same endpoint"
        : "scaffold with --spec 2026-07-28: its client also talks to 2025-11-25 servers, with initialize and a session",
  }),
  MCPG710: entry<{ file: string; reason: string }>({
    severity: "error",
    message: (p) => `project settings ${p.file}: ${p.reason}`,
    fix: () =>
      "run mcp-gen generate in a folder made by mcp-gen server or mcp-gen client, or pass --spec and --out",
  }),
  MCPG720: entry<{ tool: string; reason: string }>({
    severity: "warning",
    message: (p) => `tool ${p.tool} is left out of the typed wrappers: ${p.reason}`,
    fix: () =>
      "the client can still call it by name (client.raw.callTool); ask the server's authors to fix its definition",
  }),
  MCPG721: entry<{ server: string; reason: string; option?: string }>({
    severity: "error",
    message: (p) =>
      `${p.option ?? "--from-server"} ${p.server}: could not list its tools: ${p.reason}`,
    fix: () =>
      'give the URL of a running server\'s MCP endpoint (http://127.0.0.1:3000/mcp), or the command that starts it in quotes ("node dist/index.js --stdio")',
  }),
  MCPG723: entry<{ server: string; reason: string }>({
    severity: "warning",
    message: (p) => `--from-server ${p.server}: ${p.reason}`,
    fix: () =>
      "the tool can still be called by name; ask the server's authors to fix its definition",
  }),
  MCPG724: entry<{ tool: string; pattern: string; reason: string }>({
    severity: "warning",
    message: (p) =>
      `tool ${p.tool}: the pattern ${p.pattern} is not checked: the linear-time engine (re2js) cannot run it (${p.reason})`,
    fix: () =>
      'the rest of the schema is checked. A pattern without lookaround or backreferences runs in linear time; to run every pattern with the RegExp of JavaScript instead (it backtracks: a hostile pattern can stall the process), set "patterns": "native" in mcp-gen.json',
  }),
  MCPG730: entry<{ source: string; reason: string }>({
    severity: "error",
    message: (p) => `tool list ${p.source} holds no tools: ${p.reason}`,
    fix: () =>
      'give a tools file (an array of tools), a tools/list snapshot ({ "tools": [...] }), the URL of a running server\'s MCP endpoint, or the command that starts it in quotes',
  }),
  MCPG731: entry<{ source: string; reason: string }>({
    severity: "error",
    message: (p) => `tool list ${p.source}: ${p.reason}`,
    fix: () => "give every tool a unique string name, as tools/list requires",
  }),
  MCPG732: entry<{ source: string; tool: string; revisions: string; reason: string }>({
    severity: "error",
    message: (p) =>
      `tool list ${p.source}: tool ${p.tool} is not a Tool of MCP ${p.revisions}: ${p.reason}`,
    fix: () =>
      "fix the tool's definition: a client refuses a tools/list result that holds it (MCPG721), so no comparison or type made from it would be right",
  }),
  MCPG740: entry<{ out: string; reason: string }>({
    severity: "error",
    message: (p) => `types --out ${p.out}: ${p.reason}`,
    fix: () =>
      "name the module to write, a .ts file (its API description for code mode goes beside it as .api.d.ts)",
  }),
  MCPG741: entry<{ file: string }>({
    severity: "error",
    message: (p) =>
      `refusing to overwrite ${p.file}: mcp-gen did not write it (it does not start with mcp-gen's banner); nothing was written`,
    fix: () => "move the file away, or choose another --out",
  }),
  MCPG722: entry<Record<string, never>>({
    severity: "error",
    message: () => "--tools and --from-server both name the tools",
    fix: () => "pass one of them",
  }),
  MCPG711: entry<{ dir: string; files: readonly string[] }>({
    severity: "error",
    message: (p) =>
      `refusing to scaffold over ${p.dir}: it would overwrite ${p.files.length === 1 ? "a file" : `${p.files.length} files`} you own, which differ from what mcp-gen would write: ${p.files.join(", ")} (nothing was written)`,
    fix: () =>
      "move or delete the files named to have them written again; --force only refreshes src/generated/ and src/mcp-gen/ and adds missing files",
  }),
  MCPG712: entry<{ name: string; other: string; namespace: string }>({
    severity: "error",
    message: (p) =>
      `tool name "${p.name}" becomes the TypeScript name ${p.namespace}, as ${p.other} does`,
    fix: () =>
      "rename one of the tools so that their names differ in more than punctuation and case (get-item and getItem are both GetItem)",
  }),
  MCPG713: entry<{ tool: string; reason: string }>({
    severity: "error",
    message: (p) => `tool ${p.tool}: invalid x-mcp-header: ${p.reason}`,
    fix: () =>
      "put x-mcp-header only on a string, integer or boolean property reached through properties from the root, with a name of HTTP token characters used once",
  }),
  MCPG714: entry<Record<string, never>>({
    severity: "error",
    message: () =>
      "authorization needs the HTTP transport: OAuth access tokens travel in HTTP requests, and a server that serves only stdio receives none",
    fix: () =>
      "keep --transport http or both (the default) for a server with authorization; a stdio server takes its credentials from the environment its client starts it with, so leave authorization (--auth, auth in mcp-gen.json) off for stdio only",
  }),
  MCPG715: entry<{ setting: string; revision: string }>({
    severity: "error",
    message: (p) =>
      `${p.setting} is a caching hint, and list results of ${p.revision} carry none (ttlMs and cacheScope came with 2026-07-28)`,
    fix: () =>
      "remove ttlMs and cacheScope from lists in mcp-gen.json, or move the project to a revision that has them (mcp-gen upgrade)",
  }),
  MCPG716: entry<{ target: string; part: string; reason: string; instead: string }>({
    severity: "error",
    message: (p) => `--target ${p.target} cannot run ${p.part}: ${p.reason}`,
    fix: (p) => p.instead,
  }),
  MCPG717: entry<{ script: string; command: string; step: string }>({
    severity: "warning",
    message: (p) =>
      `package.json's script ${p.script} (${JSON.stringify(p.command)}) compiles with tsc but does not copy src/generated's JavaScript (the tool validators) to dist/, so the built project starts but fails every tool call (its checks cannot load); mcp-gen left the script as it is because it is not the one mcp-gen wrote`,
    fix: (p) => `add \`&& ${p.step}\` after tsc in the ${p.script} script`,
  }),
} as const;
