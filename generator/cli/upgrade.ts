/**
 * `mcp-gen upgrade <revision> [--dry-run]` in a project made by
 * `mcp-gen server` or `mcp-gen client`: shows the diff, regenerates into a temporary copy of
 * the project, runs the project's typecheck and tests there, lists the
 * user's files and handlers that no longer compile and the tests that
 * fail, and checks the runtime's own messages against the revision, before
 * changing anything; then (without --dry-run) writes the generated files,
 * never the user's. A failing test or a runtime that cannot serve the
 * revision stops it unless --force.
 */
import type { CommandModule } from "yargs";
import { EXIT, printDiagnostics } from "./output.js";

interface UpgradeArgs {
  revision: string;
  "dry-run": boolean;
  force: boolean;
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
      .option("force", {
        type: "boolean",
        default: false,
        describe:
          "Upgrade even when the project's tests fail in the copy or the runtime cannot serve the revision; says what it skipped",
      })
      .option("quiet", {
        type: "boolean",
        default: false,
        describe: "Print no notes about how each revision was read",
      })
      .example("$0 upgrade ../schemas/next --dry-run", "what a draft revision would break"),
  handler: async (args) => {
    // Loaded here, not at start-up, so --help and usage errors answer at once.
    const { applyUpgrade, planUpgrade, projectSettings, refusals } =
      await import("../upgrade/upgrade.js");
    const { formatDiff } = await import("../diff/format-diff.js");
    // Outside a project, the refusal is the first and only thing printed.
    projectSettings(process.cwd());
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
    printTests(plan, out);
    printRuntime(plan, out);
    const refused = refusals(plan);
    if (args["dry-run"]) out("Dry run: nothing was changed.");
    else if (refused.length > 0 && !args.force) {
      printDiagnostics(refused.map((r) => r.diagnostic));
      out(`Not upgraded: nothing was changed (--force upgrades anyway).`);
    } else {
      const skipped = applyUpgrade(plan, { force: args.force });
      for (const s of skipped) out(`--force: upgraded despite ${s}.`);
      out(
        `Upgraded to ${plan.toRevision}: wrote the generated files and mcp-gen.json; your files were not changed${mine.length > 0 ? " (fix the errors above)" : ""}.`,
      );
    }
    if (mine.length > 0 || refused.length > 0) process.exitCode = EXIT.checkFailed;
  },
};

type Plan = Awaited<ReturnType<typeof import("../upgrade/upgrade.js").planUpgrade>>;

/** The project's tests in the copy: each failing one with its file and message. */
function printTests(plan: Plan, out: (line?: string) => void): void {
  const tests = plan.tests;
  if (!tests) {
    out("Tests: the project has no test script; none were run");
    out();
    return;
  }
  const failed = tests.failures.length;
  out(
    failed === 0 && tests.exitCode === 0
      ? `${tests.command} in the copy: ${tests.passed} passed`
      : `${tests.command} in the copy: ${failed > 0 ? `${failed} failed` : `exit code ${tests.exitCode}`}${tests.passed > 0 ? `, ${tests.passed} passed` : ""}`,
  );
  for (const f of tests.failures) out(`  ${f.file ? `${f.file} > ` : ""}${f.name}: ${f.message}`);
  out();
}

/** The runtime's own messages against the target revision: each refused field with its message. */
function printRuntime(plan: Plan, out: (line?: string) => void): void {
  const { checked, skipped, problems } = plan.runtime;
  out(
    problems.length === 0
      ? `Runtime messages against ${plan.toRevision}: ${checked.length} checked, all valid`
      : `Runtime messages against ${plan.toRevision}: ${problems.length} problem${problems.length === 1 ? "" : "s"}; the runtime cannot serve this revision`,
  );
  for (const p of problems)
    out(
      p.field === ""
        ? `  ${p.message}: ${p.reason}`
        : `  ${p.message}: ${p.requiredBy ?? p.field} missing at ${p.field} (${p.definition}): ${p.reason}`,
    );
  if (skipped.length > 0)
    out(`  of extensions the project does not have, so not checked: ${skipped.join(", ")}`);
  out();
}

function stateWord(state: "stale" | "missing" | "extra"): string {
  return state === "stale" ? "changed" : state === "missing" ? "new" : "removed";
}
