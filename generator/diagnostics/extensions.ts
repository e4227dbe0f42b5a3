/** The catalog's diagnostics of one stage: Extensions (6xx). */
import { entry } from "./entry.js";

export const EXTENSION_DIAGNOSTICS = {
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
  MCPG618: entry<{ id: string; method: string; served: readonly string[] }>({
    severity: "warning",
    message: (p) =>
      `${p.id} returns its results for ${p.method}: the generated types allow them, but mcp-gen's runtime sends an extension's result only for ${p.served.join(", ")}, so a scaffolded server cannot answer ${p.method} with one`,
    fix: (p) =>
      `return the result from ${p.served.join(", ")} or from a method of the extension, or answer ${p.method} with code of your own`,
  }),
  MCPG619: entry<{ method: string; param: string }>({
    severity: "error",
    message: (p) =>
      `the manifest's requests["${p.method}"].name is ${p.param}, which is not a string property of the params of ${p.method}`,
    fix: () =>
      "name a string member of the request's params (the Mcp-Name header mirrors a string), or leave name out",
  }),
  MCPG617: entry<{ id: string; first: string }>({
    severity: "error",
    message: (p) => `extension ${p.id} is given more than once (first by ${p.first})`,
    fix: () => "pass each extension once; two different extensions need identifiers of their own",
  }),
  MCPG620: entry<{ name: string; message: string }>({
    severity: "warning",
    message: (p) =>
      `extension ${p.name}: its TypeScript does not type-check against the base revision: ${p.message}`,
    fix: () =>
      "the JSON Schema is derived from the declarations as written; check the message against the extension's specification",
  }),
  MCPG621: entry<{ name: string; names: readonly string[] }>({
    severity: "error",
    message: (p) =>
      `extension ${p.name}: its TypeScript uses ${p.names.join(", ")}, which it does not declare and the base revision does not define`,
    fix: () =>
      "declare the types in the extension's TypeScript, or generate a revision that defines them (--spec)",
  }),
  MCPG622: entry<{ name: string; reason: string }>({
    severity: "error",
    message: (p) =>
      `extension ${p.name}: no JSON Schema can be derived from its TypeScript: ${p.reason}`,
    fix: () =>
      "give the manifest a schema, or TypeScript with at least one interface or type alias (a page's ```typescript blocks)",
  }),
  MCPG623: entry<{ channel: string; known: readonly string[] }>({
    severity: "error",
    message: (p) =>
      `the manifest places a message on channel "${p.channel}", which its channels do not declare${p.known.length > 0 ? ` (declared: ${p.known.join(", ")})` : ""}`,
    fix: () =>
      'declare the channel under "channels" with a description, or leave channel out for the MCP connection',
  }),
  MCPG624: entry<{ key: string; messages: readonly string[] }>({
    severity: "error",
    message: (p) =>
      `the manifest's negotiation names ${p.key}, which is no message of the extension on the MCP connection${p.messages.length > 0 ? ` (its messages: ${p.messages.join(", ")})` : ""}`,
    fix: () =>
      'key the rule by a request or notification the manifest lists (not one on another channel), or by "@result" for the resultTypes the extension adds',
  }),
} as const;
