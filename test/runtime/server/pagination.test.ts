/**
 * Paged lists in the server runtime (templates/runtime/server: lists.ts,
 * cursors.ts), both eras: tools/list, resources/list,
 * resources/templates/list and prompts/list come in pages of the
 * configured size with every item exactly once; a cursor that is
 * malformed, forged, edited, signed elsewhere, meant for another list or
 * issued before the list changed is -32602; a cursor of one instance opens
 * on another with the same key; list results carry the configured caching
 * hints in the modern era only.
 */
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  CursorCodec,
  listOptionsFromEnvironment,
  type ListOptions,
  type McpServer,
  RequestStateCodec,
} from "../../../templates/runtime/index.js";
import { request, testServer } from "../../helpers/mcp-client.js";

const KEY = randomBytes(32);

/** A server with `count` of each listed feature: t00…, r00…, p00…, u00… */
function server(count: number, lists: ListOptions = { cursors: new CursorCodec(KEY) }) {
  const s = testServer({ lists });
  for (let i = 0; i < count; i++) {
    const n = String(i).padStart(3, "0");
    s.tool({ name: `t${n}`, inputSchema: { type: "object" } }, () => ({ content: [] }));
    s.resource({ uri: `file:///r${n}`, name: `r${n}` }, (uri) => ({
      contents: [{ uri, text: "" }],
    }));
    s.resourceTemplate({ uriTemplate: `file:///u${n}/{id}`, name: `u${n}` }, (uri) => ({
      contents: [{ uri, text: "" }],
    }));
    s.prompt({ name: `p${n}` }, () => ({ messages: [] }));
  }
  return s;
}

/** Serves one modern request in process; resolves with its result, or its error. */
async function call(
  s: McpServer,
  method: string,
  params: Record<string, unknown> = {},
): Promise<{
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: Record<string, unknown> };
}> {
  const outcome = await s.serve(request(method, params), {
    sink: { notify: () => {} },
    signal: new AbortController().signal,
  });
  return outcome.response as never;
}

const LISTS = [
  ["tools/list", "tools", "name"],
  ["resources/list", "resources", "uri"],
  ["resources/templates/list", "resourceTemplates", "uriTemplate"],
  ["prompts/list", "prompts", "name"],
] as const;

/** Every page of a list, following nextCursor. */
async function pages(s: McpServer, method: string): Promise<Array<Record<string, unknown>>> {
  const seen: Array<Record<string, unknown>> = [];
  let cursor: unknown;
  do {
    const { result, error } = await call(s, method, cursor === undefined ? {} : { cursor });
    expect(error).toBeUndefined();
    seen.push(result!);
    cursor = result!.nextCursor;
  } while (cursor !== undefined);
  return seen;
}

describe("pages", () => {
  it.each(LISTS)(
    "%s: pages of the configured size, every item exactly once, in order",
    async (method, field, key) => {
      const s = server(25, { pageSize: 10, cursors: new CursorCodec(KEY) });
      const all = await pages(s, method);
      expect(all.map((page) => (page[field] as unknown[]).length)).toEqual([10, 10, 5]);
      expect(all.at(-1)).not.toHaveProperty("nextCursor");
      const keys = all.flatMap((page) =>
        (page[field] as Array<Record<string, string>>).map((item) => item[key]),
      );
      expect(keys).toHaveLength(25);
      expect(new Set(keys).size).toBe(25);
      expect(keys).toEqual([...keys].sort());
    },
  );

  it("by default a list of 100 comes whole from one request, and one of 101 in two", async () => {
    expect(
      (await pages(server(100), "tools/list")).map((p) => (p.tools as unknown[]).length),
    ).toEqual([100]);
    expect(
      (await pages(server(101), "tools/list")).map((p) => (p.tools as unknown[]).length),
    ).toEqual([100, 1]);
  });

  it("a legacy (2025-11-25) session pages too, and its results carry no caching hints", async () => {
    const s = server(3, {
      pageSize: 2,
      ttlMs: 60_000,
      cacheScope: "public",
      cursors: new CursorCodec(KEY),
    });
    const session = s.openSession();
    const exchange = { sink: { notify: () => {} }, signal: new AbortController().signal };
    await session.serve(
      {
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: {
          protocolVersion: "2025-11-25",
          capabilities: {},
          clientInfo: { name: "c", version: "1" },
        },
      },
      exchange,
    );
    await session.serve({ jsonrpc: "2.0", method: "notifications/initialized" }, exchange);
    const first = (await session.serve({ jsonrpc: "2.0", id: 1, method: "tools/list" }, exchange))
      .response as {
      result: Record<string, unknown>;
    };
    expect((first.result.tools as unknown[]).length).toBe(2);
    expect(first.result).not.toHaveProperty("ttlMs");
    expect(first.result).not.toHaveProperty("cacheScope");
    const second = (
      await session.serve(
        {
          jsonrpc: "2.0",
          id: 2,
          method: "tools/list",
          params: { cursor: first.result.nextCursor },
        },
        exchange,
      )
    ).response as { result: Record<string, unknown> };
    expect(second.result.tools).toEqual([{ name: "t002", inputSchema: { type: "object" } }]);
  });
});

describe("cursors", () => {
  const small = () => server(5, { pageSize: 2, cursors: new CursorCodec(KEY) });
  const cursorOf = async (s: McpServer, method = "tools/list") =>
    (await call(s, method)).result!.nextCursor as string;

  it("refuses malformed, forged and edited cursors with -32602", async () => {
    const s = small();
    const cursor = await cursorOf(s);
    const [prefix, body, mac] = cursor.split(".");
    const payload = JSON.parse(Buffer.from(body!, "base64url").toString()) as Record<
      string,
      unknown
    >;
    const edited = Buffer.from(JSON.stringify({ ...payload, o: 4 })).toString("base64url");
    const bad = {
      "": "malformed",
      garbage: "malformed",
      [`${cursor}.x`]: "malformed",
      [`${prefix}.${"A".repeat(600)}.${mac}`]: "malformed", // past MAX_CURSOR_LENGTH
      [`${prefix}.${edited}.${mac}`]: "not_signed_here",
      [`${prefix}.${body}.${Buffer.alloc(32).toString("base64url")}`]: "not_signed_here",
      [new CursorCodec(randomBytes(32)).seal({
        method: "tools/list",
        offset: 2,
        list: String(payload.l),
      })]: "not_signed_here",
    };
    for (const [given, reason] of Object.entries(bad)) {
      const { error } = await call(s, "tools/list", { cursor: given });
      expect(error, given).toMatchObject({
        code: -32602,
        message: "Invalid cursor",
        data: { reason },
      });
    }
    expect((await call(s, "tools/list", { cursor: 2 })).error).toMatchObject({ code: -32602 });
  });

  it("refuses a cursor of another list", async () => {
    const s = small();
    const { error } = await call(s, "prompts/list", { cursor: await cursorOf(s) });
    expect(error).toMatchObject({ code: -32602, data: { reason: "other_method" } });
  });

  it("keeps a cursor valid while the list is unchanged, and refuses it once the list changed", async () => {
    const s = small();
    const cursor = await cursorOf(s);
    await call(s, "tools/list");
    expect((await call(s, "tools/list", { cursor })).result!.tools).toHaveLength(2);
    s.tool({ name: "added", inputSchema: { type: "object" } }, () => ({ content: [] }));
    const { error } = await call(s, "tools/list", { cursor });
    expect(error).toMatchObject({ code: -32602, data: { reason: "list_changed" } });
    expect(error!.message).toContain("list again from the start");
  });

  it("a cursor of instance A opens on instance B with the same key (MCP_CURSOR_KEY, else MCP_REQUEST_STATE_KEY), not on C", async () => {
    const hex = randomBytes(32).toString("hex");
    const instance = (env: Record<string, string>) =>
      server(5, { pageSize: 2, cursors: CursorCodec.fromEnvironment(env) });
    const a = instance({ MCP_CURSOR_KEY: hex });
    const cursor = await cursorOf(a);
    const b = instance({ MCP_CURSOR_KEY: hex });
    expect((await call(b, "tools/list", { cursor })).result!.tools).toEqual([
      { name: "t002", inputSchema: { type: "object" } },
      { name: "t003", inputSchema: { type: "object" } },
    ]);
    const viaRequestStateKey = instance({ MCP_REQUEST_STATE_KEY: hex });
    expect((await call(viaRequestStateKey, "tools/list", { cursor })).result!.tools).toHaveLength(
      2,
    );
    const c = instance({});
    expect((await call(c, "tools/list", { cursor })).error).toMatchObject({ code: -32602 });
  });

  it("warns at start, in one line naming MCP_CURSOR_KEY, only when a random cursor key meets a shared store", () => {
    const bus = { send: () => undefined, receive: () => () => undefined, close: async () => {} };
    const requestState = new RequestStateCodec(KEY);
    const shared = testServer({
      requestState,
      changeBus: bus,
      lists: { cursors: CursorCodec.fromEnvironment({}) },
    });
    expect(shared.deploymentWarnings()).toEqual([
      "warning: MCP_CURSOR_KEY is not set, so list cursors fail across the instances sharing this store; set the same key on each (docs/server.md#several-instances)",
    ]);
    const alone = testServer({ requestState, lists: { cursors: CursorCodec.fromEnvironment({}) } });
    expect(alone.deploymentWarnings()).toEqual([]);
    const keyed = testServer({
      requestState,
      changeBus: bus,
      lists: { cursors: new CursorCodec(KEY) },
    });
    expect(keyed.deploymentWarnings()).toEqual([]);
  });

  it("refuses a key that is short or not random", () => {
    expect(() => CursorCodec.fromEnvironment({ MCP_CURSOR_KEY: "ab".repeat(16) })).toThrow(
      /MCP_CURSOR_KEY .*32 or more random bytes/,
    );
    expect(() => new CursorCodec(Buffer.alloc(32))).toThrow(
      "MCP_CURSOR_KEY has only 1 distinct byte values",
    );
  });
});

describe("settings", () => {
  it("MCP_LIST_PAGE_SIZE wins over mcp-gen.json's pageSize; a bad value is refused", () => {
    expect(listOptionsFromEnvironment({ pageSize: 50, ttlMs: 10 }, {})).toEqual({
      pageSize: 50,
      ttlMs: 10,
    });
    expect(listOptionsFromEnvironment({ pageSize: 50 }, { MCP_LIST_PAGE_SIZE: "7" })).toEqual({
      pageSize: 7,
    });
    for (const bad of ["0", "-1", "1.5", "ten", "10001"])
      expect(() => listOptionsFromEnvironment({}, { MCP_LIST_PAGE_SIZE: bad })).toThrow(
        "MCP_LIST_PAGE_SIZE must be a whole number from 1 to 10000",
      );
    expect(() => testServer({ lists: { pageSize: 0 } })).toThrow("lists.pageSize");
    expect(() => testServer({ lists: { ttlMs: -1 } })).toThrow("lists.ttlMs");
  });

  it("a server made without list options reads MCP_LIST_PAGE_SIZE", async () => {
    const before = process.env.MCP_LIST_PAGE_SIZE;
    process.env.MCP_LIST_PAGE_SIZE = "3";
    try {
      const s = testServer();
      for (let i = 0; i < 4; i++) s.prompt({ name: `p${i}` }, () => ({ messages: [] }));
      expect((await call(s, "prompts/list")).result!.prompts).toHaveLength(3);
    } finally {
      if (before === undefined) delete process.env.MCP_LIST_PAGE_SIZE;
      else process.env.MCP_LIST_PAGE_SIZE = before;
    }
  });

  it.each(LISTS)("%s: every page carries the configured ttlMs and cacheScope", async (method) => {
    const s = server(5, {
      pageSize: 2,
      ttlMs: 300_000,
      cacheScope: "public",
      cursors: new CursorCodec(KEY),
    });
    for (const page of await pages(s, method))
      expect(page).toMatchObject({ ttlMs: 300_000, cacheScope: "public" });
  });

  it("without list hints, lists carry the server's cache hints", async () => {
    const s = testServer({
      cache: { ttlMs: 5, cacheScope: "private" },
      lists: { cursors: new CursorCodec(KEY) },
    });
    s.tool({ name: "a", inputSchema: { type: "object" } }, () => ({ content: [] }));
    expect((await call(s, "tools/list")).result).toMatchObject({ ttlMs: 5, cacheScope: "private" });
  });
});
