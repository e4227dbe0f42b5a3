/**
 * `mcp-gen tools fingerprint <source>`: the fingerprint of each tool's
 * contract in a tool list (a tools file, a tools/list snapshot or a live
 * server), and of the list, so a CI job or a registry can pin them
 * (docs/diff-upgrade.md says how they are computed). The list is checked
 * as `diff --tools` checks it; a list it refuses exits 2.
 */
import type { Argv, CommandModule } from "yargs";

/** The command group. */
export const toolsCommand: CommandModule = {
  command: "tools <action>",
  describe: "Work with a server's tool list: fingerprint its tool contracts",
  builder: (y: Argv) =>
    y
      .command<{ source: string; json: boolean }>({
        command: "fingerprint <source>",
        describe:
          "Print a fingerprint of each tool's contract (name, inputSchema, outputSchema, annotations, execution) and of the whole list",
        builder: (c) =>
          c
            .positional("source", {
              type: "string",
              demandOption: true,
              describe:
                'A tools file, a tools/list snapshot (JSON), the URL of a running server\'s MCP endpoint, or the command that starts it ("node dist/index.js --stdio")',
            })
            .option("json", {
              type: "boolean",
              default: false,
              describe: "Print JSON: { format, source, kind, fingerprint, tools }",
            })
            .example("$0 tools fingerprint tools.json", "one line per tool, then the list's")
            .example(
              '$0 tools fingerprint "node dist/index.js --stdio" --json',
              "what a running server serves, for a program",
            ),
        handler: async (args) => {
          // Loaded here, not at start-up, so --help and usage errors answer at once.
          const { fingerprintToolSource } = await import("../diff/tools/index.js");
          const result = await fingerprintToolSource(args.source);
          if (args.json) {
            process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
            return;
          }
          const count = Object.keys(result.tools).length;
          const lines = Object.entries(result.tools).map(([name, fp]) => `${fp}  ${name}`);
          lines.push(`${result.fingerprint}  (the list: ${count} tool${count === 1 ? "" : "s"})`);
          process.stdout.write(`${lines.join("\n")}\n`);
        },
      })
      .demandCommand(1, "Name an action: fingerprint."),
  handler: () => {},
};
