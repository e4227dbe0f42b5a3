/**
 * A known revision whose upstream defect was fixed: the patch that fixed it
 * no longer holds, so generation skips it with a note (MCPG304) naming the
 * patch, what upstream has now and what the patch expected, and goes on;
 * the other patches still apply (MCPG303), and the output follows upstream.
 *
 * A known revision is one whose files are the bytes pinned in
 * schema/revisions.json. Here upstream "republishes" 2026-07-28 with
 * JSONValue fixed: the test writes that schema.json and pins its sha256 in
 * the registry mcp-gen reads, as `npm run update-registry` would.
 */
import { createHash } from "node:crypto";
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatDiagnostic } from "../../generator/diagnostics.js";
import { generate, type EmittedFile } from "../../generator/index.js";
import { readRegistry } from "../../generator/load/registry.js";
import { SCHEMA_DIR, tempDir, testSources } from "../helpers/index.js";

/**
 * Runs `body` while the registry mcp-gen reads pins `sha256` for
 * 2026-07-28's schema.json, as `npm run update-registry` would after
 * upstream republished it; the pin is restored afterwards. readRegistry()
 * reads the file once per process, so the pin is changed where it keeps it.
 */
async function withPinnedSchemaJson<T>(sha256: string, body: () => Promise<T>): Promise<T> {
  const pin = readRegistry().revisions["2026-07-28"]!.files["schema.json"] as { sha256: string };
  const before = pin.sha256;
  pin.sha256 = sha256;
  try {
    return await body();
  } finally {
    pin.sha256 = before;
  }
}

/** 2026-07-28 as upstream would publish it with JSONValue's primitives typed as schema.ts has them. */
function fixedUpstream(): { dir: string; sha256: string } {
  const dir = join(tempDir("fixed"), "2026-07-28");
  mkdirSync(dir);
  copyFileSync(join(SCHEMA_DIR, "2026-07-28", "schema.ts"), join(dir, "schema.ts"));
  const schema = JSON.parse(
    readFileSync(join(SCHEMA_DIR, "2026-07-28", "schema.json"), "utf8"),
  ) as { $defs: { JSONValue: { anyOf: Array<{ type?: unknown }> } } };
  expect(schema.$defs.JSONValue.anyOf[2]!.type).toEqual(["string", "integer", "boolean"]);
  schema.$defs.JSONValue.anyOf[2]!.type = ["string", "number", "boolean", "null"];
  const text = JSON.stringify(schema, null, 4);
  writeFileSync(join(dir, "schema.json"), text);
  return { dir, sha256: createHash("sha256").update(text).digest("hex") };
}

/** The declaration of JSONValue in the generated types. */
function jsonValueType(files: readonly EmittedFile[]): string | undefined {
  const types = files.find((f) => f.path === "types.gen.ts")?.contents ?? "";
  return /^export type JSONValue =[^;]*;/m.exec(types)?.[0];
}

describe("a patch whose upstream defect was fixed", () => {
  it("is skipped with a note saying what upstream has now, and generation goes on", async () => {
    const today = await generate({ spec: "2026-07-28", out: "out", sources: testSources() });
    const { dir, sha256 } = fixedUpstream();
    await withPinnedSchemaJson(sha256, async () => {
      const result = await generate({ spec: dir, out: "out", sources: testSources() });
      expect(result.model.known).toBe(true);
      expect(result.model.revision).toBe("2026-07-28");
      expect(result.diagnostics.map((d) => d.code).sort()).toEqual([
        "MCPG303",
        "MCPG303",
        "MCPG304",
      ]);
      const note = result.diagnostics.find((d) => d.code === "MCPG304")!;
      expect(formatDiagnostic(note)).toBe(
        `2026-07-28/schema.json#/$defs/JSONValue/anyOf/2/type: note MCPG304: patch "json-value-number-and-null" not applied: upstream has ["string","number","boolean","null"] where the patch expects ["string","integer","boolean"], so the defect it fixes appears fixed upstream (fix: nothing to do here; the patch can be removed from schema/patches/ once no supported revision needs it)`,
      );
      expect(result.model.supersededPatches.map((p) => p.id)).toEqual([
        "json-value-number-and-null",
      ]);
      // The other defects are still there, and still fixed.
      expect(result.model.appliedPatches.map((p) => p.id).sort()).toEqual([
        "elicit-result-content-number-with-arrays",
        "input-required-needs-requests-or-state",
      ]);
      // Upstream now says what the patch said: the JSONValue type is the one the patch made.
      expect(jsonValueType(result.files)).toMatch(/\bnull\b/);
      expect(jsonValueType(result.files)).toBe(jsonValueType(today.files));
    });
  });

  it("applies, with no such note, to the revision as pinned today (the control)", async () => {
    const result = await generate({ spec: "2026-07-28", out: "out", sources: testSources() });
    expect(result.model.known).toBe(true);
    expect(result.diagnostics.map((d) => d.code)).toEqual(["MCPG303", "MCPG303", "MCPG303"]);
    expect(result.model.appliedPatches.map((p) => p.id)).toContain("json-value-number-and-null");
  });
});
