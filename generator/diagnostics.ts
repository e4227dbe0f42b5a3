/**
 * The catalog of everything mcp-gen can tell a user about their input.
 *
 * Every diagnostic has a stable code (safe to grep for and to document), a
 * location (file plus JSON pointer or line:column), what went wrong and how
 * to fix it. The library collects diagnostics and throws them together as a
 * {@link McpGenError}; it never prints and never exits. The CLI prints one
 * line per diagnostic.
 */

/** Where a problem is: a file and, inside it, a JSON pointer or a line and column. */
export interface Location {
  readonly file: string;
  readonly pointer?: string;
  readonly line?: number;
  readonly column?: number;
}

/** How serious a diagnostic is. Errors stop generation; warnings and notes do not. */
export type Severity = "error" | "warning" | "note";

/** One message from the catalog, with its parameters filled in. */
export interface Diagnostic {
  readonly code: DiagnosticCode;
  readonly severity: Severity;
  readonly message: string;
  readonly fix?: string;
  readonly location?: Location;
}

interface CatalogEntry<P> {
  readonly severity: Severity;
  readonly message: (params: P) => string;
  readonly fix?: (params: P) => string;
}

function entry<P>(e: CatalogEntry<P>): CatalogEntry<P> {
  return e;
}

const supportedDialects =
  "draft-07 (http://json-schema.org/draft-07/schema#) and 2020-12 (https://json-schema.org/draft/2020-12/schema)";

/**
 * The catalog. Codes are `MCPG` plus three digits, grouped by stage:
 * 1xx where schemas come from, 2xx reading them, 3xx the patch overlay and
 * rules, 4xx building and checking the model, 5xx writing output, 6xx extensions, 7xx scaffolding,
 * 8xx mcp-gen.json and project upgrades, 9xx internal.
 */
export const catalog = {
  MCPG101: entry<{ revision: string; known: readonly string[]; suggestion?: string }>({
    severity: "error",
    message: (p) =>
      `unknown MCP revision "${p.revision}"${p.suggestion ? `; did you mean ${p.suggestion}?` : ""}`,
    fix: (p) => `use one of ${p.known.join(", ")}, or pass --spec <dir> with a schema.json`,
  }),
  MCPG102: entry<{ revision: string; tried: readonly string[] }>({
    severity: "error",
    message: (p) =>
      `could not find the schema of revision ${p.revision}; tried: ${p.tried.join("; ")}`,
    fix: (p) =>
      `run \`mcp-gen schema pull ${p.revision}\` while online (MCP_GEN_OFFLINE unset), or set MCP_GEN_SCHEMA_DIR to a folder holding ${p.revision}/schema.json and ${p.revision}/schema.ts`,
  }),
  MCPG103: entry<{ file: string; expected: string; actual: string }>({
    severity: "error",
    message: (p) =>
      `checksum mismatch for ${p.file}: expected sha256 ${p.expected}, got ${p.actual}`,
    fix: () =>
      "the file is not the pinned upstream file; delete it (from the cache or MCP_GEN_SCHEMA_DIR) and run `mcp-gen schema pull <revision>`",
  }),
  MCPG104: entry<{ dir: string }>({
    severity: "error",
    message: (p) => `no schema.json in ${p.dir}`,
    fix: () =>
      "pass --spec a folder that holds schema.json (and optionally schema.ts), or a revision name",
  }),
  MCPG105: entry<{ url: string; reason: string }>({
    severity: "error",
    message: (p) => `download of ${p.url} failed: ${p.reason}`,
    fix: () => "check the network, or set MCP_GEN_SCHEMA_DIR to a local copy of the schemas",
  }),
  MCPG106: entry<{ revision: string }>({
    severity: "error",
    message: (p) => `cannot pull ${p.revision}: downloads are disabled (MCP_GEN_OFFLINE=1)`,
    fix: () =>
      "unset MCP_GEN_OFFLINE to download, or set MCP_GEN_SCHEMA_DIR to a local copy of the schemas",
  }),
  MCPG107: entry<{ revision: string; folder: string; reason: string }>({
    severity: "note",
    message: (p) =>
      `the files are mcp-gen's committed ${p.folder}, the same as generation writes but for the banners' regenerate line, since the schemas could not be had (${p.reason})`,
    fix: (p) =>
      `to generate from the schemas themselves, run \`mcp-gen schema pull ${p.revision}\` while online or set MCP_GEN_SCHEMA_DIR`,
  }),
  MCPG108: entry<{ missing: readonly string[]; looked: readonly string[] }>({
    severity: "error",
    message: (p) =>
      `upstream files missing: ${p.missing.join(", ")} (looked in ${p.looked.join(", ")}; downloads are disabled by MCP_GEN_OFFLINE=1)`,
    fix: () =>
      "set MCP_GEN_SCHEMA_DIR to a folder that holds them, or unset MCP_GEN_OFFLINE and run `mcp-gen schema pull --all`",
  }),
  MCPG201: entry<{ reason: string }>({
    severity: "error",
    message: (p) => `malformed JSON: ${p.reason}`,
    fix: () => "fix the JSON syntax at the position shown",
  }),
  MCPG202: entry<{ ref: string }>({
    severity: "error",
    message: (p) => `$ref "${p.ref}" points to nothing in this schema`,
    fix: () => "point the $ref at an existing definition, or add the definition",
  }),
  MCPG203: entry<{ dialect: string }>({
    severity: "error",
    message: (p) => `unsupported JSON Schema dialect "${p.dialect}"`,
    fix: () => `use one of the supported dialects: ${supportedDialects}`,
  }),
  MCPG204: entry<{ ref: string }>({
    severity: "error",
    message: (p) =>
      `remote $ref "${p.ref}" is not supported (mcp-gen never fetches referenced schemas)`,
    fix: () =>
      "inline the referenced schema as a local definition and use a local $ref (#/$defs/...)",
  }),
  MCPG205: entry<{ reason: string }>({
    severity: "error",
    message: (p) => `schema.ts does not parse: ${p.reason}`,
    fix: () => "fix the TypeScript syntax, or remove schema.ts to generate from schema.json alone",
  }),
  MCPG206: entry<{ what: string }>({
    severity: "note",
    message: (p) => `no schema.ts beside schema.json, so ${p.what} could not be known`,
    fix: () =>
      "put the revision's schema.ts next to schema.json for literal unions, constants and deprecations",
  }),
  MCPG207: entry<{ chain: string }>({
    severity: "error",
    message: (p) => `$ref cycle with nothing between the references: ${p.chain}`,
    fix: () => "such a definition describes no value; make one of them an object, array or union",
  }),
  MCPG208: entry<{ found: string }>({
    severity: "error",
    message: (p) => `schema.json has no definitions (${p.found})`,
    fix: () => "the file must hold an object with $defs (2020-12) or definitions (draft-07)",
  }),
  MCPG209: entry<{ ref: string; prefix: string }>({
    severity: "error",
    message: (p) =>
      `$ref "${p.ref}" does not name a definition (mcp-gen follows only references of the form ${p.prefix}<Name>)`,
    fix: () =>
      "give the referenced schema a definition of its own and point the $ref at that definition",
  }),
  MCPG210: entry<{ name: string }>({
    severity: "error",
    message: (p) =>
      `definition name "${p.name}" is not a TypeScript identifier, so no type or guard can be named after it`,
    fix: () =>
      "rename the definition to letters, digits, _ and $ (not starting with a digit), and update the $refs to it",
  }),
  MCPG211: entry<{ bytes: number; limit: number }>({
    severity: "error",
    message: (p) => `the file is ${p.bytes} bytes, more than mcp-gen reads (${p.limit} bytes)`,
    fix: () => "point mcp-gen at the schema file itself; MCP schemas are a few hundred kilobytes",
  }),
  MCPG212: entry<{ what: string; limit: number }>({
    severity: "error",
    message: (p) => `${p.what} nest deeper than mcp-gen follows (${p.limit} levels) here`,
    fix: () =>
      "flatten the schema: give deeply nested parts definitions of their own and refer to them with $ref",
  }),
  MCPG213: entry<{ count: number; limit: number }>({
    severity: "error",
    message: (p) =>
      `the schema has ${p.count} definitions, more than mcp-gen generates from (${p.limit})`,
    fix: () => "split the schema, or generate from the definitions the protocol needs",
  }),
  MCPG214: entry<{ kind: string }>({
    severity: "error",
    message: (p) => `the file is ${p.kind}, not a regular file, so mcp-gen does not read it`,
    fix: () =>
      "save the input to a regular file and point mcp-gen at that (a pipe or a device is never read)",
  }),
  MCPG215: entry<{ path: string; target: string; folder: string }>({
    severity: "error",
    message: (p) =>
      `${p.path} leads to ${p.target}, outside ${p.folder}; mcp-gen reads only files inside the folder it was given`,
    fix: () =>
      "copy the file into the folder instead of linking to it (or referring to it with ..)",
  }),
  MCPG301: entry<{ patch: string; reason: string }>({
    severity: "error",
    message: (p) => `patch "${p.patch}" cannot be applied although its tests hold: ${p.reason}`,
    fix: () =>
      "the overlay is wrong: fix the patch's operations in schema/patches/ (see schema/patch.schema.json)",
  }),
  MCPG302: entry<{ patch: string; reason: string }>({
    severity: "error",
    message: (p) => `patch "${p.patch}" is malformed: ${p.reason}`,
    fix: () =>
      "every replace or remove must follow a test of the same path; see schema/patch.schema.json",
  }),
  MCPG303: entry<{ patch: string; why: string }>({
    severity: "note",
    message: (p) => `applied patch "${p.patch}": ${p.why}`,
  }),
  MCPG304: entry<{ patch: string; expected: string; actual: string }>({
    severity: "note",
    message: (p) =>
      `patch "${p.patch}" not applied: upstream has ${p.actual} where the patch expects ${p.expected}, so the defect it fixes appears fixed upstream`,
    fix: () =>
      "nothing to do here; the patch can be removed from schema/patches/ once no supported revision needs it",
  }),
  MCPG305: entry<{
    revision: string;
    rules: readonly string[];
    patches: readonly string[];
    superseded: readonly string[];
  }>({
    severity: "note",
    message: (p) => {
      const rules = p.rules.map((r, i) => `(${i + 1}) ${r}`).join("; ") || "none";
      const superseded =
        p.superseded.length > 0
          ? `; patches not applied because upstream changed what they fix: ${p.superseded.join(", ")}`
          : "";
      return `${p.revision} is not a revision mcp-gen knows; it was generated by these rules: ${rules}; patches applied: ${p.patches.join(", ") || "none"}${superseded}`;
    },
    fix: () =>
      "check the generated METHODS, RESULT_TYPES and ERROR_CODES against the revision's specification",
  }),
  MCPG306: entry<{ revision: string; inference: string }>({
    severity: "note",
    message: (p) => `${p.revision}: inferred from the schema's shapes: ${p.inference}`,
    fix: () =>
      "check the inference against the revision's specification; a wrong one can be corrected with a patch in schema/patches/",
  }),
  MCPG401: entry<{ method: string; definitions: readonly string[] }>({
    severity: "error",
    message: (p) => `method "${p.method}" is defined more than once (${p.definitions.join(", ")})`,
    fix: () => "each request and notification method must have exactly one definition",
  }),
  MCPG402: entry<{ request: string }>({
    severity: "warning",
    message: (p) => `no result definition found for ${p.request}; assuming EmptyResult`,
  }),
  MCPG404: entry<{ missing: string }>({
    severity: "error",
    message: (p) => `the schema defines no ${p.missing} envelope, so messages cannot be parsed`,
    fix: () =>
      "define JSONRPCResultResponse and JSONRPCErrorResponse (or JSONRPCResponse and JSONRPCError)",
  }),
  MCPG405: entry<{ method: string; resultType: string; definitions: readonly string[] }>({
    severity: "error",
    message: (p) =>
      `the results of "${p.method}" cannot be told apart: ${p.definitions.join(", ")} carry the same resultType "${p.resultType}"`,
    fix: () =>
      "give each result of the method its own resultType (a const in schema.json, or a ResultType literal in schema.ts whose doc links the result with {@link}), or add a patch to schema/patches/",
  }),
  MCPG406: entry<{ name: string; module: string; owners: readonly string[] }>({
    severity: "error",
    message: (p) =>
      `${p.module} would declare ${p.name} more than once (for ${p.owners.join(" and ")})`,
    fix: () =>
      "rename one of the definitions (or methods, error constants) the names come from, or leave out the extension that adds one of them",
  }),
  MCPG407: entry<{ ref: string; definition: string }>({
    severity: "error",
    message: (p) => `${p.definition} refers to ${p.ref}, which no definition of the model is`,
    fix: () =>
      "add the definition, or fix the $ref (an extension or a patch may have introduced it)",
  }),
  MCPG408: entry<{ method: string; role: string; definition: string }>({
    severity: "error",
    message: (p) =>
      `"${p.method}" needs its ${p.role} definition ${p.definition}, which the schema does not define`,
    fix: () => "add the definition to the schema, or point the method at one that exists",
  }),
  MCPG409: entry<{ method: string; first: string; second: string; shared: readonly string[] }>({
    severity: "error",
    message: (p) =>
      `the results of "${p.method}" cannot be told apart: ${p.first} and ${p.second} carry no resultType, and neither requires a property the other does not declare (both declare: ${p.shared.join(", ") || "nothing"})`,
    fix: () =>
      "give the results a resultType (a const in schema.json, or a ResultType literal in schema.ts whose doc links the result with {@link}), give one of them a required property of its own, or add a patch to schema/patches/",
  }),
  MCPG601: entry<{ reason: string }>({
    severity: "error",
    message: (p) => `extension manifest: ${p.reason}`,
    fix: () =>
      "follow schema/extension-manifest.schema.json; docs/extensions.md shows a complete manifest",
  }),
  MCPG602: entry<{ ref: string; known: readonly string[] }>({
    severity: "error",
    message: (p) =>
      `--extension "${p.ref}" is neither a known extension, a folder with mcp-extension.json, nor a manifest file`,
    fix: (p) =>
      `name a known extension (${p.known.join(", ")}), or the folder or file of your extension's manifest`,
  }),
  MCPG603: entry<{ name: string; tried: readonly string[] }>({
    severity: "error",
    message: (p) => `could not find the files of extension ${p.name}; tried: ${p.tried.join("; ")}`,
    fix: (p) =>
      `run \`mcp-gen schema pull ${p.name}\` while online (MCP_GEN_OFFLINE unset), or set MCP_GEN_SCHEMA_DIR to a folder holding extensions/${p.name}/`,
  }),
  MCPG604: entry<{ name: string; path: string }>({
    severity: "error",
    message: (p) => `extension ${p.name} names ${p.path}, which does not exist`,
    fix: () => "schema and schemaTs paths are relative to the manifest",
  }),
  MCPG605: entry<{ id: string }>({
    severity: "error",
    message: (p) =>
      `extension identifier "${p.id}" breaks the _meta key rules: it needs a prefix of dot-separated labels and a name (e.g. com.example/my-extension)`,
    fix: () =>
      "use reverse-DNS labels that start with a letter and end with a letter or digit, a slash, then a name",
  }),
  MCPG606: entry<{ id: string }>({
    severity: "warning",
    message: (p) =>
      `extension "${p.id}" uses a prefix reserved for MCP (second label modelcontextprotocol or mcp) but does not claim to be an MCP extension`,
    fix: () =>
      'use a prefix of your own (com.example/...), or set "mcp": true if the MCP project publishes it',
  }),
  MCPG607: entry<{ id: string; revision: string; targets: readonly string[] }>({
    severity: "error",
    message: (p) =>
      `extension ${p.id} does not target revision ${p.revision} (it targets ${p.targets.join(", ")})`,
    fix: () => "generate one of the revisions the extension targets, or drop the extension",
  }),
  MCPG608: entry<{ value: string; owner: string }>({
    severity: "error",
    message: (p) => `resultType "${p.value}" is already defined by ${p.owner}`,
    fix: () => "choose a resultType value no other extension and no core revision uses",
  }),
  MCPG609: entry<{ method: string; owner: string }>({
    severity: "error",
    message: (p) => `method "${p.method}" is already defined by ${p.owner}`,
    fix: () => "give the extension's method a name of its own (e.g. prefixed by the extension)",
  }),
  MCPG610: entry<{ code: number }>({
    severity: "error",
    message: (p) =>
      `error code ${p.code} is in -32020..-32099, which is reserved for the MCP specification`,
    fix: () => "pick a code outside -32768..-32000, or in -32000..-32019 (implementation-defined)",
  }),
  MCPG611: entry<{ code: number; owner: string }>({
    severity: "error",
    message: (p) => `error code ${p.code} is already defined by ${p.owner}`,
    fix: () => "pick a code no core revision and no other extension uses",
  }),
  MCPG612: entry<{ name: string; other: string }>({
    severity: "error",
    message: (p) =>
      `definition ${p.name} differs from the one in ${p.other}; an extension may copy a definition only unchanged`,
    fix: () =>
      "copy the definition exactly (descriptions may differ), or give the extension's variant a name of its own",
  }),
  MCPG613: entry<{ field: string; name: string }>({
    severity: "error",
    message: (p) =>
      `the manifest's ${p.field} names ${p.name}, which the extension's schema does not define`,
    fix: () => "name a definition of the extension's schema.json",
  }),
  MCPG614: entry<{ method: string }>({
    severity: "error",
    message: (p) =>
      `the manifest's returns names "${p.method}", which is not a request method of this revision`,
    fix: () => "name an existing request method (see METHODS), e.g. tools/call",
  }),
  MCPG615: entry<{ definition: string; property: string; other: string }>({
    severity: "error",
    message: (p) =>
      `augmenting ${p.definition}: property ${p.property} is already defined differently (by ${p.other})`,
    fix: () => "an augment may only add properties, or repeat one unchanged",
  }),
  MCPG616: entry<{ definition: string; why: string }>({
    severity: "error",
    message: (p) => `cannot extend ${p.definition}: ${p.why}`,
    fix: () => "the core revision must define it as an object schema with properties",
  }),
  MCPG617: entry<{ id: string; first: string }>({
    severity: "error",
    message: (p) => `extension ${p.id} is given more than once (first by ${p.first})`,
    fix: () => "pass each extension once; two different extensions need identifiers of their own",
  }),
  MCPG701: entry<{ reason: string }>({
    severity: "error",
    message: (p) => `tools file: ${p.reason}`,
    fix: () =>
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
  MCPG705: entry<{ subschemas: number; depth: number; limits: string }>({
    severity: "error",
    message: (p) =>
      `tool schema too large: ${p.subschemas} subschemas, depth ${p.depth} (limits: ${p.limits})`,
    fix: () => "simplify the schema, or split the tool",
  }),
  MCPG706: entry<{ reason: string }>({
    severity: "error",
    message: (p) => `cannot compile a tool schema: ${p.reason}`,
    fix: () => "simplify the schema keyword named above",
  }),
  MCPG707: entry<{ dir: string; reason: string }>({
    severity: "error",
    message: (p) => `cannot scaffold into ${p.dir}: ${p.reason}`,
    fix: () =>
      "choose an empty folder inside the current folder or at an absolute path you own (or pass --force to refresh a project mcp-gen made: your own files are kept)",
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
  MCPG730: entry<{ source: string; reason: string }>({
    severity: "error",
    message: (p) => `diff --tools: ${p.source} holds no tools: ${p.reason}`,
    fix: () =>
      'give a tools file (an array of tools), a tools/list snapshot ({ "tools": [...] }), the URL of a running server\'s MCP endpoint, or the command that starts it in quotes',
  }),
  MCPG731: entry<{ source: string; reason: string }>({
    severity: "error",
    message: (p) => `diff --tools: ${p.source}: ${p.reason}`,
    fix: () => "give every tool a unique string name, as tools/list requires",
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
  MCPG501: entry<{ dir: string; foreign: readonly string[] }>({
    severity: "error",
    message: (p) =>
      `refusing to write into ${p.dir}: it holds files mcp-gen did not write (${p.foreign.slice(0, 5).join(", ")}${p.foreign.length > 5 ? ", ..." : ""})`,
    fix: () => "choose an empty or mcp-gen-owned folder for --out, or pass --force to replace it",
  }),
  MCPG502: entry<{ path: string }>({
    severity: "error",
    message: (p) => `output path ${p.path} escapes the output folder`,
    fix: () => "emitted paths must be relative and stay inside --out",
  }),
  MCPG503: entry<{ file: string; state: "stale" | "missing" | "extra" }>({
    severity: "error",
    message: (p) => `${p.file} is ${p.state}`,
    fix: () =>
      "run the regenerate command in the file banner (npm run generate in this repository)",
  }),
  MCPG504: entry<{ dir: string; reason: string }>({
    severity: "error",
    message: (p) => `cannot write ${p.dir}: ${p.reason}`,
    fix: () => "choose an --out folder inside a folder you can write to",
  }),
  MCPG505: entry<{ dir: string; paths: readonly string[] }>({
    severity: "error",
    message: (p) =>
      `refusing to write ${p.dir}: read-only: ${p.paths.slice(0, 5).join(", ")}${p.paths.length > 5 ? ", ..." : ""} (nothing was written)`,
    fix: () => "make them writable (chmod u+w), or choose another --out",
  }),
  MCPG506: entry<{ dir: string; pid: number }>({
    severity: "error",
    message: (p) => `another mcp-gen (process ${p.pid}) is writing ${p.dir} right now`,
    fix: (p) =>
      `wait until it is done; if no process ${p.pid} runs any more, delete ${p.dir}.mcp-gen-lock`,
  }),
  MCPG507: entry<{ path: string }>({
    severity: "note",
    message: (p) => `removed ${p.path}, left by an interrupted run`,
  }),
  MCPG801: entry<{ reason: string }>({
    severity: "error",
    message: (p) => `mcp-gen.json: ${p.reason}`,
    fix: () =>
      "edit mcp-gen.json at the place named; its format is schema/config.schema.json in mcp-gen's package (docs/config.md)",
  }),
  MCPG802: entry<{ from: string }>({
    severity: "error",
    message: (p) => `no mcp-gen.json in ${p.from} or any folder above it`,
    fix: () =>
      'pass --spec and --out, or write an mcp-gen.json such as { "targets": [{ "spec": "2026-07-28", "out": "src/mcp" }] }',
  }),
  MCPG803: entry<{ out: string; other: string }>({
    severity: "error",
    message: (p) => `target folder ${p.out} overlaps ${p.other}: one would overwrite the other`,
    fix: () => "give every target a folder of its own, outside the others",
  }),
  MCPG804: entry<{ file: string }>({
    severity: "error",
    message: (p) => `${p.file} lists no targets: there is nothing to generate`,
    fix: () =>
      'add a target, e.g. "targets": [{ "spec": "2026-07-28", "extensions": ["tasks"], "out": "src/mcp" }]',
  }),
  MCPG805: entry<{ dir: string }>({
    severity: "error",
    message: (p) =>
      `${p.dir} is not a project made by mcp-gen server or mcp-gen client (no mcp-gen.json with "kind": "server" or "client")`,
    fix: () =>
      "run mcp-gen upgrade in the folder of a project made by mcp-gen server or mcp-gen client",
  }),
  MCPG806: entry<{ dir: string }>({
    severity: "error",
    message: (p) => `${p.dir} has no node_modules/typescript, so the project cannot be typechecked`,
    fix: () => "run npm install in the project first",
  }),
  MCPG807: entry<{ revision: string; problems: readonly string[] }>({
    severity: "error",
    message: (p) =>
      `the files mcp-gen generates for ${p.revision} do not compile in this project, so nothing was changed: ${p.problems.slice(0, 5).join("; ")}${p.problems.length > 5 ? "; ..." : ""}`,
    fix: () => "this is a bug in mcp-gen; please report it with the revision and mcp-gen.json",
  }),
  MCPG808: entry<{ revision: string; problems: readonly string[] }>({
    severity: "error",
    message: (p) =>
      `the runtime cannot serve ${p.revision}, so nothing was changed: ${p.problems.slice(0, 5).join("; ")}${p.problems.length > 5 ? "; ..." : ""}`,
    fix: () =>
      "stay on the project's revision until an mcp-gen whose runtime sets these fields, or pass --force to upgrade anyway (the runtime's answers will not match the revision)",
  }),
  MCPG809: entry<{ command: string; failures: readonly string[] }>({
    severity: "error",
    message: (p) =>
      `${p.command} fails in a copy with the new files, so nothing was changed: ${p.failures.slice(0, 5).join("; ")}${p.failures.length > 5 ? "; ..." : ""}`,
    fix: () =>
      "fix the failing tests first (try them with --dry-run), or pass --force to upgrade anyway",
  }),
  MCPG810: entry<{ out: string; dir: string }>({
    severity: "error",
    message: (p) => `the target folder ${p.out} leads outside ${p.dir}, the folder of mcp-gen.json`,
    fix: () =>
      'put the output inside that folder, or add "allowOutside": true to the target if it is meant to write there',
  }),
  MCPG901: entry<{ reason: string }>({
    severity: "error",
    message: (p) => `internal error: ${p.reason}`,
  }),
} as const;

/** A stable diagnostic code from the catalog. */
export type DiagnosticCode = keyof typeof catalog;

type ParamsOf<C extends DiagnosticCode> =
  (typeof catalog)[C] extends CatalogEntry<infer P> ? P : never;

/** Builds a diagnostic from the catalog, so every message has one wording. */
export function diagnostic<C extends DiagnosticCode>(
  code: C,
  params: ParamsOf<C>,
  location?: Location,
): Diagnostic {
  const e = catalog[code] as CatalogEntry<ParamsOf<C>>;
  return {
    code,
    severity: e.severity,
    message: e.message(params),
    ...(e.fix ? { fix: e.fix(params) } : {}),
    ...(location ? { location } : {}),
  };
}

/** Thrown by the library when input problems stop generation; carries every error found. */
export class McpGenError extends Error {
  readonly diagnostics: readonly Diagnostic[];
  constructor(diagnostics: readonly Diagnostic[]) {
    super(diagnostics.map(formatDiagnostic).join("\n"));
    this.name = "McpGenError";
    this.diagnostics = diagnostics;
  }
}

/**
 * Runs `read`, adding the diagnostics of a {@link McpGenError} it throws
 * to `problems` (and then giving undefined), so that a caller can go on
 * and report every problem together. Other errors are rethrown.
 */
export async function collectProblems<T>(
  problems: Diagnostic[],
  read: () => T | Promise<T>,
): Promise<T | undefined> {
  try {
    return await read();
  } catch (error) {
    if (!(error instanceof McpGenError)) throw error;
    problems.push(...error.diagnostics);
    return undefined;
  }
}

/** `each` applied to every item in turn; throws one {@link McpGenError} with the problems of all that failed. */
export async function mapReportingAll<T, R>(
  items: readonly T[],
  each: (item: T) => Promise<R>,
): Promise<R[]> {
  const problems: Diagnostic[] = [];
  const results: R[] = [];
  for (const item of items) {
    const result = await collectProblems(problems, () => each(item));
    if (result !== undefined) results.push(result);
  }
  if (problems.length > 0) throw new McpGenError(problems);
  return results;
}

/** Throws a {@link McpGenError} if any diagnostic is an error; returns the rest otherwise. */
export function throwIfErrors(diagnostics: readonly Diagnostic[]): readonly Diagnostic[] {
  if (diagnostics.some((d) => d.severity === "error")) throw new McpGenError(diagnostics);
  return diagnostics;
}

/** Renders a location as `file#/pointer` or `file:line:col`. */
export function formatLocation(loc: Location): string {
  if (loc.line !== undefined)
    return `${loc.file}:${loc.line}${loc.column !== undefined ? `:${loc.column}` : ""}`;
  if (loc.pointer !== undefined) return `${loc.file}#${loc.pointer}`;
  return loc.file;
}

/** One line per diagnostic: `location: severity CODE: message (fix: ...)`. */
export function formatDiagnostic(d: Diagnostic): string {
  const where = d.location ? `${formatLocation(d.location)}: ` : "";
  const fix = d.fix ? ` (fix: ${d.fix})` : "";
  return `${where}${d.severity} ${d.code}: ${d.message}${fix}`;
}
