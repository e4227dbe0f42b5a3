/**
 * The prefix of every Redis key and channel (scale/redis.ts): made from the
 * server's name by default, or MCP_REDIS_PREFIX. Two servers on one
 * redis-server, each on its own database number, still share Pub/Sub
 * channels (they are global to the server): their prefixes keep them apart,
 * while the instances of one server (one name) hear each other whatever
 * database they use.
 */
import { createClient } from "@redis/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  redisPrefixFromEnvironment,
  scaleOutFromEnvironment,
  type Change,
  type ChangeBus,
  type TaskRecord,
} from "../../../templates/runtime/index.js";
import { SKIP_REDIS, startRedis, type RedisServer } from "../../helpers/redis.js";
import { sleep, until } from "../../helpers/wait.js";

describe("redisPrefixFromEnvironment", () => {
  it("is made from the server's name, percent-encoded, and is mcp: without one", () => {
    expect(redisPrefixFromEnvironment({}, "my-server")).toBe("mcp:my-server:");
    expect(redisPrefixFromEnvironment({}, "a:task")).toBe("mcp:a%3Atask:");
    expect(redisPrefixFromEnvironment({}, "a b/ü")).toBe("mcp:a%20b%2F%C3%BC:");
    expect(redisPrefixFromEnvironment({})).toBe("mcp:");
  });

  it("MCP_REDIS_PREFIX wins over the name", () => {
    expect(redisPrefixFromEnvironment({ MCP_REDIS_PREFIX: "shop:" }, "my-server")).toBe("shop:");
  });

  it("takes 200 characters and refuses 201, or a space or control character, naming the variable", () => {
    const at = "p".repeat(200);
    expect(redisPrefixFromEnvironment({ MCP_REDIS_PREFIX: at })).toBe(at);
    for (const bad of ["p".repeat(201), "a b:", "a\nb:", "a\u0000"])
      expect(() => redisPrefixFromEnvironment({ MCP_REDIS_PREFIX: bad })).toThrow(
        /^MCP_REDIS_PREFIX=.*expected 1 to 200 printable ASCII characters/,
      );
  });
});

let redis: RedisServer;
const opened: Array<{ close(): Promise<void> }> = [];

beforeAll(async () => {
  if (!SKIP_REDIS) redis = await startRedis();
});
afterAll(async () => {
  await Promise.all(opened.map((o) => o.close()));
  await redis?.stop();
});

/** The stores and bus a scaffolded server named `name` makes for `MCP_TASK_STORE=<redis>/<db>`. */
function server(name: string, db: number) {
  const url = redis.url.replace(/\/0$/, `/${db}`);
  const made = scaleOutFromEnvironment({ MCP_TASK_STORE: url }, { serverName: name });
  opened.push(made.tasks!.store!, made.changeBus!, made.sessions!);
  return { tasks: made.tasks!.store!, bus: made.changeBus!, sessions: made.sessions! };
}

/** Every change `bus` hears from now on. */
async function heard(bus: ChangeBus): Promise<Change[]> {
  const got: Change[] = [];
  bus.receive((change) => got.push(change));
  await (bus as ChangeBus & { ready(): Promise<void> }).ready();
  return got;
}

function record(taskId: string): TaskRecord {
  const now = new Date().toISOString();
  return {
    taskId,
    status: "working",
    createdAt: now,
    lastUpdatedAt: now,
    ttlMs: 60_000,
    pollIntervalMs: 100,
  };
}

describe.skipIf(SKIP_REDIS)("servers sharing one Redis", () => {
  it("two servers on databases 1 and 2 hear nothing of each other: no change, no task, no task record published", async () => {
    const authorized = server("billing", 1);
    const open = server("public-docs", 2);
    const changes = await heard(open.bus);
    const records: TaskRecord[] = [];
    open.tasks.watch((r) => records.push(r));
    await (open.tasks as unknown as { watching(): Promise<void> }).watching();
    // A second instance of the open server, to show its own changes do arrive.
    const sibling = server("public-docs", 2);
    sibling.bus.send({ kind: "prompts" });
    authorized.bus.send({ kind: "tools" });
    await authorized.tasks.create(record("secret-task"));
    await authorized.tasks.update("secret-task", (r) => ({
      ...r,
      status: "completed",
      result: { content: [{ type: "text", text: "the secret" }] },
    }));
    await until(() => changes.length > 0, { what: "the sibling's change" });
    await sleep(200);
    expect(changes).toEqual([{ kind: "prompts" }]);
    expect(records).toEqual([]);
    expect(await open.tasks.get("secret-task")).toBeUndefined();
    expect(await authorized.tasks.get("secret-task")).toMatchObject({ status: "completed" });
  });

  it("the keys and channels carry the prefix: mcp:<name>: by default", async () => {
    const named = server("keys-demo", 3);
    const raw = createClient({ url: redis.url.replace(/\/0$/, "/3") });
    await raw.connect();
    try {
      const channels: string[] = [];
      await raw.pSubscribe("*", (_message, channel) => channels.push(channel));
      await named.tasks.create(record("t-1"));
      await named.tasks.update("t-1", (r) => ({ ...r, status: "cancelled" }));
      named.bus.send({ kind: "tools" });
      await until(() => channels.length >= 2, { what: "both publishes" });
      expect(new Set(channels)).toEqual(new Set(["mcp:keys-demo:tasks", "mcp:keys-demo:changes"]));
    } finally {
      await raw.close();
    }
    const reader = createClient({ url: redis.url.replace(/\/0$/, "/3") });
    await reader.connect();
    try {
      expect(await reader.keys("*")).toEqual(["mcp:keys-demo:task:t-1"]);
    } finally {
      await reader.close();
    }
  });
});
