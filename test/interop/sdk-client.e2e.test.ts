/**
 * Interoperability with the official TypeScript SDK v2 client
 * (@modelcontextprotocol/client 2.4.0), pinned to 2026-07-28, against a
 * freshly scaffolded "everything" server in a child process: over stdio and
 * over Streamable HTTP on 127.0.0.1, discover, list and call tools, read a
 * resource, get a prompt, and complete Multi Round-Trip Requests.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scaffoldServer, writeProject } from "../../generator/scaffold/scaffold.js";
import { tempDir, testSources } from "../helpers/index.js";
import { linkNodeModules } from "../helpers/project.js";

/** Runs the project's TypeScript sources directly, with the repository's tsx. */
const TSX = pathToFileURL(createRequire(import.meta.url).resolve("tsx/esm")).href;
let project: string;

beforeAll(async () => {
  project = join(tempDir("interop"), "everything");
  const { files } = await scaffoldServer({
    dir: project,
    example: "everything",
    name: "interop-everything",
    sources: testSources(),
  });
  writeProject(project, files);
});

function newClient(): Client {
  const client = new Client(
    { name: "mcp-gen-interop", version: "1.0.0" },
    {
      versionNegotiation: { mode: { pin: "2026-07-28" } },
      capabilities: { elicitation: { form: {} }, sampling: {}, roots: { listChanged: true } },
    },
  );
  client.setRequestHandler("elicitation/create", (request) => {
    const fields = Object.keys(
      (request.params as { requestedSchema?: { properties?: object } }).requestedSchema
        ?.properties ?? {},
    );
    return {
      action: "accept",
      content: Object.fromEntries(
        fields.map((f) => [f, f === "ok" ? true : f === "color" ? "blue" : "Alice"]),
      ),
    };
  });
  client.setRequestHandler("sampling/createMessage", () => ({
    model: "interop-model",
    role: "assistant",
    content: { type: "text", text: "Paris" },
  }));
  client.setRequestHandler("roots/list", () => ({
    roots: [{ uri: "file:///interop", name: "interop" }],
  }));
  return client;
}

/** The same conversation over any transport. */
async function converse(client: Client): Promise<void> {
  expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
  expect(client.getDiscoverResult()?.supportedVersions).toEqual(["2026-07-28"]);
  expect(client.getServerVersion()).toMatchObject({ name: "interop-everything" });

  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name)).toContain("test_simple_text");

  const simple = await client.callTool({ name: "test_simple_text", arguments: {} });
  expect(simple.content).toEqual([
    { type: "text", text: "This is a simple text response for testing." },
  ]);

  const resource = await client.readResource({ uri: "test://static-text" });
  expect(resource.contents).toEqual([
    {
      uri: "test://static-text",
      mimeType: "text/plain",
      text: "This is the content of the static text resource.",
    },
  ]);

  const prompt = await client.getPrompt({
    name: "test_prompt_with_arguments",
    arguments: { arg1: "a", arg2: "b" },
  });
  expect(JSON.stringify(prompt.messages)).toContain("arg1='a', arg2='b'");

  // MRTR: the server answers input_required; the client runs its elicitation handler and retries.
  const greeting = await client.callTool({
    name: "test_input_required_result_elicitation",
    arguments: {},
  });
  expect(greeting.content).toEqual([{ type: "text", text: "Hello, Alice!" }]);

  const rounds = await client.callTool({
    name: "test_input_required_result_multi_round",
    arguments: {},
  });
  expect(rounds.content).toEqual([
    { type: "text", text: "Multi-round complete: Alice likes blue" },
  ]);

  const several = await client.callTool({
    name: "test_input_required_result_multiple_inputs",
    arguments: {},
  });
  expect(JSON.stringify(several.content)).toContain("name=Alice");
}

describe("the SDK v2 client over stdio", () => {
  it(
    "discovers, lists, calls, reads, gets a prompt and completes MRTR rounds",
    { timeout: 60_000 },
    async () => {
      const client = newClient();
      // A subclass keeps the SDK's discover probe on the session's own child process.
      class Transport extends StdioClientTransport {}
      const transport = new Transport({
        command: process.execPath,
        args: ["--import", TSX, "src/index.ts", "--stdio"],
        cwd: project,
        env: getDefaultEnvironment(),
        stderr: "pipe",
      });
      await client.connect(transport);
      try {
        await converse(client);
      } finally {
        await client.close();
      }
    },
  );
});

describe("the SDK v2 client over Streamable HTTP", () => {
  let child: ChildProcess;
  let url: URL;

  beforeAll(async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, "127.0.0.1", () => {
        const address = probe.address();
        probe.close(() => resolve(typeof address === "object" && address ? address.port : 0));
      });
    });
    child = spawn(process.execPath, ["--import", TSX, "src/index.ts"], {
      cwd: project,
      env: { ...process.env, PORT: String(port) },
      stdio: ["ignore", "ignore", "pipe"],
    });
    await new Promise<void>((resolve, reject) => {
      child.stderr!.on("data", (chunk: Buffer) => {
        if (chunk.toString("utf8").includes("listening on")) resolve();
      });
      child.once("exit", (code) => reject(new Error(`the server exited (${code})`)));
    });
    url = new URL(`http://127.0.0.1:${port}/mcp`);
  }, 60_000);
  afterAll(() => {
    child?.kill();
  });

  it(
    "discovers, lists, calls, reads, gets a prompt and completes MRTR rounds",
    { timeout: 60_000 },
    async () => {
      const client = newClient();
      await client.connect(new StreamableHTTPClientTransport(url));
      try {
        await converse(client);
      } finally {
        await client.close();
      }
    },
  );
});

describe("the SDK v2 client and tools with schemas (a project of the user's own tools.json)", () => {
  let own: string;

  beforeAll(async () => {
    const dir = tempDir("interop-tools");
    const toolsFile = join(dir, "tools.json");
    writeFileSync(
      toolsFile,
      JSON.stringify([
        {
          name: "get_weather",
          description: "The weather in a city on a day.",
          inputSchema: {
            type: "object",
            properties: {
              city: { type: "string", minLength: 1 },
              day: { type: "string", format: "date" },
            },
            required: ["city", "day"],
            additionalProperties: false,
          },
          outputSchema: {
            type: "object",
            properties: { temperature: { type: "number" }, city: { type: "string" } },
            required: ["temperature", "city"],
          },
        },
        {
          name: "list_tags",
          description: "Every tag.",
          inputSchema: { type: "object", additionalProperties: false },
          outputSchema: { type: "array", items: { type: "string" } },
        },
      ]),
    );
    own = join(dir, "own");
    const { files } = await scaffoldServer({
      dir: own,
      tools: toolsFile,
      name: "interop-tools",
      sources: testSources(),
    });
    writeProject(own, files);
    // The project's one run-time dependency (ajv-formats, for `format`), as npm install would provide it.
    linkNodeModules(own);
    writeFileSync(
      join(own, "src", "tools.ts"),
      `import type { ToolHandlers } from "./generated/tools.gen.js";

export const tools: ToolHandlers = {
  get_weather: ({ city }) => ({
    content: [{ type: "text", text: JSON.stringify({ temperature: 21.5, city }) }],
    structuredContent: { temperature: 21.5, city },
  }),
  list_tags: () => ({
    content: [{ type: "text", text: '["a","b"]' }],
    structuredContent: ["a", "b"],
  }),
};
`,
    );
  });

  it(
    "accepts structured results (an object and an array) and the isError result of bad arguments",
    { timeout: 60_000 },
    async () => {
      const client = newClient();
      class Transport extends StdioClientTransport {}
      await client.connect(
        new Transport({
          command: process.execPath,
          args: ["--import", TSX, "src/index.ts", "--stdio"],
          cwd: own,
          env: getDefaultEnvironment(),
          stderr: "pipe",
        }),
      );
      try {
        const { tools } = await client.listTools();
        expect(tools.map((t) => [t.name, t.outputSchema?.type])).toEqual([
          ["get_weather", "object"],
          ["list_tags", "array"],
        ]);
        const weather = await client.callTool({
          name: "get_weather",
          arguments: { city: "Oslo", day: "2026-07-28" },
        });
        expect(weather.structuredContent).toEqual({ temperature: 21.5, city: "Oslo" });
        const tags = await client.callTool({ name: "list_tags", arguments: {} });
        expect(tags.structuredContent).toEqual(["a", "b"]);

        const bad = await client.callTool({
          name: "get_weather",
          arguments: { city: "", day: "yesterday", unit: "C" },
        });
        expect(bad.isError).toBe(true);
        expect(bad.content).toEqual([
          {
            type: "text",
            text: [
              "Invalid arguments for tool get_weather (3 problems):",
              "- /unit: is not allowed",
              "- /city: must be at least 1 characters long",
              '- /day: must be a valid date (format "date")',
            ].join("\n"),
          },
        ]);
      } finally {
        await client.close();
      }
    },
  );
});
