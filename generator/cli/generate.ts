/**
 * `mcp-gen generate`: regenerate a revision's TypeScript into a folder, or
 * (`--check`) regenerate in memory and fail if anything differs. Without
 * --spec and --out, in a folder made by `mcp-gen server`, it regenerates
 * that project's generated files from its mcp-gen.json.
 */
import type { CommandModule } from "yargs";
import { existsSync } from "node:fs";
import { EXIT, printDiagnostics, usage } from "./output.js";

interface GenerateArgs {
  spec?: string;
  extension: string[];
  out?: string;
  check: boolean;
  force: boolean;
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
          "A revision (e.g. 2026-07-28) or a folder with schema.json (and optionally schema.ts); leave out, with --out, in a project made by mcp-gen server",
      })
      .option("extension", {
        type: "string",
        array: true,
        default: [],
        describe:
          "An extension to merge: a known one (tasks), a folder with mcp-extension.json, or a manifest file; repeatable",
      })
      .option("out", { type: "string", requiresArg: true, describe: "Output folder" })
      .option("check", {
        type: "boolean",
        default: false,
        describe: "Regenerate in memory; exit 1 naming each file that differs",
      })
      .option("force", {
        type: "boolean",
        default: false,
        describe: "Replace --out even if it holds files mcp-gen did not write",
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
        "$0 generate",
        "in a project made by mcp-gen server: regenerate src/generated and src/mcp-gen",
      )
      .check(oneValueEach),
  handler: async (args) => {
    if (args.spec === undefined && args.out === undefined) return regenerateHere(args);
    if (args.spec === undefined || args.out === undefined)
      throw usage(
        `--${args.spec === undefined ? "spec" : "out"} is required with --${args.spec === undefined ? "out" : "spec"} (leave out both in a project made by mcp-gen server)`,
      );
    if (!args.quiet) process.stderr.write(`mcp-gen: generating ${args.spec}\n`);
    // Loaded here, not at start-up, so --help and usage errors answer at once.
    const { checkOutput, generateFiles, staleFileDiagnostics, writeOutput } =
      await import("../index.js");
    const result = await generateFiles({
      spec: args.spec,
      extensions: args.extension,
      out: args.out,
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
  },
};

/** Regenerates the project in the current folder (its mcp-gen.json says how). */
async function regenerateHere(args: GenerateArgs): Promise<void> {
  if (!existsSync("mcp-gen.json"))
    throw usage(
      "--spec and --out are required (or run it in a project made by mcp-gen server, which has an mcp-gen.json)",
    );
  if (!args.quiet) process.stderr.write(`mcp-gen: regenerating the project in ${process.cwd()}\n`);
  const { regenerateProject } = await import("../scaffold/scaffold.js");
  const { staleFileDiagnostics } = await import("../write/write-output.js");
  const { files, stale } = await regenerateProject(process.cwd(), { check: args.check });
  if (args.check && stale.length > 0) {
    // The catalog's fix names this repository's npm script; in a project the command is mcp-gen generate itself.
    printDiagnostics(
      staleFileDiagnostics(".", stale).map((d) => ({
        ...d,
        fix: "run npx mcp-gen generate in the project folder",
      })),
    );
    process.stdout.write(`the project is stale: ${stale.length} generated files differ\n`);
    process.exitCode = EXIT.checkFailed;
    return;
  }
  process.stdout.write(
    args.check
      ? `the project is up to date (${files.length} generated files)\n`
      : `regenerated ${files.length} files in src/generated and src/mcp-gen\n`,
  );
}

/**
 * `--spec` and `--out` each name one thing. An empty `--out` would mean the
 * current folder, and a repeated one reaches yargs as an array.
 */
function oneValueEach(args: { spec?: unknown; out?: unknown }): true | string {
  for (const name of ["spec", "out"] as const) {
    const value = args[name];
    if (Array.isArray(value)) return `--${name} was given ${value.length} times; give it once`;
    if (value === "") return `--${name} needs a value`;
  }
  return true;
}
