/**
 * Every upstream file mcp-gen pins (schemas, the 2026-07-28 examples, the
 * Tasks extension and its specification): the registry's pins match the
 * files, `pullRevision` brings a revision's examples with its schemas, and
 * `pullEverything` fills the cache from folders that hold whole sets and a
 * verified download of the rest. An injected fetch serves the files; nothing
 * here touches the network.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatDiagnostic, McpGenError } from "../../generator/diagnostics.js";
import { readRegistry } from "../../generator/load/registry.js";
import { examplesSet, pullRevision, sha256 } from "../../generator/load/resolve-spec.js";
import { everyPinnedSet, gapsIn, pullEverything } from "../../generator/load/upstream-files.js";
import { listFiles } from "../../generator/write/write-output.js";
import { ROOT, SCHEMA_DIR, tempDir, urlOf } from "../helpers/index.js";

const registry = readRegistry();
const sets = everyPinnedSet(registry);

/** Pinned URL → the file under SCHEMA_DIR it names. */
const files = new Map(
  sets.flatMap((set) =>
    Object.entries(set.files).map(([name, pinned]) => [
      pinned.url,
      join(SCHEMA_DIR, set.folder, name),
    ]),
  ),
);

/** Pinned URLs of package archives (MCP Apps' npm tarball), whose pinned integrity only the published archive has. */
const archives = new Set(
  sets.flatMap((set) =>
    Object.values(set.files).flatMap((pinned) => (pinned.archive ? [pinned.url] : [])),
  ),
);

/** The published archives, fetched once from the npm registry: no local file has their integrity. */
const published = new Map<string, Promise<Buffer>>();
function publishedArchive(url: string): Promise<Buffer> {
  if (!published.has(url))
    published.set(
      url,
      // Bounded in time: a registry that does not answer fails the test within a minute.
      fetch(url, { signal: AbortSignal.timeout(60_000) }).then(async (r) => {
        if (!r.ok) throw new Error(`${url}: ${r.status}`);
        return Buffer.from(await r.arrayBuffer());
      }),
    );
  return published.get(url)!;
}

/** A fetch serving the upstream files by their pinned URLs (optionally changed), recording what was asked. */
function upstreamFetch(change: (url: string, bytes: Buffer) => Buffer = (_u, b) => b) {
  const urls: string[] = [];
  const fake = async (input: string | URL | Request): Promise<Response> => {
    const url = urlOf(input);
    urls.push(url);
    if (archives.has(url)) return new Response(change(url, await publishedArchive(url)));
    const path = files.get(url);
    return path ? new Response(change(url, readFileSync(path))) : new Response("", { status: 404 });
  };
  return { fetch: fake, urls };
}

async function rejection(promise: Promise<unknown>): Promise<string[]> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(McpGenError);
  return (error as McpGenError).diagnostics.map(formatDiagnostic);
}

describe("the registry's pins", () => {
  it("cover every upstream file the tests read, each with its sha256", () => {
    expect(gapsIn(SCHEMA_DIR, sets)).toEqual({ missing: [], mismatched: [] });
    expect(sets.map((s) => s.folder)).toEqual([
      "2024-11-05",
      "2025-03-26",
      "2025-06-18",
      "2025-11-25",
      "2026-07-28",
      "2026-07-28/examples",
      "extensions/apps",
      "extensions/skills",
      "extensions/tasks",
      "extensions/tasks",
    ]);
  });

  it("pin every 2026-07-28 example, at its upstream path beside schema.json", () => {
    const examples = examplesSet("2026-07-28", registry)!;
    const onDisk = listFiles(join(SCHEMA_DIR, "2026-07-28", "examples")).map((p) =>
      p.split("\\").join("/"),
    );
    expect(Object.keys(examples.files).sort()).toEqual(onDisk.sort());
    expect(onDisk).toHaveLength(129);
    const base = registry.revisions["2026-07-28"]!.files["schema.json"].url.replace(
      /schema\.json$/,
      "examples/",
    );
    for (const [name, pinned] of Object.entries(examples.files)) {
      expect(pinned.url).toBe(`${base}${name}`);
      expect(pinned.sha256).toBe(
        sha256(readFileSync(join(SCHEMA_DIR, "2026-07-28", "examples", name))),
      );
    }
  });

  it("no other revision has examples", () => {
    for (const revision of ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"])
      expect(examplesSet(revision, registry)).toBeUndefined();
  });
});

describe("pullRevision", () => {
  it("brings the 2026-07-28 examples with the schemas, verified", async () => {
    const cacheDir = tempDir("cache");
    const { fetch, urls } = upstreamFetch();
    const dir = await pullRevision("2026-07-28", registry, {
      cacheDir,
      allowDownload: true,
      fetch,
    });
    expect(dir).toBe(join(cacheDir, "schemas", "2026-07-28"));
    expect(urls).toHaveLength(2 + 129);
    expect(
      gapsIn(
        join(cacheDir, "schemas"),
        sets.filter((s) => s.folder.startsWith("2026-07-28")),
      ),
    ).toEqual({
      missing: [],
      mismatched: [],
    });
  });

  it("writes nothing when one example has other bytes, and names it", async () => {
    const cacheDir = tempDir("cache");
    const bad = Object.values(examplesSet("2026-07-28", registry)!.files)[5]!;
    const { fetch } = upstreamFetch((url, bytes) =>
      url === bad.url ? Buffer.from(`${bytes.toString()} `) : bytes,
    );
    const lines = await rejection(
      pullRevision("2026-07-28", registry, { cacheDir, allowDownload: true, fetch }),
    );
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(
        `^error MCPG103: checksum mismatch for ${bad.url.replace(/[.]/g, "\\.")}: expected sha256 ${bad.sha256}, got [0-9a-f]{64} `,
      ),
    );
    expect(listFiles(cacheDir)).toEqual([]);
  });
});

describe("pullEverything", () => {
  it("downloads every pinned file into an empty cache, verified", async () => {
    const cacheDir = tempDir("cache");
    const { fetch, urls } = upstreamFetch();
    const root = await pullEverything(registry, { cacheDir, allowDownload: true, fetch });
    expect(root).toBe(join(cacheDir, "schemas"));
    expect(urls.sort()).toEqual([...files.keys()].sort());
    expect(gapsIn(root, sets)).toEqual({ missing: [], mismatched: [] });
  });

  it("copies sets a folder holds whole, downloads only the rest, and does nothing the second time", async () => {
    const cacheDir = tempDir("cache");
    const partial = tempDir("partial");
    // A folder holding one whole set (2025-06-18) and half of another (2025-11-25).
    for (const [folder, names] of [
      ["2025-06-18", ["schema.json", "schema.ts"]],
      ["2025-11-25", ["schema.json"]],
    ] as const)
      for (const name of names) {
        mkdirSync(join(partial, folder), { recursive: true });
        writeFileSync(join(partial, folder, name), readFileSync(join(SCHEMA_DIR, folder, name)));
      }
    const first = upstreamFetch();
    await pullEverything(registry, { cacheDir, allowDownload: true, fetch: first.fetch }, [
      partial,
    ]);
    const june = Object.values(registry.revisions["2025-06-18"]!.files).map((f) => f.url);
    expect(first.urls.filter((u) => june.includes(u))).toEqual([]);
    expect(first.urls).toContain(registry.revisions["2025-11-25"]!.files["schema.json"].url);
    expect(gapsIn(join(cacheDir, "schemas"), sets)).toEqual({ missing: [], mismatched: [] });
    const second = upstreamFetch();
    await pullEverything(registry, { cacheDir, allowDownload: true, fetch: second.fetch });
    expect(second.urls).toEqual([]);
  });

  it("offline, names every set it lacks and writes nothing", async () => {
    const cacheDir = tempDir("cache");
    const lines = await rejection(pullEverything(registry, { cacheDir, allowDownload: false }));
    expect(lines).toEqual([
      `error MCPG108: upstream files missing: ${sets.map((s) => s.folder).join(", ")} (looked in ${join(cacheDir, "schemas")}; downloads are disabled by MCP_GEN_OFFLINE=1) ` +
        "(fix: set MCP_GEN_SCHEMA_DIR to a folder that holds them, or unset MCP_GEN_OFFLINE and run `mcp-gen schema pull --all`)",
    ]);
    expect(listFiles(cacheDir)).toEqual([]);
  });
});

describe("schema/revisions.json", () => {
  it("follows schema/revisions.schema.json, which its $schema names", async () => {
    const { Ajv2020 } = await import("ajv/dist/2020.js");
    const read = (name: string) =>
      JSON.parse(readFileSync(join(ROOT, "schema", name), "utf8")) as Record<string, unknown>;
    const registryFile = read("revisions.json");
    expect(registryFile.$schema).toBe("./revisions.schema.json");
    const validate = new Ajv2020({ allErrors: true, strict: true, validateFormats: false }).compile(
      read("revisions.schema.json"),
    );
    expect(validate(registryFile), JSON.stringify(validate.errors)).toBe(true);
  });
});
