/**
 * The in-memory pair (templates/runtime/transport/in-memory.ts) keeps the
 * rules of the wire it leaves out: the Host guard, the body limit, header
 * values node:http would refuse, and a client that goes away before the
 * answer. What McpClient does over it, in both eras, is in
 * test/client/client.test.ts beside HTTP and stdio.
 */
import { describe, expect, it } from "vitest";
import { McpClient } from "../../../templates/runtime/client.js";
import { connectInMemory } from "../../../templates/runtime/index.js";
import { legacy, protocol, request, testServer } from "../../helpers/mcp-client.js";

function echoServer() {
  const server = testServer();
  server.tool({ name: "echo", inputSchema: { type: "object" } }, (args) => ({
    content: [{ type: "text", text: JSON.stringify(args) }],
  }));
  return server;
}

describe("connectInMemory", () => {
  it("calls a tool with no socket, the request serialised as JSON both ways", async () => {
    const client = new McpClient({
      protocol,
      legacy,
      channel: connectInMemory(echoServer()),
      info: { name: "t", version: "1" },
    });
    // A Date becomes its JSON string on the way, as it would over the network.
    const when = new Date(0);
    const result = await client.callTool("echo", { when });
    expect(result.content).toEqual([{ type: "text", text: '{"when":"1970-01-01T00:00:00.000Z"}' }]);
    await client.close();
  });

  it("refuses a Host the server's guard does not allow, as over HTTP", async () => {
    const channel = connectInMemory(echoServer(), { url: "http://evil.example/mcp" });
    const answer = await channel.request(request("server/discover"));
    expect(JSON.stringify(answer)).toMatch(/Host/);
    expect(answer).toMatchObject({ id: null, error: { code: -32000 } });
  });

  it("answers a body past the server's limit with 413", async () => {
    const channel = connectInMemory(echoServer(), { server: { maxBodyBytes: 100 } });
    const answer = channel.request(
      request("tools/call", { name: "echo", arguments: { text: "x".repeat(200) } }),
    );
    expect(await answer).toMatchObject({ error: { message: "Request body too large" } });
  });

  it("fails a header value node:http would refuse before the server sees it", async () => {
    const server = echoServer();
    const channel = connectInMemory(server, { client: { headers: { "x-note": "line\nbreak" } } });
    await expect(channel.request(request("server/discover"))).rejects.toThrow(/x-note/);
  });

  it("aborts the server's work when the client's request is aborted before the answer", async () => {
    const server = testServer();
    let aborted = false;
    server.tool({ name: "slow", inputSchema: { type: "object" } }, async (_args, ctx) => {
      await new Promise<void>((resolve) => ctx.signal.addEventListener("abort", () => resolve()));
      aborted = true;
      return { content: [] };
    });
    const channel = connectInMemory(server);
    const controller = new AbortController();
    const answer = channel.request(request("tools/call", { name: "slow", arguments: {} }), {
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(new Error("stop")), 20);
    await expect(answer).rejects.toThrow("stop");
    expect(aborted).toBe(true);
  });
});
