/** The catalog's diagnostics of one stage: Where schemas come from (1xx) and reading them (2xx). */
import { entry } from "./entry.js";

const supportedDialects =
  "draft-07 (http://json-schema.org/draft-07/schema#) and 2020-12 (https://json-schema.org/draft/2020-12/schema)";

export const SOURCE_DIAGNOSTICS = {
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
  MCPG109: entry<{ revision: string; file: string; reason: string }>({
    severity: "note",
    message: (p) =>
      `${p.revision} is compared as mcp-gen's committed model ${p.file}, the one its pinned schemas build, since the schemas could not be had (${p.reason})`,
    fix: (p) =>
      `to load the schemas themselves, run \`mcp-gen schema pull ${p.revision}\` while online or set MCP_GEN_SCHEMA_DIR`,
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
  MCPG240: entry<Record<string, never>>({
    severity: "error",
    message: () =>
      "a number too large for a JavaScript number (above 1.8e308): it reads as Infinity, and JSON would write it as null",
    fix: () =>
      "write a number within ±1.7976931348623157e308, or leave the bound out if it was meant as no bound",
  }),
  MCPG215: entry<{ path: string; target: string; folder: string }>({
    severity: "error",
    message: (p) =>
      `${p.path} leads to ${p.target}, outside ${p.folder}; mcp-gen reads only files inside the folder it was given`,
    fix: () =>
      "copy the file into the folder instead of linking to it (or referring to it with ..)",
  }),
} as const;
