/**
 * The passes, in the order they run. Each is a pure McpModel → McpModel
 * step in its own file, named by what it does.
 */
import type { McpModel, Pass, PassContext } from "../types.js";
import { applyPatchOverlay } from "./apply-patch-overlay.js";
import { discriminateResults } from "./discriminate-results.js";
import { mergeExtensions } from "./merge-extensions.js";
import { pinResultTypes } from "./pin-result-types.js";

/**
 * The passes, in order. Later passes rely on earlier ones: extensions merge
 * first, so their copies are compared with upstream definitions; the
 * overlay then patches the merged model; the resultType rules pin what
 * neither the schema nor the extensions pin; discrimination reads the pins.
 */
export const PASSES: readonly Pass[] = [
  mergeExtensions,
  applyPatchOverlay,
  pinResultTypes,
  discriminateResults,
];

/** Runs passes in order. */
export function runPasses(
  model: McpModel,
  context: PassContext,
  passes: readonly Pass[] = PASSES,
): McpModel {
  return passes.reduce((current, pass) => pass.run(current, context), model);
}
