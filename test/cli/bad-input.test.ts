/**
 * Bad input, through the real command line: every problem is one line on
 * stderr with its code, where it is and how to fix it; no stack; exit 2;
 * and nothing is written.
 */
import { createServer, type Server } from "node:http";
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readRegistry } from "../../generator/index.js";
import { sha256 } from "../../generator/load/resolve-spec.js";
import { REVISIONS, SCHEMA_DIR } from "../helpers/index.js";
import { fixture, leftovers, runCli, tempDir, type CliRun } from "../helpers/run-cli.js";

const FIX_JSON = "(fix: fix the JSON syntax at the position shown)";
const FIX_REF = "(fix: point the $ref at an existing definition, or add the definition)";
const FIX_DIALECT =
  "(fix: use one of the supported dialects: draft-07 (http://json-schema.org/draft-07/schema#) and 2020-12 (https://json-schema.org/draft/2020-12/schema))";
const FIX_REMOTE =
  "(fix: inline the referenced schema as a local definition and use a local $ref (#/$defs/...))";
const FIX_TS =
  "(fix: fix the TypeScript syntax, or remove schema.ts to generate from schema.json alone)";
const FIX_CYCLE =
  "(fix: such a definition describes no value; make one of them an object, array or union)";
const FIX_INNER =
  "(fix: give the referenced schema a definition of its own and point the $ref at that definition)";

/** Runs `generate` on a fixture into a folder that does not exist yet. */
async function generateFixture(
  name: string,
): Promise<{ run: CliRun; out: string; parent: string }> {
  const parent = tempDir("out");
  const out = join(parent, "mcp");
  const run = await runCli(["generate", "--spec", fixture(name), "--out", out]);
  return { run, out, parent };
}

/** The diagnostic lines of a run; asserts that stderr holds nothing else but the progress line. */
function diagnosticLines(run: CliRun, spec: string): readonly string[] {
  const [progress, ...rest] = run.stderrLines;
  expect(progress).toBe(`mcp-gen: generating ${spec}`);
  for (const line of rest) expect(line).toMatch(/^\S.*: error MCPG\d{3}: .+ \(fix: .+\)$/);
  return rest;
}

describe.concurrent("each bad input is reported in one line per problem, with exit code 2", () => {
  it.each([
    [
      "bad-json",
      [
        "bad-json/schema.json:7:79: error MCPG201: malformed JSON: expected a value, found 'integer' " +
          FIX_JSON,
      ],
    ],
    [
      "bad-unknown-ref",
      [
        `bad-unknown-ref/schema.json#/$defs/Page/properties/next/$ref: error MCPG202: $ref "#/$defs/Cursor" points to nothing in this schema ${FIX_REF}`,
      ],
    ],
    [
      "bad-ref-cycle",
      [
        `bad-ref-cycle/schema.json#/$defs/Alias: error MCPG207: $ref cycle with nothing between the references: Alias → Other → Alias ${FIX_CYCLE}`,
        `bad-ref-cycle/schema.json#/$defs/Self: error MCPG207: $ref cycle with nothing between the references: Self → Self ${FIX_CYCLE}`,
      ],
    ],
    [
      "bad-dialect",
      [
        `bad-dialect/schema.json#/$schema: error MCPG203: unsupported JSON Schema dialect "http://json-schema.org/draft-04/schema#" ${FIX_DIALECT}`,
      ],
    ],
    [
      "bad-definition-dialect",
      [
        `bad-definition-dialect/schema.json#/$defs/Legacy/$schema: error MCPG203: unsupported JSON Schema dialect "https://json-schema.org/draft/2019-09/schema" ${FIX_DIALECT}`,
      ],
    ],
    [
      "bad-remote-ref",
      [
        `bad-remote-ref/schema.json#/$defs/Page/properties/next/$ref: error MCPG204: remote $ref "https://example.com/schemas/cursor.json#/$defs/Cursor" is not supported (mcp-gen never fetches referenced schemas) ${FIX_REMOTE}`,
      ],
    ],
    [
      "bad-inner-ref",
      [
        `bad-inner-ref/schema.json#/$defs/Window/properties/size/$ref: error MCPG209: $ref "#/$defs/Page/properties/size" does not name a definition (mcp-gen follows only references of the form #/$defs/<Name>) ${FIX_INNER}`,
      ],
    ],
    [
      "bad-schema-ts",
      [
        `bad-schema-ts/schema.ts:6:16: error MCPG205: schema.ts does not parse: Property or signature expected. ${FIX_TS}`,
        `bad-schema-ts/schema.ts:7:11: error MCPG205: schema.ts does not parse: Type expected. ${FIX_TS}`,
        `bad-schema-ts/schema.ts:8:1: error MCPG205: schema.ts does not parse: Type expected. ${FIX_TS}`,
      ],
    ],
  ])("%s", async (name, want) => {
    const { run, out, parent } = await generateFixture(name);
    expect(diagnosticLines(run, fixture(name))).toEqual(want);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(existsSync(out), "a failed run leaves no output folder").toBe(false);
    expect(leftovers(parent)).toEqual([]);
  });
});

describe.concurrent("several problems are all reported together, in one run", () => {
  it("every problem of one schema.json", async () => {
    const { run } = await generateFixture("bad-several");
    expect(run.code).toBe(2);
    expect(diagnosticLines(run, fixture("bad-several"))).toEqual([
      `bad-several/schema.json#/$defs/Legacy/$schema: error MCPG203: unsupported JSON Schema dialect "http://json-schema.org/draft-04/schema#" ${FIX_DIALECT}`,
      `bad-several/schema.json#/$defs/Page/properties/next/$ref: error MCPG202: $ref "#/$defs/Cursor" points to nothing in this schema ${FIX_REF}`,
      `bad-several/schema.json#/$defs/Page/properties/owner/$ref: error MCPG204: remote $ref "https://example.com/user.json" is not supported (mcp-gen never fetches referenced schemas) ${FIX_REMOTE}`,
      `bad-several/schema.json#/$defs/Loop: error MCPG207: $ref cycle with nothing between the references: Loop → Loop ${FIX_CYCLE}`,
    ]);
  });

  it("a malformed schema.json and a schema.ts that does not parse", async () => {
    const { run } = await generateFixture("bad-both-files");
    expect(run.code).toBe(2);
    expect(diagnosticLines(run, fixture("bad-both-files"))).toEqual([
      `bad-both-files/schema.json:4:3: error MCPG201: malformed JSON: expected a double-quoted property name, found '}' ${FIX_JSON}`,
      `bad-both-files/schema.ts:4:1: error MCPG205: schema.ts does not parse: '}' expected. ${FIX_TS}`,
    ]);
  });
});

describe("a $ref cycle never hangs", () => {
  it("bare references in a loop are reported within the timeout", async () => {
    const run = await runCli(
      ["generate", "--spec", fixture("bad-ref-cycle"), "--out", join(tempDir("out"), "mcp")],
      { timeoutMs: 20_000 },
    );
    expect(
      run.code,
      "the cycle must be reported with exit 2 (null: killed by the timeout, it hung)",
    ).toBe(2);
  });
});

describe("a remote $ref is never fetched", () => {
  let server: Server;
  let requests = 0;
  beforeAll(async () => {
    server = createServer((_req, res) => {
      requests++;
      res
        .setHeader("content-type", "application/json")
        .end(JSON.stringify({ $defs: { Cursor: { type: "string" } } }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("is reported as MCPG204 while a server that would answer gets no request", async () => {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/defs.json#/$defs/Cursor`;
    const spec = join(tempDir("spec"), "remote");
    mkdirSync(spec);
    writeFileSync(
      join(spec, "schema.json"),
      JSON.stringify(
        { $defs: { Page: { type: "object", properties: { next: { $ref: url } } } } },
        null,
        2,
      ),
    );
    const run = await runCli(["generate", "--spec", spec, "--out", join(tempDir("out"), "mcp")]);
    expect(diagnosticLines(run, spec)).toEqual([
      `remote/schema.json#/$defs/Page/properties/next/$ref: error MCPG204: remote $ref "${url}" is not supported (mcp-gen never fetches referenced schemas) ${FIX_REMOTE}`,
    ]);
    expect(run.code).toBe(2);
    expect(requests).toBe(0);
  });
});

describe.concurrent("revisions that cannot be used", () => {
  it("an unknown revision name lists the known ones", async () => {
    const run = await runCli([
      "generate",
      "--spec",
      "2099-01-01",
      "--out",
      join(tempDir("out"), "mcp"),
    ]);
    expect(run.code).toBe(2);
    expect(diagnosticLines(run, "2099-01-01")).toEqual([
      `--spec: error MCPG101: unknown MCP revision "2099-01-01" (fix: use one of ${REVISIONS.join(", ")}, or pass --spec <dir> with a schema.json)`,
    ]);
  });

  it("a known revision that is nowhere offline is mcp-gen's committed output, with a note of what was tried", async () => {
    const schemaDir = tempDir("schemas");
    const cacheDir = tempDir("cache");
    // Half a revision in MCP_GEN_SCHEMA_DIR is as good as none.
    mkdirSync(join(schemaDir, "2026-07-28"));
    copyFileSync(
      join(SCHEMA_DIR, "2026-07-28", "schema.json"),
      join(schemaDir, "2026-07-28", "schema.json"),
    );
    const run = await runCli(
      ["generate", "--spec", "2026-07-28", "--out", join(tempDir("out"), "mcp")],
      { schemaDir, cacheDir },
    );
    expect(run.code).toBe(0);
    expect(run.stderrLines).toEqual([
      "mcp-gen: generating 2026-07-28",
      "--spec: note MCPG107: the files are mcp-gen's committed generated/2026-07-28, the same as generation writes but for the banners' regenerate line, " +
        "since the schemas could not be had (could not find the schema of revision 2026-07-28; tried: " +
        `MCP_GEN_SCHEMA_DIR ${join(schemaDir, "2026-07-28")} (no schema.ts); ` +
        `cache ${join(cacheDir, "schemas", "2026-07-28")} (not there); ` +
        "download (disabled by MCP_GEN_OFFLINE=1)) " +
        "(fix: to generate from the schemas themselves, run `mcp-gen schema pull 2026-07-28` while online or set MCP_GEN_SCHEMA_DIR)",
    ]);
  });

  it("a known revision with an extension mcp-gen ships no output for, nowhere offline, lists what was tried (exit 2)", async () => {
    const schemaDir = tempDir("schemas");
    const cacheDir = tempDir("cache");
    const run = await runCli(
      [
        "generate",
        "--spec",
        "2026-07-28",
        "--extension",
        fixture("ext-echo"),
        "--out",
        join(tempDir("out"), "mcp"),
      ],
      { schemaDir, cacheDir },
    );
    expect(run.code).toBe(2);
    expect(diagnosticLines(run, "2026-07-28")).toEqual([
      "--spec: error MCPG102: could not find the schema of revision 2026-07-28; tried: " +
        `MCP_GEN_SCHEMA_DIR ${join(schemaDir, "2026-07-28")} (not there); ` +
        `cache ${join(cacheDir, "schemas", "2026-07-28")} (not there); ` +
        "download (disabled by MCP_GEN_OFFLINE=1) " +
        "(fix: run `mcp-gen schema pull 2026-07-28` while online (MCP_GEN_OFFLINE unset), or set MCP_GEN_SCHEMA_DIR to a folder holding 2026-07-28/schema.json and 2026-07-28/schema.ts)",
    ]);
  });

  it("a revision whose schema.json is not the pinned file is a checksum mismatch", async () => {
    const schemaDir = tempDir("schemas");
    const dir = join(schemaDir, "2025-06-18");
    mkdirSync(dir);
    const modified = readFileSync(join(SCHEMA_DIR, "2025-06-18", "schema.json"), "utf8").replace(
      '"description"',
      '"description" ',
    );
    writeFileSync(join(dir, "schema.json"), modified);
    copyFileSync(join(SCHEMA_DIR, "2025-06-18", "schema.ts"), join(dir, "schema.ts"));
    const out = join(tempDir("out"), "mcp");
    const run = await runCli(["generate", "--spec", "2025-06-18", "--out", out], { schemaDir });
    const path = join(dir, "schema.json");
    const pinned = readRegistry().revisions["2025-06-18"]!.files["schema.json"].sha256;
    expect(run.code).toBe(2);
    expect(diagnosticLines(run, "2025-06-18")).toEqual([
      `${path}: error MCPG103: checksum mismatch for ${path}: expected sha256 ${pinned}, got ${sha256(modified)} ` +
        "(fix: the file is not the pinned upstream file; delete it (from the cache or MCP_GEN_SCHEMA_DIR) and run `mcp-gen schema pull <revision>`)",
    ]);
    expect(existsSync(out)).toBe(false);
  });

  it("a folder without schema.json", async () => {
    const spec = tempDir("spec");
    const run = await runCli(["generate", "--spec", spec, "--out", join(tempDir("out"), "mcp")]);
    expect(run.code).toBe(2);
    expect(diagnosticLines(run, spec)).toEqual([
      `${spec}: error MCPG104: no schema.json in ${spec} (fix: pass --spec a folder that holds schema.json (and optionally schema.ts), or a revision name)`,
    ]);
  });
});
