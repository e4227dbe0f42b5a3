/**
 * The limits the README and docs/ document, pinned twice: the documents
 * state the numbers the code's constants hold (a changed default fails
 * here until the docs say it too), and each limit that is cheap to reach
 * is exercised at the limit (accepted) and one past it (refused, with its
 * diagnostic or status).
 *
 * Reached here: the generator's input limits (16 MiB, 256 levels of JSON
 * and of schema.ts brackets, 5,000 definitions), on tools.json and
 * extension manifests too, and a tool schema's 2,000 subschemas and depth
 * 32; the HTTP body (4 MiB), the stdio line (4 MiB), the Authorization
 * header (8 KiB), 1,000 connections, the 1 MiB stream buffer. The 10/30/5 s
 * HTTP timeouts take half a minute to reach: documented-limits.e2e.test.ts
 * reaches them. Stated only: the sessions (their mechanism is exercised
 * with small values in bounded.test.ts), the client's limits, the
 * authorization server's 5 s and 1 MiB.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { connect, type Socket } from "node:net";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { McpGenError } from "../../generator/diagnostics.js";
import { findManifest } from "../../generator/load/extensions.js";
import { parseJsonText } from "../../generator/load/json.js";
import {
  checkDefinitionCount,
  checkFileSize,
  checkJsonDepth,
  checkTsDepth,
  LIMITS,
} from "../../generator/load/limits.js";
import { readTools } from "../../generator/check/check-tools.js";
import { bearerAuthorization } from "../../templates/runtime/auth/index.js";
import { MAX_FETCH_BYTES } from "../../templates/runtime/transport/bounded-fetch.js";
import { MAX_DEPTH, MAX_MESSAGE_BYTES } from "../../templates/runtime/core/limits.js";
import { HTTP_CLIENT_LIMITS } from "../../templates/runtime/transport/http-client.js";
import { HTTP_DEFAULTS } from "../../templates/runtime/transport/node.js";
import { writeFrame } from "../../templates/runtime/core/framing.js";
import {
  EventStream,
  serveHttp,
  serveStdio,
  SESSION_DEFAULTS,
  STREAM_BUFFER_DEFAULT,
} from "../../templates/runtime/index.js";
import { ROOT, tempDir } from "../helpers/index.js";
import { headersFor, raw, request, testServer } from "../helpers/mcp-client.js";
import { sleep, until } from "../helpers/wait.js";

const MiB = 1024 * 1024;
const doc = (path: string) => readFileSync(join(ROOT, path), "utf8");

/** The codes of the diagnostics `run` throws, or [] when it does not throw. */
function codesOf(run: () => unknown): string[] {
  try {
    run();
    return [];
  } catch (error) {
    if (error instanceof McpGenError) return error.diagnostics.map((d) => d.code);
    throw error;
  }
}

/** The default a docs table gives `option` (its backquoted cell), as written: `4194304` (4 MiB). */
function tableDefault(text: string, option: string): string {
  const row = text.split("\n").find((line) => line.includes(`| \`${option}\``));
  if (row === undefined) throw new Error(`no table row for ${option}`);
  const cells = row.split("|").map((cell) => cell.trim());
  const at = cells.indexOf(`\`${option}\``);
  return cells[at + 1]!;
}

/** A server with one tool, so that tools/list is a method it serves. */
function toolServer() {
  const server = testServer();
  server.tool({ name: "echo", inputSchema: { type: "object" } }, () => ({
    content: [{ type: "text", text: "echo" }],
  }));
  return server;
}

/** JSON nested `levels` deep: `[[[...]]]`. */
const nestedJson = (levels: number) => "[".repeat(levels) + "]".repeat(levels);

describe("the documents state the code's numbers", () => {
  it("README: the generator's input limits", () => {
    const readme = doc("README.md");
    expect(LIMITS.fileBytes).toBe(16 * MiB);
    expect(readme).toContain(`a file of more than ${LIMITS.fileBytes / MiB} MiB`);
    expect(readme).toContain(`JSON nested more than ${LIMITS.jsonDepth} levels`);
    expect(readme).toContain(`schema.ts brackets nested more than ${LIMITS.tsDepth} levels`);
    expect(readme).toContain(
      `a schema of more than ${LIMITS.definitions.toLocaleString("en-US")} definitions`,
    );
  });

  it("docs/server.md: the HTTP settings and the stdio line", () => {
    const server = doc("docs/server.md");
    expect(tableDefault(server, "headersTimeoutMs")).toBe(`\`${HTTP_DEFAULTS.headersTimeoutMs}\``);
    expect(tableDefault(server, "requestTimeoutMs")).toBe(`\`${HTTP_DEFAULTS.requestTimeoutMs}\``);
    expect(tableDefault(server, "idleTimeoutMs")).toBe(`\`${HTTP_DEFAULTS.idleTimeoutMs}\``);
    expect(tableDefault(server, "maxConnections")).toBe(`\`${HTTP_DEFAULTS.maxConnections}\``);
    expect([
      HTTP_DEFAULTS.headersTimeoutMs,
      HTTP_DEFAULTS.requestTimeoutMs,
      HTTP_DEFAULTS.idleTimeoutMs,
      HTTP_DEFAULTS.maxConnections,
    ]).toEqual([10_000, 30_000, 5_000, 1000]);
    expect(tableDefault(server, "maxBodyBytes")).toBe(`\`${MAX_MESSAGE_BYTES}\` (4 MiB)`);
    expect(MAX_MESSAGE_BYTES).toBe(4 * MiB);
    expect(tableDefault(server, "maxStreamBufferBytes")).toBe(
      `\`${STREAM_BUFFER_DEFAULT}\` (1 MiB)`,
    );
    expect(STREAM_BUFFER_DEFAULT).toBe(MiB);
    expect(tableDefault(server, "sessionIdleMs")).toBe(
      `\`${SESSION_DEFAULTS.idleMs}\` (${SESSION_DEFAULTS.idleMs / 60_000} minutes)`,
    );
    expect(tableDefault(server, "maxSessions")).toBe(`\`${SESSION_DEFAULTS.max}\``);
    // The stdio line limit is the message limit (stdio.ts: maxLineBytes ?? MAX_MESSAGE_BYTES).
    expect(server).toContain(`A line longer than ${MAX_MESSAGE_BYTES / MiB} MiB`);
  });

  it("docs/client.md: the client's limits", () => {
    const client = doc("docs/client.md");
    expect(tableDefault(client, "maxMessageBytes")).toBe(
      `\`${HTTP_CLIENT_LIMITS.maxMessageBytes}\` (4 MiB, the server's)`,
    );
    expect(HTTP_CLIENT_LIMITS.maxMessageBytes).toBe(MAX_MESSAGE_BYTES);
    expect(tableDefault(client, "maxDepth")).toBe(`\`${HTTP_CLIENT_LIMITS.maxDepth}\``);
    expect(HTTP_CLIENT_LIMITS.maxDepth).toBe(MAX_DEPTH);
    expect(HTTP_CLIENT_LIMITS.eventOverheadBytes).toBe(1024);
    expect(tableDefault(client, "maxEventLineBytes")).toBe("`maxMessageBytes` + 1 KiB");
    expect(tableDefault(client, "maxEventBytes")).toBe("`maxMessageBytes` + 1 KiB");
    expect(tableDefault(client, "streamIdleMs")).toBe(`\`${HTTP_CLIENT_LIMITS.streamIdleMs}\``);
    expect(tableDefault(client, "maxLineBytes")).toBe(`\`${MAX_MESSAGE_BYTES}\` (stdio)`);
  });

  it("docs/auth.md: the authorization server's answers", () => {
    const auth = doc("docs/auth.md");
    expect(auth).toContain(`| ${MAX_FETCH_BYTES} (1 MiB)`);
    expect(MAX_FETCH_BYTES).toBe(MiB);
    expect(auth).toContain("an Authorization header over 8 KiB (`maxTokenLength`)");
    expect(auth).toMatch(/`MCP_AUTH_TIMEOUT_MS`\s*\|[^|]*\|\s*5000\s*\|/);
    expect(auth).toContain("no answer within 5 s");
  });
});

describe("the generator's input limits, at the limit and one past", () => {
  it(`files: ${LIMITS.fileBytes} bytes, then one more (MCPG211)`, () => {
    expect(codesOf(() => checkFileSize(LIMITS.fileBytes, "f"))).toEqual([]);
    expect(codesOf(() => checkFileSize(LIMITS.fileBytes + 1, "f"))).toEqual(["MCPG211"]);
  });

  it(`JSON: ${LIMITS.jsonDepth} levels, then one more (MCPG212)`, () => {
    const parse = (levels: number) => () => checkJsonDepth(JSON.parse(nestedJson(levels)), "f");
    expect(codesOf(parse(LIMITS.jsonDepth))).toEqual([]);
    expect(codesOf(parse(LIMITS.jsonDepth + 1))).toEqual(["MCPG212"]);
  });

  it(`schema.ts: brackets ${LIMITS.tsDepth} levels deep, then one more (MCPG212)`, () => {
    const text = (levels: number) => `type T = ${"{ a: ".repeat(levels)}1${" }".repeat(levels)};`;
    expect(codesOf(() => checkTsDepth(text(LIMITS.tsDepth), "f"))).toEqual([]);
    expect(codesOf(() => checkTsDepth(text(LIMITS.tsDepth + 1), "f"))).toEqual(["MCPG212"]);
  });

  it(`definitions: ${LIMITS.definitions}, then one more (MCPG213)`, () => {
    expect(codesOf(() => checkDefinitionCount(LIMITS.definitions, "f", "/$defs"))).toEqual([]);
    expect(codesOf(() => checkDefinitionCount(LIMITS.definitions + 1, "f", "/$defs"))).toEqual([
      "MCPG213",
    ]);
  });

  it("tools.json: the same file and nesting limits, through the reader scaffolds use", () => {
    const tools = (levels: number) =>
      `[{"name":"t","inputSchema":{"type":"object"},"x":${nestedJson(levels - 2)}}]`;
    expect(codesOf(() => parseJsonText(tools(LIMITS.jsonDepth), "tools.json"))).toEqual([]);
    expect(codesOf(() => parseJsonText(tools(LIMITS.jsonDepth + 1), "tools.json"))).toEqual([
      "MCPG212",
    ]);
    const padded = (bytes: number) => `[${" ".repeat(bytes - 2)}]`;
    expect(codesOf(() => parseJsonText(padded(LIMITS.fileBytes), "tools.json"))).toEqual([]);
    expect(codesOf(() => parseJsonText(padded(LIMITS.fileBytes + 1), "tools.json"))).toEqual([
      "MCPG211",
    ]);
  });

  it("a tool schema: depth 32 and 2,000 subschemas, then one more of each (MCPG705)", () => {
    const nested = (levels: number): Record<string, unknown> =>
      levels === 0 ? { type: "string" } : { type: "object", properties: { a: nested(levels - 1) } };
    const wide = (subschemas: number) => ({
      type: "object",
      properties: Object.fromEntries(
        Array.from({ length: subschemas - 1 }, (_, i) => [`p${i}`, { type: "string" }]),
      ),
    });
    const check = (inputSchema: unknown) => () =>
      readTools([{ name: "t", inputSchema }], "tools.json");
    expect(codesOf(check(nested(32)))).toEqual([]);
    expect(codesOf(check(nested(33)))).toEqual(["MCPG705"]);
    expect(codesOf(check(wide(2000)))).toEqual([]);
    expect(codesOf(check(wide(2001)))).toEqual(["MCPG705"]);
  });

  it("an extension manifest: at the file and nesting limits, then one past", () => {
    const dir = tempDir("manifest");
    const file = (name: string, text: string) => {
      const path = join(dir, name);
      mkdirSync(path);
      writeFileSync(join(path, "mcp-extension.json"), text);
      return path;
    };
    const deep = file("deep", `{"x":${nestedJson(LIMITS.jsonDepth)}}`);
    const large = file("large", `{${" ".repeat(LIMITS.fileBytes - 1)}}`);
    expect(codesOf(() => findManifest(deep))).toEqual(["MCPG212"]);
    expect(codesOf(() => findManifest(large))).toEqual(["MCPG211"]);
    // At the limits the manifest is read: what is wrong with it then is its content, not its size.
    const deepAt = file("deep-at", `{"x":${nestedJson(LIMITS.jsonDepth - 1)}}`);
    const largeAt = file("large-at", `{${" ".repeat(LIMITS.fileBytes - 2)}}`);
    for (const at of [deepAt, largeAt]) {
      const codes = codesOf(() => findManifest(at));
      expect(codes.length).toBeGreaterThan(0);
      expect(codes.filter((code) => code === "MCPG211" || code === "MCPG212")).toEqual([]);
    }
  });
});

describe("the runtime's limits, at the limit and one past", () => {
  it("the HTTP body: 4 MiB is served, one byte more is 413", async () => {
    const mcp = await serveHttp(toolServer(), { port: 0 });
    try {
      const message = request("tools/list");
      const text = JSON.stringify(message);
      const post = (bytes: number) =>
        raw(mcp.url, {
          headers: headersFor(message),
          body: text + " ".repeat(bytes - Buffer.byteLength(text)),
        });
      const atLimit = await post(MAX_MESSAGE_BYTES);
      expect(atLimit.status, atLimit.text.slice(0, 300)).toBe(200);
      expect((await post(MAX_MESSAGE_BYTES + 1)).status).toBe(413);
    } finally {
      await mcp.close();
    }
  });

  it("the stdio line: 4 MiB is served, one byte more is -32600 naming the limit", async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const done = serveStdio(toolServer(), { input, output });
    const replies: string[] = [];
    let buffered = "";
    output.on("data", (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split("\n");
      buffered = lines.pop()!;
      replies.push(...lines);
    });
    const line = (id: number, bytes: number) => {
      const text = JSON.stringify(request("tools/list", {}, id));
      return text + " ".repeat(bytes - Buffer.byteLength(text));
    };
    input.write(`${line(1, MAX_MESSAGE_BYTES)}\n`);
    input.write(`${line(2, MAX_MESSAGE_BYTES + 1)}\n`);
    input.end();
    await done;
    const parsed = replies.map(
      (reply) => JSON.parse(reply) as { id: unknown; error?: { code: number; message: string } },
    );
    // The refusal is written at once, the answer when the request is served: either may come first.
    const answered = parsed.find((reply) => reply.id === 1);
    const refused = parsed.find((reply) => reply.id === null);
    expect(parsed).toHaveLength(2);
    expect(answered, replies.join("\n").slice(0, 300)).toBeDefined();
    expect(answered!.error).toBeUndefined();
    expect(refused).toMatchObject({ error: { code: -32600 } });
    expect(refused!.error!.message + JSON.stringify(refused)).toContain(String(MAX_MESSAGE_BYTES));
  });

  it("the Authorization header: 8 KiB is read, one character more is refused as too large", async () => {
    const auth = bearerAuthorization({
      issuer: "http://127.0.0.1:1",
      resource: "http://127.0.0.1:1/mcp",
    });
    const verdict = async (length: number) => {
      const header = `Bearer ${"a".repeat(length - "Bearer ".length)}`;
      const reply = await auth.authenticate({
        method: "POST",
        path: "/mcp",
        query: "",
        header: (name) => (name === "authorization" ? header : undefined),
        body: "",
        signal: new AbortController().signal,
      });
      return "status" in reply ? String(reply.headers?.["www-authenticate"]) : "accepted";
    };
    // At the limit the token is read and checked (not a JWT: invalid, but not "too large").
    expect(await verdict(8192)).not.toContain("too large");
    expect(await verdict(8193)).toContain(
      'error="invalid_token", error_description="the Authorization header is too large"',
    );
  });

  it(`${HTTP_DEFAULTS.maxConnections} connections: one more client is served without closing any; past them, the oldest idle one goes`, async () => {
    const mcp = await serveHttp(toolServer(), { port: 0 });
    const port = Number(new URL(mcp.url).port);
    const held: Socket[] = [];
    try {
      const hold = async (count: number) => {
        for (let i = 0; i < count; i++) {
          const socket = await new Promise<Socket>((resolve, reject) => {
            const opened = connect(port, "127.0.0.1", () => resolve(opened));
            opened.once("error", reject);
          });
          socket.on("error", () => {});
          socket.write("POST /mcp HTTP/1.1\r\n"); // headers begun, never finished
          held.push(socket);
        }
      };
      const message = request("tools/list");
      const serve = () =>
        raw(mcp.url, { headers: headersFor(message), body: JSON.stringify(message) });
      // The client's own connection makes the thousandth.
      await hold(HTTP_DEFAULTS.maxConnections - 1);
      expect((await serve()).status).toBe(200);
      await sleep(100);
      expect(held.filter((socket) => socket.closed)).toEqual([]);
      // Its connection is idle after the reply and keeps its place: a thousand are open.
      await hold(1);
      expect((await serve()).status).toBe(200);
      await until(() => held.some((socket) => socket.closed), {
        what: "an idle connection closed",
      });
      expect(held.findIndex((socket) => socket.closed)).toBe(0);
    } finally {
      for (const socket of held) socket.destroy();
      await mcp.close();
    }
  });

  it(`the stream buffer: ${STREAM_BUFFER_DEFAULT} characters wait for a client that does not read, one more closes the stream`, () => {
    let waiting = 0;
    let aborted = 0;
    const stream = new EventStream();
    stream.attach({
      write: (chunk) => void (waiting += chunk.length),
      finish: () => {},
      buffered: () => waiting,
      abort: () => void aborted++,
    });
    const notification = (padding: number) => ({
      jsonrpc: "2.0" as const,
      method: "notifications/message",
      params: { data: "x".repeat(padding) },
    });
    const eventLength = (padding: number) =>
      `event: message\ndata: ${writeFrame(notification(padding))}\n\n`.length;
    const overhead = eventLength(0);
    while (waiting + 2 * 65_536 < STREAM_BUFFER_DEFAULT)
      stream.notify(notification(65_536 - overhead));
    // The last event fills the buffer to the character.
    stream.notify(notification(STREAM_BUFFER_DEFAULT - waiting - overhead));
    expect(waiting).toBe(STREAM_BUFFER_DEFAULT);
    expect([stream.overflowed, aborted]).toEqual([false, 0]);
    stream.notify(notification(0));
    expect([stream.overflowed, aborted]).toEqual([true, 1]);
    expect(waiting).toBe(STREAM_BUFFER_DEFAULT);
  });
});
