/**
 * `mcp-gen dev` in a project made by `mcp-gen server` or `mcp-gen client`
 * (`npm run dev`): regenerates on a change of its inputs, recompiles on a
 * change of its sources, and restarts the server after each compile that
 * has no errors. Runs until Ctrl-C.
 */
import type { CommandModule } from "yargs";
import { closeOnSignal, EXIT } from "./output.js";

interface DevArgs {
  stdio: boolean;
}

/** The command. */
export const devCommand: CommandModule<object, DevArgs> = {
  command: "dev",
  describe:
    "In a project: regenerate, recompile and restart the server on every change (Ctrl-C to stop)",
  builder: (y) =>
    y
      .option("stdio", {
        type: "boolean",
        default: false,
        describe: "Run the server over stdio instead of HTTP",
      })
      .example(
        "$0 dev",
        "in a server project: the server on PORT (3000), restarted on each change",
      ),
  handler: async (args) => {
    // Loaded here, not at start-up, so --help and usage errors answer at once.
    const { startDev } = await import("../dev/dev.js");
    // Over stdio the protocol owns stdout: the loop speaks on stderr either way.
    const log = (line: string) => process.stderr.write(`mcp-gen dev: ${line}\n`);
    const handle = startDev({
      dir: process.cwd(),
      serverArgs: args.stdio ? ["--stdio"] : [],
      log,
    });
    log("watching the project (Ctrl-C to stop)");
    await closeOnSignal(handle);
    process.exitCode = EXIT.ok;
  },
};
