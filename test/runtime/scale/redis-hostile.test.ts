/**
 * Redis as a shared medium (templates/runtime/scale/): two instances of one
 * server in this process share a real redis-server, and a third connection
 * writes and publishes what a hostile or broken process might. Every record
 * and message read back is checked for size and shape: a bad one is
 * reported in one line saying what was wrong and where, and treated as
 * absent (404, "Unknown task"), never served and never a 503 with a stack;
 * `null` on the sessions channel throws nowhere; a keyed change spoofed
 * onto the change channel reaches no client that did not declare its
 * extension; a 30 MB publish, which makes Redis close the subscriber
 * connection, leaves every subscription working once it reconnects. A
 * session record past MAX_SESSION_RECORD_BYTES is refused on write. The
 * instance holding a session's GET stream keeps the session alive in Redis,
 * and DELETE on one instance ends the session's GET stream on the other.
 */
import { createClient, type RedisClientType } from "@redis/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as legacy from "../../../generated/2025-11-25/index.js";
import * as tasksProtocol from "../../../generated/2026-07-28+tasks/index.js";
import {
  MAX_SESSION_RECORD_BYTES,
  McpServer,
  RedisChangeBus,
  RedisSessionStore,
  RedisTaskStore,
  serveHttp,
  type RunningHttpServer,
} from "../../../templates/runtime/index.js";
import {
  openRequestStream,
  openStream,
  post,
  request,
  type OpenStream,
} from "../../helpers/mcp-client.js";
import { SKIP_REDIS, startRedis, type RedisServer } from "../../helpers/redis.js";
import { sleep, until } from "../../helpers/wait.js";

const PREFIX = "hostile:";
const IDLE_MS = 1200;
type Json = Record<string, unknown>;

let redis: RedisServer;
let raw: RedisClientType;
const reports: string[] = [];
const report = (error: unknown) =>
  reports.push(error instanceof Error ? (error.stack ?? error.message) : String(error));

interface Instance {
  readonly server: McpServer;
  readonly http: RunningHttpServer;
  readonly url: string;
}
let a: Instance;
let b: Instance;

async function instance(): Promise<Instance> {
  const options = { url: redis.url, prefix: PREFIX, onError: report };
  const server = new McpServer({
    protocol: tasksProtocol,
    legacy,
    info: { name: "hostile", version: "1.0.0" },
    onError: report,
    sessions: new RedisSessionStore(options),
    changeBus: new RedisChangeBus(options),
    tasks: { store: new RedisTaskStore(options) },
  });
  server.resource({ uri: "file:///config", name: "config" }, (uri) => ({
    contents: [{ uri, text: "" }],
  }));
  server.tool({ name: "touch", inputSchema: { type: "object" } }, () => {
    server.notifyResourceUpdated("file:///config");
    return { content: [] };
  });
  const http = await serveHttp(server, { port: 0, sessionIdleMs: IDLE_MS });
  return { server, http, url: http.url };
}

beforeAll(async () => {
  if (SKIP_REDIS) return;
  redis = await startRedis();
  raw = createClient({ url: redis.url });
  await raw.connect();
  [a, b] = await Promise.all([instance(), instance()]);
});
afterAll(async () => {
  for (const each of [a, b]) {
    await each?.http.close();
    await each?.server.close();
  }
  await raw?.close();
  await redis?.stop();
});

const legacyHeaders = (session?: string): Record<string, string> => ({
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  ...(session ? { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" } : {}),
});
let nextId = 1;
const legacyCall = (on: Instance, session: string, method: string, params: Json = {}) =>
  post(
    on.url,
    { jsonrpc: "2.0", id: nextId++, method, params },
    { ...legacyHeaders(session), "mcp-method": undefined },
  );

async function open(on: Instance): Promise<string> {
  const reply = await post(
    on.url,
    {
      jsonrpc: "2.0",
      id: nextId++,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "c", version: "1" },
      },
    },
    { "mcp-method": undefined, "mcp-protocol-version": undefined },
  );
  expect(reply.status).toBe(200);
  return reply.headers.get("mcp-session-id")!;
}

const standalone = (on: Instance, session: string): Promise<OpenStream> =>
  openRequestStream(on.url, { method: "GET", headers: legacyHeaders(session) });

/** The reports made since `from`, each of one line (no stack). */
async function reportedSince(from: number, text: string): Promise<string> {
  const found = await until(() => reports.slice(from).find((r) => r.includes(text)), {
    what: `a report saying "${text}"`,
    detail: () => reports.slice(from).join("\n"),
  });
  expect(found.split("\n")).toHaveLength(1);
  return found;
}

/** A session record another instance wrote, with `change` on top. */
const record = (change: Json) => ({
  protocolVersion: "2025-11-25",
  clientCapabilities: {},
  clientInfo: { name: "c", version: "1" },
  subscriptions: [],
  ...change,
});

describe.skipIf(SKIP_REDIS)("what Redis hands back", () => {
  it.each([
    ["not JSON", "{not json", "it is not JSON"],
    [
      "type-confused: subscriptions a string",
      JSON.stringify(record({ subscriptions: "file:///x" })),
      "subscriptions is not a list of strings",
    ],
    [
      "type-confused: capabilities a string",
      JSON.stringify(record({ clientCapabilities: "all" })),
      "clientCapabilities is not an object",
    ],
    ["null", "null", "it is not a JSON object"],
  ])(
    "a session record that is %s is reported and the session is absent (404), never 503",
    async (_, text, problem) => {
      const id = `planted-${nextId++}`;
      await raw.set(`${PREFIX}session:${id}`, text);
      const from = reports.length;
      const reply = await legacyCall(a, id, "tools/list");
      expect(reply.status).toBe(404);
      const said = await reportedSince(from, problem);
      expect(said).toContain(`the record of session ${id} in Redis (${PREFIX}session:${id})`);
    },
  );

  it("null and malformed events on the sessions channel are reported and dropped; the next event is heard", async () => {
    const session = await open(a);
    expect((await legacyCall(b, session, "ping")).status).toBe(200);
    const from = reports.length;
    await raw.publish(`${PREFIX}sessions`, "null");
    await raw.publish(`${PREFIX}sessions`, JSON.stringify({ kind: "ended" }));
    await reportedSince(from, "is not a session event: it is not a JSON object");
    await reportedSince(from, "is not a session event: id is not a string");
    expect((await fetch(a.url, { method: "DELETE", headers: legacyHeaders(session) })).status).toBe(
      200,
    );
    await until(async () => (await legacyCall(b, session, "ping")).status === 404, {
      what: "B to hear the session ended",
    });
  });

  it("a task record that is not one is reported and the task is unknown, never served", async () => {
    const EXT = { extensions: { "io.modelcontextprotocol/tasks": {} } };
    await raw.set(
      `${PREFIX}task:planted`,
      JSON.stringify({ taskId: "planted", status: 5, createdAt: "x" }),
    );
    const from = reports.length;
    const reply = await post(a.url, request("tasks/get", { taskId: "planted" }, 1, EXT));
    expect(reply.body.error).toMatchObject({ code: -32602, message: "Unknown task: planted" });
    await reportedSince(from, "is not a task record: status is not a task status");
    // A record on the channel is read when something here listens for tasks.
    const stream = await openStream(
      a.url,
      request("subscriptions/listen", { notifications: { taskIds: ["planted"] } }, 2, EXT),
    );
    try {
      await stream.next();
      await raw.publish(`${PREFIX}tasks`, '{"taskId":"planted",');
      await raw.publish(`${PREFIX}tasks`, JSON.stringify({ taskId: "planted", status: "done" }));
      await reportedSince(from, "a record on hostile:tasks is not a task record: it is not JSON");
      await reportedSince(from, "is not a task record: status is not a task status");
      await expect(stream.next(300)).rejects.toThrow(/no message/);
    } finally {
      stream.close();
    }
  });

  it("a keyed change spoofed onto the change channel reaches no client that did not declare its extension", async () => {
    const stream = await openStream(
      b.url,
      request(
        "subscriptions/listen",
        { notifications: { resourceSubscriptions: ["task-1", "file:///config"] } },
        5,
      ),
    );
    try {
      await stream.next();
      const from = reports.length;
      await raw.publish(
        `${PREFIX}changes`,
        JSON.stringify({
          origin: "elsewhere",
          change: {
            kind: "keyed",
            field: "resourceSubscriptions",
            key: "task-1",
            method: "notifications/tasks",
            params: { taskId: "task-1", status: "working" },
          },
        }),
      );
      await reportedSince(from, "a change on the change bus was dropped");
      await post(a.url, request("tools/call", { name: "touch", arguments: {} }, 2));
      expect(await stream.next()).toMatchObject({
        method: "notifications/resources/updated",
        params: { uri: "file:///config" },
      });
    } finally {
      stream.close();
    }
  });

  it("a 30 MB publish on each channel leaves every subscription working", async () => {
    const huge = "x".repeat(30 * 1024 * 1024);
    for (const channel of ["changes", "sessions", "tasks"])
      await raw.publish(`${PREFIX}${channel}`, huge);
    const stream = await openStream(
      b.url,
      request(
        "subscriptions/listen",
        { notifications: { resourceSubscriptions: ["file:///config"] } },
        6,
      ),
    );
    try {
      await stream.next();
      // Changes made on A reach B's stream (its subscriber reconnected and subscribed again).
      await until(
        async () => {
          await post(a.url, request("tools/call", { name: "touch", arguments: {} }, 3));
          return stream.next(500).then(
            (m) => m.method === "notifications/resources/updated",
            () => false,
          );
        },
        { what: "a change from A on B's stream", timeoutMs: 20_000 },
      );
      const session = await open(a);
      expect((await legacyCall(b, session, "ping")).status).toBe(200);
      expect(
        (await fetch(a.url, { method: "DELETE", headers: legacyHeaders(session) })).status,
      ).toBe(200);
      await until(async () => (await legacyCall(b, session, "ping")).status === 404, {
        what: "B to hear of the DELETE on A",
      });
    } finally {
      stream.close();
    }
  });
});

describe.skipIf(SKIP_REDIS)("session records", () => {
  it("one of MAX_SESSION_RECORD_BYTES is written; one byte more is refused before anything is written", async () => {
    const store = new RedisSessionStore({ url: redis.url, prefix: "size:" });
    try {
      const base = JSON.stringify(
        record({ clientCapabilities: { experimental: { pad: { p: "" } } } }),
      );
      const at = record({
        clientCapabilities: {
          experimental: { pad: { p: "p".repeat(MAX_SESSION_RECORD_BYTES - base.length) } },
        },
      });
      expect(JSON.stringify(at).length).toBe(MAX_SESSION_RECORD_BYTES);
      await store.save("at", at, 60_000);
      expect(await raw.exists("size:session:at")).toBe(1);
      const past = record({
        clientCapabilities: {
          experimental: { pad: { p: "p".repeat(MAX_SESSION_RECORD_BYTES - base.length + 1) } },
        },
      });
      await expect(store.save("past", past, 60_000)).rejects.toThrow(
        `the record of session past takes ${MAX_SESSION_RECORD_BYTES + 1} bytes, more than the ${MAX_SESSION_RECORD_BYTES} a shared session may (MAX_SESSION_RECORD_BYTES); not saved`,
      );
      expect(await raw.exists("size:session:past")).toBe(0);
    } finally {
      await store.close();
    }
  });
});

describe.skipIf(SKIP_REDIS)("a session's GET stream across instances", () => {
  it("keeps the session alive in Redis while it is open on the other instance", async () => {
    const session = await open(a);
    const stream = await standalone(b, session);
    try {
      expect(stream.status).toBe(200);
      await sleep(IDLE_MS * 3);
      expect(await raw.exists(`${PREFIX}session:${session}`)).toBe(1);
      expect((await legacyCall(a, session, "ping")).status).toBe(200);
    } finally {
      stream.close();
    }
  });

  it("ends when DELETE on the other instance ends the session", async () => {
    const session = await open(a);
    const stream = await standalone(b, session);
    expect(stream.status).toBe(200);
    expect((await fetch(a.url, { method: "DELETE", headers: legacyHeaders(session) })).status).toBe(
      200,
    );
    await stream.ended;
  });
});
