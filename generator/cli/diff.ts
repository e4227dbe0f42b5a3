/**
 * `mcp-gen diff <from> <to>`: what changed between two revisions (or
 * folders), each change marked breaking for servers, for clients, or
 * neither. With `--tools`, the sides are two tool lists instead (files,
 * tools/list snapshots or live servers), and `--fail-on` turns the diff
 * into a CI gate. Text for people; `--json` for programs
 * (docs/diff-upgrade.md).
 */
import { existsSync, statSync } from "node:fs";
import type { CommandModule } from "yargs";
import { FAIL_ON } from "../diff/tools/fail-on.js";
import { EXIT, printDiagnostics, usage } from "./output.js";

interface DiffArgs {
  from: string;
  to: string;
  extension: string[];
  tools: boolean;
  "fail-on"?: (typeof FAIL_ON)[number];
  json: boolean;
  quiet: boolean;
}

/** The command. */
export const diffCommand: CommandModule<object, DiffArgs> = {
  command: "diff <from> <to>",
  describe:
    "Show what changed between two revisions (methods, notifications, resultType values, error codes, capabilities, definitions), or with --tools between two tool lists",
  builder: (y) =>
    y
      .positional("from", {
        type: "string",
        demandOption: true,
        describe:
          "A revision (2025-11-25) or a folder with schema.json; with --tools, the old tool list",
      })
      .positional("to", {
        type: "string",
        demandOption: true,
        describe:
          "A revision (2026-07-28) or a folder with schema.json; with --tools, the new tool list",
      })
      .option("extension", {
        type: "string",
        array: true,
        default: [],
        describe:
          "An extension merged into both sides (a known one, a folder or a manifest); repeatable",
      })
      .option("tools", {
        type: "boolean",
        default: false,
        describe:
          'Compare two tool lists instead: each side a tools file, a tools/list snapshot (JSON), the URL of a running server\'s MCP endpoint, or the command that starts it ("node dist/index.js --stdio")',
      })
      .option("fail-on", {
        choices: FAIL_ON,
        requiresArg: true,
        describe:
          "With --tools: exit 1 when a change breaks clients, breaks servers, changes a title or description (documentation), or (any) when anything changed; possibly breaking changes count as breaking",
      })
      .option("json", {
        type: "boolean",
        default: false,
        describe:
          "Print the diff as JSON (format 1, see docs/diff-upgrade.md); with --tools it holds each tool's contract fingerprint and the suggested version bump",
      })
      .option("quiet", {
        type: "boolean",
        default: false,
        describe: "Print no notes about how each side was read",
      })
      .example("$0 diff 2025-11-25 2026-07-28", "what a server or client must adapt to")
      .example("$0 diff 2026-07-28 ./schemas/next --json", "a draft revision, for a program")
      .example(
        "$0 diff --tools tools.json http://127.0.0.1:3000/mcp --fail-on breaking-for-clients",
        "gate a change of a server's tools in CI",
      ),
  handler: async (args) => {
    if (args.tools) return diffTools(args);
    if (args["fail-on"] !== undefined)
      throw usage("--fail-on goes with --tools (a revision diff always exits 0)");
    const file = [args.from, args.to].find(isFile);
    if (file !== undefined)
      throw usage(
        `${file} is a file: diff compares revisions (names, or folders with schema.json); to compare two tool lists, add --tools: mcp-gen diff --tools ${args.from} ${args.to}`,
      );
    // Loaded here, not at start-up, so --help and usage errors answer at once.
    const { diffRevisions, formatDiff } = await import("../diff/index.js");
    const { diff, diagnostics } = await diffRevisions(args.from, args.to, {
      extensions: args.extension,
    });
    printDiagnostics(diagnostics, args.quiet || args.json);
    process.stdout.write(args.json ? `${JSON.stringify(diff, null, 2)}\n` : formatDiff(diff));
  },
};

/** `--tools`: the tool-contract diff, printed, and the gate's exit code. */
async function diffTools(args: DiffArgs): Promise<void> {
  if (args.extension.length > 0) throw usage("--extension goes with revisions, not with --tools");
  const { diffToolSources, failingChanges, formatToolDiff } =
    await import("../diff/tools/index.js");
  const diff = await diffToolSources(args.from, args.to);
  process.stdout.write(args.json ? `${JSON.stringify(diff, null, 2)}\n` : formatToolDiff(diff));
  if (args["fail-on"] === undefined) return;
  const failing = failingChanges(diff, args["fail-on"]);
  if (failing.length === 0) return;
  if (!args.quiet)
    process.stderr.write(
      `mcp-gen: --fail-on ${args["fail-on"]}: ${failing.length} change${failing.length === 1 ? "" : "s"} (${[...new Set(failing.map((c) => c.tool))].join(", ")})\n`,
    );
  process.exitCode = EXIT.checkFailed;
}

/** Whether `path` is an existing file (a revision is a name or a folder). */
function isFile(path: string): boolean {
  return existsSync(path) && statSync(path).isFile();
}
