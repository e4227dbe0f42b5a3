/**
 * `mcp-gen diff <from> <to>`: what changed between two revisions (or
 * folders), each change marked breaking for servers, for clients, or
 * neither. Text for people; `--json` for programs (docs/diff-upgrade.md).
 */
import type { CommandModule } from "yargs";
import { printDiagnostics } from "./output.js";

interface DiffArgs {
  from: string;
  to: string;
  extension: string[];
  json: boolean;
  quiet: boolean;
}

/** The command. */
export const diffCommand: CommandModule<object, DiffArgs> = {
  command: "diff <from> <to>",
  describe:
    "Show what changed between two revisions: methods, notifications, resultType values, error codes, capabilities, definitions",
  builder: (y) =>
    y
      .positional("from", {
        type: "string",
        demandOption: true,
        describe: "A revision (2025-11-25) or a folder with schema.json",
      })
      .positional("to", {
        type: "string",
        demandOption: true,
        describe: "A revision (2026-07-28) or a folder with schema.json",
      })
      .option("extension", {
        type: "string",
        array: true,
        default: [],
        describe:
          "An extension merged into both sides (a known one, a folder or a manifest); repeatable",
      })
      .option("json", {
        type: "boolean",
        default: false,
        describe: "Print the diff as JSON (format 1, see docs/diff-upgrade.md)",
      })
      .option("quiet", {
        type: "boolean",
        default: false,
        describe: "Print no notes about how each side was read",
      })
      .example("$0 diff 2025-11-25 2026-07-28", "what a server or client must adapt to")
      .example("$0 diff 2026-07-28 ./schemas/next --json", "a draft revision, for a program"),
  handler: async (args) => {
    // Loaded here, not at start-up, so --help and usage errors answer at once.
    const { diffRevisions, formatDiff } = await import("../diff/index.js");
    const { diff, diagnostics } = await diffRevisions(args.from, args.to, {
      extensions: args.extension,
    });
    printDiagnostics(diagnostics, args.quiet || args.json);
    process.stdout.write(args.json ? `${JSON.stringify(diff, null, 2)}\n` : formatDiff(diff));
  },
};
