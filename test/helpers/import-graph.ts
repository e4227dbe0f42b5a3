/**
 * Import graphs of a source folder and the cycles in them, for the tests
 * that keep the generator and the runtime free of import cycles and their
 * layers pointing one way. Type-only imports count: a cycle through types
 * still ties two modules together for a reader.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import ts from "typescript";

/** Every .ts file under `dir`, relative to it, with `/` separators, sorted. */
export function sourceFiles(dir: string, sub = ""): string[] {
  return readdirSync(join(dir, sub), { withFileTypes: true })
    .flatMap((entry) => {
      const path = sub ? `${sub}/${entry.name}` : entry.name;
      if (entry.isDirectory()) return sourceFiles(dir, path);
      return entry.name.endsWith(".ts") ? [path] : [];
    })
    .sort();
}

/** Every module a file names in an import or export (type-only ones too), as written. */
export function importsOf(text: string): string[] {
  return ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
}

/**
 * The modules a file loads when it runs: its imports and re-exports,
 * without those that import or re-export only types (which TypeScript
 * erases), as written.
 */
export function valueImportsOf(text: string): string[] {
  const source = ts.createSourceFile("module.ts", text, ts.ScriptTarget.Latest);
  const onlyTypes = (bindings: ts.NamedImportBindings | ts.NamedExportBindings | undefined) =>
    bindings !== undefined &&
    (ts.isNamedImports(bindings) || ts.isNamedExports(bindings)) &&
    bindings.elements.length > 0 &&
    bindings.elements.every((e) => e.isTypeOnly);
  return source.statements.flatMap((statement) => {
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause;
      if (clause?.isTypeOnly || (clause && !clause.name && onlyTypes(clause.namedBindings)))
        return [];
      return [(statement.moduleSpecifier as ts.StringLiteral).text];
    }
    if (ts.isExportDeclaration(statement) && statement.moduleSpecifier) {
      if (statement.isTypeOnly || onlyTypes(statement.exportClause)) return [];
      return [(statement.moduleSpecifier as ts.StringLiteral).text];
    }
    return [];
  });
}

/**
 * The graph of `dir`'s files: relative path → relative paths of the files
 * of `dir` it imports (with `loaded`, only those it loads when it runs).
 */
export function importGraph(dir: string, loaded = false): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(dir)) {
    const text = readFileSync(join(dir, file), "utf8");
    const local = (loaded ? valueImportsOf(text) : importsOf(text))
      .filter((name) => name.startsWith("."))
      .map((name) =>
        normalize(join(dirname(file), name.replace(/\.js$/, ".ts")))
          .split("\\")
          .join("/"),
      );
    graph.set(file, local);
  }
  return graph;
}

/** A cycle of the graph as the files along it (first = last), or undefined when it has none. */
export function findCycle(graph: ReadonlyMap<string, readonly string[]>): string[] | undefined {
  const state = new Map<string, "open" | "done">();
  const path: string[] = [];
  const visit = (node: string): string[] | undefined => {
    if (state.get(node) === "done") return undefined;
    if (state.get(node) === "open") return [...path.slice(path.indexOf(node)), node];
    state.set(node, "open");
    path.push(node);
    for (const next of graph.get(node) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(node, "done");
    return undefined;
  };
  for (const node of [...graph.keys()].sort()) {
    const cycle = visit(node);
    if (cycle) return cycle;
  }
  return undefined;
}
