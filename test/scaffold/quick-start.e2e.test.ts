/**
 * README.md's quick start runs as written. Its shell blocks are read from
 * the README itself (so a change there that breaks a command fails here)
 * and run end to end, each by bash in one temporary folder, as a user
 * types them into two terminals: the first scaffolds a server, installs it
 * from the npm registry and starts it; once it listens, the second
 * scaffolds a client from that server, installs it and calls the tool,
 * and the answer must carry the text the README sends.
 *
 * What stands in for the user's machine: `mcp-gen` on PATH is the built
 * CLI of this checkout; mcp-gen is offline with a cache of its own and no
 * MCP_GEN_SCHEMA_DIR, as on a new user's machine without network; the
 * README's port (the server's default) is replaced by a free one, so the
 * test does not depend on 3000 being free.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import type { RootContent } from "mdast";
import { fromMarkdown } from "mdast-util-from-markdown";
import { afterAll, describe, expect, it } from "vitest";
import { HTTP_DEFAULTS } from "../../templates/runtime/transport/node.js";
import { freePort } from "../../scripts/shared/free-port.js";
import { ROOT, tempDir } from "../helpers/index.js";
import { projectEnv } from "../helpers/project.js";

const MINUTE = 60_000;

/** The `sh` blocks of README.md's "Quick start" section, in order. */
function quickStartBlocks(): string[] {
  const readme = fromMarkdown(readFileSync(join(ROOT, "README.md"), "utf8"));
  const top: RootContent[] = readme.children;
  const start = top.findIndex(
    (node) =>
      node.type === "heading" &&
      node.depth === 2 &&
      node.children.map((child) => ("value" in child ? child.value : "")).join("") ===
        "Quick start",
  );
  if (start < 0) throw new Error('README.md has no "## Quick start" section');
  const end = top.findIndex((node, i) => i > start && node.type === "heading" && node.depth <= 2);
  return top
    .slice(start + 1, end < 0 ? undefined : end)
    .flatMap((node) => (node.type === "code" && node.lang === "sh" ? [node.value] : []));
}

/** A folder holding an `mcp-gen` command that runs this checkout's built CLI. */
function mcpGenOnPath(): string {
  const bin = join(tempDir("quick-start-bin"), "bin");
  mkdirSync(bin);
  const main = join(ROOT, "dist", "generator", "cli", "main.js");
  writeFileSync(
    join(bin, "mcp-gen"),
    `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(main)} "$@"\n`,
  );
  chmodSync(join(bin, "mcp-gen"), 0o755);
  return bin;
}

/** A terminal: bash running one block (stopping at the first command that fails), in a process group of its own. */
interface Terminal {
  readonly child: ChildProcess;
  output(): string;
  stdout(): string;
  /** Resolves with the exit code once bash has ended. */
  readonly exited: Promise<number | null>;
}

const terminals = new Set<Terminal>();

function openTerminal(block: string, cwd: string, env: NodeJS.ProcessEnv): Terminal {
  const child = spawn("bash", ["-e", "-c", block], {
    cwd,
    env,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let stdout = "";
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString("utf8");
    output += chunk.toString("utf8");
  });
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  const exited = new Promise<number | null>((resolve) =>
    child.once("close", (code) => resolve(code)),
  );
  const terminal = { child, output: () => output, stdout: () => stdout, exited };
  terminals.add(terminal);
  void exited.then(() => terminals.delete(terminal));
  return terminal;
}

/** Ends everything a terminal started (npm, the server it runs), as closing it would. */
async function closeTerminal(terminal: Terminal): Promise<void> {
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-terminal.child.pid!, name);
    } catch {
      // the group is gone
    }
  };
  signal("SIGTERM");
  const timer = setTimeout(() => signal("SIGKILL"), 10_000);
  await terminal.exited;
  clearTimeout(timer);
  signal("SIGKILL"); // anything of the group that outlived bash
}

/** Resolves once `test` holds for the terminal's output; rejects when it ends first or after `ms`. */
function waitForOutput(terminal: Terminal, test: RegExp, ms: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = setInterval(() => {
      if (test.test(terminal.output())) done(resolve);
      else if (terminal.child.exitCode !== null || terminal.child.signalCode !== null)
        done(() => reject(new Error(`the terminal ended first:\n${terminal.output()}`)));
    }, 200);
    const timer = setTimeout(
      () =>
        done(() =>
          reject(new Error(`${test} did not show within ${ms} ms:\n${terminal.output()}`)),
        ),
      ms,
    );
    const done = (then: () => void) => {
      clearInterval(check);
      clearTimeout(timer);
      then();
    };
  });
}

afterAll(async () => {
  for (const terminal of terminals) await closeTerminal(terminal);
});

describe("README.md's quick start", () => {
  it(
    "a scaffolded server and client talk, with the commands as the README writes them",
    async () => {
      const blocks = quickStartBlocks();
      expect(blocks, "two terminals: the server's, then the client's").toHaveLength(2);
      const [serverBlock, clientBlock] = blocks as [string, string];
      // The README's address is the server's default one; the test moves it to a free port.
      const address = `${HTTP_DEFAULTS.host}:${HTTP_DEFAULTS.port}`;
      expect(clientBlock).toContain(`http://${address}/mcp`);
      const serverName = /^mcp-gen server (\S+)/m.exec(serverBlock)?.[1];
      expect(serverName, "the server's block scaffolds a server").toBeDefined();
      const call = /^npm run -s mcp -- (\S+) call (\S+) '(\{.*\})'$/m.exec(clientBlock);
      expect(call, "the client's last command calls a tool").not.toBeNull();
      const sent = JSON.parse(call![3]!) as { text: string };

      const port = await freePort();
      const moved = (block: string) => block.replaceAll(address, `127.0.0.1:${port}`);
      const cwd = tempDir("quick-start");
      const env = projectEnv({
        PATH: `${mcpGenOnPath()}${delimiter}${process.env.PATH}`,
        PORT: String(port),
        MCP_GEN_OFFLINE: "1",
        MCP_GEN_CACHE_DIR: join(tempDir("quick-start-cache"), "cache"),
      });

      const server = openTerminal(moved(serverBlock), cwd, env);
      try {
        await waitForOutput(
          server,
          new RegExp(`MCP server listening on http://127\\.0\\.0\\.1:${port}/mcp\\n`),
          10 * MINUTE,
        );
        const client = openTerminal(moved(clientBlock), cwd, env);
        const code = await client.exited;
        expect(code, client.output()).toBe(0);
        // The last command's answer is the last JSON document on stdout (npm install and the scaffold print before it).
        const stdout = client.stdout();
        const answer = JSON.parse(stdout.slice(stdout.lastIndexOf("\n{\n") + 1)) as unknown;
        expect(answer).toMatchObject({
          content: [{ type: "text", text: sent.text }],
          _meta: { "io.modelcontextprotocol/serverInfo": { name: serverName } },
        });
        expect(answer).not.toHaveProperty("isError", true);
      } finally {
        await closeTerminal(server);
      }
    },
    20 * MINUTE,
  );
});
