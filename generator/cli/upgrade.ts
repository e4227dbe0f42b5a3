/**
 * `mcp-gen upgrade <revision> [--dry-run]` in a project made by
 * `mcp-gen server` or `mcp-gen client`: shows the diff, regenerates into a temporary copy of
 * the project, runs the project's typecheck there and lists the user's
 * files and handlers that no longer compile, before changing anything;
 * then (without --dry-run) writes the generated files, never the user's.
 */
import type { CommandModule } from "yargs";
import { EXIT, printDiagnostics } from "./output.js";

interface UpgradeArgs {
  revision: string;
  "dry-run": boolean;
  quiet: boolean;
}

/** The command. */
export const upgradeCommand: CommandModule<object, UpgradeArgs> = {
  command: "upgrade <revision>",
  describe:
    "Move the project in the current folder to another revision: diff, typecheck in a copy, then regenerate",
  builder: (y) =>
    y
      .positional("revision", {
        type: "string",
        demandOption: true,
        describe: "A revision (2026-07-28) or a folder with schema.json",
      })
      .option("dry-run", {
        type: "boolean",
        default: false,
        describe: "Show what would change and what would no longer compile; change nothing",
      })
      .option("quiet", {
        type: "boolean",
        default: false,
        describe: "Print no notes about how each revision was read",
      })
      .example("$0 upgrade ../schemas/next --dry-run", "what a draft revision would break"),
  handler: async (args) => {
    // Loaded here, not at start-up, so --help and usage errors answer at once.
    const { applyUpgrade, planUpgrade } = await import("../upgrade/upgrade.js");
    const { formatDiff } = await import("../diff/format-diff.js");
    if (!args.quiet)
      process.stderr.write(`mcp-gen: trying ${args.revision} in a copy of ${process.cwd()}\n`);
    const plan = await planUpgrade(process.cwd(), args.revision);
    printDiagnostics(plan.diagnostics, args.quiet);
    const out = (line = "") => process.stdout.write(`${line}\n`);
    process.stdout.write(formatDiff(plan.diff));
    out();
    out(`Generated files that change (${plan.changes.length})`);
    for (const c of plan.changes) out(`  ${c.path} (${stateWord(c.state)})`);
    out();
    const mine = plan.problems.filter((p) => !p.generated);
    out(
      `${plan.typecheck} in a copy with the new files: ${mine.length === 0 ? "no errors" : `${mine.length} error${mine.length === 1 ? "" : "s"} in your files`}`,
    );
    for (const p of plan.problems)
      out(
        `  ${p.file}:${p.line}:${p.column}${p.handler ? ` in ${p.handler}` : ""}: ${p.code} ${p.message}`,
      );
    out();
    if (args["dry-run"]) out("Dry run: nothing was changed.");
    else {
      applyUpgrade(plan);
      out(
        `Upgraded to ${plan.toRevision}: wrote the generated files and mcp-gen.json; your files were not changed${mine.length > 0 ? " (fix the errors above)" : ""}.`,
      );
    }
    if (mine.length > 0) process.exitCode = EXIT.checkFailed;
  },
};

function stateWord(state: "stale" | "missing" | "extra"): string {
  return state === "stale" ? "changed" : state === "missing" ? "new" : "removed";
}
