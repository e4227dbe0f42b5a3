/**
 * `mcp-gen schema pull <revision|extension>` (or `--all`) fills the cache
 * from the canonical upstream location (checked against the pinned sha256);
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
      .command<{ revision?: string; all: boolean }>({
        command: "pull [revision]",
        describe:
          "Download a revision's schema.json, schema.ts and example messages (or a known extension's files) into the cache, verifying their sha256",
        builder: (c) =>
          c
            .positional("revision", {
              type: "string",
              describe: "A revision (2026-07-28) or a known extension (tasks)",
            })
            .option("all", {
              type: "boolean",
              default: false,
              describe:
                "Every pinned upstream file: all revisions, their examples, the known extensions and their documents (what mcp-gen's own tests read)",
            })
            .check((a) =>
              a.all === (a.revision !== undefined)
                ? "name a revision or extension, or pass --all (not both)"
                : true,
            ) as never,
        handler: async (args) => {
          if (args.all) {
            const { pullEverything } = await import("../load/upstream-files.js");
            process.stdout.write(
              `${await pullEverything(readRegistry(), defaultSchemaSources())}\n`,
            );
            return;
          }
          const revision = args.revision!;
          const { knownExtensions, pullExtension } = await extensions();
          const isExtension = knownExtensions().some(
            (k) => k.manifest.name === revision || k.manifest.id === revision,
          );
          const dir = isExtension
            ? await pullExtension(revision, defaultSchemaSources())
            : await pullRevision(revision, readRegistry(), defaultSchemaSources());
          process.stdout.write(`${revision}: ${dir}\n`);
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
            // A schema derived from TypeScript (Skills) is listed by its TypeScript's source.
            const schema = manifest.schema ?? manifest.schemaTs!;
            process.stdout.write(
              `${manifest.name} (${manifest.id}, for ${manifest.revisions.join(", ")})  ${typeof schema === "string" ? schema : schema.url}\n`,
            );
          }
        },
      })
      .demandCommand(1, "Name an action: pull or list."),
  handler: () => undefined,
};
