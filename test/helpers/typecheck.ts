/**
 * The TypeScript checks the tests make, in process and in one place:
 * - `strictErrors(files)`: generated modules under `--strict` (no project);
 * - `compileProject(dir)`: a scaffolded project with its own tsconfig.json,
 *   as `tsc -p <dir>` would, optionally writing its JavaScript (and, as
 *   the project's build does, copying the generated JavaScript after it).
 *
 * Both run the compiler in the test's own process. The declaration files
 * every check reads (TypeScript's lib files, @types/node, the runtime's
 * dependencies) are parsed once per worker and shared between checks: a
 * file that compiles five projects pays for lib.d.ts once, not five times.
 * So are the revision modules and the runtime mcp-gen writes into a
 * project (src/generated/<revision>/, src/mcp-gen/), by their text: every
 * project of a revision has the same 60,000 lines of validators, which are
 * parsed and bound once. The rest of a project's sources are read anew on
 * every check.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";

/** One diagnostic, as tsc prints it with --pretty false: `file(line,col): error TSn: message`. */
function format(diagnostic: ts.Diagnostic, cwd: string): string {
  const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, " ");
  const code = `error TS${diagnostic.code}`;
  if (!diagnostic.file || diagnostic.start === undefined) return `${code}: ${message}`;
  const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
  const file = diagnostic.file.fileName.startsWith(`${cwd}/`)
    ? diagnostic.file.fileName.slice(cwd.length + 1)
    : diagnostic.file.fileName;
  return `${file}(${line + 1},${character + 1}): ${code}: ${message}`;
}

const shared = new Map<string, ts.SourceFile | undefined>();
const isShared = (fileName: string) =>
  fileName.includes("/node_modules/") || fileName.startsWith(dirnameOfLib());
let libDir: string | undefined;
function dirnameOfLib(): string {
  return (libDir ??= ts.sys.resolvePath(join(ts.getDefaultLibFilePath({}), "..")));
}

/**
 * Files mcp-gen writes into a project, the same text in every project of a
 * revision. A parsed and bound file is handed to each program that reads
 * that text, under that program's own file name: a program sets a file's
 * name and path when it takes it, and binds a file only once, as a
 * language service shares files between the programs it makes.
 */
const byText = new Map<string, ts.SourceFile>();
// A revision's modules (src/generated/<revision>/) and the runtime: the same in every project. The
// project's own generated files (its tools, its settings) differ, and are not kept.
const isWrittenByMcpGen = (fileName: string) =>
  /\/src\/(generated\/[^/]+\/|mcp-gen\/)/.test(fileName);

/** What parsing depends on besides the text (not the package.json scope, which names the project's folder). */
function parsing(options: ts.ScriptTarget | ts.CreateSourceFileOptions): string {
  if (typeof options !== "object") return String(options);
  return `${options.languageVersion}|${options.impliedNodeFormat}|${options.jsDocParsingMode}`;
}

/** A compiler host that parses declaration files, and the files mcp-gen writes, once. */
function host(options: ts.CompilerOptions): ts.CompilerHost {
  const base = ts.createCompilerHost(options, true);
  // What binding depends on besides the text: the target and strict mode.
  const binding = `${options.target}|${options.strict}|${options.alwaysStrict}`;
  const taken = new Set<string>();
  return {
    ...base,
    getSourceFile(fileName, languageVersion, onError, shouldCreate) {
      if (isShared(fileName)) {
        const key = `${fileName}|${JSON.stringify(languageVersion)}`;
        if (!shared.has(key) || shouldCreate)
          shared.set(key, base.getSourceFile(fileName, languageVersion, onError));
        return shared.get(key);
      }
      if (!isWrittenByMcpGen(fileName))
        return base.getSourceFile(fileName, languageVersion, onError);
      const text = ts.sys.readFile(fileName);
      if (text === undefined) return base.getSourceFile(fileName, languageVersion, onError);
      const key = `${createHash("sha256").update(text).digest("hex")}|${parsing(languageVersion)}|${binding}`;
      // One program takes a file object once: two files of the same text in it are two objects.
      const cached = taken.has(key) ? undefined : byText.get(key);
      taken.add(key);
      if (cached && !shouldCreate) return cached;
      const parsed = ts.createSourceFile(fileName, text, languageVersion, true);
      if (!cached) byText.set(key, parsed);
      return parsed;
    },
  };
}

/** The options generated modules are checked with: --strict, NodeNext, no ambient types. */
export const STRICT: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  types: [],
};

/**
 * Compiles `files` (and what they import) under `--strict` plus `options`;
 * each problem as tsc prints it, none when the files compile. With `outDir`
 * and without `noEmit` in `options`, the JavaScript is written too.
 */
export function strictErrors(
  files: readonly string[],
  options: ts.CompilerOptions = {},
  cwd = process.cwd(),
): string[] {
  const compilerOptions = { ...STRICT, ...options };
  const program = ts.createProgram(files, compilerOptions, host(compilerOptions));
  const emitted = compilerOptions.noEmit ? [] : program.emit().diagnostics;
  return [...ts.getPreEmitDiagnostics(program), ...emitted].map((d) => format(d, cwd));
}

/** What `compileProject` found: tsc's problems, one line each (empty when it compiles). */
export interface ProjectCheck {
  readonly errors: string[];
}

/**
 * Compiles a project folder as `tsc -p <dir>` does, from its tsconfig.json,
 * in this process: with `emit` its JavaScript is written where the
 * tsconfig says, without it nothing is written (`--noEmit`). The project's
 * node_modules must be there (tests link the repository's in).
 */
export function compileProject(dir: string, { emit = false } = {}): ProjectCheck {
  const configPath = join(dir, "tsconfig.json");
  const problems: ts.Diagnostic[] = [];
  const parsed = ts.getParsedCommandLineOfConfigFile(configPath, emit ? {} : { noEmit: true }, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => problems.push(d),
  });
  if (!parsed) return { errors: problems.map((d) => format(d, dir)) };
  const program = ts.createProgram({
    rootNames: parsed.fileNames,
    options: parsed.options,
    projectReferences: parsed.projectReferences ?? [],
    host: host(parsed.options),
  });
  const diagnostics = [...parsed.errors, ...ts.getPreEmitDiagnostics(program)];
  if (emit) {
    diagnostics.push(...program.emit().diagnostics);
    copyGenerated(dir);
  }
  return { errors: diagnostics.map((d) => format(d, dir)) };
}

/**
 * What the project's build does after tsc: its own copy script puts the
 * generated JavaScript tsc does not emit (the tool validators) in dist/.
 */
function copyGenerated(dir: string): void {
  const script = join(dir, "scripts", "copy-generated.mjs");
  if (existsSync(script)) execFileSync(process.execPath, [script], { cwd: dir, stdio: "pipe" });
}
