/**
 * `mcp-gen/types`: a server's tool types as one self-contained module, for
 * any client (`mcp-gen types`). Plan from a tools file, a tools/list result
 * or a live server, then write the files or check them against the plan.
 */
export {
  checkToolTypes,
  planToolTypes,
  writeToolTypes,
  type ToolTypesCheck,
  type ToolTypesOptions,
  type ToolTypesPlan,
} from "./tool-types.js";
