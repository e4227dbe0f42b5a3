/**
 * `mcp-gen types`: types for any client of a server's tools, from a tools
 * file, a tools/list result or a live server: one module over the
 * official SDK's client and the API description of code mode
 * (docs/types.md). With `--check`, writes nothing and exits 1 when the
 * files are not what the tools make now, saying what changed in the tools.
 */
import type { CommandModule } from "yargs";
import { packageVersion } from "../load/package-root.js";
import { EXIT, printDiagnostics, usage } from "./output.js";

interface TypesArgs {
  tools?: string;
  "from-server"?: string;
  out: string;
  check: boolean;
  quiet: boolean;
}

/** The command. */
export const typesCommand: CommandModule<object, TypesArgs> = {
  command: "types",
  describe:
    "Write a typed module for calling a server's tools through the official SDK client (argument and result types, Standard Schemas, a checked callTool) and a .d.ts API of one function per tool for code mode",
  builder: (y) =>
    y
      .option("tools", {
        type: "string",
        requiresArg: true,
        conflicts: "from-server",
        describe:
          'A tools file (an array of tools) or a tools/list result ({ "tools": [...] } or the whole JSON-RPC response)',
      })
      .option("from-server", {
        type: "string",
        requiresArg: true,
        describe:
          'List the tools of a running server: the URL of its MCP endpoint, or the command that starts it ("node server.js --stdio")',
      })
      .option("out", {
        type: "string",
        requiresArg: true,
        demandOption: true,
        describe: "The module to write (a .ts file); the code-mode API goes beside it as .api.d.ts",
      })
      .option("check", {
        type: "boolean",
        default: false,
        describe:
          "Write nothing; exit 1 when the files differ from what the tools make now, and show the tool diff since they were written",
      })
      .option("quiet", {
        type: "boolean",
        default: false,
        describe: "Print no warnings about tools left out",
      })
      .example(
        "$0 types --from-server http://127.0.0.1:3000/mcp --out src/server-tools.ts",
        "types for the tools of a running server",
      )
      .example(
        '$0 types --from-server "node dist/index.js --stdio" --out src/server-tools.ts --check',
        "in CI: fail when the server's tools drifted from the module",
      ),
  handler: async (args) => {
    const source = args.tools ?? args["from-server"];
    if (source === undefined)
      throw usage("name the tools: --tools <file> or --from-server <server>");
    // Loaded here, not at start-up, so --help and usage errors answer at once.
    const { checkToolTypes, planToolTypes, writeToolTypes } =
      await import("../types/tool-types.js");
    const plan = await planToolTypes({
      source,
      as: args.tools !== undefined ? "file" : "server",
      out: args.out,
      toolVersion: packageVersion(),
    });
    printDiagnostics(plan.diagnostics, args.quiet);
    if (!args.check) {
      writeToolTypes(plan);
      process.stdout.write(
        `${plan.files.map((f) => f.path).join(" and ")}: ${plan.tools.length} tool${plan.tools.length === 1 ? "" : "s"}\n`,
      );
      return;
    }
    const { stale, drift } = checkToolTypes(plan);
    if (stale.length === 0) {
      process.stdout.write(`${args.out} matches the tools of ${source}\n`);
      return;
    }
    if (drift && drift.changes.length > 0) {
      const { formatToolDiff } = await import("../diff/tools/format.js");
      process.stdout.write(formatToolDiff(drift));
    }
    process.stdout.write(
      `${stale.join(" and ")} ${stale.length === 1 ? "is" : "are"} not what the tools of ${source} make now${drift && drift.changes.length === 0 ? " (the tools are the same: mcp-gen's output changed)" : ""}; run the command without --check to write ${stale.length === 1 ? "it" : "them"}\n`,
    );
    process.exitCode = EXIT.checkFailed;
  },
};
