/**
 * `mcp-gen server <dir>`: scaffold a runnable, typed MCP server project.
 */
import type { CommandModule } from "yargs";
import {
  DIR_POSITIONAL,
  EXTENSION_OPTION,
  FORCE_OPTION,
  MCP_GEN_DEPENDENCY_OPTION,
  NAME_OPTION,
  projectDependency,
  QUIET_OPTION,
  specOption,
  TARGET_OPTION,
  writeNewProject,
} from "./project-options.js";
import { FIRST_MODERN, LEGACY_REVISION } from "../runtime/revisions.js";

interface ServerArgs {
  dir: string;
  spec: string;
  name?: string;
  extension: string[];
  tools?: string;
  example: "minimal" | "everything";
  transport?: "stdio" | "http" | "both";
  target: "node" | "bun" | "deno" | "workers";
  auth: boolean;
  force: boolean;
  quiet: boolean;
  "mcp-gen-dependency"?: string;
}

/** The command. */
export const serverCommand: CommandModule<object, ServerArgs> = {
  command: "server <dir>",
  describe: "Scaffold an MCP server project (typed handler stubs, runtime, tests) in <dir>",
  builder: (y) =>
    y
      .positional("dir", DIR_POSITIONAL)
      .option(
        "spec",
        specOption(
          `The revision the server targets: ${FIRST_MODERN} or later (${LEGACY_REVISION} clients are served too, on the same endpoint)`,
        ),
      )
      .option("name", NAME_OPTION)
      .option("extension", EXTENSION_OPTION)
      .option("tools", {
        type: "string",
        requiresArg: true,
        describe:
          "A tools.json (array of { name, description, inputSchema, outputSchema? }): one typed handler stub per tool",
      })
      .option("example", {
        choices: ["minimal", "everything"] as const,
        default: "minimal" as const,
        describe:
          "minimal: one echo tool and stubs; everything: the fixtures the official conformance suite exercises",
      })
      .option("transport", {
        choices: ["stdio", "http", "both"] as const,
        describe: "How the server is started (default: both; http for --target workers)",
      })
      .option("target", TARGET_OPTION)
      .option("auth", {
        type: "boolean",
        default: false,
        describe:
          "Make the server an OAuth protected resource (bearer tokens, scopes; settings in mcp-gen.json's auth and MCP_AUTH_*)",
      })
      .option("force", FORCE_OPTION)
      .option("mcp-gen-dependency", MCP_GEN_DEPENDENCY_OPTION)
      .option("quiet", QUIET_OPTION)
      .example("$0 server my-server", "a minimal project")
      .example("$0 server my-server --tools tools.json", "a handler stub per tool of tools.json")
      .example(
        "$0 server conformance --example everything",
        "the server the conformance suite expects",
      )
      .example(
        "$0 server my-worker --target workers",
        "a Cloudflare Worker (wrangler dev, wrangler deploy)",
      ),
  handler: async (args) => {
    if (!args.quiet) process.stderr.write(`mcp-gen: scaffolding ${args.dir}\n`);
    const { scaffoldServer } = await import("../scaffold/scaffold.js");
    const dependency = await projectDependency(args["mcp-gen-dependency"]);
    const { files } = await scaffoldServer({
      dir: args.dir,
      spec: args.spec,
      ...(args.name !== undefined ? { name: args.name } : {}),
      extensions: args.extension,
      ...(args.tools !== undefined ? { tools: args.tools } : {}),
      example: args.example,
      ...(args.transport !== undefined ? { transport: args.transport } : {}),
      target: args.target,
      ...dependency.options,
      auth: args.auth,
    });
    const written = await writeNewProject(args.dir, files, args.force, dependency);
    process.stdout.write(
      `wrote ${written} files to ${args.dir}\nnext: cd ${args.dir} && npm install && npm test && npm start\n`,
    );
  },
};
