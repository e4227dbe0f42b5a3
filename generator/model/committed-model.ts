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
import { BANNER_MARK, type EmittedFile } from "../shared/emitted-file.js";
import type { McpModel } from "./types.js";

/** The folder of generated/ that holds the committed models. */
export const MODELS_FOLDER = "models";

/**
 * A committed model file: the banner (JSON has no comments, so it is the
 * first key, where mcp-gen looks for it before replacing the folder),
 * then the model, keys in its own order.
 */
interface ModelDocument {
  readonly $comment: string;
  readonly model: McpModel;
}

/** A model as committed: one JSON document, the banner first. */
export function modelFile(folder: string, model: McpModel): EmittedFile {
  const document: ModelDocument = {
    $comment: `${BANNER_MARK} from the MCP ${folder} schemas. Do not edit: npm run generate writes it.`,
    model,
  };
  return { path: `${folder}.json`, contents: `${JSON.stringify(document)}\n` };
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
    model: (JSON.parse(readFileSync(file, "utf8")) as ModelDocument).model,
  };
}
