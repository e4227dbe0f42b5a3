/**
 * Reads a revision's schema.ts with ts-morph for what schema.json cannot
 * say: exported constants (error codes, LATEST_PROTOCOL_VERSION), the
 * literal members of unions such as `ResultType`, `@deprecated` tags and
 * doc text. Nothing here interprets the facts; the build stage does.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import type * as morph from "ts-morph";
import type {
  InterfaceDeclaration,
  JSDocableNode,
  PropertySignature,
  TypeAliasDeclaration,
  TypeNode,
} from "ts-morph";
import { diagnostic, McpGenError } from "../diagnostics.js";
import { escapePointerSegment } from "./json.js";
import { checkFileSize, checkTsDepth } from "./limits.js";
import type { InputFile, SchemaTsFacts, TsDeclaration, TsDoc, UnionMember } from "./types.js";

// ts-morph is CommonJS with TypeScript bundled (12 MB), loaded on first use
// (importing this module costs nothing until then) and with `require`,
// which skips Node's ESM interop scan of all that source for export names.
let Node: typeof morph.Node;
let Project: typeof morph.Project;
let ts: typeof morph.ts;
type Node = morph.Node;

/** Loads ts-morph (once). */
export function loadTsMorph(): void {
  if (Project) return;
  ({ Node, Project, ts } = createRequire(import.meta.url)("ts-morph") as typeof morph);
}

let fingerprint: string | undefined;

/**
 * What the facts of a file depend on besides its bytes: this reader's own
 * code and the ts-morph (and so TypeScript) it parses with. Cached facts
 * are keyed by it (schema-ts-cache.ts).
 */
export function readerFingerprint(): string {
  fingerprint ??= createHash("sha256")
    .update(readFileSync(fileURLToPath(import.meta.url)))
    .update(
      `\0ts-morph ${(createRequire(import.meta.url)("ts-morph/package.json") as { version: string }).version}`,
    )
    .digest("hex");
  return fingerprint;
}

/** Parses schema.ts and extracts its facts; throws MCPG205 (with line:col) when it does not parse, MCPG211 or MCPG212 when it is too large or nests too deeply. */
export function readSchemaTs(file: InputFile): SchemaTsFacts {
  // TypeScript's parser recurses on nesting: bound it before parsing.
  checkFileSize(Buffer.byteLength(file.text), file.name);
  checkTsDepth(file.text, file.name);
  loadTsMorph();
  const project = new Project({
    useInMemoryFileSystem: true,
    skipLoadingLibFiles: true,
    compilerOptions: { noLib: true, noResolve: true, types: [] },
  });
  const source = project.createSourceFile("/schema.ts", file.text);
  throwOnSyntaxErrors(project, source.compilerNode, file);

  const constants: Record<string, { value: string | number; line: number }> = {};
  for (const statement of source.getVariableStatements()) {
    if (!statement.isExported()) continue;
    for (const decl of statement.getDeclarations()) {
      const value = literalValue(decl.getInitializer());
      if (value !== undefined) constants[decl.getName()] = { value, line: lineOf(decl) };
    }
  }

  const unions: Record<string, { members: UnionMember[]; line: number }> = {};
  const aliasNames: string[] = [];
  const declarations: Record<string, TsDeclaration> = {};
  for (const alias of source.getTypeAliases()) {
    if (!alias.isExported()) continue;
    const typeNode = alias.getTypeNodeOrThrow();
    const members = unionMembers(typeNode);
    if (members) unions[alias.getName()] = { members, line: lineOf(alias) };
    declarations[alias.getName()] = { ...docOf(alias), members: {}, indexSignature: false };
    aliasNames.push(alias.getName());
  }
  const interfaces = source.getInterfaces();
  const hasIndexSignature = inheritedIndexSignatures(interfaces, source.getTypeAliases());
  for (const iface of interfaces) {
    if (!iface.isExported()) continue;
    const members: Record<string, TsDoc> = {};
    collectMembers(iface.getProperties(), "", members);
    declarations[iface.getName()] = {
      ...docOf(iface),
      members,
      indexSignature: hasIndexSignature(iface.getName()),
    };
  }
  for (const name of aliasNames)
    declarations[name] = { ...declarations[name]!, indexSignature: hasIndexSignature(name) };
  return { file, constants, unions, declarations };
}

/**
 * Whether each declaration has a string index signature, its own or
 * through `extends` (`CallToolResult extends Result`, and Result has
 * `[key: string]: unknown`; `RequestMetaObject extends MetaObject`, and
 * `MetaObject = Record<string, unknown>`). Followed syntactically, within
 * the file.
 */
function inheritedIndexSignatures(
  interfaces: readonly InterfaceDeclaration[],
  aliases: readonly TypeAliasDeclaration[],
): (name: string) => boolean {
  const byName = new Map<string, InterfaceDeclaration | TypeAliasDeclaration>(
    [...interfaces, ...aliases].map((d) => [d.getName(), d]),
  );
  const memo = new Map<string, boolean>();
  const has = (name: string, seen: Set<string>): boolean => {
    if (memo.has(name)) return memo.get(name)!;
    const decl = byName.get(name);
    if (!decl || seen.has(name)) return false;
    seen.add(name);
    const result = Node.isInterfaceDeclaration(decl)
      ? decl.getIndexSignatures().length > 0 ||
        decl.getExtends().some((e) => has(e.getExpression().getText(), seen))
      : typeHasIndexSignature(decl.getTypeNodeOrThrow(), (n) => has(n, seen));
    memo.set(name, result);
    return result;
  };
  return (name) => has(name, new Set());
}

function typeHasIndexSignature(node: TypeNode, named: (name: string) => boolean): boolean {
  if (Node.isTypeLiteral(node)) return node.getIndexSignatures().length > 0;
  if (Node.isTypeReference(node)) {
    const name = node.getTypeName().getText();
    const [key] = node.getTypeArguments();
    if (name === "Record") return key?.getKind() === ts.SyntaxKind.StringKeyword;
    return node.getTypeArguments().length === 0 && named(name);
  }
  return false;
}

function throwOnSyntaxErrors(
  project: morph.Project,
  node: morph.ts.SourceFile,
  file: InputFile,
): void {
  const errors = project.getProgram().compilerObject.getSyntacticDiagnostics(node);
  if (errors.length === 0) return;
  throw new McpGenError(
    errors.slice(0, 10).map((d) => {
      const { line, character } = node.getLineAndCharacterOfPosition(d.start ?? 0);
      const reason = ts.flattenDiagnosticMessageText(d.messageText, " ");
      return diagnostic(
        "MCPG205",
        { reason },
        { file: file.name, line: line + 1, column: character + 1 },
      );
    }),
  );
}

/**
 * Member docs by property path, segments escaped and joined as in a JSON
 * pointer without the leading slash: `mood`, and for inline object types
 * `params/mood`, so deprecations deep inside a request's params are kept
 * (`io.modelcontextprotocol~1logLevel` for a name with a slash).
 */
function collectMembers(
  properties: readonly PropertySignature[],
  prefix: string,
  out: Record<string, TsDoc>,
): void {
  for (const prop of properties) {
    const nameNode = prop.getNameNode();
    const name =
      prefix +
      escapePointerSegment(
        Node.isStringLiteral(nameNode) ? nameNode.getLiteralValue() : prop.getName(),
      );
    out[name] = docOf(prop);
    const type = prop.getTypeNode();
    if (type && Node.isTypeLiteral(type)) collectMembers(type.getProperties(), `${name}/`, out);
  }
}

/** `"x"`, `42`, `-32700`: the literal an exported const is initialized with. */
function literalValue(node: Node | undefined): string | number | undefined {
  if (!node) return undefined;
  if (Node.isStringLiteral(node) || Node.isNoSubstitutionTemplateLiteral(node))
    return node.getLiteralValue();
  if (Node.isNumericLiteral(node)) return node.getLiteralValue();
  if (Node.isPrefixUnaryExpression(node) && node.getOperatorToken() === ts.SyntaxKind.MinusToken) {
    const operand = literalValue(node.getOperand());
    return typeof operand === "number" ? -operand : undefined;
  }
  if (Node.isAsExpression(node)) return literalValue(node.getExpression());
  return undefined;
}

/**
 * The members of `A | B | "x" | string`. A plain reference alias
 * (`type ClientResult = EmptyResult`) is a union of one. Anything else
 * (object types, intersections) is not a union for our purposes.
 */
function unionMembers(node: TypeNode): UnionMember[] | undefined {
  if (Node.isParenthesizedTypeNode(node)) return unionMembers(node.getTypeNode());
  if (Node.isUnionTypeNode(node)) {
    const members = node.getTypeNodes().map(unionMember);
    return members.every((m) => m !== undefined) ? members : undefined;
  }
  const single = Node.isTypeReference(node) ? unionMember(node) : undefined;
  return single ? [single] : undefined;
}

function unionMember(node: TypeNode): UnionMember | undefined {
  if (Node.isLiteralTypeNode(node)) {
    const literal = node.getLiteral();
    if (Node.isStringLiteral(literal) || Node.isNumericLiteral(literal))
      return { kind: "literal", value: literal.getLiteralValue() };
    if (Node.isTrueLiteral(literal) || Node.isFalseLiteral(literal))
      return { kind: "literal", value: Node.isTrueLiteral(literal) };
    return undefined;
  }
  if (Node.isTypeReference(node) && node.getTypeArguments().length === 0)
    return { kind: "reference", name: node.getTypeName().getText() };
  const kind = node.getKind();
  if (kind === ts.SyntaxKind.StringKeyword) return { kind: "keyword", name: "string" };
  if (kind === ts.SyntaxKind.NumberKeyword) return { kind: "keyword", name: "number" };
  return undefined;
}

function docOf(node: JSDocableNode & Node): TsDoc {
  const docs = node.getJsDocs();
  const last = docs[docs.length - 1];
  const description = last?.getDescription().trim();
  const deprecatedTag = docs
    .flatMap((d) => d.getTags())
    .find((t) => t.getTagName() === "deprecated");
  const deprecated = deprecatedTag
    ? (deprecatedTag.getCommentText()?.trim() ?? "").replace(/\s*\n\s*/g, " ") || "Deprecated."
    : undefined;
  return {
    line: lineOf(node),
    ...(description ? { description } : {}),
    ...(deprecated !== undefined ? { deprecated } : {}),
  };
}

/**
 * The 1-based line a node starts on, from the source file's line map.
 * (ts-morph's getStartLineNumber counts newlines from the start of the
 * file on every call, which made reading a 3,000-line schema.ts quadratic.)
 */
function lineOf(node: Node): number {
  const compilerNode = node.compilerNode;
  return (
    compilerNode.getSourceFile().getLineAndCharacterOfPosition(compilerNode.getStart()).line + 1
  );
}
