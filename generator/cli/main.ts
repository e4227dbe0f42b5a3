#!/usr/bin/env node
/**
 * The mcp-gen command line: parses arguments with yargs, calls the library,
 * prints diagnostics, and picks the exit code. Nothing else lives here.
 *
 * Exit codes: 0 success; 1 `--check` found stale files; 2 bad usage or bad
 * input; 3 internal error (with a stack and a request to report it).
 */
import yargs, { type Argv } from "yargs";
import { hideBin } from "yargs/helpers";
import { authDevCommand } from "./auth-dev.js";
import { clientCommand } from "./client.js";
import { devCommand } from "./dev.js";
import { diffCommand } from "./diff.js";
import { generateCommand } from "./generate.js";
import { serverCommand } from "./server.js";
import { schemaCommand } from "./schema.js";
import { toolsCommand } from "./tools.js";
import { typesCommand } from "./types.js";
import { upgradeCommand } from "./upgrade.js";
import { EXIT, reportError } from "./output.js";
import { withFlagSuggestions } from "./flag-suggestions.js";
import { packageVersion } from "../load/package-root.js";

/** Builds the yargs program (exported so tests can run it in-process). */
export function program(argv: readonly string[]): Argv {
  return (
    yargs([...argv])
      .scriptName("mcp-gen")
      .usage(
        "$0 <command> [options]\n\nSpec-exact TypeScript code generation for the Model Context Protocol.",
      )
      .command(generateCommand)
      .command(diffCommand)
      .command(serverCommand)
      .command(clientCommand)
      .command(schemaCommand)
      .command(toolsCommand)
      .command(typesCommand)
      .command(upgradeCommand)
      .command(devCommand)
      .command(authDevCommand)
      .demandCommand(1, "Name a command; see --help.")
      .strict()
      .recommendCommands()
      .help()
      .alias("h", "help")
      // mcp-gen's own version: yargs alone would read the package.json of the current folder.
      .version(packageVersion())
      .wrap(Math.min(100, process.stdout.columns ?? 100))
      .fail((message, error, usage: unknown) => {
        // Errors from handlers are rethrown; yargs passes usage errors as a message, a YError, or (from .check) a string.
        if (error instanceof Error && error.name !== "YError") throw error;
        process.stderr.write(
          `mcp-gen: ${withFlagSuggestions(message ?? String(error), optionsOf(usage), argv)}\nRun mcp-gen --help for usage.\n`,
        );
        process.exit(EXIT.badInput);
      })
  );
}

/**
 * The options of the command yargs was parsing when it failed: the keys of
 * its usage's descriptions (every option of mcp-gen has one:
 * test/cli/usage.test.ts).
 */
function optionsOf(usage: unknown): string[] {
  const descriptions = (
    usage as { getDescriptions?: () => Record<string, unknown> }
  )?.getDescriptions?.();
  return descriptions ? Object.keys(descriptions) : [];
}

try {
  await program(hideBin(process.argv)).parseAsync();
} catch (error) {
  process.exitCode = reportError(error);
}
