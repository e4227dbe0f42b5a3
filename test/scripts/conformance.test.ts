/**
 * scripts/conformance/ (score.ts and its parts) without the suite: reading requirement sets,
 * scoring fake results folders of a server run and of a client run, the report's lines, the
 * suite's arguments, and the refusal to run against a dead URL or without a target.
 */
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
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
} from "../../scripts/conformance/score.js";
import { FLOORS, shortfalls } from "../../scripts/conformance/floors.js";
import { tempDir } from "../helpers/index.js";
import { freePort } from "../../scripts/shared/free-port.js";

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
  it("reads the server and client lists and the not_scored entries with their leg", () => {
    expect(SET).toEqual({
      revision: "2026-07-28",
      server: ["alpha", "beta", "gamma"],
      client: ["auth/metadata-default"],
      notScored: [
        { scenario: "auth/dpop", leg: "client", reason: "extension" },
        { scenario: "delta", leg: "server", reason: "pending" },
      ],
    });
  });

  it.each([
    ["server: [alpha\n", "requirements/x.yaml: not YAML"],
    ["  - alpha\n", "requirements/x.yaml: not a YAML map"],
    ["client:\n  - a\n", "requirements/x.yaml: server is not a list of scenario names"],
    ["server:\n  - name: alpha\n", "requirements/x.yaml: server is not a list of scenario names"],
    ["server:\n  - a\nclient: b\n", "requirements/x.yaml: client is not a list of scenario names"],
    [
      "server:\n  - a\nnot_scored:\n  - leg: server\n",
      "requirements/x.yaml: not_scored entry 1 has no scenario",
    ],
  ])("an unknown layout fails loudly: %j", (text, want) => {
    expect(() => parseRequirementSet(text, "x")).toThrow(want);
    expect(() => parseRequirementSet(text, "x")).toThrow(ConformanceError);
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
  const summary = summarise(out, SET, "server");

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
        r.standing === "scored",
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
      target: "http://x/mcp",
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
    const row = summarise(broken, SET, "server").scenarios[0]!;
    expect([row.failed, row.failures[0]!.id]).toEqual([1, "checks.json"]);
  });

  it("--score counts the unscored scenarios it matches, failures included", () => {
    const scored = summarise(out, SET, "server", { score: /^del/ });
    expect(scored.scenarios.find((r) => r.name === "delta")?.standing).toBe("scored");
    expect([scored.passed, scored.failed]).toEqual([4, 3]);
    expect(summarise(out, SET, "server", { score: /^zzz/ }).failed).toBe(2);
  });

  it("with one scenario asked for, expects only that one", () => {
    const one = resultsFolder([["beta", T0, [{ id: "b1", status: "SUCCESS" }]]]);
    const s = summarise(one, SET, "server", { scenario: "beta" });
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
    expect(
      suiteArguments({ leg: "server", target: "http://x/mcp", out: "/o", requirements: SET }),
    ).toEqual(["server", "--url", "http://x/mcp", "-o", "/o", "--requirements", "2026-07-28"]);
  });

  it("runs one scenario at the set's wire, forced like a whole-set run", () => {
    expect(
      suiteArguments({
        leg: "server",
        target: "http://x/mcp",
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

describe("a client run", () => {
  /** A client results folder: `<name>-<stamp>/checks.json`, auth scenarios one folder deeper. */
  function clientResults(entries: Array<[string, Check[]]>): string {
    const out = tempDir("conformance-client-test");
    for (const [name, checks] of entries) {
      mkdirSync(join(out, `${name}-${T0}`), { recursive: true });
      writeFileSync(join(out, `${name}-${T0}`, "checks.json"), JSON.stringify(checks));
    }
    writeFileSync(join(out, "runner.log"), "Starting scenario: tools_call\n");
    return out;
  }
  const CLIENT_SET = parseRequirementSet(
    "server:\n  - s\nclient:\n  - tools_call\n  - sse-retry\n  - auth/metadata-default\nnot_scored:\n  - scenario: auth/dpop\n    leg: client\n    reason: extension\n",
    "2025-11-25",
  );

  it("finds nested auth/ results, fails a WARNING, and counts deferred scenarios apart", () => {
    const out = clientResults([
      ["tools_call", [{ id: "t1", status: "SUCCESS" }]],
      [
        "sse-retry",
        [
          { id: "r1", status: "SUCCESS" },
          { id: "r2", status: "WARNING", errorMessage: "slow" },
        ],
      ],
      ["auth/metadata-default", [{ id: "m1", status: "FAILURE" }]],
      ["auth/dpop", [{ id: "d1", status: "FAILURE" }]],
    ]);
    const summary = summarise(out, CLIENT_SET, "client", { defer: /^auth\// });
    expect(
      summary.scenarios.map((r) => [r.name, r.standing, r.passed, r.failed, r.warnings]),
    ).toEqual([
      ["tools_call", "scored", 1, 0, 0],
      ["sse-retry", "scored", 1, 1, 1],
      ["auth/metadata-default", "deferred", 0, 1, 0],
      ["auth/dpop", "unscored", 0, 1, 0],
    ]);
    expect([summary.passed, summary.failed, summary.ok, summary.deferred]).toEqual([
      2,
      1,
      false,
      { scenarios: 1, passed: 0, failed: 1 },
    ]);
    const lines = formatReport({
      suite: "0.2.0-alpha.12",
      target: "exec node c.js",
      node: "22.23.3",
      out,
      runnerExit: 1,
      elapsedMs: 1000,
      ...summary,
    });
    expect(lines.slice(0, 2)).toEqual([
      "MCP client conformance: @modelcontextprotocol/conformance@0.2.0-alpha.12, requirements 2025-11-25",
      `command: exec node c.js   node: 22.23.3   results: ${out}`,
    ]);
    expect(lines).toContain("  FAIL auth/metadata-default  0 passed, 1 failed  [deferred]");
    expect(lines).toContain("deferred: 0/1 scenarios passed, 0 checks passed, 1 failed");
    expect(lines.at(-1)).toBe("conformance: 2 passed, 1 failed");
  });

  it("runs the client subcommand with the command", () => {
    expect(
      suiteArguments({
        leg: "client",
        target: "exec node c.js",
        out: "/o",
        requirements: CLIENT_SET,
      }),
    ).toEqual([
      "client",
      "--command",
      "exec node c.js",
      "-o",
      "/o",
      "--requirements",
      "2025-11-25",
    ]);
  });

  it("refuses both a URL and a command, or neither", async () => {
    await expect(main(["--command", "c", "--url", "http://127.0.0.1:1/mcp"])).rejects.toThrow(
      /give either --url/,
    );
    await expect(main([])).rejects.toThrow(/give either --url/);
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

describe("npm run conformance's floors", () => {
  const report = (checks: number, scenarios: number) =>
    `...\nscenarios: ${scenarios}/${scenarios} scored passed; not scored: 0 run, 0 failing\nconformance: ${checks} passed, 0 failed\n`;

  it("pass a run that counts what the docs record, or more", () => {
    expect(shortfalls("2026-07-28 server", report(164, 47))).toEqual([]);
    expect(shortfalls("2025-11-25 client", report(300, 24))).toEqual([]);
  });

  it("fail a run whose checks or scenarios quietly disappeared", () => {
    expect(shortfalls("2026-07-28 client", report(481, 38))).toEqual([
      "2026-07-28 client: 481 checks passed, at least 482 expected",
    ]);
    expect(shortfalls("2025-11-25 server", report(70, 29))).toEqual([
      "2025-11-25 server: 29 scored scenarios passed, at least 30 expected",
    ]);
    expect(shortfalls("2026-07-28 server", "no summary at all")).toHaveLength(2);
  });

  it("has a floor for every leg and requirement set CI runs", () => {
    expect(Object.keys(FLOORS).sort()).toEqual([
      "2025-11-25 client",
      "2025-11-25 server",
      "2026-07-28 client",
      "2026-07-28 server",
    ]);
  });
});
