/**
 * The CLI run with the network unreachable: downloads allowed
 * (MCP_GEN_OFFLINE unset), no MCP_GEN_SCHEMA_DIR, an empty cache, and every
 * fetch refused by a closed port of 127.0.0.1 (unreachable-network.mjs).
 */
import { join } from "node:path";
import { freePort } from "../../scripts/shared/free-port.js";
import { runCli, tempDir, type CliOptions, type CliRun } from "./run-cli.js";

const PRELOAD = join(import.meta.dirname, "unreachable-network.mjs");
/** A port that was free a moment ago: nothing answers there. */
const CLOSED_PORT = await freePort();

/** Runs the CLI with the network unreachable and nothing cached. */
export function runCliUnreachable(
  args: readonly string[],
  options: CliOptions = {},
): Promise<CliRun> {
  return runCli(args, {
    schemaDir: "",
    cacheDir: tempDir("empty-cache"),
    nodeOptions: ["--import", PRELOAD],
    ...options,
    env: { MCP_GEN_OFFLINE: "", UNREACHABLE_PORT: String(CLOSED_PORT), ...options.env },
  });
}
