/**
 * McpClient (templates/runtime/client) against mcp-gen's own server, over
 * real HTTP on 127.0.0.1, over stdio with the server as a child process,
 * and in memory (connectInMemory: the same server in this process, no
 * socket), in both eras: the modern one it negotiates by itself and the
 * legacy session it opens when told to speak 2025-11-25. Every feature a
 * client needs: discovery, tools (with an x-mcp-header parameter the
 * server checks), input requests answered by the typed handlers
 * (elicitation defaults filled in, sampling, roots), progress,
 * cancellation, resources, prompts, listen streams.
 */
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  connectHttp,
  connectInMemory,
  McpClient,
  RemoteError,
  spawnStdio,
  type ClientChannel,
  type JsonRpcMessage,
} from "../../templates/runtime/client.js";
import { serveHttp } from "../../templates/runtime/index.js";
import { ROOT } from "../helpers/index.js";
import { legacy, protocol } from "../helpers/mcp-client.js";
import { buildServer, type Seen } from "./fixtures/server.js";
import { until } from "../helpers/wait.js";

const TSX = pathToFileURL(createRequire(import.meta.url).resolve("tsx/esm")).href;
const STDIO_SERVER = join(ROOT, "test", "client", "fixtures", "stdio-server.ts");

const seen: Seen = { cancelled: 0 };
const server = buildServer(seen);
let url: string;
let closeHttp: () => Promise<void>;

beforeAll(async () => {
  ({ url, close: closeHttp } = await serveHttp(server, { port: 0 }));
});
afterAll(() => closeHttp());

/** What the handlers were asked. */
const asked: { defaults?: Record<string, unknown>; sampled?: unknown } = {};

function client(channel: ClientChannel, protocolVersion: string, warnings: string[] = []) {
  return new McpClient({
    protocol,
    legacy,
    channel,
    info: { name: "client-tests", version: "1.0.0" },
    protocolVersion,
    // The stdio server starts through tsx: on a loaded machine that can take longer than the
    // default probe (10 s), after which a silent server is taken for a legacy one.
    probeTimeoutMs: 60_000,
    onWarning: (message) => warnings.push(message),
    handlers: {
      elicitation: (_params, context) => {
        asked.defaults = context.defaults;
        return { action: "accept", content: { name: "Grace" } };
      },
      sampling: (params) => {
        asked.sampled = params.messages;
        return { role: "assistant", content: { type: "text", text: "Paris" }, model: "m" };
      },
      roots: () => ({ roots: [{ uri: "file:///work", name: "work" }] }),
    },
  });
}

const transports = {
  http: () => Promise.resolve(connectHttp(url)),
  memory: () => Promise.resolve(connectInMemory(server)),
  stdio: () =>
    spawnStdio({
      command: process.execPath,
      args: ["--import", TSX, STDIO_SERVER],
      stderr: "ignore",
    }),
};

describe.each([
  ["http", "auto", "modern", "2026-07-28"],
  ["http", "2025-11-25", "legacy", "2025-11-25"],
  ["stdio", "auto", "modern", "2026-07-28"],
  ["stdio", "2025-11-25", "legacy", "2025-11-25"],
  ["memory", "auto", "modern", "2026-07-28"],
  ["memory", "2025-11-25", "legacy", "2025-11-25"],
] as const)("over %s, speaking %s", (transport, version, era, agreed) => {
  let mcp: McpClient;
  const warnings: string[] = [];

  beforeAll(async () => {
    mcp = client(await transports[transport](), version, warnings);
  });
  afterAll(() => mcp.close());

  it(`connects in the ${era} era`, async () => {
    const found = await mcp.connect();
    expect(found).toMatchObject({
      era,
      protocolVersion: agreed,
      serverInfo: { name: "client-tests", version: "1.0.0" },
    });
    expect(found.capabilities.tools).toBeDefined();
    if (era === "modern") expect(found.supportedVersions).toEqual(["2026-07-28"]);
  });

  it("lists and calls tools; the x-mcp-header parameter goes in its header", async () => {
    const { tools } = await mcp.request("tools/list");
    expect((tools as Array<{ name: string }>).map((t) => t.name)).toEqual(
      expect.arrayContaining(["echo", "ask", "think", "wait"]),
    );
    const result = await mcp.callTool("echo", { text: " héllo, wörld " });
    expect(result).toMatchObject({
      resultType: "complete",
      content: [{ type: "text", text: " héllo, wörld " }],
    });
    expect(warnings).toEqual([]);
  });

  it("answers a request for input with the elicitation handler, defaults filled in", async () => {
    const result = await mcp.callTool("ask");
    expect(asked.defaults).toEqual({ name: "Ada", age: 36, score: 95.5 });
    expect(JSON.parse((result.content as Array<{ text: string }>)[0]!.text)).toEqual({
      action: "accept",
      content: { name: "Grace", age: 36, score: 95.5 },
    });
  });

  it("answers sampling and roots with their handlers", async () => {
    const result = await mcp.callTool("think");
    expect(asked.sampled).toEqual([
      { role: "user", content: { type: "text", text: "Capital of France?" } },
    ]);
    expect(JSON.parse((result.content as Array<{ text: string }>)[0]!.text)).toMatchObject({
      sampled: { content: { text: "Paris" } },
      roots: { roots: [{ uri: "file:///work" }] },
    });
  });

  it("reports progress to the request that asked for it", async () => {
    const progress: unknown[] = [];
    await mcp.callTool("count", {}, { onProgress: (p) => progress.push(p) });
    expect(progress).toEqual([
      { progress: 1, total: 2, message: "half" },
      { progress: 2, total: 2, message: "done" },
    ]);
  });

  it("cancels a request through its AbortSignal, and the server stops working on it", async () => {
    const before = seen.cancelled;
    const controller = new AbortController();
    const call = mcp.callTool(
      "wait",
      {},
      { signal: controller.signal, onProgress: () => controller.abort(new Error("enough")) },
    );
    await expect(call).rejects.toThrow("enough");
    // Over stdio the child server has its own count; the in-process one sees the others' cancellations.
    if (transport !== "stdio") await until(() => seen.cancelled > before);
  });

  it("times a request out", async () => {
    await expect(mcp.callTool("wait", {}, { timeoutMs: 200 })).rejects.toThrow(
      "no answer to tools/call within 200 ms",
    );
  });

  it("reads a resource and gets a prompt, checked against the schema", async () => {
    expect(await mcp.request("resources/read", { uri: "test://readme" })).toMatchObject({
      contents: [{ uri: "test://readme", text: "read me" }],
    });
    expect(
      await mcp.request("prompts/get", { name: "greet", arguments: { who: "Ada" } }),
    ).toMatchObject({
      messages: [{ role: "user", content: { type: "text", text: "Hello Ada" } }],
    });
  });

  it("passes on the server's errors as RemoteError", async () => {
    const missing = mcp.request("prompts/get", { name: "nope" });
    await expect(missing).rejects.toBeInstanceOf(RemoteError);
    await expect(missing).rejects.toMatchObject({ code: -32602 });
  });

  it("refuses a method the revision does not let a client send", async () => {
    await expect(mcp.request("elicitation/create", {})).rejects.toThrow(
      `elicitation/create is not a request a client sends in ${agreed}`,
    );
  });
});

describe("listen streams", () => {
  it.each(["http", "stdio", "memory"] as const)(
    "over %s: acknowledged, then the notifications the filter asked for",
    async (transport) => {
      const mcp = client(await transports[transport](), "auto");
      try {
        const received: JsonRpcMessage[] = [];
        const subscription = mcp.listen({ toolsListChanged: true }, (n) => received.push(n));
        expect(await subscription.acknowledged).toEqual({ toolsListChanged: true });
        if (transport !== "stdio") {
          server.notifyToolsChanged();
          await until(() => received.length > 0);
          expect(received[0]).toMatchObject({ method: "notifications/tools/list_changed" });
        }
        subscription.close();
        await subscription.closed;
      } finally {
        await mcp.close();
      }
    },
  );
});
