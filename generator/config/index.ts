/**
 * mcp-gen.json as a library (`mcp-gen/config`): find and check the file,
 * generate or check every target, watch the inputs. Kept apart from the
 * main entry because it reaches into the project scaffolder.
 */
export {
  CONFIG_FILE,
  findConfig,
  loadConfig,
  readConfig,
  type Config,
  type ConfigTarget,
  type ProjectInputs,
} from "./config.js";
export {
  generateConfig,
  targetRegenerateCommand,
  type ConfigOutcome,
  type ConfigRunOptions,
  type ProjectOutcome,
  type TargetOutcome,
} from "./generate-config.js";
export {
  inputsOfConfig,
  inputsOfFlags,
  watchInputs,
  type WatchHandle,
  type WatchOptions,
} from "./watch.js";
