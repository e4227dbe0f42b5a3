/**
 * The checked model of every known revision (alone and with each known
 * extension) is committed beside its generated output, in
 * generated/models/<folder>.json, so that the commands that compare models
 * (`diff`, `upgrade`) work offline the way `generate` does from the
 * committed files: the schemas are pinned by sha256, so the model is the
 * one loading them would build. `npm run generate` writes these files and
 * its `--check` (with test/safety/output.test.ts) keeps them current.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { committedFolder } from "../load/committed-output.js";
import { packageRoot } from "../load/package-root.js";
import type { EmittedFile } from "../shared/emitted-file.js";
import type { McpModel } from "./types.js";

/** The folder of generated/ that holds the committed models. */
export const MODELS_FOLDER = "models";

/** A model as committed: one JSON document, keys in the model's own order. */
export function modelFile(folder: string, model: McpModel): EmittedFile {
  return { path: `${folder}.json`, contents: `${JSON.stringify(model)}\n` };
}

/**
 * The committed model of a known revision with known extensions; undefined
 * when mcp-gen ships none for this combination.
 */
export function committedModel(
  revision: string,
  extensions: readonly string[],
): { folder: string; model: McpModel } | undefined {
  const folder = committedFolder(revision, extensions);
  if (folder === undefined) return undefined;
  const file = join(packageRoot(), "generated", MODELS_FOLDER, `${folder}.json`);
  if (!existsSync(file)) return undefined;
  return {
    folder: `generated/${MODELS_FOLDER}/${folder}.json`,
    model: JSON.parse(readFileSync(file, "utf8")) as McpModel,
  };
}
