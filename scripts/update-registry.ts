/**
 * Refreshes the per-revision facts in schema/revisions.json from the
 * schemas themselves (read through MCP_GEN_SCHEMA_DIR, the cache, or a
 * download). Run after adding a revision: `npm run update-registry`.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { defaultSchemaSources } from "../generator/load/resolve-spec.js";
import { packageRoot } from "../generator/load/package-root.js";
import type { RegistryRevision, RevisionsFile } from "../generator/load/registry.js";
import { revisionFacts } from "./registry-facts.js";

const path = join(packageRoot(), "schema", "revisions.json");
const registry = JSON.parse(readFileSync(path, "utf8")) as RevisionsFile;
// A copy keeps the file's order of revisions; each entry is replaced in place.
const revisions: Record<string, Partial<RegistryRevision>> = { ...registry.revisions };
for (const revision of Object.keys(registry.revisions).sort()) {
  const entry = registry.revisions[revision]!;
  const facts = await revisionFacts(revision, defaultSchemaSources());
  revisions[revision] = { dialect: entry.dialect, files: entry.files, ...facts };
  console.error(
    `${revision}: ${facts.methods.length} methods, ${facts.notifications.length} notifications, ${Object.keys(facts.errorCodes).length} error codes`,
  );
}
writeFileSync(path, `${JSON.stringify({ ...registry, revisions }, null, 2)}\n`);
