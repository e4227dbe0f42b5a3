/**
 * `mcp-gen schema pull <revision>` fills the cache from the canonical
 * upstream location (checked against the pinned sha256);
 * `mcp-gen schema list` shows the known revisions.
 */
import type { Argv, CommandModule } from "yargs";
import { defaultSchemaSources, knownRevisions, pullRevision, readRegistry } from "../index.js";

/** The command group. */
export const schemaCommand: CommandModule = {
  command: "schema <action>",
  describe: "Manage the MCP schemas mcp-gen reads",
  builder: (y: Argv) =>
    y
      .command<{ revision: string }>({
        command: "pull <revision>",
        describe: "Download a revision's schema.json and schema.ts into the cache, verifying their sha256",
        builder: (c) => c.positional("revision", { type: "string", demandOption: true }) as never,
        handler: async (args) => {
          const dir = await pullRevision(args.revision, readRegistry(), defaultSchemaSources());
          process.stdout.write(`${args.revision}: ${dir}\n`);
        },
      })
      .command({
        command: "list",
        describe: "List the known revisions and where their files come from",
        handler: () => {
          const registry = readRegistry();
          for (const revision of knownRevisions(registry)) process.stdout.write(`${revision}  ${registry.revisions[revision]!.files["schema.json"].url}\n`);
        },
      })
      .demandCommand(1, "Name an action: pull or list."),
  handler: () => undefined,
};
