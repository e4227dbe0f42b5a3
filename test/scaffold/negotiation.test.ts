/**
 * Extension negotiation both generated sides agree on: for every manifest
 * shape of the test fixtures, a server and a client scaffolded from the
 * same manifest talk, in both eras, over Streamable HTTP on 127.0.0.1 and
 * over stdio with the server a real child process.
 *
 * - server-only settings (ext-echo: `sides: ["server"]`, a method, a
 *   resultType): the client declares it all the same, because the default
 *   rule needs the client's declaration for its messages, so the method
 *   reaches its handler and the resultType's continuation runs;
 * - both sides (ext-jobs);
 * - client-only, with a setting the rule names (ext-hints: `verbose: true`,
 *   which the client declares from the manifest's defaults);
 * - server-declared (Skills: its methods need the server's declaration,
 *   `resources/directory/read` also `directoryRead: true`, else it is an
 *   unknown method, -32601, never -32603).
 *
 * "Agree" is judged where it shows: an allowed method reaches the
 * scaffolded stub (-32603 "is not implemented yet" comes from the
 * handler), a refused one is refused by the client before it is sent with
 * the code the server answers the same request with. A legacy (2025-11-25)
 * session has no extensions: the client knows the methods as unknown, and
 * the core works.
 */
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFileSync, writeFileSync } from "node:fs";
import { fixture, runCli, tempDir } from "../helpers/run-cli.js";
import { importFromProject, type ProjectRuntime, type ProjectServer } from "../helpers/index.js";
import { post, request } from "../helpers/mcp-client.js";
import { linkNodeModules, projectEnv } from "../helpers/project.js";
import { compileProject } from "../helpers/typecheck.js";

const MINUTE = 60_000;
const TSX = pathToFileURL(createRequire(import.meta.url).resolve("tsx/esm")).href;

type ClientRuntime = typeof import("../../templates/runtime/client.js");

/** What a scaffolded client's src/generated/client.gen.ts exports, as these tests use it. */
interface GeneratedClient {
  createClient(options: {
    channel: unknown;
    info: { name: string; version: string };
    protocolVersion?: string;
    continuations?: Record<string, (result: never) => Promise<Record<string, unknown>>>;
  }): {
    readonly raw: {
      request(method: string, params?: Record<string, unknown>): Promise<Record<string, unknown>>;
      readonly server?: { readonly capabilities: Record<string, unknown> };
    };
    readonly rpc: Record<string, (params: Record<string, unknown>) => Promise<unknown>>;
    connect(): Promise<{ readonly era: string; readonly capabilities: Record<string, unknown> }>;
    close(): Promise<void>;
  };
}

interface Shape {
  readonly shape: string;
  /** What --extension is given. */
  readonly extension: string;
  readonly id: string;
  /** A request of the extension that the scaffolded pair agrees on, with valid params. */
  readonly method: string;
  readonly params: Record<string, unknown>;
  /** What the scaffolded server declares for the extension in server/discover (undefined: nothing). */
  readonly serverDeclares: Record<string, unknown> | undefined;
}

const SHAPES: readonly Shape[] = [
  {
    shape: "server-only settings (ext-echo)",
    extension: fixture("ext-echo"),
    id: "com.example/echo",
    method: "echo/say",
    params: { text: "hi" },
    serverDeclares: {},
  },
  {
    shape: "both sides (ext-jobs)",
    extension: fixture("ext-jobs"),
    id: "com.example/jobs",
    method: "jobs/get",
    params: { jobId: "job-1" },
    serverDeclares: {},
  },
  {
    shape: "client-only with a setting (ext-hints)",
    extension: fixture("ext-hints"),
    id: "com.example/hints",
    method: "hints/get",
    params: { topic: "tea" },
    serverDeclares: undefined,
  },
  {
    shape: "server-declared (skills)",
    extension: "skills",
    id: "io.modelcontextprotocol/skills",
    method: "skills/list",
    params: {},
    serverDeclares: {},
  },
];

const cwd = tempDir("negotiation");
const projects = new Map<string, { server: string; client: string }>();

beforeAll(async () => {
  const made = await Promise.all(
    SHAPES.flatMap((s, i) => [
      // Eight scaffolds at once on a shared machine: a generous limit for each.
      runCli(["server", `srv${i}`, "--extension", s.extension, "--quiet"], {
        cwd,
        timeoutMs: 3 * MINUTE,
      }),
      runCli(["client", `cli${i}`, "--extension", s.extension, "--quiet"], {
        cwd,
        timeoutMs: 3 * MINUTE,
      }),
    ]),
  );
  for (const run of made) expect(run.code, run.stderr).toBe(0);
  SHAPES.forEach((s, i) => {
    const server = join(cwd, `srv${i}`);
    const client = join(cwd, `cli${i}`);
    linkNodeModules(server);
    linkNodeModules(client);
    projects.set(s.id, { server, client });
  });
}, 5 * MINUTE);

/** The client project's generated client and runtime. */
async function clientOf(shape: Shape) {
  const dir = projects.get(shape.id)!.client;
  const [generated, runtime] = await Promise.all([
    importFromProject<GeneratedClient>(dir, "src/generated/client.gen.ts"),
    importFromProject<ClientRuntime>(dir, "src/mcp-gen/runtime/client.ts"),
  ]);
  return { generated, runtime };
}

const INFO = { name: "negotiation-tests", version: "1.0.0" };

describe.each(SHAPES)("$shape: a scaffolded server and client agree", (shape) => {
  describe.each(["http", "stdio"] as const)("over %s", (transport) => {
    let url = "";
    let closeServer: (() => Promise<void>) | undefined;

    beforeAll(async () => {
      if (transport !== "http") return;
      const dir = projects.get(shape.id)!.server;
      const [runtime, { createServer }] = await Promise.all([
        importFromProject<ProjectRuntime>(dir, "src/mcp-gen/runtime/index.ts"),
        importFromProject<ProjectServer>(dir, "src/server.ts"),
      ]);
      ({ url, close: closeServer } = await runtime.serveHttp(createServer(), { port: 0 }));
    }, MINUTE);
    afterAll(async () => closeServer?.());

    /** The client's channel to this describe's server: over HTTP, or a child process on stdio. */
    async function channel(runtime: ClientRuntime): Promise<unknown> {
      if (transport === "http") return runtime.connectHttp(url);
      return runtime.spawnStdio({
        command: process.execPath,
        args: ["--import", TSX, "src/index.ts", "--stdio"],
        cwd: projects.get(shape.id)!.server,
        env: projectEnv(),
      });
    }

    it(
      "2026-07-28: the server declares what the rule asks of it, and the method reaches its handler",
      async () => {
        const { generated, runtime } = await clientOf(shape);
        const client = generated.createClient({ channel: await channel(runtime), info: INFO });
        try {
          const server = await client.connect();
          expect(server.era).toBe("modern");
          const declared = (server.capabilities.extensions ?? {}) as Record<string, unknown>;
          expect(declared[shape.id]).toEqual(shape.serverDeclares);
          // The scaffolded stub answers: the request passed negotiation on both sides.
          await expect(client.raw.request(shape.method, shape.params)).rejects.toMatchObject({
            code: -32603,
            message: `${shape.method} is not implemented yet`,
          });
        } finally {
          await client.close();
        }
      },
      MINUTE,
    );

    it(
      "2025-11-25: no extension in a legacy session; the client knows its methods as unknown, and the core works",
      async () => {
        const { generated, runtime } = await clientOf(shape);
        const client = generated.createClient({
          channel: await channel(runtime),
          info: INFO,
          protocolVersion: "2025-11-25",
        });
        try {
          expect((await client.connect()).era).toBe("legacy");
          expect(await client.raw.request("tools/list")).toHaveProperty("tools");
          await expect(client.raw.request(shape.method, shape.params)).rejects.toMatchObject({
            code: -32601,
          });
        } finally {
          await client.close();
        }
      },
      MINUTE,
    );
  });
});

describe("what each side judges by the rule", () => {
  const [echo, , hints, skills] = SHAPES as [Shape, Shape, Shape, Shape];

  it("a client declares an extension its rule needs it to, with the manifest's settings; not one only servers declare", async () => {
    const settings = async (shape: Shape) => {
      const { generated, runtime } = await clientOf(shape);
      let sent: Record<string, unknown> = {};
      const dir = projects.get(shape.id)!.server;
      const [serverRuntime, { createServer }] = await Promise.all([
        importFromProject<ProjectRuntime>(dir, "src/mcp-gen/runtime/index.ts"),
        importFromProject<ProjectServer>(dir, "src/server.ts"),
      ]);
      const server = createServer().tool(
        { name: "whoami", inputSchema: { type: "object" } },
        (_args, ctx) => {
          sent = ctx.clientCapabilities;
          return { content: [] };
        },
      );
      const { url, close } = await serverRuntime.serveHttp(server, { port: 0 });
      const client = generated.createClient({ channel: runtime.connectHttp(url), info: INFO });
      try {
        await client.raw.request("tools/call", { name: "whoami", arguments: {} });
        return sent.extensions;
      } finally {
        await client.close();
        await close();
      }
    };
    expect(await settings(echo)).toEqual({ "com.example/echo": {} });
    expect(await settings(hints)).toEqual({ "com.example/hints": { verbose: true } });
    expect(await settings(skills)).toBeUndefined();
  });

  it("the server refuses a client that did not declare what the rule asks: -32021 naming the extension, before the params are checked", async () => {
    const dir = projects.get(hints.id)!.server;
    const [runtime, { createServer }] = await Promise.all([
      importFromProject<ProjectRuntime>(dir, "src/mcp-gen/runtime/index.ts"),
      importFromProject<ProjectServer>(dir, "src/server.ts"),
    ]);
    const { url, close } = await runtime.serveHttp(createServer(), { port: 0 });
    try {
      for (const declared of [{}, { extensions: { "com.example/hints": { verbose: false } } }]) {
        const reply = await post(url, request("hints/get", {}, 1, declared));
        expect(reply.body.error).toMatchObject({
          code: -32021,
          data: { requiredCapabilities: { extensions: { "com.example/hints": {} } } },
        });
      }
      const allowed = await post(
        url,
        request("hints/get", { topic: "tea" }, 1, {
          extensions: { "com.example/hints": { verbose: true } },
        }),
      );
      expect(allowed.body.error).toMatchObject({ code: -32603 });
    } finally {
      await close();
    }
  });

  describe("Skills: resources/directory/read behind directoryRead", () => {
    /** The project's server with its extension handlers, declaring `settings` for Skills as a user would in src/extensions.ts. */
    async function skillsServer(settings: Record<string, unknown>) {
      const dir = projects.get(skills.id)!.server;
      const [runtime, { protocol, legacy }, { addExtensionMethods }] = await Promise.all([
        importFromProject<ProjectRuntime>(dir, "src/mcp-gen/runtime/index.ts"),
        importFromProject<{ protocol: never; legacy: never }>(dir, "src/generated/protocol.gen.ts"),
        importFromProject<{ addExtensionMethods: (server: unknown) => void }>(
          dir,
          "src/extensions.ts",
        ),
      ]);
      const server = new runtime.McpServer({
        protocol,
        legacy,
        info: { name: "skills", version: "1.0.0" },
        extensions: { [skills.id]: settings },
      });
      addExtensionMethods(server);
      return runtime.serveHttp(server, { port: 0 });
    }

    it("a server that did not declare directoryRead answers it as an unknown method (-32601, never -32603), and the client does not send it", async () => {
      const { url, close } = await skillsServer({});
      const { generated, runtime } = await clientOf(skills);
      const client = generated.createClient({ channel: runtime.connectHttp(url), info: INFO });
      try {
        const reply = await post(url, request("resources/directory/read", { uri: "skill://a" }));
        expect(reply.body.error).toMatchObject({ code: -32601 });
        await expect(
          client.raw.request("resources/directory/read", { uri: "skill://a" }),
        ).rejects.toMatchObject({
          code: -32601,
          message: expect.stringContaining("directoryRead: true") as unknown,
        });
        // skills/list needs only the declaration: it reaches the stub.
        await expect(client.raw.request("skills/list")).rejects.toMatchObject({ code: -32603 });
      } finally {
        await client.close();
        await close();
      }
    });

    it("with directoryRead: true both sides let it through to the handler", async () => {
      const { url, close } = await skillsServer({ directoryRead: true });
      const { generated, runtime } = await clientOf(skills);
      const client = generated.createClient({ channel: runtime.connectHttp(url), info: INFO });
      try {
        await expect(
          client.raw.request("resources/directory/read", { uri: "skill://a" }),
        ).rejects.toMatchObject({
          code: -32603,
          message: "resources/directory/read is not implemented yet",
        });
      } finally {
        await client.close();
        await close();
      }
    });
  });

  it("a resultType extension whose settings only servers type: the scaffolded client declares it, so its result arrives and the continuation runs", async () => {
    const dir = projects.get(echo.id)!.server;
    const [runtime, { createServer }] = await Promise.all([
      importFromProject<ProjectRuntime>(dir, "src/mcp-gen/runtime/index.ts"),
      importFromProject<ProjectServer>(dir, "src/server.ts"),
    ]);
    const server = createServer().tool(
      { name: "later", inputSchema: { type: "object" } },
      (_args, ctx) =>
        ctx.declares(echo.id)
          ? { resultType: "deferred", retryAfterMs: 1 }
          : { content: [{ type: "text", text: "at once" }] },
    );
    const { url, close } = await runtime.serveHttp(server, { port: 0 });
    const { generated, runtime: clientRuntime } = await clientOf(echo);
    const ran: unknown[] = [];
    const client = generated.createClient({
      channel: clientRuntime.connectHttp(url),
      info: INFO,
      continuations: {
        deferred: (handle) => {
          ran.push(handle);
          return Promise.resolve({ content: [{ type: "text", text: "later, done" }] });
        },
      },
    });
    try {
      expect(await client.rpc.toolsCall!({ name: "later", arguments: {} })).toMatchObject({
        content: [{ type: "text", text: "later, done" }],
      });
      expect(ran).toEqual([expect.objectContaining({ resultType: "deferred", retryAfterMs: 1 })]);
    } finally {
      await client.close();
      await close();
    }
  });
});

describe("typed results without ceremony", () => {
  it(
    "an extension method's handler, typed as the scaffolded stub is, returns its result without resultType and compiles under --strict",
    () => {
      const [echo, , , skills] = SHAPES as [Shape, Shape, Shape, Shape];
      const handlers = {
        [echo.id]: `
  server.method("echo/say", async (params, ctx): Promise<ResultFor<Types, "echo/say">> => {
    void ctx;
    return { text: params.text };
  });
  // The result is still checked: a wrong member is a compile error.
  // @ts-expect-error text is a string
  server.method("echo/say", async (): Promise<ResultFor<Types, "echo/say">> => ({ text: 1 }));
  // The generated result type itself still requires resultType.
  // @ts-expect-error resultType is missing
  const wire: protocol.ResultOf<"echo/say"> = { text: "x" };
  void wire;`,
        [skills.id]: `
  server.method("skills/list", async (params, ctx): Promise<ResultFor<Types, "skills/list">> => {
    void params;
    void ctx;
    return { skills: [], ttlMs: 0, cacheScope: "public" };
  });
  // @ts-expect-error resultType is missing
  const wire: protocol.ResultOf<"skills/list"> = { skills: [], ttlMs: 0, cacheScope: "public" };
  void wire;`,
      };
      // The scaffolded stub itself, filled in as a user would: the result without resultType.
      const echoStubs = join(projects.get(echo.id)!.server, "src", "extensions.ts");
      const stub = readFileSync(echoStubs, "utf8");
      expect(stub).toContain('Promise<ResultFor<Types, "echo/say">>');
      writeFileSync(
        echoStubs,
        stub.replace(
          'throw new NotImplemented("echo/say");',
          'if (params.text === "") throw new NotImplemented("echo/say");\n    return { text: params.text };',
        ),
      );
      expect(readFileSync(echoStubs, "utf8")).toContain("return { text: params.text };");
      for (const [id, body] of Object.entries(handlers)) {
        const dir = projects.get(id)!.server;
        writeFileSync(
          join(dir, "src", "typed-results.ts"),
          `import type { protocol, Types } from "./generated/protocol.gen.js";
import type { McpServer, ResultFor } from "./mcp-gen/runtime/index.js";

export function addTypedResults(server: McpServer<Types>): void {${body}
}
`,
        );
        expect(compileProject(dir).errors, id).toEqual([]);
      }
    },
    4 * MINUTE,
  );
});
