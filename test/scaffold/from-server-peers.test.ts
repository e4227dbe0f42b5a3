/**
 * `--from-server` against servers that fail or misbehave over stdio: a
 * child process speaking 2025-11-25 line by line (test/scaffold/fixtures/
 * stdio-peer.mjs, told by MODE what to do). What the server said on stderr
 * and what it wrote instead of messages explain the failure, a list past
 * the bound is refused, and nothing a server sends reaches the terminal as
 * control characters.
 */
import { copyFileSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatDiagnostic, McpGenError } from "../../generator/diagnostics.js";
import { listServerTools } from "../../generator/runtime/from-server.js";
import { ROOT } from "../helpers/index.js";
import { runCli, tempDir } from "../helpers/run-cli.js";

const PEER = join(ROOT, "test", "scaffold", "fixtures", "stdio-peer.mjs");
const peer = (mode: string) =>
  `env MODE=${mode} ${JSON.stringify(process.execPath)} ${JSON.stringify(PEER)}`;

/** The one diagnostic listing the tools of `mode`'s server failed with, as printed. */
async function failure(mode: string, timeoutMs = 3000): Promise<string> {
  const error = await listServerTools(peer(mode), timeoutMs).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(McpGenError);
  const [diagnostic, ...rest] = (error as McpGenError).diagnostics;
  expect(rest).toEqual([]);
  expect(diagnostic!.code).toBe("MCPG721");
  return formatDiagnostic(diagnostic!);
}

describe("--from-server over stdio", () => {
  it("lists a well-behaved server's tools, every page", async () => {
    const { tools } = await listServerTools(peer("pages-3"), 10_000);
    expect(tools).toHaveLength(3000);
  });

  it("lists the tools a scaffolded client sees: it declares the project's capabilities (elicitation)", async () => {
    const { tools } = await listServerTools(peer("elicit"), 10_000);
    expect(tools).toEqual([{ name: "ask", inputSchema: { type: "object" } }]);
  });

  it("a server that exits at start is explained by the end of its stderr", async () => {
    expect(await failure("needs-key")).toMatch(
      /exited \(code 1\) \(its stderr ended with: starting\.\.\. \| fatal: API_KEY is not set; export it and try again\)/,
    );
  });

  it("a server that answers with lines that are no messages is explained by the last of them, its control characters escaped", async () => {
    const printed = await failure("garbage");
    expect(printed).toContain(
      'the MCP server wrote a line that is not a JSON-RPC message: "\\u001b]0;PWNED\\u0007\\u001b[2J not json"',
    );
    // eslint-disable-next-line no-control-regex -- what must not be printed
    expect(printed).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
  });

  it("a server slow to page is cut off after four timeouts in all, not one per page", async () => {
    expect(await failure("slow", 500)).toContain(
      "listing every page of tools/list took more than 2 s",
    );
  });

  it("a server listing more than 10,000 tools is refused, with the way out", async () => {
    expect(await failure("pages-11", 20_000)).toContain(
      "it lists more than 10000 tools, more than a project can hold (one of 10000 typechecks in about 1.6 GB); write the tools the client needs to a tools file and pass it with --tools",
    );
  });
});

describe("a --from-server command with a relative path", () => {
  it("is recorded with the folder it ran in, and regeneration runs it there, from any folder of the project", async () => {
    const root = tempDir("from-server-relative");
    mkdirSync(join(root, "server"));
    mkdirSync(join(root, "work"));
    copyFileSync(PEER, join(root, "server", "peer.mjs"));
    const command = `${JSON.stringify(process.execPath)} ../server/peer.mjs`;
    const cwd = join(root, "work");
    const made = await runCli(["client", "proj", "--from-server", command, "--quiet"], { cwd });
    expect(made.code, made.stderr).toBe(0);
    const project = join(cwd, "proj");
    expect(JSON.parse(readFileSync(join(project, "mcp-gen.json"), "utf8"))).toMatchObject({
      fromServer: command,
      fromServerFolder: "..",
    });
    for (const from of [project, join(project, "src")]) {
      const check = await runCli(["generate", "--check", "--quiet"], { cwd: from });
      expect(check.code, check.stderr).toBe(0);
    }
  }, 120_000);
});

describe("diagnostics quote what peers send", () => {
  it("control characters are escaped and a long message is cut, saying how much", () => {
    const printed = formatDiagnostic({
      code: "MCPG720",
      severity: "warning",
      message: `tool \u001b[31m${"x".repeat(20_000)}`,
    });
    expect(printed).toMatch(/^warning MCPG720: tool \\u001b\[31mx+… \(12010 more characters\)$/);
    expect(printed.length).toBeLessThan(8100);
  });
});
