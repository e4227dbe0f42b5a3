/**
 * stdio, the client half (templates/runtime/transport/stdio-client.ts),
 * with real child processes: a runtime server started with
 * connectStdio, requests matched to answers by core's PendingRequests,
 * the server's stderr kept apart from its messages, and shutdown as the
 * spec says (stdin closed, then SIGTERM, then SIGKILL).
 */
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { withEnvelope } from "../../../templates/runtime/client/index.js";
import { PendingRequests, type JsonRpcMessage } from "../../../templates/runtime/core/index.js";
import { connectStdio, type StdioConnection } from "../../../templates/runtime/transport/index.js";
import { ROOT } from "../../helpers/index.js";
import { VERSION } from "../../helpers/mcp-client.js";
import { until } from "../../helpers/wait.js";

const TSX = pathToFileURL(createRequire(import.meta.url).resolve("tsx/esm")).href;
const CHILD = join(ROOT, "test", "runtime", "fixtures", "stdio-server.ts");
const ENVELOPE = {
  protocolVersion: VERSION,
  capabilities: {},
  clientInfo: { name: "stdio-client-test", version: "1.0.0" },
};

/** The fixture server as a child, with requests matched to answers and its stderr collected. */
async function startServer() {
  const pending = new PendingRequests({ timeoutMs: 20_000 });
  const notifications: JsonRpcMessage[] = [];
  const problems: string[] = [];
  let stderr = "";
  const connection: StdioConnection = await connectStdio({
    command: process.execPath,
    args: ["--import", TSX, CHILD],
    onMessage: (message) => {
      if (!pending.settle(message)) notifications.push(message);
    },
    onError: (error) => problems.push(error.message),
    stderr: (text) => (stderr += text),
  });
  const request = (method: string, params?: Record<string, unknown>) =>
    pending.request(method, params, (message) => connection.send(message));
  return { connection, request, notifications, problems, stderr: () => stderr };
}

/** A child that runs `code` with node. */
function node(code: string, options: { shutdownGraceMs?: number } = {}) {
  const messages: JsonRpcMessage[] = [];
  const problems: string[] = [];
  return {
    messages,
    problems,
    connection: connectStdio({
      command: process.execPath,
      args: ["-e", code],
      onMessage: (message) => void messages.push(message),
      onError: (error) => void problems.push(error.message),
      stderr: "ignore",
      ...options,
    }),
  };
}

describe("stdio client: a real server as a child process", () => {
  it("discovers and calls a tool in the modern era; closing stdin ends the server with exit code 0", async () => {
    const server = await startServer();
    try {
      const discovered = (await server.request(
        "server/discover",
        withEnvelope(undefined, ENVELOPE),
      )) as Record<string, unknown>;
      expect(discovered).toMatchObject({ supportedVersions: [VERSION], resultType: "complete" });
      const [a, b] = await Promise.all([
        server.request(
          "tools/call",
          withEnvelope({ name: "echo", arguments: { text: "a" } }, ENVELOPE),
        ),
        server.request(
          "tools/call",
          withEnvelope({ name: "echo", arguments: { text: "b" } }, ENVELOPE),
        ),
      ]);
      expect([a, b]).toMatchObject([
        { content: [{ type: "text", text: "a" }] },
        { content: [{ type: "text", text: "b" }] },
      ]);
      await expect(
        server.request("tools/call", withEnvelope({ name: "nope", arguments: {} }, ENVELOPE)),
      ).rejects.toMatchObject({ name: "RemoteError", code: -32602 });
      expect(server.stderr()).toBe("ready\n");
    } finally {
      expect(await server.connection.close()).toEqual({ code: 0, signal: null });
    }
    expect(server.stderr()).toBe("ready\nstdin ended\n");
    expect(server.problems).toEqual([]);
    expect(server.notifications).toEqual([]);
    expect(() => server.connection.send({ jsonrpc: "2.0", method: "x" })).toThrow(
      "is no longer connected",
    );
  });

  it("opens a legacy session with initialize and calls a tool in it", async () => {
    const server = await startServer();
    try {
      const initialized = (await server.request("initialize", {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "old", version: "1" },
      })) as Record<string, unknown>;
      expect(initialized).toMatchObject({
        protocolVersion: "2025-11-25",
        serverInfo: { name: "stdio-child" },
      });
      server.connection.send({ jsonrpc: "2.0", method: "notifications/initialized" });
      expect(
        await server.request("tools/call", { name: "echo", arguments: { text: "legacy" } }),
      ).toEqual({
        content: [{ type: "text", text: "legacy" }],
      });
    } finally {
      await server.connection.close();
    }
  });
});

describe("stdio client: the child's side of the rules", () => {
  it("a line that is not a message is reported and skipped; messages around it arrive, a batch item by item", async () => {
    const child = node(
      `console.log('{"jsonrpc":"2.0","method":"a"}'); console.log('not json'); console.log('[{"jsonrpc":"2.0","method":"b"},{"jsonrpc":"2.0","method":"c"}]'); console.log('{"jsonrpc":"2.0","method":"d"}');`,
    );
    const connection = await child.connection;
    await connection.exited;
    await until(() => child.messages.length === 4);
    expect(child.messages.map((m) => m.method)).toEqual(["a", "b", "c", "d"]);
    expect(child.problems).toEqual([
      'the MCP server wrote a line that is not a JSON-RPC message: "not json"',
    ]);
  });

  it("a server that does not exit when its stdin closes gets SIGTERM after the grace period", async () => {
    const child = node(
      "process.stdin.resume(); process.stdin.on('end', () => {}); setInterval(() => {}, 1000);",
      {
        shutdownGraceMs: 200,
      },
    );
    const connection = await child.connection;
    expect(await connection.close()).toEqual({ code: null, signal: "SIGTERM" });
  });

  it("one that ignores SIGTERM too gets SIGKILL", async () => {
    const child = node(
      'process.on(\'SIGTERM\', () => {}); process.stdin.resume(); process.stdin.on(\'end\', () => {}); setInterval(() => {}, 1000); console.log(\'{"jsonrpc":"2.0","method":"up"}\');',
      { shutdownGraceMs: 200 },
    );
    const connection = await child.connection;
    // The SIGTERM handler must be installed before close() sends the signal.
    await until(() => child.messages.length === 1);
    expect(await connection.close()).toEqual({ code: null, signal: "SIGKILL" });
  });

  it("a command that cannot start is an error naming it", async () => {
    await expect(
      connectStdio({ command: "mcp-gen-no-such-server", onMessage: () => {} }),
    ).rejects.toThrow(
      "cannot start the MCP server mcp-gen-no-such-server: spawn mcp-gen-no-such-server ENOENT",
    );
  });
});
