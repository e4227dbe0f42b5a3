/**
 * `mcp-gen diff --tools`: a fixture of tool changes, each with the
 * classification a person gave it (test/fixtures/tool-diff/expected.json,
 * with the reason in `why`); the JSON form against its committed schema;
 * the `--fail-on` gate's exit codes; a live server over stdio and one
 * over Streamable HTTP (on 127.0.0.1) as a side;
 * and bad sides refused with a diagnostic that names them.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { diffToolSources, formatToolDiff, type ToolDiff } from "../../generator/diff/index.js";
import { ROOT } from "../helpers/index.js";
import { runCli, tempDir } from "../helpers/run-cli.js";

const FIXTURE = join(ROOT, "test", "fixtures", "tool-diff");
const OLD = join(FIXTURE, "old.json");
const NEW = join(FIXTURE, "new.tools-list.json");
const SERVER = join(ROOT, "test", "diff", "fixtures", "tools-server.mjs");

interface Expected {
  why: string;
  tool: string;
  kind: string;
  schema?: string;
  path?: string;
  detail?: string;
  breaking: readonly string[];
  possiblyBreaking: readonly string[];
}

const expected = JSON.parse(readFileSync(join(FIXTURE, "expected.json"), "utf8")) as Expected[];

/** The fields a classification is judged on. */
function classification(c: Omit<Expected, "why">) {
  return {
    tool: c.tool,
    kind: c.kind,
    schema: c.schema,
    path: c.path,
    detail: c.detail,
    breaking: c.breaking,
    possiblyBreaking: c.possiblyBreaking,
  };
}

describe("the tool-change fixture", () => {
  it("holds at least 20 changes, of every kind the diff must detect", () => {
    expect(expected.length).toBeGreaterThanOrEqual(20);
    const kinds = new Set(expected.map((e) => e.kind));
    for (const kind of [
      "tool-removed",
      "tool-renamed",
      "property-added",
      "type-changed",
      "enum-value-removed",
      "enum-value-added",
      "output-schema-added",
      "output-schema-removed",
      "additional-properties-changed",
      "annotation-changed",
      "execution-changed",
      "description-changed",
    ])
      expect(kinds).toContain(kind);
  });

  it("is classified change by change as expected", async () => {
    const diff = await diffToolSources(OLD, NEW);
    expect(diff.changes.map(classification)).toEqual(expected.map(classification));
  });

  it("says who each breaking change breaks and why", async () => {
    const diff = await diffToolSources(OLD, NEW);
    for (const change of diff.changes)
      if (change.breaking.length + change.possiblyBreaking.length > 0)
        expect(change.reasons.length, `${change.tool} ${change.kind}`).toBeGreaterThan(0);
    expect(diff.summary).toEqual({
      changes: expected.length,
      breakingClients: expected.filter((e) => e.breaking.includes("clients")).length,
      breakingServers: expected.filter((e) => e.breaking.includes("servers")).length,
      possiblyBreaking: expected.filter((e) => e.possiblyBreaking.length > 0).length,
      documentation: expected.filter(
        (e) =>
          /^(title|description)-changed$/.test(e.kind) ||
          (e.kind === "annotation-changed" && e.detail === "title"),
      ).length,
    });
  });

  it("finds nothing between a list and itself", async () => {
    const diff = await diffToolSources(NEW, NEW);
    expect(diff.changes).toEqual([]);
    expect(formatToolDiff(diff)).toContain("No differences.");
  });
});

describe("mcp-gen diff --tools", () => {
  it("--json is stable and valid against schema/tool-diff.schema.json", async () => {
    const [first, second] = await Promise.all([
      runCli(["diff", "--tools", OLD, NEW, "--json"]),
      runCli(["diff", "--tools", OLD, NEW, "--json"]),
    ]);
    expect(first.code, first.stderr).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    const schema = JSON.parse(
      readFileSync(join(ROOT, "schema", "tool-diff.schema.json"), "utf8"),
    ) as object;
    const validate = new Ajv2020({ strict: true }).compile(schema);
    const diff = JSON.parse(first.stdout) as ToolDiff;
    expect(validate(diff), JSON.stringify(validate.errors)).toBe(true);
    expect(diff.from).toMatchObject({ source: OLD, kind: "tools-file", tools: 20 });
    expect(diff.to).toMatchObject({ source: NEW, kind: "tools-list-snapshot", tools: 20 });
    expect(Object.keys(diff.from.fingerprints)).toHaveLength(20);
  });

  it("groups the text by whom a change breaks, with the reasons under each", async () => {
    const run = await runCli(["diff", "--tools", OLD, NEW]);
    expect(run.code, run.stderr).toBe(0);
    const headings = run.stdout.split("\n").filter((l) => /^\S.*\(\d+\)$/.test(l));
    expect(headings.map((h) => h.replace(/ \(\d+\)$/, ""))).toEqual([
      "Breaking for clients and servers",
      "Breaking for clients",
      "Breaking for servers",
      "Documentation (titles and descriptions a model reads; --fail-on documentation)",
      "Not breaking",
    ]);
    expect(run.stdout).toContain("  search: required argument index added\n");
    expect(run.stdout).toContain("      clients must now send index\n");
    expect(run.stdout).toMatch(
      / {2}tag: pattern .* in argument label {2}\[possibly also clients\]/,
    );
    expect(run.stdout).toMatch(
      /\nSuggested version bump: major \(\d+ changes break clients, or may\)\n$/,
    );
  });

  it("--fail-on sets the exit code for the sides it names", async () => {
    const dir = tempDir("tool-gate");
    const base = [{ name: "get", inputSchema: { type: "object", properties: {} } }];
    const write = (name: string, value: unknown) => {
      writeFileSync(join(dir, name), JSON.stringify(value));
      return join(dir, name);
    };
    const before = write("before.json", base);
    const described = write("described.json", [{ ...base[0], description: "Gets it." }]);
    const grown = write("grown.json", [...base, { name: "put", inputSchema: { type: "object" } }]);
    const gate = (from: string, to: string, on: string) =>
      runCli(["diff", "--tools", from, to, "--fail-on", on]);
    const [same, anyChange, onlyDescription, forServers, forClients] = await Promise.all([
      gate(before, before, "any"),
      gate(before, described, "any"),
      gate(before, described, "breaking-for-clients"),
      gate(before, grown, "breaking-for-servers"),
      gate(before, grown, "breaking-for-clients"),
    ]);
    expect(same.code).toBe(0);
    expect(anyChange.code).toBe(1);
    expect(anyChange.stderr).toBe("mcp-gen: --fail-on any: 1 change (get)\n");
    expect(onlyDescription.code).toBe(0);
    expect(forServers.code).toBe(1);
    expect(forClients.code).toBe(0);
  });

  it("a possibly breaking change fails the gate: undecided is never safe", async () => {
    const dir = tempDir("tool-gate-possibly");
    const tool = (pattern: string) => [
      {
        name: "tag",
        inputSchema: { type: "object", properties: { label: { type: "string", pattern } } },
      },
    ];
    writeFileSync(join(dir, "a.json"), JSON.stringify(tool("^[a-z]+$")));
    writeFileSync(join(dir, "b.json"), JSON.stringify(tool("^[a-z0-9]+$")));
    const run = await runCli([
      "diff",
      "--tools",
      join(dir, "a.json"),
      join(dir, "b.json"),
      "--fail-on",
      "breaking-for-clients",
    ]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("not decided");
  });

  it("takes a live server over stdio as a side", async () => {
    const dir = tempDir("tool-server");
    const tools = join(dir, "tools.json");
    writeFileSync(tools, readFileSync(OLD, "utf8"));
    const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(SERVER)} ${JSON.stringify(tools)}`;
    const run = await runCli(["diff", "--tools", OLD, command, "--json"]);
    expect(run.code, run.stderr).toBe(0);
    const diff = JSON.parse(run.stdout) as ToolDiff;
    expect(diff.to).toMatchObject({ kind: "server", tools: 20 });
    expect(diff.changes).toEqual([]);
  });

  it("takes a live server over Streamable HTTP as a side", async () => {
    const listed = JSON.parse(readFileSync(OLD, "utf8")) as unknown[];
    // An official SDK server, stateless: a server and a transport per request, as its docs show.
    const http = createServer((req, res) => {
      const server = new Server(
        { name: "http-tools", version: "1.0.0" },
        { capabilities: { tools: {} } },
      );
      server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }));
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      res.on("close", () => void transport.close());
      void server.connect(transport).then(() => transport.handleRequest(req, res));
    });
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = http.address() as AddressInfo;
      const run = await runCli(["diff", "--tools", OLD, `http://127.0.0.1:${port}/mcp`, "--json"]);
      expect(run.code, run.stderr).toBe(0);
      const diff = JSON.parse(run.stdout) as ToolDiff;
      expect(diff.to).toMatchObject({ kind: "server", tools: 20 });
      expect(diff.changes).toEqual([]);
    } finally {
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    }
  });

  it("refuses a side that holds no tools, naming it, with exit 2", async () => {
    const dir = tempDir("tool-bad");
    writeFileSync(join(dir, "object.json"), JSON.stringify({ name: "x" }));
    writeFileSync(join(dir, "twice.json"), JSON.stringify([{ name: "a" }, { name: "a" }]));
    const run = await runCli([
      "diff",
      "--tools",
      join(dir, "object.json"),
      join(dir, "twice.json"),
    ]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("object.json");
    expect(run.stderr).toContain("MCPG730");
    expect(run.stderr).toMatch(/twice\.json.*\/1\/name.*MCPG731.*listed twice/);
  });

  it("--fail-on without --tools is a usage error", async () => {
    const run = await runCli(["diff", "2025-11-25", "2026-07-28", "--fail-on", "any"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--fail-on goes with --tools");
  });
});

describe("renames among thousands of tools", () => {
  it("finds each of 2,000 renamed tools, and calls none of 2,000 removed ones of one shape a rename", async () => {
    const dir = tempDir("tool-diff-renames");
    const tool = (name: string, i: number) => ({
      name,
      inputSchema: { type: "object", properties: { [`p${i}`]: { type: "string" } } },
    });
    const write = (file: string, tools: unknown[]) => {
      writeFileSync(join(dir, file), JSON.stringify(tools));
      return join(dir, file);
    };
    const count = 2000;
    const renamed = await diffToolSources(
      write(
        "old.json",
        Array.from({ length: count }, (_, i) => tool(`old_${i}`, i)),
      ),
      write(
        "new.json",
        Array.from({ length: count }, (_, i) => tool(`new_${i}`, i)),
      ),
    );
    const renames = renamed.changes.filter((c) => c.kind === "tool-renamed");
    expect(renames).toHaveLength(count);
    expect(new Set(renames.map((c) => c.tool))).toEqual(
      new Set(Array.from({ length: count }, (_, i) => `new_${i}`)),
    );
    // Tools of one shape: no single counterpart, so no rename.
    const same = await diffToolSources(
      write(
        "same-old.json",
        Array.from({ length: count }, (_, i) => tool(`old_${i}`, 0)),
      ),
      write("same-new.json", [tool("new_0", 0)]),
    );
    expect(same.changes.filter((c) => c.kind === "tool-renamed")).toEqual([]);
  });
});
