/**
 * `mcp-gen server <dir>`: scaffold a runnable, typed MCP server project.
 */
import type { CommandModule } from "yargs";

interface ServerArgs {
  dir: string;
  spec: string;
  name?: string;
  extension: string[];
  tools?: string;
  example: "minimal" | "everything";
  transport: "stdio" | "http" | "both";
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
      .positional("dir", {
        type: "string",
        demandOption: true,
        describe: "The project folder (new or empty)",
      })
      .option("spec", {
        type: "string",
        default: "2026-07-28",
        requiresArg: true,
        describe:
          "The revision the server targets: 2026-07-28 or later (2025-11-25 clients are served too, on the same endpoint)",
      })
      .option("name", {
        type: "string",
        requiresArg: true,
        describe: "The package name (default: the folder's name)",
      })
      .option("extension", {
        type: "string",
        array: true,
        default: [],
        describe:
          "An extension to include (tasks, or a folder with mcp-extension.json); repeatable",
      })
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
        default: "both" as const,
        describe: "How the server is started",
      })
      .option("auth", {
        type: "boolean",
        default: false,
        describe:
          "Make the server an OAuth protected resource (bearer tokens, scopes; settings in mcp-gen.json's auth and MCP_AUTH_*)",
      })
      .option("force", {
        type: "boolean",
        default: false,
        describe:
          "Scaffold into a folder that is not empty: refresh src/generated and src/mcp-gen, add missing files, keep every other file (refused, naming them, where your files differ from the scaffold's)",
      })
      .option("mcp-gen-dependency", {
        type: "string",
        requiresArg: true,
        describe:
          "How the project depends on mcp-gen, for npm run regenerate (a version, a tarball, a folder or a git URL; default: how this mcp-gen was installed)",
      })
      .option("quiet", { type: "boolean", default: false, describe: "Print only the result" })
      .example("$0 server my-server", "a minimal project")
      .example("$0 server my-server --tools tools.json", "a handler stub per tool of tools.json")
      .example(
        "$0 server conformance --example everything",
        "the server the conformance suite expects",
      ),
  handler: async (args) => {
    if (!args.quiet) process.stderr.write(`mcp-gen: scaffolding ${args.dir}\n`);
    const { scaffoldServer } = await import("../scaffold/scaffold.js");
    const { writeProject } = await import("../write/write-project.js");
    const { vendoredCopy, writeVendoredCopy } = await import("../scaffold/install-source.js");
    // A dependency that holds on a teammate's machine: a copy in vendor/ unless one was given.
    const copy = args["mcp-gen-dependency"] === undefined ? vendoredCopy() : undefined;
    const { files } = await scaffoldServer({
      dir: args.dir,
      spec: args.spec,
      ...(args.name !== undefined ? { name: args.name } : {}),
      extensions: args.extension,
      ...(args.tools !== undefined ? { tools: args.tools } : {}),
      example: args.example,
      transport: args.transport,
      ...(args["mcp-gen-dependency"] !== undefined
        ? { mcpGenDependency: args["mcp-gen-dependency"] }
        : copy
          ? { mcpGenDependency: copy.specifier }
          : {}),
      auth: args.auth,
    });
    const written = writeProject(args.dir, files, args.force);
    if (copy) writeVendoredCopy(args.dir, copy);
    process.stdout.write(
      `wrote ${written} files to ${args.dir}\nnext: cd ${args.dir} && npm install && npm test && npm start\n`,
    );
  },
};
