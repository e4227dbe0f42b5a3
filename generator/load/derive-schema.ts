/**
 * An extension that publishes no JSON Schema (Skills: the TypeScript blocks
 * of its specification page) gets one the way upstream makes every
 * revision's schema.json from its schema.ts: typescript-json-schema, with
 * upstream's flags (`--defaultNumberType integer --required`), then the
 * base revision's dialect (2020-12: `$defs`). The TypeScript is compiled
 * beside the base revision's schema.ts, so the names it uses without
 * declaring (`Result`, `PaginatedRequest`, `Resource`, ...) are the base
 * revision's. Their definitions in the derived schema are the base
 * schema.json's own, copied verbatim with everything they reference, so
 * the merge folds each into the core definition it is.
 *
 *   before: interface GetSkillResult extends CacheableResult { skill: Skill }   (skills.mdx)
 *   after:  $defs.GetSkillResult = { allOf-free object with ttlMs, cacheScope, resultType, skill }, $defs.CacheableResult... = 2026-07-28's
 *
 * Deriving loads TypeScript and takes seconds, so the schema is kept in the
 * cache folder, keyed by every input's sha256 and this code's fingerprint.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type * as Tjs from "typescript-json-schema";
import { diagnostic, McpGenError, type Diagnostic } from "../diagnostics.js";
import { readCacheEntry, writeCacheEntry } from "./cache-entry.js";
import { isJsonObject, type JsonObject, type JsonValue } from "./json.js";
import { checkFileSize, checkTsDepth } from "./limits.js";
import { typescriptOf } from "./typescript-source.js";
import type { InputFile, JsonSchemaSource } from "./types.js";

/** What a derivation needs of the base revision. */
export interface DerivationBase {
  readonly schema: JsonSchemaSource;
  readonly schemaTs?: InputFile;
}

/** A derived schema, and what TypeScript said about the extension's declarations. */
export interface DerivedSchema {
  readonly source: JsonSchemaSource;
  readonly notes: readonly Diagnostic[];
}

/** Upstream's flags (modelcontextprotocol/modelcontextprotocol, scripts/generate-schemas.ts). */
const UPSTREAM_ARGS: Tjs.PartialArgs = {
  required: true,
  defaultNumberType: "integer",
  // Type errors are reported by us, as warnings with the page's line.
  ignoreErrors: true,
};

/** TypeScript's "Cannot find name" (and its "Did you mean" form). */
const UNKNOWN_NAME = new Set([2304, 2552]);

const EXTENSION_FILE = "/mcp-gen/extension/extension.ts";
const BASE_FILE = "/mcp-gen/base/schema.ts";

/** Derives the JSON Schema of extension `name` from the TypeScript of `file`, through the cache in `cacheDir`. */
export function deriveSchema(
  name: string,
  file: InputFile,
  base: DerivationBase,
  cacheDir: string,
): DerivedSchema {
  const key = cacheKey(file, base);
  const path = join(cacheDir, "derived-schemas", `${key}.json`);
  const cached = readCacheEntry(path, 64 * 1024 * 1024);
  if (isEntry(cached)) return fromEntry(cached, file, base);
  const entry = derive(name, file, base);
  writeCacheEntry(path, entry);
  return fromEntry(entry, file, base);
}

/** What the cache keeps: the document and the notes' text and lines. */
interface Entry {
  readonly document: JsonObject;
  readonly notes: ReadonlyArray<{ readonly message: string; readonly line: number }>;
  readonly name: string;
}

function isEntry(value: unknown): value is Entry {
  return (
    isJsonObject(value) &&
    isJsonObject(value.document) &&
    Array.isArray(value.notes) &&
    typeof value.name === "string"
  );
}

function fromEntry(entry: Entry, file: InputFile, base: DerivationBase): DerivedSchema {
  const { definitionsKey, dialect } = base.schema;
  return {
    source: { file, dialect, definitionsKey, document: entry.document },
    notes: entry.notes.map((n) =>
      diagnostic(
        "MCPG620",
        { name: entry.name, message: n.message },
        { file: file.name, line: n.line },
      ),
    ),
  };
}

let fingerprint: string | undefined;

function cacheKey(file: InputFile, base: DerivationBase): string {
  // This code and the page reader beside it (a .ts under tsx, a .js in dist/).
  const self = fileURLToPath(import.meta.url);
  fingerprint ??= createHash("sha256")
    .update(readFileSync(self))
    .update(readFileSync(self.replace(/derive-schema\.(ts|js)$/, "typescript-source.$1")))
    .digest("hex");
  return createHash("sha256")
    .update(
      [
        fingerprint,
        tjsVersion(),
        file.sha256,
        base.schema.file.sha256,
        base.schemaTs?.sha256 ?? "",
      ].join("\0"),
    )
    .digest("hex")
    .slice(0, 32);
}

function derive(name: string, file: InputFile, base: DerivationBase): Entry {
  const typescript = typescriptOf(file);
  checkFileSize(Buffer.byteLength(typescript), file.name);
  checkTsDepth(typescript, file.name);
  const tjs = loadTjs();
  const ts = tjs.ts;
  const declared = declaredNames(ts, typescript);
  if (declared.length === 0)
    throw new McpGenError([
      diagnostic(
        "MCPG622",
        { name, reason: "it declares no interface or type alias" },
        { file: file.name },
      ),
    ]);
  const baseNames = base.schemaTs ? exportedNames(ts, base.schemaTs.text) : [];
  const imported = baseNames.filter((n) => !declared.includes(n));
  // The import goes last, so that line N of the extension file is line N of the page.
  const files: Record<string, string> = {
    [EXTENSION_FILE]: `${typescript}\n${imported.length > 0 ? `import type { ${imported.join(", ")} } from "../base/schema.js";\n` : ""}`,
    ...(base.schemaTs ? { [BASE_FILE]: base.schemaTs.text } : {}),
  };
  const program = virtualProgram(ts, files);
  const notes = typeNotes(ts, program, name, file);
  const generator = tjs.buildGenerator(program, UPSTREAM_ARGS, [EXTENSION_FILE]);
  if (!generator)
    throw new McpGenError([
      diagnostic(
        "MCPG622",
        { name, reason: "typescript-json-schema found nothing to derive" },
        { file: file.name },
      ),
    ]);
  const derived = generator.getSchemaForSymbols(declared, true) as unknown as JsonObject;
  const own = pick(asDefinitions(derived.definitions), declared);
  return {
    name,
    document: inDialect(withBaseDefinitions(own, base.schema), base.schema),
    notes,
  };
}

/** typescript-json-schema (and the TypeScript it bundles), loaded on first use: a run without a derived schema never pays for it. */
function loadTjs(): typeof Tjs {
  return createRequire(import.meta.url)("typescript-json-schema") as typeof Tjs;
}

function tjsVersion(): string {
  return (
    createRequire(import.meta.url)("typescript-json-schema/package.json") as { version: string }
  ).version;
}

type Ts = typeof Tjs.ts;

/** The interfaces, type aliases and enums a TypeScript text declares at its top level, in order. */
function declaredNames(ts: Ts, text: string): string[] {
  const source = ts.createSourceFile(EXTENSION_FILE, text, ts.ScriptTarget.ES2022, false);
  return source.statements.flatMap((s) =>
    ts.isInterfaceDeclaration(s) || ts.isTypeAliasDeclaration(s) || ts.isEnumDeclaration(s)
      ? [s.name.text]
      : [],
  );
}

/** The types and constants the base revision's schema.ts exports. */
function exportedNames(ts: Ts, text: string): string[] {
  const source = ts.createSourceFile(BASE_FILE, text, ts.ScriptTarget.ES2022, false);
  return source.statements.flatMap((s) =>
    (ts.isInterfaceDeclaration(s) || ts.isTypeAliasDeclaration(s) || ts.isEnumDeclaration(s)) &&
    (ts.getModifiers(s)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword) ?? false)
      ? [s.name.text]
      : [],
  );
}

/** A program over in-memory files, with TypeScript's own lib for Array and friends. */
function virtualProgram(ts: Ts, files: Record<string, string>): Tjs.Program {
  const options: Tjs.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const readLib = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language, ...rest) =>
    files[name] !== undefined
      ? ts.createSourceFile(name, files[name], language, true)
      : readLib(name, language, ...rest);
  host.fileExists = (name) => files[name] !== undefined || ts.sys.fileExists(name);
  host.readFile = (name) => files[name] ?? ts.sys.readFile(name);
  host.directoryExists = (dir) => dir.startsWith("/mcp-gen") || ts.sys.directoryExists(dir);
  return ts.createProgram([EXTENSION_FILE], options, host);
}

/**
 * TypeScript's word on the extension's declarations: names neither it nor
 * the base revision declare stop the derivation (MCPG621); any other error
 * is a warning (MCPG620) at the page's line, and the schema follows the
 * declarations as written (Skills' ReadResourceDirectoryRequest narrows
 * PaginatedRequest's params without the `_meta` 2026-07-28 requires).
 */
function typeNotes(
  ts: Ts,
  program: Tjs.Program,
  name: string,
  file: InputFile,
): Array<{ message: string; line: number }> {
  const source = program.getSourceFile(EXTENSION_FILE)!;
  const found = [
    ...program.getSyntacticDiagnostics(source),
    ...program.getSemanticDiagnostics(source),
  ];
  const unknown = found.filter((d) => UNKNOWN_NAME.has(d.code));
  if (unknown.length > 0) {
    const names = [
      ...new Set(unknown.map((d) => source.text.slice(d.start, d.start! + d.length!))),
    ];
    throw new McpGenError([
      diagnostic(
        "MCPG621",
        { name, names },
        {
          file: file.name,
          line: source.getLineAndCharacterOfPosition(unknown[0]!.start!).line + 1,
        },
      ),
    ]);
  }
  return found.map((d) => ({
    message: ts.flattenDiagnosticMessageText(d.messageText, " "),
    line: source.getLineAndCharacterOfPosition(d.start ?? 0).line + 1,
  }));
}

function asDefinitions(value: JsonValue | undefined): JsonObject {
  return isJsonObject(value) ? value : {};
}

function pick(definitions: JsonObject, names: readonly string[]): JsonObject {
  return Object.fromEntries(names.filter((n) => n in definitions).map((n) => [n, definitions[n]!]));
}

/**
 * The extension's own definitions, plus the base schema's definitions they
 * reference, transitively, copied as the base schema has them.
 */
function withBaseDefinitions(own: JsonObject, base: JsonSchemaSource): JsonObject {
  const baseDefinitions = base.document[base.definitionsKey] as JsonObject;
  const copied: JsonObject = {};
  const pending = Object.values(own).flatMap(referencedNames);
  while (pending.length > 0) {
    const next = pending.pop()!;
    if (next in own || next in copied || !(next in baseDefinitions)) continue;
    copied[next] = baseDefinitions[next]!;
    pending.push(...referencedNames(copied[next]));
  }
  return { ...own, ...copied };
}

/** The definition names a schema's `$ref`s point at (`#/definitions/X` or `#/$defs/X`). */
function referencedNames(schema: JsonValue): string[] {
  const names: string[] = [];
  const stack: JsonValue[] = [schema];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (Array.isArray(node)) stack.push(...node);
    else if (isJsonObject(node))
      for (const [key, value] of Object.entries(node)) {
        if (key === "$ref" && typeof value === "string") {
          const name = /^#\/(?:\$defs|definitions)\/([^/]+)$/.exec(value)?.[1];
          if (name) names.push(name.replace(/~1/g, "/").replace(/~0/g, "~"));
        } else stack.push(value);
      }
  }
  return names;
}

/**
 * The derived definitions as a document of the base revision's dialect:
 * typescript-json-schema writes draft-07 (`definitions`), and upstream
 * turns 2020-12 revisions' output into `$defs`, as done here for every
 * `$ref` (on the parsed value, not the text).
 */
function inDialect(definitions: JsonObject, base: JsonSchemaSource): JsonObject {
  const key = base.definitionsKey;
  const rewrite = (node: JsonValue): JsonValue => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (!isJsonObject(node)) return node;
    return Object.fromEntries(
      Object.entries(node).map(([k, v]) => [
        k,
        k === "$ref" && typeof v === "string"
          ? v.replace(/^#\/(\$defs|definitions)\//, `#/${key}/`)
          : rewrite(v),
      ]),
    );
  };
  const schemaUri =
    base.dialect === "2020-12"
      ? "https://json-schema.org/draft/2020-12/schema"
      : "http://json-schema.org/draft-07/schema#";
  return { $schema: schemaUri, [key]: rewrite(definitions) };
}
