/**
 * The run-time part of an extension (templates/runtime/server/extension.ts)
 * as a server takes it: `server.use` refuses what could never be reached,
 * `notifyListeners` refuses what would reach the wrong clients, and keyed
 * notifications cross instances unless every instance hears of them by
 * itself (task changes). The end-to-end use, with a project's own
 * extension over HTTP, is test/scaffold/extension-jobs.test.ts.
 */
import { describe, expect, it } from "vitest";
import * as tasksProtocol from "../../../generated/2026-07-28+tasks/index.js";
import { serveHttp } from "../../../templates/runtime/index.js";
import {
  ChangeHub,
  McpServer,
  Started,
  type Change,
  type ChangeBus,
  type ServerExtension,
} from "../../../templates/runtime/server/index.js";
import { post, request, testServer } from "../../helpers/mcp-client.js";

const INFO = { name: "ext", version: "1.0.0" };

describe("server.use", () => {
  it("refuses an extension serving a method the revision does not have, naming the fix", () => {
    const server = testServer();
    expect(() =>
      server.use({ id: "com.example/jobs", methods: { "jobs/get": () => ({}) } }),
    ).toThrow(/serves jobs\/get, which 2026-07-28 does not have \(fix: .*--extension\)/);
  });

  it("refuses a second extension with the same id (the Tasks extension is in use already)", () => {
    const server = new McpServer({ protocol: tasksProtocol, info: INFO });
    expect(() => server.use({ id: "io.modelcontextprotocol/tasks" })).toThrow(/already in use/);
    void server.close();
  });

  it("checks the tools registered before it, and those after", () => {
    const refuseLoud: ServerExtension = {
      id: "com.example/quiet",
      checkTool: (definition) => {
        if (definition.name.startsWith("loud")) throw new Error(`${definition.name} is loud`);
      },
    };
    const before = testServer().tool({ name: "loud1", inputSchema: { type: "object" } }, () => ({
      content: [],
    }));
    expect(() => before.use(refuseLoud)).toThrow("loud1 is loud");
    const after = testServer().use(refuseLoud);
    expect(() =>
      after.tool({ name: "loud2", inputSchema: { type: "object" } }, () => ({ content: [] })),
    ).toThrow("loud2 is loud");
  });

  it("declares the extension in server/discover, with its settings unless the server's own option sets them", () => {
    const server = testServer({ extensions: { "com.example/b": { mine: true } } })
      .use({ id: "com.example/a", capability: { depth: 2 } })
      .use({ id: "com.example/b", capability: { depth: 3 } });
    expect(server.capabilities().extensions).toEqual({
      "com.example/a": { depth: 2 },
      "com.example/b": { mine: true },
    });
  });
});

describe("a tool call's work", () => {
  it("is handed to an extension only when the request declares it; otherwise it runs inline", async () => {
    const handedOver: string[] = [];
    const server = testServer()
      .use({
        id: "com.example/eager",
        // Offers itself to every call: the runtime decides.
        offerToolCall: () => async (work) => {
          handedOver.push("eager");
          const result = (await work({} as never)) as Record<string, unknown>;
          return new Started({ ...result, resultType: "complete" });
        },
      })
      .tool({ name: "t", inputSchema: { type: "object" } }, (_args, ctx) =>
        ctx.runAs("com.example/eager", () => ({ content: [{ type: "text", text: "done" }] })),
      );
    const { url, close } = await serveHttp(server, { port: 0 });
    try {
      const call = (capabilities?: Record<string, unknown>) =>
        post(url, request("tools/call", { name: "t", arguments: {} }, 1, capabilities));
      expect((await call()).body.result).toMatchObject({ content: [{ text: "done" }] });
      expect(handedOver).toEqual([]);
      const declared = await call({ extensions: { "com.example/eager": {} } });
      expect(declared.body.result).toMatchObject({ content: [{ text: "done" }] });
      expect(handedOver).toEqual(["eager"]);
    } finally {
      await close();
    }
  });
});

describe("a request named like an Object.prototype member", () => {
  it("is not found, on a server whose Tasks extension prepares requests by method", async () => {
    const server = new McpServer({ protocol: tasksProtocol, info: INFO });
    const { url, close } = await serveHttp(server, { port: 0 });
    try {
      for (const method of ["toString", "valueOf", "hasOwnProperty", "__proto__"])
        expect((await post(url, request(method, {}, 1))).body.error).toMatchObject({
          code: -32601,
        });
    } finally {
      await close();
    }
  });
});

describe("server.notifyListeners", () => {
  it("refuses a field no extension in use has", () => {
    const server = testServer();
    expect(() =>
      server.notifyListeners("notifications/tools/list_changed", {}, { field: "jobIds", key: "1" }),
    ).toThrow(/no extension in use has the listen field "jobIds"/);
  });

  it("refuses a notification of another extension than the field's, and an invalid one", () => {
    const server = new McpServer({ protocol: tasksProtocol, info: INFO }).use({
      id: "com.example/jobs",
      listenFields: ["jobIds"],
    });
    expect(() =>
      server.notifyListeners(
        "notifications/tasks",
        { taskId: "t", status: "working" },
        { field: "jobIds", key: "t" },
      ),
    ).toThrow(/belongs to the io.modelcontextprotocol\/tasks extension, not to com.example\/jobs/);
    expect(() =>
      server.notifyListeners("notifications/tasks", { taskId: 7 }, { field: "taskIds", key: "7" }),
    ).toThrow(/invalid notifications\/tasks notification/);
    void server.close();
  });
});

describe("keyed notifications across instances", () => {
  /** A change bus that only records what it is asked to send. */
  function recordingBus(): ChangeBus & { sent: Change[] } {
    const sent: Change[] = [];
    return {
      sent,
      send: (change) => void sent.push(change),
      receive: () => () => {},
      close: () => Promise.resolve(),
    };
  }

  it("are relayed, except those every instance hears of by itself (a task's, from the shared store)", () => {
    const bus = recordingBus();
    const hub = new ChangeHub();
    hub.relay(bus);
    const keyed = { kind: "keyed", field: "jobIds", key: "j", method: "m", params: {} } as const;
    hub.publish(keyed);
    hub.publish({ ...keyed, field: "taskIds", relay: false });
    expect(bus.sent).toEqual([keyed]);
  });
});
