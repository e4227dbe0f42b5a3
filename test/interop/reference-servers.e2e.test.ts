/**
 * Clients made with `mcp-gen client --from-server` against the official
 * reference servers from the npm registry (@modelcontextprotocol/
 * server-everything, server-memory, server-filesystem; devDependencies of
 * mcp-gen), over stdio, as a new user makes them: scaffolded through the
 * real command line, installed from the registry as their package.json
 * says (one install shared by the three), then each project's own
 * `npm test`, its build under --strict, every module it generated imported
 * with only its own dependencies, and its command line calling tools with
 * formats, enums, nested objects and arrays, and refusing bad arguments
 * before they are sent.
 */
import { execFile } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { stripVTControlCharacters } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/index.js";
import { installShared } from "../helpers/installs.js";
import { runNode, type Finished } from "../helpers/project.js";
import { runCli, tempDir } from "../helpers/run-cli.js";

const BIN = join(ROOT, "node_modules", ".bin");
const MINUTE = 60_000;

interface Peer {
  readonly name: string;
  /** The server's command line, as a user would type it. */
  command: string;
  project: string;
}

const peers: Record<"everything" | "memory" | "filesystem", Peer> = {
  everything: { name: "everything", command: `${BIN}/mcp-server-everything stdio`, project: "" },
  memory: { name: "memory", command: `${BIN}/mcp-server-memory`, project: "" },
  filesystem: { name: "filesystem", command: "", project: "" },
};
let files: string;

function npm(args: readonly string[], cwd: string): Promise<Finished> {
  return new Promise((resolve) => {
    execFile("npm", args, { cwd, timeout: 3 * MINUTE }, (error, stdout, stderr) =>
      resolve({
        code: error ? (typeof error.code === "number" ? error.code : -1) : 0,
        stdout,
        stderr,
      }),
    );
  });
}

/** `npm run mcp -- --stdio <server> ...args` in the peer's project (its built command line); the JSON it printed. */
async function mcp(peer: Peer, ...args: string[]): Promise<{ run: Finished; json?: unknown }> {
  const run = await runNode(
    [join(peer.project, "dist", "cli.js"), "--stdio", peer.command, ...args],
    peer.project,
    {
      env: { MEMORY_FILE_PATH: join(files, "..", "memory.jsonl") },
    },
  );
  const start = run.stdout.indexOf("{");
  return { run, json: start >= 0 ? JSON.parse(run.stdout.slice(start)) : undefined };
}

beforeAll(async () => {
  const cwd = tempDir("reference-servers");
  files = join(cwd, "files");
  mkdirSync(files);
  writeFileSync(join(files, "notes.txt"), "hello from the filesystem server\n");
  peers.filesystem.command = `${BIN}/mcp-server-filesystem ${files}`;
  for (const peer of Object.values(peers)) {
    const run = await runCli(["client", peer.name, "--from-server", peer.command, "--quiet"], {
      cwd,
      env: { MEMORY_FILE_PATH: join(cwd, "memory.jsonl") },
      timeoutMs: 2 * MINUTE,
    });
    expect(run.code, run.stderr).toBe(0);
    peer.project = join(cwd, peer.name);
  }
  for (const peer of Object.values(peers)) await installShared(peer.project);
}, 10 * MINUTE);

describe.each(Object.keys(peers) as Array<keyof typeof peers>)(
  "a client of the reference %s server",
  (key) => {
    it(
      "builds under --strict, and its own npm test passes",
      async () => {
        const peer = peers[key];
        const built = await npm(["run", "-s", "build"], peer.project);
        expect(built.code, `${built.stdout}${built.stderr}`).toBe(0);
        const tested = await npm(["test"], peer.project);
        expect(tested.code, `${tested.stdout}${tested.stderr}`).toBe(0);
        expect(stripVTControlCharacters(tested.stdout)).toMatch(/Tests\s+\d+ passed \(\d+\)/);
      },
      4 * MINUTE,
    );

    it("imports every module it generated, with only the packages its package.json lists", async () => {
      const peer = peers[key];
      const dist = join(peer.project, "dist");
      const modules = (readdirSync(dist, { recursive: true }) as string[])
        .filter((f) => f.endsWith(".js") && f !== "cli.js")
        .map((f) => pathToFileURL(join(dist, f)).href);
      expect(modules.length).toBeGreaterThan(20);
      const script = `for (const m of ${JSON.stringify(modules)}) await import(m); console.log("imported", ${modules.length});`;
      const run = await runNode(["--input-type=module", "-e", script], peer.project);
      expect(run.stderr).toBe("");
      expect(run.stdout).toBe(`imported ${modules.length}\n`);
      expect(relative(peer.project, dist)).toBe("dist");
    });
  },
);

describe("their command lines call tools as typed", () => {
  it("everything: an enum argument and structuredContent checked against the outputSchema", async () => {
    const { run, json } = await mcp(
      peers.everything,
      "call",
      "get-structured-content",
      '{"location":"Chicago"}',
    );
    expect(run.code, run.stderr).toBe(0);
    const result = json as { structuredContent?: { temperature?: unknown } };
    expect(typeof result.structuredContent?.temperature).toBe("number");
  });

  it("everything: a value outside the enum is refused before it is sent", async () => {
    const { run } = await mcp(
      peers.everything,
      "call",
      "get-structured-content",
      '{"location":"Paris"}',
    );
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('/location must be one of "New York", "Chicago", "Los Angeles"');
  });

  it("everything: a format (uri) is checked, and a valid one goes through", async () => {
    const bad = await mcp(
      peers.everything,
      "call",
      "gzip-file-as-resource",
      '{"data":"not a uri"}',
    );
    expect(bad.run.code).not.toBe(0);
    expect(bad.run.stderr).toContain('/data must be a valid uri (format "uri")');
    const good = await mcp(
      peers.everything,
      "call",
      "gzip-file-as-resource",
      '{"name":"x.gz","data":"data:text/plain;base64,aGVsbG8=","outputType":"resourceLink"}',
    );
    expect(good.run.code, good.run.stderr).toBe(0);
    expect(good.json).toMatchObject({ content: [{ type: "resource_link", name: "x.gz" }] });
  });

  it("memory: nested objects in arrays go in, and come back from the graph", async () => {
    const entities = {
      entities: [{ name: "Ada", entityType: "person", observations: ["wrote the first program"] }],
    };
    const created = await mcp(peers.memory, "call", "create_entities", JSON.stringify(entities));
    expect(created.run.code, created.run.stderr).toBe(0);
    const graph = await mcp(peers.memory, "call", "read_graph", "{}");
    expect(graph.run.code, graph.run.stderr).toBe(0);
    expect(JSON.stringify(graph.json)).toContain("wrote the first program");
    const wrong = await mcp(peers.memory, "call", "create_entities", '{"entities":[{"name":"x"}]}');
    expect(wrong.run.code).not.toBe(0);
    expect(wrong.run.stderr).toContain("/entities/0/entityType is required");
  });

  it("filesystem: reads a file in its allowed folder", async () => {
    const path = join(files, "notes.txt");
    const read = await mcp(peers.filesystem, "call", "read_text_file", JSON.stringify({ path }));
    expect(read.run.code, read.run.stderr).toBe(0);
    expect(JSON.stringify(read.json)).toContain("hello from the filesystem server");
    expect(readFileSync(path, "utf8")).toBe("hello from the filesystem server\n");
  });
});
