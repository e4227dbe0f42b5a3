/**
 * The generator's one door into the runtime (templates/runtime/), which a
 * scaffold otherwise copies as files. Each name is here for one reason:
 * - `headerParametersOf`: tools.json's header parameters follow the rule
 *   the runtime applies to requests (check/check-tools.ts, tool-rules.ts);
 * - `FIRST_MODERN`: the first stateless revision, which decides what a
 *   client scaffold carries (scaffold/client.ts);
 * - the client: `mcp-gen client --from-server` asks a running server for
 *   its tools (scaffold/from-server.ts);
 * - `McpServer`, `InMemoryTaskStore`: `mcp-gen upgrade` checks the
 *   messages the runtime builds against the target revision
 *   (upgrade/runtime-check.ts).
 * test/import-cycles.test.ts fails on any other import of the runtime.
 */
export { headerParametersOf } from "../templates/runtime/core/headers.js";
export { FIRST_MODERN } from "../templates/runtime/core/era.js";
export {
  ChannelError,
  connectHttp,
  McpClient,
  McpError,
  parseCommandLine,
  spawnStdio,
  type ClientChannel,
} from "../templates/runtime/client.js";
export { InMemoryTaskStore, McpServer } from "../templates/runtime/index.js";
