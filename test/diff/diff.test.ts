/**
 * `mcp-gen diff`: the library API (diffRevisions) and the CLI. The
 * 2025-11-25 → 2026-07-28 example names initialize and ping removed,
 * server/discover and subscriptions/listen added, -32020..-32022 added and
 * resultType on results; a synthetic change to a copy of 2026-07-28 is
 * marked breaking for exactly the side that must adapt.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { diffRevisions, type Change, type ModelDiff } from "../../generator/diff/index.js";
import { McpGenError } from "../../generator/diagnostics.js";
import { runCli, tempDir } from "../helpers/run-cli.js";
import { SCHEMA_DIR, testSources } from "../helpers/index.js";

let example: ModelDiff;
beforeAll(async () => {
  example = (await diffRevisions("2025-11-25", "2026-07-28", { sources: testSources() })).diff;
});

const find = (diff: ModelDiff, category: Change["category"], subject: string) =>
  diff.changes.filter((c) => c.category === category && c.subject === subject);

describe("diff 2025-11-25 → 2026-07-28", () => {
  it("names initialize and ping removed, breaking both sides", () => {
    for (const method of ["initialize", "ping"])
      expect(find(example, "method", method)).toEqual([
        expect.objectContaining({ change: "removed", breaking: ["servers", "clients"] }),
      ]);
    expect(find(example, "notification", "notifications/initialized")).toEqual([
      expect.objectContaining({ change: "removed" }),
    ]);
  });

  it("names server/discover and subscriptions/listen added, breaking neither", () => {
    for (const method of ["server/discover", "subscriptions/listen"])
      expect(find(example, "method", method)).toEqual([
        {
          category: "method",
          subject: method,
          change: "added",
          to: "client-to-server",
          breaking: [],
          summary: "added (client -> server)",
        },
      ]);
  });

  it("names -32020, -32021 and -32022 added", () => {
    expect(
      example.changes
        .filter((c) => c.category === "error-code" && c.change === "added")
        .map((c) => [c.subject, c.to]),
    ).toEqual([
      ["-32020", "HeaderMismatch"],
      ["-32021", "MissingRequiredClientCapability"],
      ["-32022", "UnsupportedProtocolVersion"],
    ]);
  });

  it("says results now carry resultType, which servers must send, and which methods may answer InputRequiredResult", () => {
    expect(find(example, "result-type", "resultType")).toEqual([
      expect.objectContaining({
        change: "added",
        aspect: "introduced",
        to: ["complete", "input_required"],
        breaking: ["servers"],
      }),
    ]);
    const mrtr = example.changes
      .filter((c) => c.aspect === "mrtr" && c.change === "added")
      .map((c) => c.subject);
    expect(mrtr).toEqual(["prompts/get", "resources/read", "tools/call"]);
  });

  it("is sorted, summed and tells the sides apart", () => {
    const { summary, changes } = example;
    expect(summary.changes).toBe(changes.length);
    expect(summary.breakingServers).toBe(
      changes.filter((c) => c.breaking.includes("servers")).length,
    );
    expect(summary.breakingClients).toBe(
      changes.filter((c) => c.breaking.includes("clients")).length,
    );
    const order = [
      "method",
      "notification",
      "result-type",
      "error-code",
      "capability",
      "definition",
    ];
    const ranks = changes.map((c) => order.indexOf(c.category));
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    expect(example.from).toMatchObject({
      spec: "2025-11-25",
      protocolVersion: "2025-11-25",
      known: true,
    });
    expect(example.to.sources.map((s) => s.name)).toEqual([
      "2026-07-28/schema.json",
      "2026-07-28/schema.ts",
    ]);
  });
});

describe("diff of a revision with itself, and of a synthetic change", () => {
  it("a revision against itself has no changes", async () => {
    const { diff } = await diffRevisions("2026-07-28", "2026-07-28", { sources: testSources() });
    expect(diff.changes).toEqual([]);
  });

  it("marks each change breaking for exactly the side that must adapt", async () => {
    const dir = join(tempDir("diff"), "next");
    mkdirSync(dir);
    copyFileSync(join(SCHEMA_DIR, "2026-07-28", "schema.ts"), join(dir, "schema.ts"));
    const schema = JSON.parse(
      readFileSync(join(SCHEMA_DIR, "2026-07-28", "schema.json"), "utf8"),
    ) as { $defs: Record<string, { properties: Record<string, unknown>; required: string[] }> };
    const params = schema.$defs.CallToolRequestParams!;
    // Clients send tools/call params: a new required property is theirs to send.
    params.properties.priority = { type: "integer" };
    params.required.push("priority");
    // Servers send CallToolResult: a new optional property breaks nobody.
    schema.$defs.CallToolResult!.properties.costMs = { type: "number" };
    // A description is not a change.
    (params.properties.name as { description: string }).description = "Reworded.";
    writeFileSync(join(dir, "schema.json"), JSON.stringify(schema));

    const { diff } = await diffRevisions("2026-07-28", dir, { sources: testSources() });
    const interesting = diff.changes.map((c) => [
      c.category,
      c.subject,
      c.aspect,
      c.detail,
      c.breaking,
    ]);
    expect(interesting).toEqual([
      ["method", "tools/call", "params", "CallToolRequestParams", ["clients"]],
      ["method", "tools/call", "result", undefined, []],
      ["definition", "CallToolRequestParams", "property", "priority", ["clients"]],
      ["definition", "CallToolResult", "property", "costMs", []],
    ]);
    expect(diff.to.spec).toBe(dir);
    expect(diff.to.known).toBe(false);
  });

  it("a side that cannot be read: both sides' problems in one McpGenError", async () => {
    const error = await diffRevisions("2026-13-01", join(tempDir("diff"), "nothing"), {
      sources: testSources(),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpGenError);
    expect((error as McpGenError).diagnostics.map((d) => d.code)).toEqual(["MCPG101", "MCPG104"]);
  });
});

describe("mcp-gen diff on the command line", () => {
  it("prints the changes grouped for people, the sides each breaks, exit 0", async () => {
    const run = await runCli(["diff", "2025-11-25", "2026-07-28", "--quiet"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const lines = run.stdout.split("\n");
    expect(lines[0]).toBe(
      `2025-11-25 -> 2026-07-28: ${example.summary.changes} changes, ${example.summary.breakingServers} breaking for servers, ${example.summary.breakingClients} breaking for clients`,
    );
    expect(lines).toContain(
      "  - initialize: removed (client -> server)  [breaks servers and clients]",
    );
    expect(lines).toContain("  - ping: removed (both ways)  [breaks servers and clients]");
    expect(lines).toContain("  + server/discover: added (client -> server)");
    expect(lines).toContain("  + subscriptions/listen: added (client -> server)");
    expect(lines).toContain("  + -32021: MissingRequiredClientCapability added");
    expect(lines).toContain(
      '  + resultType: results now carry resultType ("complete", "input_required"); a result without one is "complete"  [breaks servers]',
    );
    for (const heading of [
      "Methods",
      "Notifications",
      "Result types",
      "Error codes",
      "Capabilities",
      "Definitions",
    ])
      expect(lines.some((l) => l.startsWith(`${heading} (`))).toBe(true);
  });

  it("--json prints exactly the library's object, the same bytes every run", async () => {
    const first = await runCli(["diff", "2025-11-25", "2026-07-28", "--json"]);
    expect(first.code).toBe(0);
    expect(first.stderr).toBe("");
    expect(JSON.parse(first.stdout)).toEqual(JSON.parse(JSON.stringify(example)));
    const second = await runCli(["diff", "2025-11-25", "2026-07-28", "--json"]);
    expect(second.stdout).toBe(first.stdout);
  });

  it("with --extension, merges it into both sides", async () => {
    const run = await runCli([
      "diff",
      "2026-07-28",
      "2026-07-28",
      "--extension",
      "tasks",
      "--json",
    ]);
    expect(run.code).toBe(0);
    const diff = JSON.parse(run.stdout) as ModelDiff;
    expect(diff.changes).toEqual([]);
    expect(diff.from.extensions).toEqual(diff.to.extensions);
    expect(diff.from.extensions.length).toBe(1);
  });

  it("a bad side is exit 2 with its diagnostics; a missing side is a usage error", async () => {
    const bad = await runCli(["diff", "2026-07-28", "1999-01-01"]);
    expect(bad.code).toBe(2);
    expect(bad.stderrLines[0]).toMatch(/error MCPG101: unknown MCP revision "1999-01-01"/);
    const missing = await runCli(["diff", "2026-07-28"]);
    expect(missing.code).toBe(2);
    expect(missing.stderrLines[0]).toBe(
      "mcp-gen: Not enough non-option arguments: got 1, need at least 2",
    );
  });
});
