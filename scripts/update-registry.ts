/**
 * Refreshes the per-revision facts in schema/revisions.json from the
 * schemas themselves (read through MCP_GEN_SCHEMA_DIR, the cache, or a
 * download). Run after adding a revision: `npm run update-registry`.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { defaultSchemaSources } from "../generator/load/resolve-spec.js";
import { packageRoot } from "../generator/load/package-root.js";
import { revisionFacts } from "./registry-facts.js";

const path = join(packageRoot(), "schema", "revisions.json");
const registry = JSON.parse(readFileSync(path, "utf8"));
for (const revision of Object.keys(registry.revisions).sort()) {
  const facts = await revisionFacts(revision, defaultSchemaSources());
  registry.revisions[revision] = {
    dialect: registry.revisions[revision].dialect,
    files: registry.revisions[revision].files,
    ...facts,
  };
  console.error(
    `${revision}: ${facts.methods.length} methods, ${facts.notifications.length} notifications, ${Object.keys(facts.errorCodes).length} error codes`,
  );
}
writeFileSync(path, `${JSON.stringify(registry, null, 2)}\n`);
