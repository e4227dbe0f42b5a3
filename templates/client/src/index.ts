/**
 * This client as a library: `connect` to a server, then call its requests
 * (`client.rpc.toolsList()`, `client.rpc.resourcesRead({ uri })`) and its tools
 * (`client.tools.<name>(args)`), all typed.
 */
export { connect, type ServerAddress } from "./connect.js";
export {
  createClient,
  type Client,
  type Inputs,
  type Methods,
  type Options,
} from "./generated/client.gen.js";
export {
  TOOLS,
  type ToolArguments,
  type ToolOutputs,
  type ToolWrappers,
} from "./generated/tools.gen.js";
export { handlers } from "./handlers.js";
