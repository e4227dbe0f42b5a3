/**
 * Interoperability of mcp-gen's client (templates/runtime/client) with a server scaffolded by
 * `mcp-gen server --example everything`, run from its own sources in a child process: over
 * Streamable HTTP on 127.0.0.1 and over stdio, at 2026-07-28 (negotiated by the client) and in a
 * 2025-11-25 session (asked for). Each: discover or initialize, list tools, call one, read a
 * resource, get a prompt, and one round of input (a Multi Round-Trip Request at 2026-07-28, the
 * server's own elicitation/create request in the 2025-era session), answered by the typed
 * elicitation handler. The SDK servers are the peers of client-peers.e2e.test.ts.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scaffoldServer, writeProject } from "../../generator/scaffold/scaffold.js";
import {
  connectHttp,
  McpClient,
  spawnStdio,
  type ClientChannel,
} from "../../templates/runtime/client.js";
import { tempDir, testSources } from "../helpers/index.js";
import { legacy, protocol } from "../helpers/mcp-client.js";

/** Runs the project's TypeScript sources directly, with the repository's tsx. */
const TSX = pathToFileURL(createRequire(import.meta.url).resolve("tsx/esm")).href;
const MINUTE = 60_000;
let project: string;

beforeAll(async () => {
  project = join(tempDir("client-own-server"), "everything");
  const { files } = await scaffoldServer({
    dir: project,
    example: "everything",
    name: "interop-everything",
    sources: testSources(),
  });
  writeProject(project, files);
});

/** Starts the project over HTTP on a port of the system's choosing; resolves with its URL. */
function startHttp(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ["--import", TSX, "src/index.ts"], {
    cwd: project,
    env: { ...process.env, PORT: "0" },
    stdio: ["ignore", "ignore", "pipe"],
  });
  return new Promise((resolve, reject) => {
    let log = "";
    child.stderr.on("data", (chunk: Buffer) => {
      log += chunk.toString("utf8");
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(log)?.[1];
      if (url) resolve({ child, url });
    });
    child.once("exit", (code) => reject(new Error(`the server exited (${code}):\n${log}`)));
  });
}

describe.each([
  ["http", "modern", "2026-07-28"],
  ["http", "legacy", "2025-11-25"],
  ["stdio", "modern", "2026-07-28"],
  ["stdio", "legacy", "2025-11-25"],
] as const)("the scaffolded everything server over %s, %s era", (transport, era, version) => {
  let child: ChildProcess | undefined;
  let client: McpClient;
  const asked: unknown[] = [];
  const warnings: string[] = [];

  beforeAll(async () => {
    let channel: ClientChannel;
    if (transport === "http") {
      const started = await startHttp();
      child = started.child;
      channel = connectHttp(started.url);
    } else
      channel = await spawnStdio({
        command: process.execPath,
        args: ["--import", TSX, "src/index.ts", "--stdio"],
        cwd: project,
        stderr: "ignore",
      });
    client = new McpClient({
      protocol,
      legacy,
      channel,
      info: { name: "mcp-gen-interop", version: "1.0.0" },
      // The modern era is found by the client itself; the legacy one is asked for.
      ...(era === "legacy" ? { protocolVersion: version } : { probeTimeoutMs: MINUTE }),
      onWarning: (message) => warnings.push(message),
      handlers: {
        elicitation: (params) => {
          asked.push(params.message);
          return { action: "accept", content: { name: "Ada" } };
        },
      },
    });
  }, 2 * MINUTE);
  afterAll(async () => {
    await client?.close();
    child?.kill();
  });

  it(`connects in the ${era} era, at ${version}`, { timeout: MINUTE }, async () => {
    expect(await client.connect()).toMatchObject({
      era,
      protocolVersion: version,
      serverInfo: { name: "interop-everything" },
    });
  });

  it("lists tools and calls one", async () => {
    const { tools } = await client.request("tools/list");
    expect((tools as Array<{ name: string }>).map((t) => t.name)).toContain("test_simple_text");
    expect(await client.callTool("test_simple_text", {})).toMatchObject({
      content: [{ type: "text", text: "This is a simple text response for testing." }],
    });
  });

  it("reads a resource and gets a prompt", async () => {
    expect(await client.request("resources/read", { uri: "test://static-text" })).toMatchObject({
      contents: [
        { uri: "test://static-text", text: "This is the content of the static text resource." },
      ],
    });
    const prompt = await client.request("prompts/get", {
      name: "test_prompt_with_arguments",
      arguments: { arg1: "a", arg2: "b" },
    });
    expect(JSON.stringify(prompt.messages)).toContain("arg1='a', arg2='b'");
  });

  it("answers the server's request for input with the elicitation handler", async () => {
    expect(await client.callTool("test_input_required_result_elicitation", {})).toMatchObject({
      content: [{ type: "text", text: "Hello, Ada!" }],
    });
    expect(asked).toEqual(["What is your name?"]);
    expect(warnings).toEqual([]);
  });
});
