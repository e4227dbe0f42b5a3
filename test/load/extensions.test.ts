/**
 * Known extensions' files come from MCP_GEN_SCHEMA_DIR/extensions/<name>/,
 * the cache, or a verified download, like a revision's.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { McpGenError } from "../../generator/diagnostics.js";
import { loadExtensions, pullExtension } from "../../generator/load/extensions.js";
import { SCHEMA_DIR, tempDir, urlOf } from "../helpers/index.js";

const upstream = (url: string) =>
  join(SCHEMA_DIR, "extensions", "tasks", url.endsWith(".ts") ? "schema.ts" : "schema.json");

function fetchFrom(body: (url: string) => Uint8Array): typeof fetch {
  return (input: string | URL | Request) => Promise.resolve(new Response(body(urlOf(input))));
}

describe("known extensions", () => {
  it("pulls the Tasks files into the cache, verified", async () => {
    const cacheDir = tempDir("ext-cache");
    const dir = await pullExtension("tasks", {
      cacheDir,
      allowDownload: true,
      fetch: fetchFrom((url) => readFileSync(upstream(url))),
    });
    expect(dir).toBe(join(cacheDir, "schemas", "extensions", "tasks"));
    expect(readFileSync(join(dir, "schema.json"))).toEqual(readFileSync(upstream("schema.json")));
    const loaded = await loadExtensions(["io.modelcontextprotocol/tasks"], {
      cacheDir,
      allowDownload: false,
    });
    expect(loaded.map((e) => [e.manifest.name, e.schema.file.name, e.schemaTs?.file.name])).toEqual(
      [["tasks", "extensions/tasks/schema.json", "extensions/tasks/schema.ts"]],
    );
  });

  it("refuses bytes that do not match the pinned sha256, writing nothing", async () => {
    const cacheDir = tempDir("ext-cache");
    await expect(
      pullExtension("tasks", {
        cacheDir,
        allowDownload: true,
        fetch: fetchFrom(() => new TextEncoder().encode("{}")),
      }),
    ).rejects.toBeInstanceOf(McpGenError);
    expect(existsSync(join(cacheDir, "schemas", "extensions", "tasks"))).toBe(false);
  });

  it("says what it tried when the files are nowhere", async () => {
    const cacheDir = tempDir("ext-cache");
    try {
      await loadExtensions(["tasks"], { cacheDir, allowDownload: false });
      expect.unreachable();
    } catch (error) {
      expect((error as McpGenError).diagnostics.map((d) => d.code)).toEqual(["MCPG603"]);
      expect((error as McpGenError).diagnostics[0]!.message).toContain(
        "download (disabled by MCP_GEN_OFFLINE=1)",
      );
    }
  });
});
