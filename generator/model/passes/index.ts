/**
 * The passes, in the order they run. Each is a pure McpModel → McpModel
 * step in its own file, named by what it does.
 */
import type { McpModel, Pass, PassContext } from "../types.js";
import { applyPatchOverlay } from "./apply-patch-overlay.js";
import { discriminateResults } from "./discriminate-results.js";

/** Core passes. Later passes may rely on earlier ones (discrimination reads the pins the overlay adds). */
export const PASSES: readonly Pass[] = [applyPatchOverlay, discriminateResults];

/** Runs passes in order. */
export function runPasses(model: McpModel, context: PassContext, passes: readonly Pass[] = PASSES): McpModel {
  return passes.reduce((current, pass) => pass.run(current, context), model);
}
