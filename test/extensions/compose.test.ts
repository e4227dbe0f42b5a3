/**
 * Two extensions compose: the official Tasks extension and a small one of
 * our own (test/fixtures/ext-echo: a "deferred" resultType that tools/call
 * may return, an echo/say method, a notification, a server capability and
 * an error code). The merged output is generated, type-checked and used.
 */
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { generate, writeOutput } from "../../generator/index.js";
import { listFiles } from "../../generator/write/write-output.js";
import { asMcpError, type ProtocolModule } from "../../templates/runtime/core/index.js";
import { unsendableCode } from "../../templates/runtime/server/index.js";
import { tempDir, testSources } from "../helpers/index.js";
import { strictErrors } from "../helpers/typecheck.js";

const ECHO = join("test", "fixtures", "ext-echo");
const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};

/**
 * What these tests read of the generated module. Its own types name the
 * extensions' methods and definitions; the tsc test below checks those.
 */
interface ComposedModule {
  readonly RESULT_TYPES: readonly string[];
  readonly METHODS: Readonly<Record<string, { readonly results: unknown } | undefined>>;
  readonly NOTIFICATIONS: Readonly<Record<string, unknown>>;
  readonly EXTENSIONS: Readonly<Record<string, unknown>>;
  readonly ErrorCode: Readonly<Record<string, number>>;
  readonly ERROR_CODES: Readonly<Record<number, unknown>>;
  parseResponse(message: unknown, method: string): unknown;
  parseMessage(message: unknown): unknown;
  validate(definition: string, value: unknown): unknown;
  isImplementationDefinedCode(code: number): boolean;
  readonly echoErrors: {
    echoTooLong(data?: unknown, message?: string): Error & { toJSON(): unknown };
  };
}

// The generated module, imported from a temporary folder.
let mcp: ComposedModule;
let out: string;

beforeAll(async () => {
  out = tempDir("compose");
  const result = await generate({
    spec: "2026-07-28",
    extensions: ["tasks", ECHO],
    out,
    sources: testSources(),
    stampVersion: false,
  });
  writeOutput(out, result.files, { force: true });
  mcp = (await import(join(out, "index.ts"))) as ComposedModule;
});

describe("tasks + echo", () => {
  it("compiles under tsc --strict", () => {
    const files = listFiles(out)
      .filter((f) => f.endsWith(".ts"))
      .map((f) => join(out, f));
    expect(strictErrors(files)).toEqual([]);
  });

  it("has both extensions' resultTypes, in order", () => {
    expect(mcp.RESULT_TYPES).toEqual(["complete", "input_required", "task", "deferred"]);
    expect(mcp.METHODS["tools/call"]?.results).toEqual({
      input_required: "InputRequiredResult",
      complete: "CallToolResult",
      task: "CreateTaskResult",
      deferred: "DeferredResult",
    });
  });

  it("parses a tools/call result of either extension, discriminated on resultType", () => {
    const deferred = {
      jsonrpc: "2.0",
      id: 1,
      result: { resultType: "deferred", retryAfterMs: 500 },
    };
    expect(mcp.parseResponse(deferred, "tools/call")).toMatchObject({ ok: true });
    expect(
      mcp.parseResponse({ ...deferred, result: { resultType: "deferred" } }, "tools/call"),
    ).toMatchObject({ ok: false, error: { code: -32602, data: { path: "/result/retryAfterMs" } } });
    const task = {
      jsonrpc: "2.0",
      id: 1,
      result: {
        resultType: "task",
        taskId: "t",
        status: "working",
        createdAt: "x",
        lastUpdatedAt: "x",
        ttlMs: null,
      },
    };
    expect(mcp.parseResponse(task, "tools/call")).toMatchObject({ ok: true });
  });

  it("has both extensions' methods and notifications", () => {
    expect(mcp.METHODS["echo/say"]).toMatchObject({
      direction: "client-to-server",
      request: "EchoRequest",
      results: { complete: "EchoResult" },
    });
    expect(mcp.METHODS["tasks/get"]).toBeDefined();
    expect(mcp.NOTIFICATIONS["notifications/echo/heard"]).toMatchObject({
      direction: "server-to-client",
    });
    const say = { jsonrpc: "2.0", id: 2, method: "echo/say", params: { _meta: META, text: "hi" } };
    expect(mcp.parseMessage(say)).toMatchObject({ ok: true });
    expect(mcp.parseMessage({ ...say, params: { _meta: META } })).toMatchObject({
      ok: false,
      error: { code: -32602, data: { path: "/params/text" } },
    });
  });

  it("types each capability on the sides its manifest names", () => {
    const server = { extensions: { "com.example/echo": { maxLength: 0 } } };
    expect(mcp.validate("ServerCapabilities", server)).toMatchObject({
      ok: false,
      errors: [{ path: "/extensions/com.example~1echo/maxLength" }],
    });
    expect(
      mcp.validate("ServerCapabilities", {
        extensions: { "com.example/echo": { maxLength: 10 }, "io.modelcontextprotocol/tasks": {} },
      }),
    ).toEqual({ ok: true });
    // Echo's capability is server-side only; the client side keeps the generic shape.
    expect(mcp.validate("ClientCapabilities", server)).toEqual({ ok: true });
  });

  it("lists both extensions in EXTENSIONS, in the order given", () => {
    expect(Object.keys(mcp.EXTENSIONS)).toEqual([
      "io.modelcontextprotocol/tasks",
      "com.example/echo",
    ]);
    expect(mcp.EXTENSIONS["com.example/echo"]).toEqual({
      id: "com.example/echo",
      name: "echo",
      requests: { "echo/say": "client-to-server" },
      notifications: { "notifications/echo/heard": "server-to-client" },
      resultTypes: ["deferred"],
      capability: { definition: "EchoCapability", sides: ["server"] },
    });
    expect(mcp.EXTENSIONS["io.modelcontextprotocol/tasks"]).toMatchObject({
      resultTypes: ["task"],
      requests: { "tasks/get": "client-to-server" },
    });
  });

  it("records the extension's error code with its policy", () => {
    expect(mcp.ErrorCode.EchoTooLong).toBe(-32001);
    expect(mcp.ERROR_CODES[-32001]).toMatchObject({
      policy: "extension",
      revisions: ["2026-07-28"],
    });
    expect(mcp.isImplementationDefinedCode(-32001)).toBe(true);
  });

  it("builds the extension's error to throw, which the runtime sends with its code (an extension's code passes the policy)", () => {
    const error = mcp.echoErrors.echoTooLong({ max: 10 });
    expect(error).toBeInstanceOf(Error);
    expect(error.toJSON()).toEqual({ code: -32001, message: "Echo too long", data: { max: 10 } });
    expect(asMcpError(error)?.toJSON()).toEqual(error.toJSON());
    expect(unsendableCode(mcp as unknown as ProtocolModule, -32001)).toBeUndefined();
    expect(unsendableCode(mcp as unknown as ProtocolModule, -32002)).toMatch(/earlier revisions/);
    expect(asMcpError(new Error("plain"))).toBeUndefined();
  });

  it("folds the copy of RequestId into the core definition and names both extensions in the banner", async () => {
    const result = await generate({
      spec: "2026-07-28",
      extensions: ["tasks", ECHO],
      out: "x",
      sources: testSources(),
      stampVersion: false,
    });
    const types = result.files.find((f) => f.path === "types.gen.ts")!.contents;
    expect(types.match(/^export type RequestId =/gm)).toHaveLength(1);
    expect(types).toContain("Options: extensions: io.modelcontextprotocol/tasks, com.example/echo");
    expect(result.model.extensions.map((e) => [e.id, e.definitions])).toEqual([
      [
        "io.modelcontextprotocol/tasks",
        expect.arrayContaining(["CreateTaskResult", "GetTaskRequest"]),
      ],
      [
        "com.example/echo",
        ["EchoRequest", "EchoResult", "EchoHeardNotification", "DeferredResult", "EchoCapability"],
      ],
    ]);
  });
});

describe('a manifest that says "undeclared": "fallback"', () => {
  it("has it in the generated EXTENSIONS entry, where the runtime reads the policy", async () => {
    const dir = join(tempDir("fallback"), "ext-echo");
    cpSync(ECHO, dir, { recursive: true });
    const manifestFile = join(dir, "mcp-extension.json");
    const manifest = JSON.parse(readFileSync(manifestFile, "utf8")) as Record<string, unknown>;
    writeFileSync(manifestFile, JSON.stringify({ ...manifest, undeclared: "fallback" }));
    const result = await generate({
      spec: "2026-07-28",
      extensions: [dir],
      out: tempDir("fallback-out"),
      sources: testSources(),
      stampVersion: false,
    });
    const protocol = result.files.find((f) => f.path === "protocol.gen.ts")!.contents;
    const entry = protocol.slice(protocol.indexOf('"com.example/echo": {'));
    expect(entry.slice(0, entry.indexOf("\n  },"))).toContain('undeclared: "fallback"');
    // Without the field the entry has none: the runtime's default is "refuse".
    const plain = await generate({
      spec: "2026-07-28",
      extensions: [ECHO],
      out: tempDir("refuse-out"),
      sources: testSources(),
      stampVersion: false,
    });
    expect(plain.files.find((f) => f.path === "protocol.gen.ts")!.contents).not.toContain(
      "undeclared:",
    );
  });
});
