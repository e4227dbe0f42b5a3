/**
 * `mcp-gen schema pull <revision|extension>` fills the cache from the
 * canonical upstream location (checked against the pinned sha256);
 * `mcp-gen schema list` shows the known revisions and extensions.
 */
import type { Argv, CommandModule } from "yargs";
import { knownRevisions, readRegistry } from "../load/registry.js";
import { defaultSchemaSources, pullRevision } from "../load/resolve-spec.js";

// Loaded when needed: reading extensions pulls in ts-morph, which --help does not need.
const extensions = () => import("../load/extensions.js");

/** The command group. */
export const schemaCommand: CommandModule = {
  command: "schema <action>",
  describe: "Manage the MCP schemas mcp-gen reads",
  builder: (y: Argv) =>
    y
      .command<{ revision: string }>({
        command: "pull <revision>",
        describe:
          "Download a revision's schema.json and schema.ts (or a known extension's files) into the cache, verifying their sha256",
        builder: (c) =>
          c.positional("revision", {
            type: "string",
            demandOption: true,
            describe: "A revision (2026-07-28) or a known extension (tasks)",
          }) as never,
        handler: async (args) => {
          const { knownExtensions, pullExtension } = await extensions();
          const isExtension = knownExtensions().some(
            (k) => k.manifest.name === args.revision || k.manifest.id === args.revision,
          );
          const dir = isExtension
            ? await pullExtension(args.revision, defaultSchemaSources())
            : await pullRevision(args.revision, readRegistry(), defaultSchemaSources());
          process.stdout.write(`${args.revision}: ${dir}\n`);
        },
      })
      .command({
        command: "list",
        describe: "List the known revisions and extensions, and where their files come from",
        handler: async () => {
          const { knownExtensions } = await extensions();
          const registry = readRegistry();
          for (const revision of knownRevisions(registry))
            process.stdout.write(
              `${revision}  ${registry.revisions[revision]!.files["schema.json"].url}\n`,
            );
          for (const { manifest } of knownExtensions()) {
            const schema = manifest.schema;
            process.stdout.write(
              `${manifest.name} (${manifest.id}, for ${manifest.revisions.join(", ")})  ${typeof schema === "string" ? schema : schema.url}\n`,
            );
          }
        },
      })
      .demandCommand(1, "Name an action: pull or list."),
  handler: () => undefined,
};
