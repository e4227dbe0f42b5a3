/**
 * Load and robustness over real HTTP on 127.0.0.1, against a server in a
 * child process: 200 concurrent clients calling a tool lose no response and
 * get none that belongs to another, memory stays flat across rounds, and a
 * corpus of malformed input gets errors, never a crash.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { Agent, request } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/index.js";

const VERSION = "2026-07-28";
const META = {
  "io.modelcontextprotocol/protocolVersion": VERSION,
  "io.modelcontextprotocol/clientCapabilities": {},
};
let child: ChildProcess;
let url: URL;

beforeAll(async () => {
  child = spawn(
    process.execPath,
    ["--import", "tsx", join(ROOT, "test", "stress", "echo-server.ts")],
    { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] },
  );
  const line = await new Promise<string>((resolve, reject) => {
    child.stdout!.once("data", (chunk: Buffer) => resolve(chunk.toString("utf8").trim()));
    child.once("exit", (code) => reject(new Error(`the server exited (${code})`)));
  });
  url = new URL(line);
});
afterAll(() => {
  child.kill();
});

interface Reply {
  status: number;
  body: string;
}

/** One raw POST on `agent`. */
function post(agent: Agent, body: string, headers: Record<string, string>): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: "POST",
        agent,
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }),
        );
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

function call(agent: Agent, id: string, text: string): Promise<Reply> {
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name: "echo", arguments: { text }, _meta: META },
  });
  return post(agent, body, {
    "mcp-protocol-version": VERSION,
    "mcp-method": "tools/call",
    "mcp-name": "echo",
  });
}

/** The server's resident memory, in MiB. */
function rssMiB(): number {
  const status = readFileSync(`/proc/${child.pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024;
}

/** 200 clients (each its own keep-alive connection), 10 calls each; returns the mismatches. */
async function round(tag: number): Promise<string[]> {
  const problems: string[] = [];
  await Promise.all(
    Array.from({ length: 200 }, async (_, client) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      for (let i = 0; i < 10; i++) {
        const id = `r${tag}-c${client}-${i}`;
        const text = `hello ${id}`;
        const reply = await call(agent, id, text);
        const message = JSON.parse(reply.body) as {
          id?: string;
          result?: { content?: Array<{ text?: string }> };
        };
        if (
          reply.status !== 200 ||
          message.id !== id ||
          message.result?.content?.[0]?.text !== text
        )
          problems.push(`${id}: ${reply.status} ${reply.body.slice(0, 120)}`);
      }
      agent.destroy();
    }),
  );
  return problems;
}

describe("200 concurrent clients calling tools/call", () => {
  it("lose no response, mix none up, and memory stays flat", { timeout: 120_000 }, async () => {
    expect(await round(0)).toEqual([]);
    const after1 = rssMiB();
    for (let r = 1; r <= 3; r++) expect(await round(r)).toEqual([]);
    const after4 = rssMiB();
    // 6,000 more requests after the first 2,000 may not keep growing the heap.
    expect(after4 - after1).toBeLessThan(40);
  });
});

describe("malformed input gets errors, never a crash", () => {
  const headers = {
    "mcp-protocol-version": VERSION,
    "mcp-method": "tools/call",
    "mcp-name": "echo",
  };
  const good = {
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "echo", arguments: { text: "x" }, _meta: META },
  };
  const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
  const cases: Array<[string, string, Record<string, string>, number, number | undefined]> = [
    ["truncated JSON", JSON.stringify(good).slice(0, 40), headers, 400, -32700],
    ["an empty body", "", headers, 400, -32700],
    ["a JSON string", '"tools/call"', headers, 400, -32600],
    ["a batch", JSON.stringify([good, good]), headers, 400, -32600],
    ["deep nesting", deep, headers, 400, -32600],
    [
      "deep nesting inside arguments",
      JSON.stringify({
        ...good,
        params: {
          ...good.params,
          arguments: {
            text: "x",
            deep: JSON.parse(`${"[".repeat(60)}${"]".repeat(60)}`) as unknown,
          },
        },
      }).replace('"deep":', `"deep":${"[".repeat(200)}0${"]".repeat(200)},"x":`),
      headers,
      400,
      -32600,
    ],
    [
      "an oversized body",
      JSON.stringify({
        ...good,
        params: { ...good.params, arguments: { text: "x".repeat(2 * 1024 * 1024) } },
      }),
      headers,
      413,
      -32600,
    ],
    [
      "a wrong type for the method",
      JSON.stringify({ ...good, method: 42 }),
      headers,
      400,
      undefined,
    ],
    [
      // Arguments that fail the inputSchema are a tool execution error (isError), answered 200.
      "a wrong type for the tool's argument",
      JSON.stringify({ ...good, params: { ...good.params, arguments: { text: 42 } } }),
      headers,
      200,
      undefined,
    ],
    ["a null id", JSON.stringify({ ...good, id: null }), headers, 400, -32600],
    ["params that are an array", JSON.stringify({ ...good, params: [1, 2] }), headers, 400, -32602],
    [
      "a mismatched Mcp-Method",
      JSON.stringify(good),
      { ...headers, "mcp-method": "tools/list" },
      400,
      -32020,
    ],
    [
      "a mismatched Mcp-Name",
      JSON.stringify(good),
      { ...headers, "mcp-name": "other" },
      400,
      -32020,
    ],
    [
      "a mismatched protocol version header",
      JSON.stringify(good),
      { ...headers, "mcp-protocol-version": "2025-11-25" },
      400,
      -32020,
    ],
    [
      "an unsupported protocol version",
      JSON.stringify({
        ...good,
        params: {
          ...good.params,
          _meta: { ...META, "io.modelcontextprotocol/protocolVersion": "2099-01-01" },
        },
      }),
      { ...headers, "mcp-protocol-version": "2099-01-01" },
      400,
      -32022,
    ],
    [
      "an unknown method",
      JSON.stringify({ ...good, method: "tools/explode" }),
      { ...headers, "mcp-method": "tools/explode" },
      404,
      -32601,
    ],
    ["invalid UTF-8", "\u0000\uffff{", headers, 400, -32700],
    [
      "a text/plain body",
      JSON.stringify(good),
      { ...headers, "content-type": "text/plain" },
      415,
      -32600,
    ],
    [
      "a Host with a second name after the colon",
      JSON.stringify(good),
      { ...headers, host: "localhost:evil.example" },
      403,
      -32000,
    ],
    [
      "a Host with an IPv6 literal followed by a name",
      JSON.stringify(good),
      { ...headers, host: "[::1].evil.example" },
      403,
      -32000,
    ],
    [
      "a Host with user information",
      JSON.stringify(good),
      { ...headers, host: "localhost:80@evil.example" },
      403,
      -32000,
    ],
    [
      "an Origin with user information",
      JSON.stringify(good),
      { ...headers, origin: "http://evil.example@localhost" },
      403,
      -32000,
    ],
    ["an id that is a fraction", JSON.stringify({ ...good, id: 1.5 }), headers, 400, -32600],
    ["an id that is an object", JSON.stringify({ ...good, id: { a: 1 } }), headers, 400, -32600],
  ];

  it.each(cases)("%s", async (_what, body, hdrs, status, code) => {
    const agent = new Agent({ keepAlive: false });
    const reply = await post(agent, body, hdrs);
    expect(reply.status).toBe(status);
    if (code !== undefined) {
      const answer = JSON.parse(reply.body) as { id: unknown; error: { code: number } };
      expect(answer.error.code).toBe(code);
      // An id the server cannot echo faithfully is answered with null.
      if (code === -32600) expect(answer.id).toBeNull();
    } else if (status === 200) {
      // Answered 200: a tool execution error, never the echo of bad arguments.
      const answer = JSON.parse(reply.body) as {
        id: unknown;
        result: { isError?: boolean; content: Array<{ text: string }> };
      };
      expect(answer.id).toBe(good.id);
      expect(answer.result.isError).toBe(true);
      expect(answer.result.content[0]!.text).toMatch(/^Invalid arguments for tool echo/);
    }
    agent.destroy();
  });

  it("the server still answers afterwards", async () => {
    const agent = new Agent({ keepAlive: false });
    const reply = await call(agent, "after", "still here");
    expect(reply.status).toBe(200);
    expect(child.exitCode).toBeNull();
    agent.destroy();
  });
});
