/**
 * mcp-gen's Standard Schemas in a project built on the official SDK v2
 * (@modelcontextprotocol/server and /client 2.4.0), without mcp-gen's
 * runtime: a project scaffolded from a tools.json gets the example of
 * docs/sdk.md (test/fixtures/sdk-standard-schema/), whose SDK server
 * registers the tool with TOOL_SCHEMAS as inputSchema and outputSchema. It
 * compiles (the arguments typed from tools.json, a wrong type refused), and
 * over Streamable HTTP on 127.0.0.1 the SDK's client lists the tool with
 * the schemas of tools.json, calls it, and gets the SDK's tool error for
 * bad arguments, in the words of mcp-gen's validators. The SDK v1
 * (@modelcontextprotocol/sdk 1.32.2), whose McpServer takes only Zod, gets
 * the same tool on its low-level Server, checked by the same object.
 */
import { copyFileSync, readFileSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { Client as ClientV2, type Client } from "@modelcontextprotocol/client";
import {
  InMemoryTransport,
  McpServer,
  type StandardSchemaWithJSON,
} from "@modelcontextprotocol/server";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as HttpTransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixture, runCli, tempDir } from "../helpers/run-cli.js";
import { importFromProject, ROOT } from "../helpers/index.js";
import { linkNodeModules } from "../helpers/project.js";
import { compileProject } from "../helpers/typecheck.js";

const FIXTURE = fixture("sdk-standard-schema");
const EXAMPLE_FILES = ["sdk-server.ts", "sdk-client.ts", "sdk1-server.ts"];

interface ServerModule {
  serve(port: number): Promise<Server>;
}
interface ServerV1Module {
  serveV1(port: number): Promise<Server>;
}
interface ClientModule {
  connect(url: string): Promise<Client>;
  callTool(
    client: Client,
    name: string,
    args: Record<string, unknown>,
  ): ReturnType<Client["callTool"]>;
  listTools(client: Client): Promise<{ tools: Array<{ name: string }> }>;
}

let project: string;
let http: Server;
let httpV1: Server;
let client: Client;
let compileErrors: string[];

beforeAll(async () => {
  const cwd = tempDir("sdk-standard-schema");
  const run = await runCli(
    ["server", "weather", "--tools", join(FIXTURE, "tools.json"), "--quiet"],
    {
      cwd,
    },
  );
  expect(run.stderr).toBe("");
  project = join(cwd, "weather");
  linkNodeModules(project);
  for (const file of EXAMPLE_FILES) copyFileSync(join(FIXTURE, file), join(project, "src", file));
  compileErrors = compileProject(project, { emit: true }).errors;
  expect(compileErrors).toEqual([]);
  const server = await importFromProject<ServerModule>(project, "dist/sdk-server.js");
  const sdkClient = await importFromProject<ClientModule>(project, "dist/sdk-client.js");
  http = await server.serve(0);
  httpV1 = await (
    await importFromProject<ServerV1Module>(project, "dist/sdk1-server.js")
  ).serveV1(0);
  client = await sdkClient.connect(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`);
}, 120_000);

afterAll(async () => {
  await client?.close();
  for (const server of [http, httpV1])
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
});

const clientModule = () => importFromProject<ClientModule>(project, "dist/sdk-client.js");

describe("the official SDK v2 with mcp-gen's Standard Schemas", () => {
  it("compiles: arguments typed from tools.json, each @ts-expect-error meeting its error", () => {
    expect(compileErrors).toEqual([]);
    // Without the types the two @ts-expect-error lines would be unused, which the compiler reports.
    for (const file of ["sdk-server.ts", "sdk-client.ts"])
      expect(readFileSync(join(project, "src", file), "utf8")).toContain("@ts-expect-error");
  });

  it("lists the tool with the schemas of tools.json, through a result checked by ListToolsResult", async () => {
    const tools = JSON.parse(readFileSync(join(FIXTURE, "tools.json"), "utf8")) as Array<
      Record<string, unknown>
    >;
    const { tools: listed } = await (await clientModule()).listTools(client);
    expect(listed).toEqual([
      {
        name: "get_weather",
        description: tools[0]!.description,
        inputSchema: tools[0]!.inputSchema,
        outputSchema: tools[0]!.outputSchema,
      },
    ]);
  });

  it("calls the tool; the handler gets the arguments and its structuredContent passes the outputSchema", async () => {
    const result = await (
      await clientModule()
    ).callTool(client, "get_weather", { city: "Paris", units: "fahrenheit" });
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toEqual({
      city: "Paris",
      temperature: 70,
      conditions: "sunny",
    });
  });

  it.each([
    [{ city: 42 }, "city: must be string"],
    [{ city: "" }, "city: must be at least 1 characters long"],
    [{ city: "Oslo", units: "kelvin" }, 'units: must be one of "celsius", "fahrenheit"'],
    [{ city: "Oslo", wind: true }, "wind: is not allowed"],
    [{}, "city: is required"],
  ])("bad arguments %j: the SDK's tool error, with mcp-gen's issue", async (args, issue) => {
    const result = await (await clientModule()).callTool(client, "get_weather", args);
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([
      {
        type: "text",
        text: `Input validation error: Invalid arguments for tool get_weather: ${issue}`,
      },
    ]);
  });

  it("structuredContent that does not match the outputSchema: the SDK's tool error, with mcp-gen's issue", async () => {
    const { TOOL_SCHEMAS } = await importFromProject<{
      TOOL_SCHEMAS: { get_weather: Record<"arguments" | "output", StandardSchemaWithJSON> };
    }>(project, "dist/generated/tool-schemas.gen.js");
    const server = new McpServer(
      { name: "weather", version: "1.0.0" },
      { capabilities: { tools: {} } },
    );
    server.registerTool(
      "get_weather",
      {
        inputSchema: TOOL_SCHEMAS.get_weather.arguments,
        outputSchema: TOOL_SCHEMAS.get_weather.output,
      },
      () => ({
        content: [],
        structuredContent: { city: "Oslo", temperature: "hot", conditions: "sunny" },
      }),
    );
    const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const inMemory = new ClientV2({ name: "weather-client", version: "1.0.0" });
    await inMemory.connect(clientSide);
    try {
      const result = await inMemory.callTool({ name: "get_weather", arguments: { city: "Oslo" } });
      expect(result).toMatchObject({
        isError: true,
        content: [
          {
            type: "text",
            text: "Output validation error: Invalid structured content for tool get_weather: temperature: must be number",
          },
        ],
      });
    } finally {
      await inMemory.close();
      await server.close();
    }
  });

  it("the SDK v1's low-level Server: the same tool, checked by the same Standard Schema", async () => {
    const v1 = new ClientV1({ name: "weather-client", version: "1.0.0" });
    await v1.connect(
      new HttpTransportV1(
        new URL(`http://127.0.0.1:${(httpV1.address() as AddressInfo).port}/mcp`),
      ),
    );
    try {
      expect((await v1.listTools()).tools.map((t) => t.name)).toEqual(["get_weather"]);
      const good = await v1.callTool({ name: "get_weather", arguments: { city: "Rome" } });
      expect(good.structuredContent).toEqual({
        city: "Rome",
        temperature: 21,
        conditions: "sunny",
      });
      const bad = await v1.callTool({ name: "get_weather", arguments: { city: 4 } });
      expect(bad).toEqual({
        isError: true,
        content: [{ type: "text", text: "city: must be string" }],
      });
    } finally {
      await v1.close();
    }
  });

  it("docs/sdk.md shows the example files as the test runs them", () => {
    const docs = readFileSync(join(ROOT, "docs", "sdk.md"), "utf8");
    for (const file of [...EXAMPLE_FILES, "tools.json"])
      expect(docs, file).toContain(readFileSync(join(FIXTURE, file), "utf8"));
  });
});
