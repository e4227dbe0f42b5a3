/**
 * `mcp-gen generate`: regenerate a revision's TypeScript into a folder, or
 * (`--check`) regenerate in memory and fail if anything differs.
 *
 * With --spec and --out it generates that one folder. Without them it
 * reads mcp-gen.json (the current folder's or the nearest parent's, or
 * --config): every target it lists, and in a project made by
 * `mcp-gen server` or `mcp-gen client` the project's own generated files. `--watch` runs
 * again whenever an input changes.
 */
import { join, relative } from "node:path";
import type { CommandModule } from "yargs";
import type { Config } from "../config/config.js";
import type { ProjectOutcome } from "../config/generate-config.js";
import type { ServerDrift } from "../config/server-drift.js";
import { diagnostic } from "../diagnostics.js";
import { removedToolLine } from "../project/regenerate.js";
import { closeOnSignal, EXIT, printDiagnostics, reportError } from "./output.js";

interface GenerateArgs {
  spec?: string;
  extension: string[];
  out?: string;
  target: "typescript" | "python";
  config?: string;
  check: boolean;
  force: boolean;
  watch: boolean;
  quiet: boolean;
}

/** The command. */
export const generateCommand: CommandModule<object, GenerateArgs> = {
  command: "generate",
  describe: "Generate types, validators, result-type unions, error codes and method tables",
  builder: (y) =>
    y
      .option("spec", {
        type: "string",
        requiresArg: true,
        describe:
          "A revision (e.g. 2026-07-28) or a folder with schema.json (and optionally schema.ts); leave out, with --out, to generate what mcp-gen.json lists",
      })
      .option("extension", {
        type: "string",
        array: true,
        default: [],
        describe:
          "An extension to merge: a known one (tasks), a folder with mcp-extension.json, or a manifest file; repeatable",
      })
      .option("out", { type: "string", requiresArg: true, describe: "Output folder" })
      .option("target", {
        choices: ["typescript", "python"] as const,
        default: "typescript" as const,
        describe:
          "The language to write with --spec and --out: TypeScript modules, or a Python package of pydantic models (pip install <out>)",
      })
      .option("config", {
        type: "string",
        requiresArg: true,
        describe:
          "The mcp-gen.json to read (default: the one in the current folder or the nearest parent)",
      })
      .option("check", {
        type: "boolean",
        default: false,
        describe:
          "Regenerate in memory; exit 1 naming each file that differs (in a client made --from-server, also when the server's tools changed, with the tool diff)",
      })
      .option("force", {
        type: "boolean",
        default: false,
        describe: "Replace --out even if it holds files mcp-gen did not write",
      })
      .option("watch", {
        type: "boolean",
        default: false,
        describe:
          "Generate, then again whenever a spec folder, an extension, a tools file or mcp-gen.json changes (Ctrl-C to stop)",
      })
      .option("quiet", {
        type: "boolean",
        default: false,
        describe:
          "Print only warnings and errors: no progress line, no notes (applied patches, what could not be known)",
      })
      .example("$0 generate --spec 2026-07-28 --out src/mcp", "write src/mcp/*.gen.ts")
      .example(
        "$0 generate --spec 2026-07-28 --out src/mcp --check",
        "fail in CI when src/mcp is stale",
      )
      .example(
        "$0 generate --spec 2026-07-28 --extension tasks --out src/mcp",
        "with the official Tasks extension",
      )
      .example(
        "$0 generate --spec 2026-07-28 --target python --out mcp-py",
        "a Python package: mcp-py/pyproject.toml and mcp-py/mcp_gen_2026_07_28/",
      )
      .example(
        "$0 generate",
        "every target of mcp-gen.json (and, in a project made by mcp-gen server or client, src/generated and src/mcp-gen)",
      )
      .example("$0 generate --watch", "the same, and again on every change")
      .check(consistent),
  handler: async (args) => {
    if (args.watch) return watch(args);
    await generateOnce(args);
  },
};

/** One run, as the arguments say: the flags' folder, or the configuration's. */
async function generateOnce(args: GenerateArgs): Promise<void> {
  if (args.spec !== undefined && args.out !== undefined)
    return generateFolder({ ...args, spec: args.spec, out: args.out });
  await generateFromConfig(args, await loadConfiguration(args));
}

async function generateFolder(args: GenerateArgs & { spec: string; out: string }): Promise<void> {
  if (!args.quiet) process.stderr.write(`mcp-gen: generating ${args.spec}\n`);
  // Loaded here, not at start-up, so --help and usage errors answer at once.
  const { checkingSources, checkOutput, generateFiles, staleFileDiagnostics, writeOutput } =
    await import("../index.js");
  const result = await generateFiles({
    spec: args.spec,
    extensions: args.extension,
    out: args.out,
    target: args.target,
    ...(args.check ? { sources: checkingSources() } : {}),
  });
  printDiagnostics(result.diagnostics, args.quiet);
  if (args.check) {
    const stale = checkOutput(args.out, result.files);
    if (stale.length > 0) {
      printDiagnostics(staleFileDiagnostics(args.out, stale));
      process.stdout.write(
        `${args.out} is stale: ${stale.length} of its files differ from a fresh generation\n`,
      );
      process.exitCode = EXIT.checkFailed;
      return;
    }
    process.stdout.write(`${args.out} is up to date (${result.files.length} files)\n`);
    return;
  }
  printDiagnostics(writeOutput(args.out, result.files, { force: args.force }), args.quiet);
  process.stdout.write(`wrote ${result.files.length} files to ${args.out}\n`);
}

async function loadConfiguration(args: GenerateArgs): Promise<Config> {
  const { loadConfig, readConfig } = await import("../config/config.js");
  return args.config !== undefined ? readConfig(args.config) : loadConfig(process.cwd());
}

/** Every target of the configuration, and the project's own files in a project. */
async function generateFromConfig(args: GenerateArgs, config: Config): Promise<void> {
  const { generateConfig, configRegenerateHint } = await import("../config/generate-config.js");
  const { staleFileDiagnostics } = await import("../write/write-output.js");
  const { formatToolDiff } = await import("../diff/tools/format.js");
  if (!args.quiet)
    process.stderr.write(
      config.project
        ? `mcp-gen: regenerating the project in ${config.dir}\n`
        : `mcp-gen: generating from ${shown(config.file)}\n`,
    );
  const outcome = await generateConfig(config, { check: args.check, force: args.force });
  let stale = 0;
  for (const { target, files, diagnostics, stale: differing } of outcome.targets) {
    printDiagnostics(diagnostics, args.quiet);
    const out = shown(target.out);
    if (!differing) process.stdout.write(`wrote ${files.length} files to ${out}\n`);
    else if (differing.length === 0)
      process.stdout.write(`${out} is up to date (${files.length} files)\n`);
    else {
      stale += differing.length;
      printDiagnostics(staleFileDiagnostics(out, differing, configRegenerateHint(config)));
      process.stdout.write(
        `${out} is stale: ${differing.length} of its files differ from a fresh generation\n`,
      );
    }
  }
  if (outcome.project) stale += reportProject(outcome.project, config, args.quiet, formatToolDiff);
  if (stale > 0) process.exitCode = EXIT.checkFailed;
}

/** Prints what became of a project's own generated files; returns how many are stale. */
function reportProject(
  project: ProjectOutcome,
  config: Config,
  quiet: boolean,
  formatToolDiff: (diff: ServerDrift["diff"]) => string,
): number {
  const { files, stale, stubs } = project;
  printDiagnostics(project.diagnostics, quiet);
  const drifted = project.drift
    ? reportDrift(project.drift, stale !== undefined, formatToolDiff)
    : 0;
  if (!stale) {
    process.stdout.write(`regenerated ${files.length} files in src/generated and src/mcp-gen\n`);
    // Stubs are written only by a regeneration that writes, never by --check.
    for (const stub of stubs)
      process.stdout.write(
        `new tool: wrote its handler stub to ${stub}; add it to the handlers in src/tools.ts\n`,
      );
    for (const name of project.removed) process.stdout.write(`${removedToolLine(name)}\n`);
    for (const path of project.build ?? [])
      process.stdout.write(
        `build: ${path === "package.json" ? "added the copy of src/generated's JavaScript to dist/ to package.json's build scripts" : `wrote ${path}, which copies src/generated's JavaScript to dist/ after tsc`}\n`,
      );
    return 0;
  }
  if (stale.length === 0 && drifted === 0) {
    process.stdout.write(`the project is up to date (${files.length} generated files)\n`);
    return 0;
  }
  if (stale.length === 0) return drifted;
  // The catalog's fix names this repository's npm script; in a project the command is mcp-gen generate itself.
  printDiagnostics(
    stale.map((s) => {
      const path = join(shown(config.dir), s.path);
      return {
        ...diagnostic("MCPG503", { file: path, state: s.state }, { file: path }),
        fix: "run npm run regenerate in the project folder",
      };
    }),
  );
  process.stdout.write(`the project is stale: ${stale.length} generated files differ\n`);
  return stale.length + drifted;
}

/**
 * The tool diff of a client made with --from-server against its server
 * now; returns how many changes count as stale (all of them, for --check).
 */
function reportDrift(
  drift: ServerDrift,
  checking: boolean,
  formatToolDiff: (diff: ServerDrift["diff"]) => string,
): number {
  const { changes } = drift.diff;
  if (changes.length === 0) {
    process.stdout.write(`the tools of ${drift.server} are those of tools.json\n`);
    return 0;
  }
  process.stdout.write(formatToolDiff(drift.diff));
  process.stdout.write(
    checking
      ? `the server's tools changed: ${changes.length} change${changes.length === 1 ? "" : "s"} against tools.json; run npm run regenerate to follow them\n`
      : `tools.json now holds the server's tools (${changes.length} change${changes.length === 1 ? "" : "s"}); the typed wrappers follow them: run npm run typecheck to find the calls they break\n`,
  );
  return checking ? changes.length : 0;
}

/** A path as the user would type it from here. */
function shown(path: string): string {
  return relative(process.cwd(), path) || ".";
}

/**
 * Runs, then again after every change of an input, until SIGINT or
 * SIGTERM (exit 0). A failed run is printed like any other and the
 * watching goes on.
 */
async function watch(args: GenerateArgs): Promise<void> {
  const { watchInputs, inputsOfFlags, inputsOfConfig } = await import("../config/watch.js");
  const { findConfig, readConfig } = await import("../config/config.js");
  const flags = args.spec !== undefined && args.out !== undefined;
  const configFile = flags ? undefined : (args.config ?? findConfig(process.cwd()));
  if (!flags && configFile === undefined) await loadConfiguration(args); // throws MCPG802
  let config: Config | undefined;
  const handle = watchInputs({
    run: async () => {
      process.exitCode = undefined;
      if (flags) return generateFolder({ ...args, spec: args.spec!, out: args.out! });
      config = readConfig(configFile!);
      await generateFromConfig(args, config);
    },
    inputs: () =>
      flags
        ? inputsOfFlags(args.spec!, args.extension)
        : [configFile!, ...(config ? inputsOfConfig(config) : [])],
    onError: (error) => {
      process.exitCode = undefined;
      reportError(error);
    },
    onWatching: (paths) => {
      if (!args.quiet)
        process.stderr.write(
          `mcp-gen: watching ${paths.length} input${paths.length === 1 ? "" : "s"} for changes (Ctrl-C to stop)\n`,
        );
    },
  });
  await closeOnSignal(handle);
  process.exitCode = EXIT.ok;
}

/**
 * Flags that go together: --spec and --out each name one thing (a
 * repeated one reaches yargs as an array; an empty --out would mean the
 * current folder), come together, and do not mix with --config; --extension
 * belongs to --spec; --watch does not check.
 */
function consistent(args: {
  spec?: unknown;
  out?: unknown;
  config?: unknown;
  extension?: unknown;
  check?: unknown;
  watch?: unknown;
  target?: unknown;
}): true | string {
  for (const name of ["spec", "out", "config"] as const) {
    const value = args[name];
    if (Array.isArray(value)) return `--${name} was given ${value.length} times; give it once`;
    if (value === "") return `--${name} needs a value`;
  }
  const hasSpec = args.spec !== undefined;
  const hasOut = args.out !== undefined;
  if (hasSpec !== hasOut)
    return `--${hasSpec ? "out" : "spec"} is required with --${hasSpec ? "spec" : "out"} (leave out both to generate what mcp-gen.json lists)`;
  if (hasSpec && args.config !== undefined)
    return "--config names the settings of a run without --spec and --out; give one or the other";
  if (!hasSpec && Array.isArray(args.extension) && args.extension.length > 0)
    return "--extension goes with --spec and --out (in mcp-gen.json, a target lists its extensions)";
  if (args.target === "python" && !hasSpec)
    return "--target python goes with --spec and --out (mcp-gen.json's targets are TypeScript)";
  if (args.check === true && args.watch === true)
    return "--check and --watch do not go together: --check is for CI, --watch for editing";
  return true;
}
