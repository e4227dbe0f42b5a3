/**
 * `mcp-gen types --from-server` against the official reference servers
 * (@modelcontextprotocol/server-everything, server-memory,
 * server-filesystem; devDependencies of mcp-gen) as a new user runs it:
 * through the real command line, over stdio, and over Streamable HTTP for
 * server-everything. For each, the module and its code-mode API compile
 * under the strictest settings together with typed calls (and
 * `@ts-expect-error` for wrong arguments), the calls run through the
 * official SDK's client against the server, arguments the schema refuses
 * never reach it, and `--check` passes against the unchanged server.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../scripts/shared/free-port.js";
import { ROOT } from "../helpers/index.js";
import { runCli } from "../helpers/run-cli.js";
import { strictErrors } from "../helpers/typecheck.js";
import { STRICTEST, typedProject } from "../helpers/typed-project.js";

const BIN = join(ROOT, "node_modules", ".bin");
const MINUTE = 60_000;

interface Peer {
  /** The server as --from-server takes it. */
  readonly server: () => string;
  /** The client's transport to it. */
  readonly transport: () => Promise<unknown>;
  /** A module using the generated one: `run(client)` makes typed calls and returns what it found. */
  readonly use: string;
  readonly expected: (found: unknown) => void;
}

let files = "";
let memoryFile = "";
let httpServer: ChildProcess | undefined;
let httpUrl = "";

const stdio = async (command: string, args: string[]) => {
  const { StdioClientTransport } = await import("@modelcontextprotocol/client/stdio");
  return new StdioClientTransport({
    command,
    args,
    env: { ...process.env, MEMORY_FILE_PATH: memoryFile },
  });
};

const EVERYTHING_USE = `import type { Client } from "@modelcontextprotocol/client";
import { callTool, toolFunctions, ToolSchemaError } from "./tools.js";

export async function run(client: Client): Promise<unknown[]> {
  const echoed = await callTool(client, "echo", { message: "typed" });
  const weather = await callTool(client, "get-structured-content", { location: "Chicago" });
  const temperature: number | undefined = weather.isError ? undefined : weather.structuredContent.temperature;
  const sum = await toolFunctions(client).getSum({ a: 2, b: 3 });
  const refused = await callTool(client, "get-sum", { a: 1, b: "2" as unknown as number }).catch((e: unknown) => e instanceof ToolSchemaError);
  // @ts-expect-error a city the enum does not have
  await callTool(client, "get-structured-content", { location: "Paris" }).catch(() => undefined);
  // @ts-expect-error a required argument missing
  await callTool(client, "echo", {}).catch(() => undefined);
  return [echoed.content[0], typeof temperature, sum.content[0], refused];
}
`;

const peers: Record<string, Peer> = {
  "everything over stdio": {
    server: () => `${BIN}/mcp-server-everything stdio`,
    transport: () => stdio(join(BIN, "mcp-server-everything"), ["stdio"]),
    use: EVERYTHING_USE,
    expected: (found) =>
      expect(found).toEqual([
        { type: "text", text: "Echo: typed" },
        "number",
        { type: "text", text: "The sum of 2 and 3 is 5." },
        true,
      ]),
  },
  "everything over Streamable HTTP": {
    server: () => httpUrl,
    transport: async () => {
      const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/client");
      return new StreamableHTTPClientTransport(new URL(httpUrl));
    },
    use: EVERYTHING_USE,
    expected: (found) => expect((found as unknown[])[3]).toBe(true),
  },
  memory: {
    server: () => `${BIN}/mcp-server-memory`,
    transport: () => stdio(join(BIN, "mcp-server-memory"), []),
    use: `import type { Client } from "@modelcontextprotocol/client";
import { callTool, toolFunctions } from "./tools.js";

export async function run(client: Client): Promise<unknown[]> {
  await callTool(client, "create_entities", {
    entities: [{ name: "mcp-gen", entityType: "tool", observations: ["writes types"] }],
  });
  const graph = await toolFunctions(client).readGraph();
  const names: string[] = graph.entities.map((e) => e.name);
  // @ts-expect-error entities are objects, not names
  await callTool(client, "create_entities", { entities: ["mcp-gen"] }).catch(() => undefined);
  return names;
}
`,
    expected: (found) => expect(found).toContain("mcp-gen"),
  },
  filesystem: {
    server: () => `${BIN}/mcp-server-filesystem ${files}`,
    transport: () => stdio(join(BIN, "mcp-server-filesystem"), [files]),
    use: `import type { Client } from "@modelcontextprotocol/client";
import { callTool, ToolSchemaError } from "./tools.js";

export async function run(client: Client, folder: string): Promise<unknown[]> {
  const read = await callTool(client, "read_text_file", { path: folder + "/notes.txt" });
  const text: string | undefined = read.isError ? undefined : read.structuredContent.content;
  const refused = await callTool(client, "read_multiple_files", { paths: [] }).catch((e: unknown) => e instanceof ToolSchemaError);
  // @ts-expect-error a path is a string
  await callTool(client, "get_file_info", { path: 7 }).catch(() => undefined);
  return [text, refused];
}
`,
    expected: (found) => expect(found).toEqual(["hello from the filesystem server\n", true]),
  },
};

beforeAll(async () => {
  const dir = typedProject("reference-types-data");
  files = join(dir, "files");
  mkdirSync(files);
  writeFileSync(join(files, "notes.txt"), "hello from the filesystem server\n");
  memoryFile = join(dir, "memory.jsonl");
  const port = await freePort();
  httpServer = spawn(process.execPath, [join(BIN, "mcp-server-everything"), "streamableHttp"], {
    env: { ...process.env, PORT: String(port) },
    stdio: ["ignore", "ignore", "pipe"],
  });
  await new Promise<void>((resolve, reject) => {
    let said = "";
    httpServer!.stderr!.on("data", (chunk: Buffer) => {
      said += chunk.toString();
      if (said.includes("listening")) resolve();
    });
    httpServer!.once("exit", (code) =>
      reject(new Error(`server-everything exited (${code}): ${said}`)),
    );
  });
  httpUrl = `http://127.0.0.1:${port}/mcp`;
}, 2 * MINUTE);

afterAll(() => {
  httpServer?.kill();
});

describe.each(Object.keys(peers))("mcp-gen types from the reference server: %s", (name) => {
  it(
    "writes a module that compiles under the strictest settings with typed calls, runs them through the SDK's client, and --check passes",
    async () => {
      const peer = peers[name]!;
      const dir = typedProject(`reference-types-${name.split(" ")[0]}`);
      const env = { MEMORY_FILE_PATH: memoryFile };
      const types = (...more: string[]) =>
        runCli(["types", "--from-server", peer.server(), "--out", "src/tools.ts", ...more], {
          cwd: dir,
          env,
          timeoutMs: 2 * MINUTE,
        });
      const written = await types();
      expect(written.code, written.stderr).toBe(0);
      const checked = await types("--check");
      expect(checked.code, `${checked.stdout}${checked.stderr}`).toBe(0);

      writeFileSync(join(dir, "src", "use.ts"), peer.use);
      const errors = strictErrors(
        [
          join(dir, "src", "tools.ts"),
          join(dir, "src", "tools.api.d.ts"),
          join(dir, "src", "use.ts"),
        ],
        { ...STRICTEST, noEmit: false, outDir: join(dir, "dist"), rootDir: join(dir, "src") },
        dir,
      );
      expect(errors).toEqual([]);

      const { Client } = await import("@modelcontextprotocol/client");
      const client = new Client({ name: "mcp-gen-types-test", version: "1.0.0" });
      await client.connect((await peer.transport()) as never);
      try {
        const used = (await import(pathToFileURL(join(dir, "dist", "use.js")).href)) as {
          run: (client: unknown, folder: string) => Promise<unknown>;
        };
        peer.expected(await used.run(client, files));
      } finally {
        await client.close();
      }
    },
    5 * MINUTE,
  );
});
