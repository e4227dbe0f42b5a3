/**
 * Where revisions come from: pullRevision with an injected fetch (nothing
 * here touches the network), and resolveSpec's errors for revisions that
 * are unknown, missing or not the pinned files.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatDiagnostic, McpGenError } from "../../generator/diagnostics.js";
import { readRegistry } from "../../generator/load/registry.js";
import {
  pullRevision,
  resolveSpec,
  sha256,
  type SchemaSources,
} from "../../generator/load/resolve-spec.js";
import { listFiles } from "../../generator/write/write-output.js";
import { tempDir } from "../helpers/run-cli.js";
import { REVISIONS, SCHEMA_DIR, urlOf } from "../helpers/index.js";

const REVISION = "2025-03-26";
const registry = readRegistry();
const pinned = registry.revisions[REVISION]!.files;

/** The diagnostic lines a promise rejects with (it must reject with an McpGenError). */
async function rejection(promise: Promise<unknown>): Promise<string[]> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(McpGenError);
  return (error as McpGenError).diagnostics.map(formatDiagnostic);
}

/** A fetch that answers each pinned URL with `body(file)` and records what was asked. */
function fakeFetch(body: (file: "schema.json" | "schema.ts") => Response | Promise<Response>): {
  fetch: typeof fetch;
  urls: string[];
} {
  const urls: string[] = [];
  const byUrl = new Map(
    Object.entries(pinned).map(([file, p]) => [p.url, file as "schema.json" | "schema.ts"]),
  );
  const fake = async (input: string | URL | Request): Promise<Response> => {
    const url = urlOf(input);
    urls.push(url);
    const file = byUrl.get(url);
    if (!file) throw new Error(`unexpected URL ${url}`);
    return body(file);
  };
  return { fetch: fake, urls };
}

function sources(
  cacheDir: string,
  fetch: typeof globalThis.fetch,
  allowDownload = true,
): SchemaSources {
  return { cacheDir, allowDownload, fetch };
}

const upstream = (file: string) => readFileSync(join(SCHEMA_DIR, REVISION, file));

describe("pullRevision", () => {
  it("writes both files into the cache when the bytes match their pinned sha256", async () => {
    const cacheDir = tempDir("cache");
    const { fetch, urls } = fakeFetch((file) => new Response(upstream(file)));
    const dir = await pullRevision(REVISION, registry, sources(cacheDir, fetch));
    expect(dir).toBe(join(cacheDir, "schemas", REVISION));
    expect(urls.sort()).toEqual([pinned["schema.json"].url, pinned["schema.ts"].url].sort());
    expect(listFiles(cacheDir)).toEqual([
      join("schemas", REVISION, "schema.json"),
      join("schemas", REVISION, "schema.ts"),
    ]);
    for (const file of ["schema.json", "schema.ts"] as const)
      expect(sha256(readFileSync(join(dir, file)))).toBe(pinned[file].sha256);
  });

  it("then resolves the revision from the cache alone", async () => {
    const cacheDir = tempDir("cache");
    const { fetch } = fakeFetch((file) => new Response(upstream(file)));
    await pullRevision(REVISION, registry, sources(cacheDir, fetch));
    const resolved = await resolveSpec(REVISION, registry, { cacheDir, allowDownload: false });
    expect(resolved.schemaJson.path).toBe(join(cacheDir, "schemas", REVISION, "schema.json"));
    expect(resolved.schemaJson.sha256).toBe(pinned["schema.json"].sha256);
  });

  it("reports an unreachable source for each file and writes nothing", async () => {
    const cacheDir = tempDir("cache");
    const { fetch } = fakeFetch(() =>
      Promise.reject(new Error("getaddrinfo ENOTFOUND raw.githubusercontent.com")),
    );
    const fix =
      "(fix: check the network, or set MCP_GEN_SCHEMA_DIR to a local copy of the schemas)";
    expect(await rejection(pullRevision(REVISION, registry, sources(cacheDir, fetch)))).toEqual([
      `error MCPG105: download of ${pinned["schema.json"].url} failed: getaddrinfo ENOTFOUND raw.githubusercontent.com ${fix}`,
      `error MCPG105: download of ${pinned["schema.ts"].url} failed: getaddrinfo ENOTFOUND raw.githubusercontent.com ${fix}`,
    ]);
    expect(listFiles(cacheDir)).toEqual([]);
  });

  it("reports an HTTP error status as a failed download", async () => {
    const cacheDir = tempDir("cache");
    const { fetch } = fakeFetch((file) =>
      file === "schema.ts" ? new Response("gone", { status: 404 }) : new Response(upstream(file)),
    );
    expect(await rejection(pullRevision(REVISION, registry, sources(cacheDir, fetch)))).toEqual([
      `error MCPG105: download of ${pinned["schema.ts"].url} failed: HTTP 404 (fix: check the network, or set MCP_GEN_SCHEMA_DIR to a local copy of the schemas)`,
    ]);
    expect(listFiles(cacheDir)).toEqual([]);
  });

  it("rejects wrong bytes with a checksum mismatch and writes nothing, not even the file that matched", async () => {
    const cacheDir = tempDir("cache");
    const wrong = "export type Tampered = true;\n";
    const { fetch } = fakeFetch(
      (file) => new Response(file === "schema.ts" ? wrong : upstream(file)),
    );
    expect(await rejection(pullRevision(REVISION, registry, sources(cacheDir, fetch)))).toEqual([
      `error MCPG103: checksum mismatch for ${pinned["schema.ts"].url}: expected sha256 ${pinned["schema.ts"].sha256}, got ${sha256(wrong)} ` +
        "(fix: the file is not the pinned upstream file; delete it (from the cache or MCP_GEN_SCHEMA_DIR) and run `mcp-gen schema pull <revision>`)",
    ]);
    expect(existsSync(join(cacheDir, "schemas"))).toBe(false);
  });

  it("refuses when downloads are disabled, without calling fetch", async () => {
    const cacheDir = tempDir("cache");
    const { fetch, urls } = fakeFetch((file) => new Response(upstream(file)));
    expect(
      await rejection(pullRevision(REVISION, registry, sources(cacheDir, fetch, false))),
    ).toEqual([
      `error MCPG106: cannot pull ${REVISION}: downloads are disabled (MCP_GEN_OFFLINE=1) (fix: unset MCP_GEN_OFFLINE to download, or set MCP_GEN_SCHEMA_DIR to a local copy of the schemas)`,
    ]);
    expect(urls).toEqual([]);
  });

  it("rejects an unknown revision, listing the known ones", async () => {
    const { fetch, urls } = fakeFetch((file) => new Response(upstream(file)));
    expect(
      await rejection(pullRevision("2099-01-01", registry, sources(tempDir("cache"), fetch))),
    ).toEqual([
      `error MCPG101: unknown MCP revision "2099-01-01" (fix: use one of ${REVISIONS.join(", ")}, or pass --spec <dir> with a schema.json)`,
    ]);
    expect(urls).toEqual([]);
  });
});

describe("resolveSpec", () => {
  it("a misspelled revision that is no folder suggests the known one it is closest to", async () => {
    const { fetch, urls } = fakeFetch((file) => new Response(upstream(file)));
    const known = `(fix: use one of ${REVISIONS.join(", ")}, or pass --spec <dir> with a schema.json)`;
    const resolve = (spec: string) =>
      rejection(resolveSpec(spec, registry, sources(tempDir("cache"), fetch)));
    expect(await resolve("2025-11-5")).toEqual([
      `--spec: error MCPG101: unknown MCP revision "2025-11-5"; did you mean 2025-11-25? ${known}`,
    ]);
    expect(await resolve("2026-07-29")).toEqual([
      `--spec: error MCPG101: unknown MCP revision "2026-07-29"; did you mean 2026-07-28? ${known}`,
    ]);
    // Far from every revision, or a path: a folder without schema.json, as before.
    expect((await resolve("2099-01-01"))[0]).not.toContain("did you mean");
    expect((await resolve("./schemas/next"))[0]).toContain("MCPG104");
    expect(urls).toEqual([]);
  });

  it("downloads a revision missing locally (with the injected fetch) and lists what was tried when that fails", async () => {
    const schemaDir = tempDir("schemas");
    const cacheDir = tempDir("cache");
    const { fetch } = fakeFetch(() => Promise.reject(new Error("connect ECONNREFUSED")));
    const lines = await rejection(
      resolveSpec(REVISION, registry, { schemaDir, cacheDir, allowDownload: true, fetch }),
    );
    expect(lines).toEqual([
      `--spec: error MCPG102: could not find the schema of revision ${REVISION}; tried: ` +
        `MCP_GEN_SCHEMA_DIR ${join(schemaDir, REVISION)} (not there); cache ${join(cacheDir, "schemas", REVISION)} (not there); ` +
        `download (download of ${pinned["schema.json"].url} failed: connect ECONNREFUSED); download (download of ${pinned["schema.ts"].url} failed: connect ECONNREFUSED) ` +
        `(fix: run \`mcp-gen schema pull ${REVISION}\` while online (MCP_GEN_OFFLINE unset), or set MCP_GEN_SCHEMA_DIR to a folder holding ${REVISION}/schema.json and ${REVISION}/schema.ts)`,
    ]);
  });

  it("downloads into the cache when the injected fetch answers, and reads from there", async () => {
    const cacheDir = tempDir("cache");
    const { fetch, urls } = fakeFetch((file) => new Response(upstream(file)));
    const resolved = await resolveSpec(REVISION, registry, {
      cacheDir,
      allowDownload: true,
      fetch,
    });
    expect(urls).toHaveLength(2);
    expect(resolved).toMatchObject({
      revision: REVISION,
      known: true,
      schemaJson: { name: `${REVISION}/schema.json`, sha256: pinned["schema.json"].sha256 },
    });
  });

  it("reports a modified copy in MCP_GEN_SCHEMA_DIR as a checksum mismatch", async () => {
    const schemaDir = tempDir("schemas");
    mkdirSync(join(schemaDir, REVISION));
    copyFileSync(
      join(SCHEMA_DIR, REVISION, "schema.json"),
      join(schemaDir, REVISION, "schema.json"),
    );
    const ts = `${readFileSync(join(SCHEMA_DIR, REVISION, "schema.ts"), "utf8")}\n// local edit\n`;
    writeFileSync(join(schemaDir, REVISION, "schema.ts"), ts);
    const path = join(schemaDir, REVISION, "schema.ts");
    expect(
      await rejection(
        resolveSpec(REVISION, registry, {
          schemaDir,
          cacheDir: tempDir("cache"),
          allowDownload: false,
        }),
      ),
    ).toEqual([
      `${path}: error MCPG103: checksum mismatch for ${path}: expected sha256 ${pinned["schema.ts"].sha256}, got ${sha256(ts)} ` +
        "(fix: the file is not the pinned upstream file; delete it (from the cache or MCP_GEN_SCHEMA_DIR) and run `mcp-gen schema pull <revision>`)",
    ]);
  });

  it("takes an existing folder named like a revision (`--spec 2099-01-01`) as a folder", async () => {
    const parent = tempDir("spec");
    mkdirSync(join(parent, "2099-01-01"));
    writeFileSync(join(parent, "2099-01-01", "schema.json"), '{ "$defs": {} }');
    const cwd = process.cwd();
    process.chdir(parent);
    try {
      const resolved = await resolveSpec("2099-01-01", registry, {
        cacheDir: tempDir("cache"),
        allowDownload: false,
      });
      expect(resolved).toMatchObject({
        revision: "2099-01-01",
        known: false,
        schemaJson: { name: "2099-01-01/schema.json" },
      });
      expect(resolved.schemaTs).toBeUndefined();
    } finally {
      process.chdir(cwd);
    }
  });
});
