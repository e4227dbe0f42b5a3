/**
 * The client's list helpers (templates/runtime/client/lists.ts) over real
 * HTTP on 127.0.0.1: against mcp-gen's own server paging in small pages
 * they return the whole list, keep it for its ttlMs and drop it on the
 * matching list_changed (heard on a listen stream); against hostile
 * servers (an endless cursor chain, a cursor loop, too many items) they
 * fail with a ListError naming the limit instead of listing forever.
 */
import type { ServerResponse } from "node:http";
import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import {
  connectHttp,
  ListError,
  McpClient,
  RemoteError,
  type ClientOptions,
} from "../../templates/runtime/client.js";
import {
  CursorCodec,
  McpServer,
  RequestStateCodec,
  serveHttp,
  type ListOptions,
} from "../../templates/runtime/index.js";
import { legacy, protocol } from "../helpers/mcp-client.js";
import { sleep, until } from "../helpers/wait.js";
import {
  discovered,
  json,
  result,
  scripted,
  type Received,
  type Scripted,
} from "./fixtures/scripted.js";

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A server of `count` tools and prompts that counts the list requests it serves. */
class CountingServer extends McpServer {
  readonly served: Record<string, number> = {};

  override listTools(...args: Parameters<McpServer["listTools"]>) {
    this.served["tools/list"] = (this.served["tools/list"] ?? 0) + 1;
    return super.listTools(...args);
  }

  override listPrompts(...args: Parameters<McpServer["listPrompts"]>) {
    this.served["prompts/list"] = (this.served["prompts/list"] ?? 0) + 1;
    return super.listPrompts(...args);
  }
}

async function serve(count: number, lists: ListOptions) {
  const server = new CountingServer({
    protocol,
    legacy,
    info: { name: "lists", version: "1.0.0" },
    requestState: new RequestStateCodec(randomBytes(32)),
    lists: { cursors: new CursorCodec(randomBytes(32)), ...lists },
  });
  for (let i = 0; i < count; i++) {
    server.tool({ name: `t${i}`, inputSchema: { type: "object" } }, () => ({ content: [] }));
    server.prompt({ name: `p${i}` }, () => ({ messages: [] }));
  }
  const { url, close } = await serveHttp(server, { port: 0 });
  closers.push(close);
  return { server, url };
}

function clientOf(url: string, options: Partial<ClientOptions> = {}) {
  const client = new McpClient({
    protocol,
    legacy,
    channel: connectHttp(url),
    info: { name: "lists-tests", version: "1.0.0" },
    ...options,
  });
  closers.push(() => client.close());
  return client;
}

describe("against a server with many pages", () => {
  it("returns every tool once, in order, after one request per page", async () => {
    const { server, url } = await serve(50, { pageSize: 3 });
    const tools = (await clientOf(url).listTools()) as Array<{ name: string }>;
    expect(tools.map((t) => t.name)).toEqual(Array.from({ length: 50 }, (_, i) => `t${i}`));
    expect(server.served["tools/list"]).toBe(17);
  });

  it("keeps the pages for their ttlMs: a second list within it asks nothing, one after it asks again", async () => {
    const { server, url } = await serve(5, { pageSize: 2, ttlMs: 400 });
    const client = clientOf(url);
    await client.listTools();
    expect(server.served["tools/list"]).toBe(3);
    expect(await client.listTools()).toHaveLength(5);
    expect(server.served["tools/list"]).toBe(3);
    await sleep(450);
    expect(await client.listTools()).toHaveLength(5);
    expect(server.served["tools/list"]).toBe(6);
  });

  it("keeps nothing when the server says ttlMs 0", async () => {
    const { server, url } = await serve(2, { ttlMs: 0 });
    const client = clientOf(url);
    await client.listTools();
    await client.listTools();
    expect(server.served["tools/list"]).toBe(2);
  });

  it("drops a kept list when its list_changed arrives, and only that list", async () => {
    const { server, url } = await serve(3, { pageSize: 2, ttlMs: 600_000 });
    const client = clientOf(url);
    const heard: string[] = [];
    const subscription = client.listen({ toolsListChanged: true, promptsListChanged: true }, (n) =>
      heard.push(String(n.method)),
    );
    await subscription.acknowledged;
    await client.listTools();
    await client.listPrompts();
    server.tool({ name: "added", inputSchema: { type: "object" } }, () => ({ content: [] }));
    server.notifyToolsChanged();
    await until(() => heard.includes("notifications/tools/list_changed"));
    const tools = (await client.listTools()) as Array<{ name: string }>;
    expect(tools.map((t) => t.name)).toContain("added");
    expect(server.served["tools/list"]).toBe(4);
    await client.listPrompts();
    expect(server.served["prompts/list"]).toBe(2);
    subscription.close();
  });

  it("starts over once when the server refuses a cursor of a list that changed mid-way", async () => {
    const { server, url } = await serve(4, { pageSize: 2 });
    let added = false;
    const client = clientOf(url);
    const original = server.listTools.bind(server);
    server.listTools = (params, era) => {
      const page = original(params, era);
      if (!added && page.nextCursor !== undefined) {
        added = true;
        server.tool({ name: "late", inputSchema: { type: "object" } }, () => ({ content: [] }));
      }
      return page;
    };
    const tools = (await client.listTools()) as Array<{ name: string }>;
    expect(tools.map((t) => t.name)).toEqual(["t0", "t1", "t2", "t3", "late"]);
  });
});

describe("against a hostile server", () => {
  let server: Scripted | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  /** A scripted modern server whose tools/list pages `page` makes from the request's cursor. */
  async function hostile(page: (cursor: unknown) => Record<string, unknown>) {
    server = await scripted((request: Received, res: ServerResponse) => {
      const body = request.body!;
      if (body.method === "server/discover") return json(res, result(body.id, discovered()));
      const cursor = (body.params as Record<string, unknown>).cursor;
      json(
        res,
        result(body.id, {
          resultType: "complete",
          ttlMs: 0,
          cacheScope: "private",
          ...page(cursor),
        }),
      );
    });
    return server;
  }
  const lists = (s: Scripted) => s.received.filter((r) => r.body?.method === "tools/list").length;

  it("stops an endless cursor chain at maxPages with a ListError", async () => {
    const s = await hostile((cursor) => ({
      tools: [],
      nextCursor: `${typeof cursor === "string" ? cursor : ""}x`,
    }));
    const failure = clientOf(s.url, { lists: { maxPages: 25 } }).listTools();
    await expect(failure).rejects.toBeInstanceOf(ListError);
    await expect(failure).rejects.toThrow(
      "tools/list: the server still sent a nextCursor after 25 pages (lists.maxPages)",
    );
    expect(lists(s)).toBe(25);
  });

  it("stops at the default of 100 pages", async () => {
    const s = await hostile((cursor) => ({
      tools: [],
      nextCursor: `${typeof cursor === "string" ? cursor : ""}x`,
    }));
    await expect(clientOf(s.url).listTools()).rejects.toMatchObject({ reason: "too_many_pages" });
    expect(lists(s)).toBe(100);
  });

  it("detects a cursor sent again (a loop), the empty cursor included", async () => {
    const s = await hostile((cursor) => ({
      tools: [],
      nextCursor: cursor === "" ? "a" : cursor === "a" ? "" : "",
    }));
    const failure = clientOf(s.url).listTools();
    await expect(failure).rejects.toMatchObject({ reason: "cursor_loop" });
    expect(lists(s)).toBe(3);
  });

  it("stops past maxItems", async () => {
    const tool = { name: "t", inputSchema: { type: "object" } };
    const s = await hostile((cursor) => ({
      tools: [tool, tool, tool],
      nextCursor: `${typeof cursor === "string" ? cursor : ""}x`,
    }));
    await expect(clientOf(s.url, { lists: { maxItems: 10 } }).listTools()).rejects.toThrow(
      "tools/list: the server listed more than 10 items (lists.maxItems)",
    );
    expect(lists(s)).toBe(4);
  });

  it("passes on a refused first page as the server's error", async () => {
    server = await scripted((request, res) => {
      const body = request.body!;
      if (body.method === "server/discover") return json(res, result(body.id, discovered()));
      json(res, { jsonrpc: "2.0", id: body.id, error: { code: -32602, message: "no" } });
    });
    await expect(clientOf(server.url).listTools()).rejects.toBeInstanceOf(RemoteError);
  });
});
