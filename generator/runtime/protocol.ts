/**
 * The generated protocol modules mcp-gen's own copy of the runtime speaks
 * with (the client `--from-server` runs, the server `upgrade` checks): the
 * modules of {@link PROJECT_REVISION} and {@link LEGACY_REVISION} that
 * mcp-gen commits in generated/ and ships built in dist/generated/. This
 * is where the generator depends on its own committed output as code
 * (load/committed-output.ts reads it as text).
 */
import { extname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { ClientProtocol } from "../../templates/runtime/client/protocol.js";
import { LEGACY_REVISION, PROJECT_REVISION } from "./revisions.js";

/** The two modules a runtime is given: the revision it speaks, and the legacy one (each whole, as a client needs it). */
export interface ProtocolModules {
  readonly protocol: ClientProtocol;
  readonly legacy: ClientProtocol;
}

/**
 * The committed modules of the project revision (with `extensions`, known
 * ones by name, e.g. `["tasks"]`: generated/2026-07-28+tasks) and of the
 * legacy revision.
 */
export async function committedProtocol(
  extensions: readonly string[] = [],
): Promise<ProtocolModules> {
  const [protocol, legacy] = await Promise.all([
    committedModule([PROJECT_REVISION, ...extensions].join("+")),
    committedModule(LEGACY_REVISION),
  ]);
  return { protocol, legacy };
}

/**
 * generated/<folder>/index, beside this module's own tree: the TypeScript
 * source when mcp-gen runs from its sources, the JavaScript of
 * dist/generated/ when it runs built (the extension is this module's own).
 */
async function committedModule(folder: string): Promise<ClientProtocol> {
  const here = fileURLToPath(import.meta.url);
  const file = join(here, "..", "..", "..", "generated", folder, `index${extname(here)}`);
  return (await import(/* @vite-ignore */ pathToFileURL(file).href)) as ClientProtocol;
}
