/**
 * Points mcp-gen at the upstream schemas in ../shared (never downloads
 * during tests) and at a private cache folder.
 */
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const shared = resolve(import.meta.dirname, "..", "..", "shared", "mcp-schema");
process.env.MCP_GEN_SCHEMA_DIR ??= shared;
process.env.MCP_GEN_OFFLINE = "1";
process.env.MCP_GEN_CACHE_DIR ??= mkdtempSync(join(tmpdir(), "mcp-gen-test-cache-"));
if (!existsSync(process.env.MCP_GEN_SCHEMA_DIR)) {
  throw new Error(
    `tests need the upstream MCP schemas: set MCP_GEN_SCHEMA_DIR (looked in ${process.env.MCP_GEN_SCHEMA_DIR})`,
  );
}
