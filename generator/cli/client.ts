/**
 * `mcp-gen client <dir>`: scaffold a typed MCP client project.
 */
import type { CommandModule } from "yargs";
import { printDiagnostics } from "./output.js";
import {
  DIR_POSITIONAL,
  EXTENSION_OPTION,
  FORCE_OPTION,
  MCP_GEN_DEPENDENCY_OPTION,
  NAME_OPTION,
  projectDependency,
  QUIET_OPTION,
  specOption,
  writeNewProject,
} from "./project-options.js";
import { FIRST_MODERN, LEGACY_REVISION } from "../runtime/revisions.js";

interface ClientArgs {
  dir: string;
  spec: string;
  name?: string;
  extension: string[];
  tools?: string;
  "from-server"?: string;
  example: "minimal" | "everything";
  auth: boolean;
  force: boolean;
  quiet: boolean;
  "mcp-gen-dependency"?: string;
}

/** The command. */
export const clientCommand: CommandModule<object, ClientArgs> = {
  command: "client <dir>",
  describe:
    "Scaffold an MCP client project (a typed client, typed wrappers of a server's tools, a command line, tests) in <dir>",
  builder: (y) =>
    y
      .positional("dir", DIR_POSITIONAL)
      .option(
        "spec",
        specOption(
          `The revision the client targets: ${FIRST_MODERN} or later (it talks to ${LEGACY_REVISION} servers too)`,
        ),
      )
      .option("name", NAME_OPTION)
      .option("extension", EXTENSION_OPTION)
      .option("tools", {
        type: "string",
        requiresArg: true,
        conflicts: "from-server",
        describe: "A tools.json (a server's tools): one typed wrapper per tool",
      })
      .option("from-server", {
        type: "string",
        requiresArg: true,
        describe:
          'List the tools of a running server: the URL of its MCP endpoint, or the command that starts it ("node server.js --stdio")',
      })
      .option("example", {
        choices: ["minimal", "everything"] as const,
        default: "minimal" as const,
        describe:
          "minimal: a client and its command line; everything: also the client the official conformance suite drives (dist/conformance.js)",
      })
      .option("auth", {
        type: "boolean",
        default: false,
        describe:
          "Sign in with OAuth when a server asks (adds the runtime's OAuth and a dependency on oauth4webapi; the everything example always has it)",
      })
      .option("force", FORCE_OPTION)
      .option("mcp-gen-dependency", MCP_GEN_DEPENDENCY_OPTION)
      .option("quiet", QUIET_OPTION)
      .example("$0 client my-client", "a client and its command line")
      .example(
        "$0 client my-client --from-server http://127.0.0.1:3000/mcp",
        "typed wrappers for the tools of a running server",
      )
      .example(
        '$0 client my-client --from-server "node ../my-server/dist/index.js --stdio"',
        "the same, starting the server over stdio",
      ),
  handler: async (args) => {
    if (!args.quiet) process.stderr.write(`mcp-gen: scaffolding ${args.dir}\n`);
    const { scaffoldClient } = await import("../scaffold/client.js");
    const dependency = await projectDependency(args["mcp-gen-dependency"]);
    const { files, diagnostics } = await scaffoldClient({
      dir: args.dir,
      spec: args.spec,
      ...(args.name !== undefined ? { name: args.name } : {}),
      extensions: args.extension,
      ...(args.tools !== undefined ? { tools: args.tools } : {}),
      ...(args["from-server"] !== undefined ? { fromServer: args["from-server"] } : {}),
      example: args.example,
      auth: args.auth,
      ...dependency.options,
    });
    printDiagnostics(diagnostics, args.quiet);
    const written = await writeNewProject(args.dir, files, args.force, dependency);
    process.stdout.write(
      `wrote ${written} files to ${args.dir}\nnext: cd ${args.dir} && npm install && npm test && npm run -s mcp -- <server url> discover\n`,
    );
  },
};
