/**
 * A modern stdio server that starts slowly (an interpreter loading, a busy
 * machine) is silent past the client's server/discover probe, like a
 * legacy one. It answers the probe late, then refuses `initialize` on a
 * connection it now serves in the modern era. The client probes once more
 * and speaks the modern era; a server that refuses `initialize` for good
 * still gets its error.
 */
import { describe, expect, it } from "vitest";
import {
  connectInMemory,
  McpClient,
  RemoteError,
  type ClientChannel,
  type JsonRpcMessage,
} from "../../templates/runtime/client.js";
import type { ChannelRequestOptions } from "../../templates/runtime/core/channel.js";
import { legacy, protocol } from "../helpers/mcp-client.js";
import { buildServer } from "./fixtures/server.js";

/** How a stdio server answered each request, in order. */
interface Script {
  /** The first server/discover gets no answer before the probe gives up. */
  readonly silentFirstProbe: boolean;
  /** How `initialize` is answered: refused with a JSON-RPC error, always. */
  readonly refuseInitialize: boolean;
}

/**
 * A shared channel (as stdio is) in front of mcp-gen's own server in
 * memory, answering as `script` says; `seen` records the methods sent.
 */
function stdioLike(script: Script, seen: string[]): ClientChannel {
  const inner = connectInMemory(buildServer());
  let probes = 0;
  const channel: ClientChannel = {
    streamPerRequest: false,
    mirrorsHeaders: false,
    async request(message: JsonRpcMessage, options?: ChannelRequestOptions) {
      const method = (message as { method?: string }).method ?? "";
      seen.push(method);
      if (method === "server/discover" && script.silentFirstProbe && probes++ === 0)
        return new Promise<JsonRpcMessage>((_resolve, reject) =>
          options?.signal?.addEventListener("abort", () => reject(new Error("aborted"))),
        );
      if (method === "initialize" && script.refuseInitialize)
        return {
          jsonrpc: "2.0",
          id: (message as { id: number }).id,
          error: {
            code: -32600,
            message: "connection is serving the 2026-07-28 protocol; initialize is not accepted",
          },
        };
      return inner.request(message, options);
    },
    send: (message) => inner.send(message),
    beginSession: (version) => inner.beginSession(version),
    close: () => inner.close(),
  };
  return channel;
}

function client(channel: ClientChannel): McpClient {
  return new McpClient({
    protocol,
    legacy,
    channel,
    info: { name: "slow-start-tests", version: "1.0.0" },
    probeTimeoutMs: 200,
  });
}

describe("a stdio server silent past the probe", () => {
  it("that then refuses initialize is probed again, and spoken to in the modern era", async () => {
    const seen: string[] = [];
    const mcp = client(stdioLike({ silentFirstProbe: true, refuseInitialize: true }, seen));
    try {
      expect(await mcp.connect()).toMatchObject({ era: "modern", protocolVersion: "2026-07-28" });
      expect(seen).toEqual(["server/discover", "initialize", "server/discover"]);
      const { tools } = await mcp.request("tools/list");
      expect((tools as Array<{ name: string }>).map((t) => t.name)).toContain("echo");
    } finally {
      await mcp.close();
    }
  });

  it("that refuses initialize and stays silent is refused with the server's error, after one more probe", async () => {
    const seen: string[] = [];
    const channel = stdioLike({ silentFirstProbe: true, refuseInitialize: true }, seen);
    // Silent to every probe: a legacy server whose initialize fails.
    const silent: ClientChannel = {
      ...channel,
      request: (message, options) =>
        (message as { method?: string }).method === "server/discover"
          ? new Promise<JsonRpcMessage>((_resolve, reject) =>
              options?.signal?.addEventListener("abort", () => reject(new Error("aborted"))),
            )
          : channel.request(message, options),
    };
    const mcp = client(silent);
    try {
      await expect(mcp.connect()).rejects.toBeInstanceOf(RemoteError);
      expect(seen).toEqual(["initialize", "initialize"]);
    } finally {
      await mcp.close();
    }
  });
});
