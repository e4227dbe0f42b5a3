/**
 * Interoperability of mcp-gen's client (templates/runtime/client) with servers made by others: the
 * official SDK v2 server (@modelcontextprotocol/server, 2026-07-28 with 2025-era sessions on the
 * same endpoint) and an SDK v1 server (@modelcontextprotocol/sdk, 2025 era only), each a child
 * process (test/client/fixtures/peers.mjs), over Streamable HTTP on 127.0.0.1 and over stdio. The
 * client finds the era by itself, then: discover, list tools, call a tool, read a resource, get a
 * prompt, and one round of input (an MRTR elicitation at 2026-07-28, the server's own
 * elicitation/create request in a 2025-era session). mcp-gen's own server is the peer of
 * test/client/client.test.ts.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectHttp, McpClient, spawnStdio } from "../../templates/runtime/client.js";
import { ROOT } from "../helpers/index.js";
import { legacy, protocol } from "../helpers/mcp-client.js";

const PEERS = join(ROOT, "test", "client", "fixtures", "peers.mjs");

/** Starts an HTTP peer; resolves with its URL once it listens. */
function startHttpPeer(peer: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [PEERS], {
    env: { ...process.env, PEER: peer, TRANSPORT: "http", PORT: "0" },
    stdio: ["ignore", "ignore", "pipe"],
  });
  return new Promise((resolve, reject) => {
    let log = "";
    child.stderr.on("data", (chunk: Buffer) => {
      log += chunk.toString("utf8");
      const port = /listening on (\d+)/.exec(log)?.[1];
      if (port) resolve({ child, url: `http://127.0.0.1:${port}/mcp` });
    });
    child.once("exit", (code) => reject(new Error(`the ${peer} peer exited (${code}):\n${log}`)));
  });
}

describe.each([
  ["sdk2", "http", "modern", "2026-07-28"],
  ["sdk2", "stdio", "modern", "2026-07-28"],
  ["sdk1", "http", "legacy", "2025-11-25"],
  ["sdk1", "stdio", "legacy", "2025-11-25"],
] as const)("the %s server over %s", (peer, transport, era, version) => {
  let child: ChildProcess | undefined;
  let client: McpClient;
  const asked: unknown[] = [];
  const warnings: string[] = [];

  beforeAll(async () => {
    let channel;
    if (transport === "http") {
      const started = await startHttpPeer(peer);
      child = started.child;
      channel = connectHttp(started.url);
    } else
      channel = await spawnStdio({
        command: process.execPath,
        args: [PEERS],
        env: { ...process.env, PEER: peer, TRANSPORT: "stdio" },
        stderr: "ignore",
      });
    client = new McpClient({
      protocol,
      legacy,
      channel,
      info: { name: "mcp-gen-interop", version: "1.0.0" },
      // A 2025-era stdio server stays silent when asked server/discover; no need to wait long for
      // it. A modern one answers, but a peer that starts slowly on a busy machine must not be
      // taken for a 2025-era one.
      probeTimeoutMs: era === "modern" ? 60_000 : 3000,
      onWarning: (message) => warnings.push(message),
      handlers: {
        elicitation: (params) => {
          asked.push(params.message);
          return { action: "accept", content: { name: "Ada" } };
        },
      },
    });
  });
  afterAll(async () => {
    await client.close();
    child?.kill();
  });

  it(`connects in the ${era} era, at ${version}`, async () => {
    expect(await client.connect()).toMatchObject({
      era,
      protocolVersion: version,
      serverInfo: { name: `peer-${peer}` },
    });
  });

  it("lists tools and calls one", async () => {
    const { tools } = await client.request("tools/list");
    expect((tools as Array<{ name: string }>).map((t) => t.name)).toEqual(["echo", "ask"]);
    expect(await client.callTool("echo", { text: "héllo" })).toMatchObject({
      content: [{ type: "text", text: "héllo" }],
    });
  });

  it("reads a resource and gets a prompt", async () => {
    expect(await client.request("resources/read", { uri: "test://readme" })).toMatchObject({
      contents: [{ uri: "test://readme", text: "read me" }],
    });
    expect(
      await client.request("prompts/get", { name: "greet", arguments: { who: "Ada" } }),
    ).toMatchObject({ messages: [{ role: "user", content: { type: "text", text: "Hello Ada" } }] });
  });

  it("answers the server's request for input with the elicitation handler", async () => {
    expect(await client.callTool("ask")).toMatchObject({
      content: [{ type: "text", text: "hello Ada" }],
    });
    expect(asked).toEqual(["Your name?"]);
    expect(warnings).toEqual([]);
  });
});
