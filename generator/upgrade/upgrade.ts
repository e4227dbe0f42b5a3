/**
 * `mcp-gen upgrade <revision>` in a project made by `mcp-gen server` or `mcp-gen client`: what
 * moving the project to another revision changes, tried before anything
 * changes.
 *
 * 1. the diff between the project's revision and the new one, with the
 *    project's extensions;
 * 2. the project's generated files for the new revision, written into a
 *    temporary copy of the project (its node_modules linked, not copied);
 * 3. the project's own typecheck (its `typecheck` script) run in that copy;
 *    every error is listed with the file, the handler it is in, and why;
 * 4. the project's own tests (its `test` script) run in that copy; every
 *    failing test is listed with its message;
 * 5. the messages the runtime builds itself, validated against the target
 *    revision (runtime-check.ts).
 *
 * {@link applyUpgrade} then records the revision in mcp-gen.json and writes
 * the generated files into the project, unless the runtime cannot serve
 * the revision or a test fails (then only `force` goes past, and the
 * result says what it skipped). The user's files are never written: what
 * no longer compiles is theirs to fix, and the plan says where.
 */
import { execFile } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { basename, isAbsolute, join, relative, resolve, sep } from "node:path";
import type * as morph from "ts-morph";
import { resolveExtensionReference, resolveSpecReference } from "../load/references.js";
import { diagnostic, McpGenError, type Diagnostic } from "../diagnostics.js";
import { diffModels, type ModelDiff } from "../diff/diff.js";
import type { EmittedFile } from "../emit/file.js";
import { loadModelOrCommitted } from "../index.js";
import type { SchemaSources } from "../load/resolve-spec.js";
import { readToolsFile } from "../load/tools-file.js";
import { planProject, type ProjectPlan } from "../project/index.js";
import { readSettings, SETTINGS_FILE, type ProjectSettings } from "../project/settings.js";
import { assertCanWrite, type StaleFile } from "../write/write-output.js";
import {
  checkGeneratedFolders,
  writeGeneratedFolders,
  type GeneratedGroup,
} from "../write/write-project.js";
import { checkRuntimeMessages, type RuntimeCheck } from "./runtime-check.js";
import { runProjectTests, type TestRun } from "./project-tests.js";

export type { RuntimeCheck, RuntimeProblem } from "./runtime-check.js";
export type { FailedTest, TestRun } from "./project-tests.js";

/** Options of {@link planUpgrade}. */
export interface UpgradeOptions {
  /** Where revisions come from (default: the environment). */
  readonly sources?: SchemaSources;
  /** Run the project's tests in the copy (default true). */
  readonly tests?: boolean;
}

/** An error the project's typecheck reported in the copy. */
export interface CompileProblem {
  /** Relative to the project, with `/`. */
  readonly file: string;
  readonly line: number;
  readonly column: number;
  /** The TypeScript error code, e.g. `TS2322`. */
  readonly code: string;
  /** tsc's message, its continuation lines joined. */
  readonly message: string;
  /** The handler the error is in, as a path of names (`tools.echo`); undefined outside any named one. */
  readonly handler?: string;
  /** True for a file mcp-gen generates (src/generated, src/mcp-gen): mcp-gen's problem, not the user's. */
  readonly generated: boolean;
}

/** What an upgrade would do, found without changing the project. */
export interface UpgradePlan {
  readonly projectDir: string;
  /** The revision as mcp-gen.json records it, before and after. */
  readonly fromRevision: string;
  readonly toRevision: string;
  readonly diff: ModelDiff;
  /** The project's generated files for the new revision, paths relative to the project. */
  readonly files: readonly EmittedFile[];
  /** The same files by the generated folder they go in. */
  readonly groups: readonly GeneratedGroup[];
  /** The generated files that change (stale), appear (missing) or go (extra). */
  readonly changes: readonly StaleFile[];
  /** The typecheck that ran in the copy, e.g. `npm run typecheck`. */
  readonly typecheck: string;
  /** Every error it reported. */
  readonly problems: readonly CompileProblem[];
  /** The project's tests in the copy (undefined when not run). */
  readonly tests?: TestRun;
  /** The runtime's own messages against the target revision. */
  readonly runtime: RuntimeCheck;
  /** Notes and warnings of loading both revisions, and of the project's tools check. */
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * Finds what upgrading the project at `projectDir` to `revision` (a known
 * revision, or a folder holding schema.json, relative to the current
 * folder) does, without changing the project.
 */
export async function planUpgrade(
  projectDir: string,
  revision: string,
  options: UpgradeOptions = {},
): Promise<UpgradePlan> {
  const dir = resolve(projectDir);
  const settings = projectSettings(dir);
  const toRevision = recordedRevision(revision, dir);
  const next: ProjectSettings = { ...settings, revision: toRevision };
  // The project's files first: what its settings or tools break is said before any revision is compared.
  const project = await planProject({
    dir,
    settings: next,
    tools: { text: readToolsFile(join(dir, settings.tools), settings.tools), file: settings.tools },
    ...(options.sources ? { sources: options.sources } : {}),
  });
  const extensions = settings.extensions.map((e) => resolveExtensionReference(e, dir));
  const sources = options.sources ? { sources: options.sources } : {};
  const before = await loadModelOrCommitted({
    spec: resolveSpecReference(settings.revision, dir),
    extensions,
    ...sources,
  });
  const after = await loadModelOrCommitted({
    spec: resolveSpecReference(toRevision, dir),
    extensions,
    ...sources,
  });
  const diff = diffModels(before.model, after.model, settings.revision, toRevision);
  const runtime = await checkRuntimeMessages(after.model);
  const changes = checkGeneratedFolders(dir, project.groups);
  const { command, problems, tests } = await checkInCopy(dir, project, options.tests ?? true);
  return {
    projectDir: dir,
    fromRevision: settings.revision,
    toRevision,
    diff,
    files: project.files,
    groups: project.groups,
    changes,
    typecheck: command,
    problems,
    ...(tests ? { tests } : {}),
    runtime,
    diagnostics: [...before.diagnostics, ...after.diagnostics, ...project.diagnostics],
  };
}

/**
 * Applies a plan: records the new revision in mcp-gen.json and writes the
 * generated files into the project. Refuses when the generated files
 * themselves do not compile (MCPG807). Everything that would refuse a
 * write is checked first; the user's files are never written. Should it
 * be stopped between the two steps, `mcp-gen generate` completes it.
 */
export function applyUpgrade(plan: UpgradePlan, options: { force?: boolean } = {}): string[] {
  const skipped = refusals(plan);
  if (skipped.length > 0 && options.force !== true)
    throw new McpGenError(skipped.map((r) => r.diagnostic));
  const broken = plan.problems.filter((p) => p.generated);
  if (broken.length > 0)
    throw new McpGenError([
      diagnostic("MCPG807", {
        revision: plan.toRevision,
        problems: broken.map((p) => `${p.file}:${p.line}:${p.column} ${p.code} ${p.message}`),
      }),
    ]);
  for (const g of plan.groups) assertCanWrite(join(plan.projectDir, g.sub), g.files);
  recordRevision(plan.projectDir, plan.toRevision);
  writeGeneratedFolders(plan.projectDir, plan.groups);
  return skipped.map((r) => r.skipped);
}

/** What stops an upgrade unless forced: each with its diagnostic and what forcing it skips. */
export function refusals(plan: UpgradePlan): Array<{ diagnostic: Diagnostic; skipped: string }> {
  const out: Array<{ diagnostic: Diagnostic; skipped: string }> = [];
  const runtime = plan.runtime.problems.map((p) =>
    p.field === ""
      ? `the ${p.message}: ${p.reason}`
      : `the ${p.message} misses ${p.requiredBy ?? p.field} (${p.definition} at ${p.field})`,
  );
  if (runtime.length > 0)
    out.push({
      diagnostic: diagnostic("MCPG808", { revision: plan.toRevision, problems: runtime }),
      skipped: `the runtime check (${runtime.length} message${runtime.length === 1 ? "" : "s"} the target revision refuses)`,
    });
  const failures = plan.tests?.failures ?? [];
  if (plan.tests && (failures.length > 0 || plan.tests.exitCode !== 0)) {
    const listed =
      failures.length > 0
        ? failures.map((f) => `${f.file ? `${f.file} > ` : ""}${f.name}: ${f.message}`)
        : [`exit code ${plan.tests.exitCode}`];
    out.push({
      diagnostic: diagnostic("MCPG809", { command: plan.tests.command, failures: listed }),
      skipped: `${plan.tests.command} (${failures.length > 0 ? `${failures.length} failing test${failures.length === 1 ? "" : "s"}` : `exit code ${plan.tests.exitCode}`})`,
    });
  }
  return out;
}

/**
 * The settings of a project made by `mcp-gen server` or `mcp-gen client`
 * (MCPG805 for anything else): the CLI asks before it prints anything.
 */
export function projectSettings(dir: string): ProjectSettings {
  if (!existsSync(join(dir, SETTINGS_FILE)))
    throw new McpGenError([diagnostic("MCPG805", { dir, command: "upgrade" }, { file: dir })]);
  const settings = readSettings(dir);
  if (settings.kind !== "server" && settings.kind !== "client")
    throw new McpGenError([
      diagnostic("MCPG805", { dir, command: "upgrade" }, { file: join(dir, SETTINGS_FILE) }),
    ]);
  return settings;
}

/** How mcp-gen.json records the new revision: a name as is, a folder relative to the project. */
function recordedRevision(revision: string, dir: string): string {
  const resolved = resolveSpecReference(revision, process.cwd());
  // A folder resolves to an absolute path (even one given absolute); a name stays a name.
  return isAbsolute(resolved) ? relative(dir, resolved).split(sep).join("/") || "." : revision;
}

/** Sets `revision` in mcp-gen.json, keeping every other setting; written to a temporary file and renamed. */
function recordRevision(dir: string, revision: string, file = join(dir, SETTINGS_FILE)): void {
  const value = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
  value.revision = revision;
  const temporary = `${file}.mcp-gen-tmp-${process.pid}`;
  writeFileSync(temporary, `${JSON.stringify(value, null, 2)}\n`);
  renameSync(temporary, file);
}

// ---------------------------------------------------------------------------
// The typecheck in a copy

/**
 * Copies the project (without node_modules, .git and dist; node_modules is
 * linked), writes the new generated files and revision into the copy, runs
 * the project's typecheck and tests there, and removes the copy.
 */
async function checkInCopy(
  dir: string,
  project: ProjectPlan,
  withTests: boolean,
): Promise<{ command: string; problems: CompileProblem[]; tests?: TestRun }> {
  const command = typecheckCommand(dir);
  const copy = mkdtempSync(join(tmpdir(), "mcp-gen-upgrade-"));
  try {
    const copied = join(copy, basename(dir));
    cpSync(dir, copied, {
      recursive: true,
      filter: (source) => source === dir || !/^(node_modules|\.git|dist)$/.test(basename(source)),
    });
    symlinkSync(join(dir, "node_modules"), join(copied, "node_modules"), "dir");
    writeGeneratedFolders(copied, project.groups, { force: true });
    recordRevision(copied, project.settings.revision);
    const output = await run(command.argv, copied);
    const problems = parseTscOutput(output, copied);
    const tests = withTests ? await runProjectTests(copied, copy) : undefined;
    return { command: command.shown, problems, ...(tests ? { tests } : {}) };
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

/** The project's typecheck: its `typecheck` script when it has one, else its own tsc. */
function typecheckCommand(dir: string): { argv: string[]; shown: string } {
  if (!existsSync(join(dir, "node_modules", "typescript")))
    throw new McpGenError([diagnostic("MCPG806", { dir }, { file: dir })]);
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
    scripts?: Record<string, string>;
  };
  const tsc = join("node_modules", "typescript", "bin", "tsc");
  if (pkg.scripts?.typecheck === "tsc --noEmit -p .")
    return {
      argv: [process.execPath, tsc, "--noEmit", "-p", ".", "--pretty", "false"],
      shown: "npm run typecheck",
    };
  if (pkg.scripts?.typecheck)
    return { argv: ["npm", "run", "--silent", "typecheck"], shown: "npm run typecheck" };
  return {
    argv: [process.execPath, tsc, "--noEmit", "-p", ".", "--pretty", "false"],
    shown: "tsc --noEmit -p .",
  };
}

/**
 * The environment without FORCE_COLOR (tsc prints its colored, unparseable
 * form whenever the variable is set, even to 0) and with NO_COLOR, for a
 * typecheck script that is not plain tsc.
 */
function plainOutputEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1" };
  delete env.FORCE_COLOR;
  return env;
}

function run(argv: readonly string[], cwd: string): Promise<string> {
  return new Promise((done) => {
    execFile(
      argv[0]!,
      argv.slice(1),
      { cwd, maxBuffer: 64 * 1024 * 1024, env: plainOutputEnvironment() },
      (_error, stdout, stderr) => done(`${stdout}${stderr}`),
    );
  });
}

/**
 * tsc's errors (`src/tools.ts(12,5): error TS2322: ...`, continued on
 * indented lines), with the handler each one is in.
 */
export function parseTscOutput(output: string, project: string): CompileProblem[] {
  const problems: Array<Omit<CompileProblem, "handler">> = [];
  for (const line of output.split("\n")) {
    const match = /^(.+?)\((\d+),(\d+)\): error (TS\d+): (.*)$/.exec(line);
    if (match) {
      const file = match[1]!.split(sep).join("/");
      problems.push({
        file,
        line: Number(match[2]),
        column: Number(match[3]),
        code: match[4]!,
        message: match[5]!,
        generated: /^src\/(generated|mcp-gen)\//.test(file),
      });
    } else if (/^\s+\S/.test(line) && problems.length > 0) {
      const last = problems[problems.length - 1]!;
      problems[problems.length - 1] = { ...last, message: `${last.message} ${line.trim()}` };
    }
  }
  return problems.map((p) => {
    const handler = p.generated ? undefined : handlerAt(join(project, p.file), p.line, p.column);
    return handler ? { ...p, handler } : p;
  });
}

let ts: typeof morph.ts | undefined;

/**
 * The names around a position, outermost first (`tools.echo` for an error
 * inside `export const tools = { echo: ... }`): variables, functions,
 * classes, methods and object properties.
 */
function handlerAt(file: string, line: number, column: number): string | undefined {
  if (!existsSync(file)) return undefined;
  // ts-morph bundles the compiler; loaded only when there is an error to place.
  ts ??= (createRequire(import.meta.url)("ts-morph") as typeof morph).ts;
  const compiler = ts;
  const source = compiler.createSourceFile(
    file,
    readFileSync(file, "utf8"),
    compiler.ScriptTarget.Latest,
    true,
  );
  const position = source.getPositionOfLineAndCharacter(line - 1, column - 1);
  const names: string[] = [];
  const visit = (node: morph.ts.Node): void => {
    if (position < node.getStart(source) || position >= node.getEnd()) return;
    const name = nameOf(compiler, node);
    if (name) names.push(name);
    compiler.forEachChild(node, visit);
  };
  visit(source);
  return names.length > 0 ? names.join(".") : undefined;
}

function nameOf(t: typeof morph.ts, node: morph.ts.Node): string | undefined {
  if (
    t.isVariableDeclaration(node) ||
    t.isFunctionDeclaration(node) ||
    t.isClassDeclaration(node) ||
    t.isMethodDeclaration(node) ||
    t.isPropertyAssignment(node) ||
    t.isPropertyDeclaration(node)
  ) {
    const name = node.name;
    if (!name) return undefined;
    if (t.isIdentifier(name) || t.isStringLiteral(name) || t.isPrivateIdentifier(name))
      return name.text;
  }
  return undefined;
}
