/**
 * `mcp-gen auth-dev` in a project made by `mcp-gen server --auth`
 * (`npm run auth:dev`): a development authorization server on 127.0.0.1
 * (generator/dev/auth-server.ts). Prints the settings that point the
 * server at it and writes them to `.auth-dev/server.env`, which
 * `npm run dev` reads. Runs until Ctrl-C.
 */
import type { CommandModule } from "yargs";
import { closeOnSignal, EXIT, usage } from "./output.js";

interface AuthDevArgs {
  port?: number;
}

/** The command. */
export const authDevCommand: CommandModule<object, AuthDevArgs> = {
  command: "auth-dev",
  describe:
    "In a server project made with --auth: a development authorization server on 127.0.0.1 (Ctrl-C to stop)",
  builder: (y) =>
    y
      .option("port", {
        type: "number",
        requiresArg: true,
        describe: "The port on 127.0.0.1 (default: MCP_AUTH_DEV_PORT, else 3001)",
      })
      .example("$0 auth-dev", "then npm run dev in another terminal: the server uses it"),
  handler: async (args) => {
    const { startDevAuthorizationServer, DEFAULT_AUTH_DEV_PORT, DEV_USER } =
      await import("../dev/auth-server.js");
    const port = checkedPort(args.port, "--port") ?? portFromEnvironment() ?? DEFAULT_AUTH_DEV_PORT;
    const log = (line: string) => process.stderr.write(`mcp-gen auth-dev: ${line}\n`);
    const server = await startDevAuthorizationServer({ dir: process.cwd(), port, log });
    const settings = Object.entries(server.settings).map(([k, v]) => `  ${k}=${v}`);
    process.stderr.write(
      [
        `Development authorization server (oidc-provider) at ${server.issuer}`,
        `  user:      ${DEV_USER}, signed in without a password (consents to every scope)`,
        `  scopes:    ${server.scopes.join(" ")}`,
        `  clients:   register themselves (dynamic client registration, ${server.issuer}/reg)`,
        `  tokens:    JWT (ES256) for the resource the client names (http on 127.0.0.1 or localhost)`,
        `  keys:      .auth-dev/ (git-ignored; made on the first run, reused after)`,
        "The server's settings (in .auth-dev/server.env while this runs; npm run dev reads it):",
        ...settings,
        "Clients without a user (add MCP_AUTH_DPOP=1 for DPoP-bound tokens), each flow's settings in a file:",
        ...Object.entries(server.flows).map(
          ([flow, file]) => `  ${flow}: node --env-file=${file} dist/cli.js ...`,
        ),
        "Ctrl-C to stop.",
        "",
      ].join("\n"),
    );
    await closeOnSignal(server);
    process.exitCode = EXIT.ok;
  },
};

/** MCP_AUTH_DEV_PORT, when set. */
function portFromEnvironment(): number | undefined {
  const text = process.env.MCP_AUTH_DEV_PORT?.trim();
  if (text === undefined || text === "") return undefined;
  return checkedPort(Number(text), "MCP_AUTH_DEV_PORT");
}

/** A port number (0-65535), or a usage error naming where it came from. */
function checkedPort(port: number | undefined, from: string): number | undefined {
  if (port === undefined) return undefined;
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw usage(`${from} must be a port number (0-65535), not ${String(port)}`);
  return port;
}
