/**
 * Request metadata headers on Streamable HTTP (templates/runtime/transport/http.ts),
 * over real HTTP on 127.0.0.1: MCP-Protocol-Version, Mcp-Method, Mcp-Name
 * and Mcp-Param-* must be present and agree with the body, after decoding
 * the base64 sentinel; a header that is missing, disagrees or is malformed
 * is 400 with -32020 (spec: Streamable HTTP, request metadata and server
 * validation). One rule is broken per row; every other header is what a
 * conforming client sends.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveHttp } from "../../../templates/runtime/index.js";
import { post, raw, request, testServer, VERSION } from "../../helpers/mcp-client.js";

const b64 = (text: string) => `=?base64?${Buffer.from(text, "utf8").toString("base64")}?=`;

/** `query` mirrors four of its arguments into headers, one of them nested. */
const QUERY = {
  name: "query",
  inputSchema: {
    type: "object",
    properties: {
      region: { type: "string", "x-mcp-header": "Region" },
      limit: { type: "integer", "x-mcp-header": "Limit" },
      dry: { type: "boolean", "x-mcp-header": "Dry" },
      options: {
        type: "object",
        properties: { tenant: { type: "string", "x-mcp-header": "Tenant" } },
      },
      sql: { type: "string" },
    },
  },
};

const server = testServer();
server.tool(QUERY, (args) => ({ content: [{ type: "text", text: JSON.stringify(args) }] }));
server.tool({ name: "get_weather", inputSchema: { type: "object" } }, () => ({
  content: [{ type: "text", text: "sunny" }],
}));
server.resource({ uri: "file:///notes/día uno.txt", name: "notes" }, (uri) => ({
  contents: [{ uri, text: "hola" }],
}));
server.prompt({ name: " padded ", description: "A name with spaces around it" }, () => ({
  messages: [],
}));

let url: string;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ url, close } = await serveHttp(server, { port: 0 }));
});
afterAll(() => close());

const call = (args: Record<string, unknown>) =>
  request("tools/call", { name: "query", arguments: args });
const ALL = {
  region: "us-west1",
  limit: 42,
  dry: true,
  options: { tenant: "acme" },
  sql: "select 1",
};
const ALL_HEADERS = {
  "mcp-param-region": "us-west1",
  "mcp-param-limit": "42",
  "mcp-param-dry": "true",
  "mcp-param-tenant": "acme",
};

type Row = readonly [
  title: string,
  message: Record<string, unknown>,
  headers: Record<string, string | undefined>,
  message: string,
];

describe("HTTP headers: each broken rule is 400 with -32020 HeaderMismatch", () => {
  const rows: Row[] = [
    [
      "MCP-Protocol-Version missing",
      request("tools/list"),
      { "mcp-protocol-version": undefined },
      "the MCP-Protocol-Version header is missing",
    ],
    [
      "MCP-Protocol-Version of another revision than _meta",
      request("tools/list"),
      { "mcp-protocol-version": "2025-11-25" },
      `MCP-Protocol-Version header "2025-11-25" does not match _meta protocolVersion "${VERSION}"`,
    ],
    [
      "Mcp-Method missing",
      request("tools/list"),
      { "mcp-method": undefined },
      "the Mcp-Method header is missing",
    ],
    [
      "Mcp-Method of another method",
      request("tools/list"),
      { "mcp-method": "prompts/list" },
      'Mcp-Method header "prompts/list" does not match body method "tools/list"',
    ],
    [
      "Mcp-Method differing in case (values are case-sensitive)",
      request("tools/list"),
      { "mcp-method": "Tools/List" },
      'Mcp-Method header "Tools/List" does not match body method "tools/list"',
    ],
    [
      "Mcp-Name missing on tools/call",
      request("tools/call", { name: "get_weather" }),
      { "mcp-name": undefined },
      "the Mcp-Name header is missing",
    ],
    [
      "Mcp-Name missing on resources/read",
      request("resources/read", { uri: "file:///x" }),
      { "mcp-name": undefined },
      "the Mcp-Name header is missing",
    ],
    [
      "Mcp-Name missing on prompts/get",
      request("prompts/get", { name: " padded " }),
      { "mcp-name": undefined },
      "the Mcp-Name header is missing",
    ],
    [
      "Mcp-Name of another tool",
      request("tools/call", { name: "get_weather" }),
      { "mcp-name": "query" },
      'Mcp-Name header "query" does not match body value "get_weather"',
    ],
    [
      "Mcp-Name naming the tool where resources/read names the uri",
      request("resources/read", { uri: "file:///x" }),
      { "mcp-name": "notes" },
      'Mcp-Name header "notes" does not match body value "file:///x"',
    ],
    [
      "Mcp-Name as base64 of another value",
      request("tools/call", { name: "get_weather" }),
      { "mcp-name": b64("get_weathe") },
      'Mcp-Name header "get_weathe" does not match body value "get_weather"',
    ],
    [
      "Mcp-Name as bad base64",
      request("tools/call", { name: "get_weather" }),
      { "mcp-name": "=?base64?Z2V0!?=" },
      "the Mcp-Name header is not valid base64",
    ],
    [
      "Mcp-Name as base64 missing its padding",
      request("tools/call", { name: "get_weather" }),
      { "mcp-name": "=?base64?Z2V0X3dlYXRoZXI?=" },
      "the Mcp-Name header is not valid base64",
    ],
    [
      "Mcp-Name with an upper-case sentinel (the markers are case-sensitive)",
      request("tools/call", { name: "get_weather" }),
      { "mcp-name": `=?BASE64?${Buffer.from("get_weather").toString("base64")}?=` },
      `Mcp-Name header "=?BASE64?Z2V0X3dlYXRoZXI=?=" does not match body value "get_weather"`,
    ],
    [
      "Mcp-Name sent plain for a name with spaces around it (HTTP drops them)",
      request("prompts/get", { name: " padded " }),
      { "mcp-name": " padded " },
      'Mcp-Name header "padded" does not match body value " padded "',
    ],
    [
      "Mcp-Param-Region missing while region is in the body",
      call(ALL),
      { "mcp-param-region": undefined },
      "the Mcp-Param-Region header is missing",
    ],
    [
      "Mcp-Param-Tenant missing for a nested argument",
      call(ALL),
      { "mcp-param-tenant": undefined },
      "the Mcp-Param-Tenant header is missing",
    ],
    [
      "Mcp-Param-Region of another value",
      call(ALL),
      { "mcp-param-region": "eu-west1" },
      "Mcp-Param-Region header does not match the region argument",
    ],
    [
      "Mcp-Param-Tenant of another value",
      call(ALL),
      { "mcp-param-tenant": "other" },
      "Mcp-Param-Tenant header does not match the options.tenant argument",
    ],
    [
      "Mcp-Param-Limit of another number",
      call(ALL),
      { "mcp-param-limit": "43" },
      "Mcp-Param-Limit header does not match the limit argument",
    ],
    [
      "Mcp-Param-Limit empty for limit 0",
      call({ ...ALL, limit: 0 }),
      { "mcp-param-limit": "" },
      "Mcp-Param-Limit header does not match the limit argument",
    ],
    [
      "Mcp-Param-Limit in hexadecimal",
      call(ALL),
      { "mcp-param-limit": "0x2A" },
      "Mcp-Param-Limit header does not match the limit argument",
    ],
    [
      "Mcp-Param-Dry not in lower case",
      call(ALL),
      { "mcp-param-dry": "True" },
      "Mcp-Param-Dry header does not match the dry argument",
    ],
    [
      "Mcp-Param-Region as bad base64",
      call(ALL),
      { "mcp-param-region": "=?base64?***?=" },
      "the Mcp-Param-Region header is not valid base64",
    ],
    [
      "Mcp-Param-Region as base64 of another value",
      call(ALL),
      { "mcp-param-region": b64("us-east1") },
      "Mcp-Param-Region header does not match the region argument",
    ],
    [
      "initialize with a 2026-07-28 MCP-Protocol-Version",
      {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-11-25",
          capabilities: {},
          clientInfo: { name: "c", version: "1" },
        },
      },
      {},
      "MCP-Protocol-Version names a version without initialize",
    ],
  ];

  it.each(rows)("%s", async (_title, message, headers, why) => {
    const reply = await post(url, message, {
      ...(message.method === "tools/call" && (message.params as { name: string }).name === "query"
        ? ALL_HEADERS
        : {}),
      ...headers,
    });
    expect(reply.status).toBe(400);
    expect(reply.headers.get("content-type")).toBe("application/json");
    expect(reply.body).toEqual({
      jsonrpc: "2.0",
      id: 1,
      error: { code: -32020, message: `Header mismatch: ${why}` },
    });
  });
});

describe("HTTP headers: what conforming clients send is accepted", () => {
  const ok: Array<readonly [string, Record<string, unknown>, Record<string, string | undefined>]> =
    [
      ["every header plain", call(ALL), ALL_HEADERS],
      [
        "Mcp-Name as base64 of the tool name",
        request("tools/call", { name: "get_weather" }),
        { "mcp-name": b64("get_weather") },
      ],
      [
        "Mcp-Name as base64 of a non-ASCII uri",
        request("resources/read", { uri: "file:///notes/día uno.txt" }),
        { "mcp-name": b64("file:///notes/día uno.txt") },
      ],
      [
        "Mcp-Name as base64 of a name with spaces around it",
        request("prompts/get", { name: " padded " }),
        { "mcp-name": b64(" padded ") },
      ],
      [
        "Mcp-Name with optional whitespace around the value (not part of it in HTTP)",
        request("tools/call", { name: "get_weather" }),
        { "mcp-name": "  get_weather\t" },
      ],
      [
        "Mcp-Param-* as base64",
        call({ ...ALL, region: "Hello, 世界" }),
        { ...ALL_HEADERS, "mcp-param-region": b64("Hello, 世界"), "mcp-param-tenant": b64("acme") },
      ],
      [
        "a value that looks like the sentinel, sent encoded",
        call({ ...ALL, region: "=?base64?literal?=" }),
        { ...ALL_HEADERS, "mcp-param-region": b64("=?base64?literal?=") },
      ],
      [
        "Mcp-Param-Limit compared as a number (42.0 is 42)",
        call(ALL),
        { ...ALL_HEADERS, "mcp-param-limit": "42.0" },
      ],
      ["no Mcp-Param-* for arguments that are absent", call({ sql: "select 1" }), {}],
      [
        "no Mcp-Param-* for arguments that are null",
        call({ region: null, limit: null, dry: null, options: { tenant: null } }),
        {},
      ],
      [
        "header names in any case",
        call(ALL),
        {
          "MCP-PARAM-REGION": "us-west1",
          "mcp-param-limit": "42",
          "Mcp-Param-Dry": "true",
          "mcp-PARAM-tenant": "acme",
        },
      ],
      [
        "Mcp-Param-* of a tool without x-mcp-header, ignored",
        request("tools/call", { name: "get_weather" }),
        { "mcp-param-region": "anything" },
      ],
    ];

  it.each(ok)("%s", async (_title, message, headers) => {
    const reply = await post(url, message, headers);
    expect(reply.status).toBe(200);
    expect(reply.body.result).toBeDefined();
  });
});

describe("HTTP headers: other request metadata errors", () => {
  it("a modern MCP-Protocol-Version on a body without the _meta envelope is 400 with -32602 naming the missing field", async () => {
    const reply = await post(url, { jsonrpc: "2.0", id: 3, method: "tools/list", params: {} });
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({
      jsonrpc: "2.0",
      id: 3,
      error: {
        code: -32602,
        message: 'Invalid params: missing _meta["io.modelcontextprotocol/protocolVersion"]',
        data: { path: "/params/_meta/io.modelcontextprotocol~1protocolVersion" },
      },
    });
  });

  it("a revision the server does not serve (header and body agreeing) is 400 with -32022 and the supported versions", async () => {
    const message = request("tools/list", {
      _meta: { "io.modelcontextprotocol/protocolVersion": "2099-01-01" },
    });
    const reply = await post(url, message, { "mcp-protocol-version": "2099-01-01" });
    expect(reply.status).toBe(400);
    expect(reply.body.error).toEqual({
      code: -32022,
      message: "Unsupported protocol version: 2099-01-01",
      data: { supported: [VERSION], requested: "2099-01-01" },
    });
  });

  it("an unknown method is 404 with -32601", async () => {
    const reply = await post(url, request("tools/frobnicate"));
    expect(reply.status).toBe(404);
    expect(reply.body.error).toMatchObject({ code: -32601 });
  });

  // A careless client sends "día" as its UTF-8 bytes; node:http reads them as latin-1, "dÃ\u00ada". The body says just that, so only the character rule can catch it.
  const misread = Buffer.from("día", "utf8").toString("latin1");
  it.each([
    ["Mcp-Name", { "mcp-name": "día" }, request("tools/call", { name: misread })],
    [
      "Mcp-Param-Region",
      { ...ALL_HEADERS, "mcp-param-region": "día" },
      call({ ...ALL, region: misread }),
    ],
  ])(
    "a %s value with bytes outside visible ASCII is 400 with -32020 (it must be sent as base64)",
    async (header, headers, message) => {
      const reply = await raw(url, {
        headers: {
          "content-type": "application/json",
          "mcp-protocol-version": VERSION,
          "mcp-method": "tools/call",
          "mcp-name": "query",
          ...headers,
        },
        body: JSON.stringify(message),
      });
      expect(reply.status).toBe(400);
      expect(JSON.parse(reply.text)).toHaveProperty("error", {
        code: -32020,
        message: `Header mismatch: the ${header} header has characters outside visible ASCII (send it as =?base64?...?=)`,
      });
    },
  );
});
