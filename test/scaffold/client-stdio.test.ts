/**
 * `mcp-gen client --from-server "<command>"` and the project's
 * `npm run mcp -- --stdio "<command>"`: both start the server as a child
 * process and speak to it over stdio. The server is the official SDK v2
 * server of the interoperability tests (test/client/fixtures/peers.mjs),
 * started through `env` so that the command line alone says which peer and
 * transport it is. The project is compiled under --strict (the repository's
 * node_modules linked in, so nothing is installed).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/index.js";
import { runCli, tempDir } from "../helpers/run-cli.js";
import { linkNodeModules, runNode } from "../helpers/project.js";
import { compileProject } from "../helpers/typecheck.js";

const MINUTE = 60_000;
const PEERS = join(ROOT, "test", "client", "fixtures", "peers.mjs");
/** The server's command line, as a user would type it. */
const SERVER = `env PEER=sdk2 TRANSPORT=stdio ${JSON.stringify(process.execPath)} ${JSON.stringify(PEERS)}`;

describe("a client project made from a stdio server", () => {
  let project: string;
  beforeAll(async () => {
    const cwd = tempDir("client-stdio");
    const run = await runCli(["client", "proj", "--from-server", SERVER, "--quiet"], { cwd });
    expect(run.code, run.stderr).toBe(0);
    project = join(cwd, "proj");
    linkNodeModules(project);
    expect(compileProject(project, { emit: true }).errors).toEqual([]);
  }, 4 * MINUTE);

  it("lists the server's tools over stdio into tools.json and records where they came from", () => {
    const tools = JSON.parse(readFileSync(join(project, "tools.json"), "utf8")) as Array<{
      name: string;
    }>;
    expect(tools.map((t) => t.name)).toEqual(["echo", "ask"]);
    const settings = JSON.parse(readFileSync(join(project, "mcp-gen.json"), "utf8")) as {
      fromServer?: string;
    };
    expect(settings.fromServer).toBe(SERVER);
    expect(readFileSync(join(project, "src", "generated", "tools.gen.ts"), "utf8")).toMatch(
      /export namespace Echo \{/,
    );
  });

  it("npm run mcp -- --stdio starts the server, and discover, call and read print JSON", async () => {
    const cli = join(project, "dist", "cli.js");
    const discovered = await runNode([cli, "--stdio", SERVER, "discover"], project);
    expect(discovered.code, discovered.stderr).toBe(0);
    expect(JSON.parse(discovered.stdout)).toMatchObject({
      protocolVersion: "2026-07-28",
      serverInfo: { name: "peer-sdk2" },
    });
    const called = await runNode(
      [cli, "--stdio", SERVER, "call", "echo", '{"text":"hi"}'],
      project,
    );
    expect(called.code, called.stderr).toBe(0);
    expect(JSON.parse(called.stdout)).toMatchObject({ content: [{ type: "text", text: "hi" }] });
    const read = await runNode([cli, "--stdio", SERVER, "read", "test://readme"], project);
    expect(read.code, read.stderr).toBe(0);
    expect(JSON.parse(read.stdout)).toMatchObject({ contents: [{ text: "read me" }] });
  });

  it("takes the server's command bare, as --from-server does; usage names both forms", async () => {
    const cli = join(project, "dist", "cli.js");
    const called = await runNode([cli, SERVER, "call", "echo", '{"text":"bare"}'], project);
    expect(called.code, called.stderr).toBe(0);
    expect(JSON.parse(called.stdout)).toMatchObject({ content: [{ type: "text", text: "bare" }] });
    const usage = await runNode([cli, "--help"], project);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('usage: npm run -s mcp -- <url | "<command>"> <command>');
  });

  it("a --stdio command that cannot start is exit 3, with nothing on stdout", async () => {
    const cli = join(project, "dist", "cli.js");
    const missing = await runNode(
      [cli, "--stdio", join(project, "no-such-server"), "discover"],
      project,
    );
    expect(missing.code).toBe(3);
    expect(missing.stdout).toBe("");
    expect(missing.stderr).not.toBe("");
  });
});
