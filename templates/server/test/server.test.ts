/**
 * The server answers as an MCP server should: over real HTTP on 127.0.0.1,
 * and over stdio. Every tool of tools.json is called: a handler that is not
 * written yet must still answer with a valid message, never crash.
 */
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { protocol } from "../src/generated/protocol.gen.js";
import { missingHandlers, TOOLS } from "../src/generated/tools.gen.js";
import { serveHttp, serveStdio } from "../src/mcp-gen/runtime/index.js";
import { createServer } from "../src/server.js";
import { tools } from "../src/tools.js";

const VERSION = protocol.PROTOCOL_VERSION;
const META = {
  "io.modelcontextprotocol/protocolVersion": VERSION,
  "io.modelcontextprotocol/clientCapabilities": {},
};

let url: string;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ url, close } = await serveHttp(createServer(), { port: 0 }));
});
afterAll(() => close());

/** One request as a 2026-07-28 client sends it; the last message of an event stream is the response. */
async function post(
  method: string,
  params: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) {
  const name = (params.name ?? params.uri) as string | undefined;
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": VERSION,
      "mcp-method": method,
      ...(name ? { "mcp-name": name } : {}),
      ...headers,
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method,
      params: { ...params, _meta: { ...META, ...((params._meta as object | undefined) ?? {}) } },
    }),
  });
  const text = await response.text();
  const events = text.split("\n").filter((line) => line.startsWith("data: "));
  const body =
    events.length > 0 ? JSON.parse(events[events.length - 1]!.slice(6)) : JSON.parse(text);
  return { status: response.status, body };
}

describe("tools", () => {
  it("has a handler for every tool of tools.json (a tool added later gets a stub in src/tools/)", () => {
    expect(missingHandlers(tools), "tools of tools.json without a handler in src/tools.ts").toEqual(
      [],
    );
  });
});

describe("over HTTP", () => {
  it("answers server/discover", async () => {
    const { status, body } = await post("server/discover");
    expect(status).toBe(200);
    expect(body.result.supportedVersions).toContain(VERSION);
    expect(protocol.parseResponse(body, "server/discover")).toMatchObject({ ok: true });
  });

  it("lists every tool of tools.json, in order", async () => {
    const { body } = await post("tools/list");
    expect(body.result.tools.map((t: { name: string }) => t.name)).toEqual(
      TOOLS.map((t) => t.name),
    );
    expect(protocol.parseResponse(body, "tools/list")).toMatchObject({ ok: true });
  });

  it.each(TOOLS.map((t) => t.name))(
    "answers tools/call %s (no arguments) with a valid result or error",
    async (name) => {
      const { body } = await post("tools/call", { name, arguments: {} });
      expect(protocol.parseResponse(body, "tools/call")).toMatchObject({ ok: true });
      if ("error" in body) expect(body.error.code).not.toBe(-32603);
    },
  );

  it("answers unparsable JSON with -32700", async () => {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", "mcp-protocol-version": VERSION },
      body: "{",
    });
    expect(response.status).toBe(400);
    expect((await response.json()).error.code).toBe(-32700);
  });

  it("answers an unsupported protocol version with -32022 and the supported ones", async () => {
    const { status, body } = await post(
      "server/discover",
      { _meta: { "io.modelcontextprotocol/protocolVersion": "1999-01-01" } },
      { "mcp-protocol-version": "1999-01-01" },
    );
    expect(status).toBe(400);
    expect(body.error).toMatchObject({
      code: -32022,
      data: { supported: [VERSION], requested: "1999-01-01" },
    });
  });

  it("answers a method 2026-07-28 removed with 404 and -32601", async () => {
    const { status, body } = await post("ping");
    expect(status).toBe(404);
    expect(body.error.code).toBe(-32601);
  });
});

describe("over stdio", () => {
  it("answers server/discover", async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const done = serveStdio(createServer(), { input, output });
    input.write(
      `${JSON.stringify({ jsonrpc: "2.0", id: 7, method: "server/discover", params: { _meta: META } })}\n`,
    );
    const line = await new Promise<string>((resolve) =>
      output.once("data", (chunk: Buffer) => resolve(chunk.toString("utf8"))),
    );
    input.end();
    await done;
    expect(JSON.parse(line)).toMatchObject({ id: 7, result: { supportedVersions: [VERSION] } });
  });
});
