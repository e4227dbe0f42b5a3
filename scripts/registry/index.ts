/**
 * Refreshes the per-revision facts in schema/revisions.json from the
 * schemas themselves (read through MCP_GEN_SCHEMA_DIR, the cache, or a
 * download), and the pins of a revision's examples from the
 * `<revision>/examples/` folder under MCP_GEN_SCHEMA_DIR when there is
 * one. Run after adding a revision: `npm run update-registry`.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { defaultSchemaSources, sha256 } from "../../generator/load/resolve-spec.js";
import { packageRoot } from "../../generator/load/package-root.js";
import type { PinnedFile, RegistryRevision } from "../../generator/load/registry.js";
import { revisionFacts } from "./facts.js";

const path = join(packageRoot(), "schema", "revisions.json");
const registry = JSON.parse(readFileSync(path, "utf8")) as {
  revisions: Record<string, RegistryRevision>;
};
const sources = defaultSchemaSources();
for (const revision of Object.keys(registry.revisions).sort()) {
  const entry = registry.revisions[revision]!;
  const facts = await revisionFacts(revision, sources);
  const examples = examplePins(revision, entry) ?? entry.examples;
  registry.revisions[revision] = {
    dialect: entry.dialect,
    files: entry.files,
    ...(examples ? { examples } : {}),
    ...facts,
  };
  console.error(
    `${revision}: ${facts.methods.length} methods, ${facts.notifications.length} notifications, ${Object.keys(facts.errorCodes).length} error codes, ${Object.keys(examples ?? {}).length} examples`,
  );
}
writeFileSync(path, `${JSON.stringify(registry, null, 2)}\n`);

/**
 * The pins of `<revision>/examples/<Definition>/<name>.json` under
 * MCP_GEN_SCHEMA_DIR: each file's sha256, and its URL beside the pinned
 * schema.json's. Undefined when there is no such folder.
 */
function examplePins(
  revision: string,
  entry: RegistryRevision,
): Record<string, PinnedFile> | undefined {
  if (!sources.schemaDir) return undefined;
  const dir = join(sources.schemaDir, revision, "examples");
  if (!existsSync(dir)) return undefined;
  const base = entry.files["schema.json"].url.replace(/schema\.json$/, "examples/");
  const pins: Record<string, PinnedFile> = {};
  for (const definition of readdirSync(dir).sort())
    for (const file of readdirSync(join(dir, definition)).sort()) {
      const name = `${definition}/${file}`;
      pins[name] = { url: `${base}${name}`, sha256: sha256(readFileSync(join(dir, name))) };
    }
  return pins;
}
