/**
 * What belongs to whom under authorization (tasks.md, security: "an
 * authorization check on each task-related request"): a task, its input
 * requests, its result and its notifications are its creator's (the
 * token's subject and client). Another principal gets for it exactly what
 * it gets for an unknown task: tasks/get, tasks/update and tasks/cancel are
 * -32602 "Unknown task", and its listen stream, acknowledged alike, hears
 * nothing of it. Owners are compared by an encoding in which no two
 * identities meet (subject "alice x" with client "y" is not subject "alice"
 * with client "x y"), for 2025-era sessions too. A keyed change heard on
 * the change bus reaches only streams of an extension's own field.
 * Real HTTP on 127.0.0.1; tokens are checked by a stand-in authorization.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as legacy from "../../../generated/2025-11-25/index.js";
import * as tasksProtocol from "../../../generated/2026-07-28+tasks/index.js";
import {
  McpServer,
  principalKey,
  serveHttp,
  type Change,
  type ChangeBus,
  type HttpAuthorization,
  type RunningHttpServer,
} from "../../../templates/runtime/index.js";
import { openStream, post, request, type OpenStream } from "../../helpers/mcp-client.js";
import { until } from "../../helpers/wait.js";

const EXT = { extensions: { "io.modelcontextprotocol/tasks": {} } };
const EXT_ELICIT = { elicitation: { form: {} }, ...EXT };
type Json = Record<string, unknown>;

/** Bearer tokens and whom each acts for. */
const TOKENS: Readonly<Record<string, { subject: string; clientId: string }>> = {
  alice: { subject: "alice", clientId: "app" },
  bob: { subject: "bob", clientId: "app" },
  spacey: { subject: "alice x", clientId: "y" },
  spacey2: { subject: "alice", clientId: "x y" },
};

/** Authorization by a table of tokens: the transport's interface, without an authorization server. */
const authorization: HttpAuthorization = {
  metadata: () => undefined,
  authenticate: (req) => {
    const token = /^Bearer (.+)$/.exec(req.header("authorization") ?? "")?.[1] ?? "";
    const who = TOKENS[token];
    return Promise.resolve(
      who
        ? { ...who, scopes: [], claims: { sub: who.subject } }
        : { kind: "body" as const, status: 401, headers: {}, body: "" },
    );
  },
  authorize: () => undefined,
};

const FORM = { type: "object", properties: { ok: { type: "boolean" } } };
let http: RunningHttpServer;
let server: McpServer;
let busDeliver: ((change: Change) => void) | undefined;

/** A change bus whose other instances are this test: what it delivers is what Redis would hand over. */
const bus: ChangeBus = {
  send: () => {},
  receive: (deliver) => {
    busDeliver = deliver;
    return () => (busDeliver = undefined);
  },
  close: () => Promise.resolve(),
};

beforeAll(async () => {
  server = new McpServer({
    protocol: tasksProtocol,
    legacy,
    info: { name: "owners", version: "1.0.0" },
    onError: () => {},
    tasks: { pollIntervalMs: 50 },
    changeBus: bus,
  });
  server.tool(
    { name: "delete", inputSchema: { type: "object" }, execution: { taskSupport: "optional" } },
    (_args, ctx) =>
      ctx.runAsTask(async (task) => {
        const answer = await task.elicit("confirm", {
          mode: "form",
          message: "Delete alice-secret-plan.txt?",
          requestedSchema: FORM,
        });
        return {
          content: [{ type: "text", text: answer.action === "accept" ? "Deleted" : "Kept" }],
        };
      }),
  );
  server.resource({ uri: "file:///config", name: "config" }, (uri) => ({
    contents: [{ uri, text: "" }],
  }));
  http = await serveHttp(server, { port: 0, authorization });
});
afterAll(async () => {
  await http.close();
  await server.close();
});

const as = (token: string, message: Json) =>
  post(http.url, message, { authorization: `Bearer ${token}` });
let nextId = 1;
const call = (token: string, method: string, params: Json, capabilities: Json = EXT) =>
  as(token, request(method, params, nextId++, capabilities));

async function aliceTask(): Promise<string> {
  const created = await call("alice", "tools/call", { name: "delete", arguments: {} }, EXT_ELICIT);
  expect(created.body.result).toMatchObject({ resultType: "task" });
  const taskId = String((created.body.result as Json).taskId);
  await until(
    async () =>
      ((await call("alice", "tasks/get", { taskId })).body.result as Json | undefined)?.status ===
      "input_required",
    { what: "the task to ask" },
  );
  return taskId;
}

/** The error a request got, without its id. */
const errorOf = (reply: { body: Json }) => reply.body.error as Json;

describe("a task under authorization", () => {
  it("another principal gets, for tasks/get, tasks/update and tasks/cancel, what an unknown task gets", async () => {
    const taskId = await aliceTask();
    const unknown = "00000000-0000-4000-8000-000000000000";
    const answer = { confirm: { action: "accept", content: { ok: true } } };
    for (const [method, params] of [
      ["tasks/get", {}],
      ["tasks/update", { inputResponses: answer }],
      ["tasks/cancel", {}],
    ] as const) {
      const stranger = await call("bob", method, { taskId, ...params });
      const none = await call("bob", method, { taskId: unknown, ...params });
      expect(errorOf(stranger)).toEqual({
        code: -32602,
        message: `Unknown task: ${taskId}`,
        data: { taskId },
      });
      expect(errorOf(none)).toEqual({
        code: -32602,
        message: `Unknown task: ${unknown}`,
        data: { taskId: unknown },
      });
    }
    const own = await call("alice", "tasks/get", { taskId });
    expect(own.body.result).toMatchObject({
      status: "input_required",
      inputRequests: { confirm: { params: { message: "Delete alice-secret-plan.txt?" } } },
    });
    expect(own.body.result).not.toHaveProperty("owner");
  });

  it("a stranger's listen stream is acknowledged alike and hears nothing; the owner's hears the task end", async () => {
    const taskId = await aliceTask();
    const listen = async (token: string, id: number): Promise<OpenStream> => {
      const stream = await openStream(
        http.url,
        request("subscriptions/listen", { notifications: { taskIds: [taskId] } }, id, EXT),
        { authorization: `Bearer ${token}` },
      );
      expect(await stream.next()).toMatchObject({
        method: "notifications/subscriptions/acknowledged",
        params: { notifications: { taskIds: [taskId] } },
      });
      return stream;
    };
    const [mine, theirs] = [await listen("alice", 901), await listen("bob", 902)];
    try {
      await call("alice", "tasks/update", {
        taskId,
        inputResponses: { confirm: { action: "accept", content: { ok: true } } },
      });
      const seen: Json[] = [];
      while (!seen.some((m) => (m.params as Json | undefined)?.status === "completed"))
        seen.push(await mine.next());
      expect(seen.at(-1)).toMatchObject({
        method: "notifications/tasks",
        params: { taskId, result: { content: [{ text: "Deleted" }] } },
      });
      await expect(theirs.next(500)).rejects.toThrow(/no message/);
    } finally {
      mine.close();
      theirs.close();
    }
  });
});

describe("owner keys", () => {
  it("encode subject and client so that no two identities meet", () => {
    const spacey = principalKey({ ...TOKENS.spacey!, scopes: [], claims: {} });
    const spacey2 = principalKey({ ...TOKENS.spacey2!, scopes: [], claims: {} });
    expect(spacey).not.toBe(spacey2);
    expect(principalKey({ subject: "a", scopes: [], claims: {} })).not.toBe(
      principalKey({ clientId: "a", scopes: [], claims: {} }),
    );
    expect(principalKey(undefined)).toBeUndefined();
  });

  it("a 2025-era session of subject 'alice x' with client 'y' is not served to subject 'alice' with client 'x y'", async () => {
    const legacyPost = (token: string, message: Json, session?: string) =>
      post(http.url, message, {
        authorization: `Bearer ${token}`,
        "mcp-method": undefined,
        "mcp-protocol-version": session ? "2025-11-25" : undefined,
        ...(session ? { "mcp-session-id": session } : {}),
      });
    const opened = await legacyPost("spacey", {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "old", version: "1" },
      },
    });
    const session = opened.headers.get("mcp-session-id")!;
    const ping = { jsonrpc: "2.0", id: 2, method: "ping" };
    expect((await legacyPost("spacey2", ping, session)).status).toBe(404);
    expect((await legacyPost("spacey", ping, session)).status).toBe(200);
  });

  it("a task of subject 'alice x' with client 'y' is unknown to subject 'alice' with client 'x y'", async () => {
    const created = await call(
      "spacey",
      "tools/call",
      { name: "delete", arguments: {} },
      EXT_ELICIT,
    );
    const taskId = String((created.body.result as Json).taskId);
    expect(errorOf(await call("spacey2", "tasks/get", { taskId }))).toMatchObject({
      code: -32602,
    });
    expect((await call("spacey", "tasks/get", { taskId })).body.result).toMatchObject({ taskId });
  });
});

describe("keyed changes heard on the change bus", () => {
  it("reach only streams that asked for the key under an extension's field, never one of the core's", async () => {
    const stream = await openStream(
      http.url,
      request(
        "subscriptions/listen",
        { notifications: { resourceSubscriptions: ["task-1", "file:///config"] } },
        77,
      ),
      { authorization: "Bearer bob" },
    );
    try {
      await stream.next();
      const spoof = (field: string, method: string, params: Json): Change => ({
        kind: "keyed",
        field,
        key: "task-1",
        method,
        params,
      });
      const task = {
        taskId: "task-1",
        status: "completed",
        createdAt: new Date().toISOString(),
        lastUpdatedAt: new Date().toISOString(),
        ttlMs: 1000,
        pollIntervalMs: 100,
        result: { content: [] },
      };
      // Under a core field (the stream never declared Tasks), and under Tasks' field with another method.
      busDeliver!(spoof("resourceSubscriptions", "notifications/tasks", task));
      busDeliver!(spoof("taskIds", "notifications/message", { level: "info", data: "x" }));
      // What the stream asked for still comes, first.
      busDeliver!({ kind: "resource", uri: "file:///config" });
      expect(await stream.next()).toMatchObject({
        method: "notifications/resources/updated",
        params: { uri: "file:///config" },
      });
      await expect(stream.next(300)).rejects.toThrow(/no message/);
    } finally {
      stream.close();
    }
  });
});
