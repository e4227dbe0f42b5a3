/**
 * scripts/conformance.ts without the suite: reading requirement sets, scoring a fake results
 * folder, the report's lines, the suite's arguments, and the refusal to run against a dead URL.
 */
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  ConformanceError,
  endpointOf,
  formatReport,
  main,
  parseRequirementSet,
  suiteArguments,
  summarise,
  type Check,
} from "../../scripts/conformance.js";
import { tempDir } from "../helpers.js";

/** The layout of the suite's requirements/<revision>.yaml, cut down. */
const SET_YAML = `# Conformance requirements (comment)
#
server:
  - alpha
  - beta
  - gamma

client:
  - auth/metadata-default

not_scored:
  - scenario: auth/dpop
    leg: client
    reason: extension
  - scenario: delta
    leg: server
    reason: pending
    note: >-
      folded text: with a colon
      - and a dash
`;

const SET = parseRequirementSet(SET_YAML, "2026-07-28");

/** A results folder holding `server-<name>-<stamp>/checks.json` for each entry. */
function resultsFolder(entries: Array<[string, string, Check[] | string]>, runnerLog = ""): string {
  const out = tempDir("conformance-test");
  for (const [name, stamp, checks] of entries) {
    mkdirSync(join(out, `server-${name}-${stamp}`));
    const text = typeof checks === "string" ? checks : JSON.stringify(checks);
    writeFileSync(join(out, `server-${name}-${stamp}`, "checks.json"), text);
  }
  writeFileSync(join(out, "runner.log"), runnerLog);
  return out;
}

const T0 = "2026-01-01T00-00-00-000Z";
const T1 = "2026-01-01T00-00-01-000Z";

describe("requirement sets", () => {
  it("reads the server list and the server-leg not_scored entries, skipping block scalars", () => {
    expect(SET).toEqual({
      revision: "2026-07-28",
      server: ["alpha", "beta", "gamma"],
      notScored: [{ scenario: "delta", reason: "pending" }],
    });
  });

  it.each([
    ["server: [alpha, beta]\n", 'requirements/x.yaml line 1: unexpected "server: [alpha, beta]"'],
    ["  - alpha\n", 'requirements/x.yaml line 1: unexpected "- alpha"'],
    ["client:\n  - a\n", "requirements/x.yaml: no list of server scenarios found"],
    ["server:\n  - name: alpha\n", "requirements/x.yaml: no list of server scenarios found"],
  ])("an unknown layout fails loudly: %j", (text, want) => {
    expect(() => parseRequirementSet(text, "x")).toThrow(new ConformanceError(want, 3));
  });
});

describe("summarise", () => {
  const out = resultsFolder(
    [
      [
        "alpha",
        T0,
        [
          { id: "a1", status: "SUCCESS" },
          { id: "a2", status: "FAILURE", errorMessage: "boom\n   twice" },
          { id: "a3", status: "WARNING" },
          { id: "a4", status: "INFO" },
          { id: "a5", status: "SKIPPED" },
        ],
      ],
      ["beta", T0, [{ id: "stale", status: "FAILURE" }]],
      [
        "beta",
        T1,
        [
          { id: "b1", status: "SUCCESS" },
          { id: "b2", status: "SUCCESS" },
        ],
      ],
      [
        "delta",
        T0,
        [
          { id: "d1", status: "FAILURE", description: "no message" },
          { id: "d2", status: "SUCCESS" },
        ],
      ],
    ],
    "Running client scenario 'gamma' against server: http://x/mcp\n",
  );
  const summary = summarise(out, SET);

  it("counts SUCCESS and FAILURE of scored scenarios only; a scored scenario without results is 1 failed", () => {
    expect({
      passed: summary.passed,
      failed: summary.failed,
      warnings: summary.warnings,
      ok: summary.ok,
    }).toEqual({
      passed: 3,
      failed: 2,
      warnings: 1,
      ok: false,
    });
  });

  it("keeps one row per scenario, scored ones first, the newest results of each", () => {
    expect(
      summary.scenarios.map((r) => [
        r.name,
        r.scored,
        r.ran,
        r.passed,
        r.failed,
        r.failures.map((f) => f.id),
      ]),
    ).toEqual([
      ["alpha", true, true, 1, 1, ["a2"]],
      ["beta", true, true, 2, 0, []],
      ["gamma", true, false, 0, 1, ["(no results)"]],
      ["delta", false, true, 1, 1, ["d1"]],
    ]);
  });

  it("prints a row per scenario and ends with the conformance line", () => {
    const report = {
      suite: "0.2.0-alpha.12",
      url: "http://x/mcp",
      node: "22.23.3",
      out,
      runnerExit: 1,
      elapsedMs: 1234,
      ...summary,
    };
    expect(formatReport(report)).toEqual([
      "MCP server conformance: @modelcontextprotocol/conformance@0.2.0-alpha.12, requirements 2026-07-28",
      `url: http://x/mcp   node: 22.23.3   results: ${out}`,
      "",
      "Scored (required by 2026-07-28):",
      "  FAIL alpha  1 passed, 1 failed, 1 warning",
      "       - a2: boom twice",
      "  PASS beta   2 passed, 0 failed",
      "  FAIL gamma  no results (1 failed)",
      "       - (no results): the scenario started but wrote no checks.json (see runner.log)",
      "",
      "Not scored (run and shown only):",
      "  fail delta  1 passed, 1 failed  [pending]",
      "",
      "scenarios: 1/3 scored passed; not scored: 1 run, 1 failing",
      "warnings in scored scenarios: 1; suite exit: 1; 1.2 s",
      "conformance: 3 passed, 2 failed",
    ]);
  });

  it("scores an unreadable checks.json as a failure", () => {
    const broken = resultsFolder([
      ["alpha", T0, "[{"],
      ["beta", T0, []],
      ["gamma", T0, []],
    ]);
    const row = summarise(broken, SET).scenarios[0]!;
    expect([row.failed, row.failures[0]!.id]).toEqual([1, "checks.json"]);
  });

  it("with one scenario asked for, expects only that one", () => {
    const one = resultsFolder([["beta", T0, [{ id: "b1", status: "SUCCESS" }]]]);
    const s = summarise(one, SET, "beta");
    expect([s.passed, s.failed, s.ok, s.scenarios.map((r) => r.name)]).toEqual([
      1,
      0,
      true,
      ["beta"],
    ]);
  });
});

describe("suite arguments", () => {
  it("runs the whole set with --requirements", () => {
    expect(suiteArguments({ url: "http://x/mcp", out: "/o", requirements: SET })).toEqual([
      "server",
      "--url",
      "http://x/mcp",
      "-o",
      "/o",
      "--requirements",
      "2026-07-28",
    ]);
  });

  it("runs one scenario at the set's wire, forced like a whole-set run", () => {
    expect(
      suiteArguments({
        url: "http://x/mcp",
        out: "/o",
        requirements: SET,
        scenario: "delta",
        timeoutMs: 5000,
      }),
    ).toEqual([
      "server",
      "--url",
      "http://x/mcp",
      "-o",
      "/o",
      "--scenario",
      "delta",
      "--spec-version",
      "2026-07-28",
      "--force",
      "--timeout",
      "5000",
    ]);
  });
});

describe("URLs", () => {
  it.each([
    ["http://127.0.0.1:3917/mcp", { host: "127.0.0.1", port: 3917 }],
    ["https://example.com/mcp", { host: "example.com", port: 443 }],
    ["http://localhost/", { host: "localhost", port: 80 }],
    ["http://[::1]:8080/mcp", { host: "::1", port: 8080 }],
  ])("%s", (url, want) => {
    expect(endpointOf(url)).toEqual(want);
  });

  it("refuses a dead URL before installing anything", async () => {
    const port = await freePort();
    const cache = tempDir("conformance-cache-test");
    const before = process.env.MCP_GEN_CONFORMANCE_CACHE;
    process.env.MCP_GEN_CONFORMANCE_CACHE = cache;
    try {
      await expect(main(["--url", `http://127.0.0.1:${port}/mcp`])).rejects.toThrow(
        new ConformanceError(
          `nothing accepts connections at 127.0.0.1:${port}; start the server first, or use --start`,
          2,
        ),
      );
      expect(readdirSync(cache)).toEqual([]);
    } finally {
      if (before === undefined) delete process.env.MCP_GEN_CONFORMANCE_CACHE;
      else process.env.MCP_GEN_CONFORMANCE_CACHE = before;
    }
  });
});

/** A port that nothing listens on (it was free a moment ago). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}
