/**
 * The runtime's client, for `mcp-gen client --from-server`, which asks a
 * running server for its tools (scaffold/from-server.ts). Part of the
 * generator's one door into the runtime (see rules.ts).
 */
export {
  ChannelError,
  connectHttp,
  McpClient,
  McpError,
  parseCommandLine,
  spawnStdio,
  type ClientChannel,
} from "../../templates/runtime/client.js";
