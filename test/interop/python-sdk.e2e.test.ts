/**
 * Interoperability with the official Python SDK (`mcp` from PyPI, pinned in
 * test/interop/python/requirements.txt, installed into .venv/ by
 * `npm run setup:python`, which .ci/run calls):
 * - its client (test/interop/python/client.py) against a freshly scaffolded
 *   "everything" server in a child process, over stdio and over Streamable
 *   HTTP on 127.0.0.1, in both eras: the 2025-11-25 initialize handshake and
 *   2026-07-28. It lists and calls tools, reads a resource, gets a prompt,
 *   meets an unknown tool, and answers a request for input (the server's
 *   elicitation/create in a session, input_required rounds at 2026-07-28);
 * - a client scaffolded `--from-server` against a server written with it
 *   (test/interop/python/server.py), over stdio: the project compiles under
 *   --strict, a program of the user's calls the typed wrappers, and the
 *   project's command line calls tools and refuses bad arguments before they
 *   are sent.
 */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scaffoldServer, writeProject } from "../../generator/scaffold/scaffold.js";
import { ROOT, tempDir, testSources } from "../helpers/index.js";
import { linkNodeModules, runNode, type Finished } from "../helpers/project.js";
import { runCli } from "../helpers/run-cli.js";
import { compileProject } from "../helpers/typecheck.js";

const PYTHON = join(ROOT, ".venv", "bin", "python");
const FIXTURES = join(ROOT, "test", "interop", "python");
const MINUTE = 60_000;

/** The Python client's view of one conversation (client.py prints it as JSON). */
interface Conversation {
  protocolVersion: string;
  serverName: string;
  tools: string[];
  simple: { content: unknown[]; isError?: boolean };
  resource: { contents: unknown[] };
  prompt: { messages: unknown[] };
  unknownTool: { code: number; message: string };
  elicited: { content: unknown[] };
  rounds?: { content: unknown[] };
}

function python(args: readonly string[], cwd: string): Promise<Finished> {
  return new Promise((resolve) => {
    execFile(PYTHON, args, { cwd, timeout: 2 * MINUTE }, (error, stdout, stderr) =>
      resolve({
        code: error ? (typeof error.code === "number" ? error.code : -1) : 0,
        stdout,
        stderr,
      }),
    );
  });
}

/** Runs the Python client against `target` (a URL, or the command line of a stdio server). */
async function pythonClient(
  mode: "legacy" | "auto",
  target: readonly string[],
  cwd: string,
): Promise<Conversation> {
  const transport = target[0]!.startsWith("http") ? "http" : "stdio";
  const run = await python([join(FIXTURES, "client.py"), mode, transport, ...target], cwd);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as Conversation;
}

beforeAll(() => {
  if (!existsSync(PYTHON))
    throw new Error(
      `the Python SDK's virtual environment is missing (${PYTHON}): run \`npm run setup:python\``,
    );
});

describe("the Python SDK's client and a scaffolded server", () => {
  let project: string;
  let http: ChildProcess | undefined;
  let url: string;

  beforeAll(async () => {
    project = join(tempDir("python-peer"), "everything");
    const { files } = await scaffoldServer({
      dir: project,
      example: "everything",
      name: "python-everything",
      sources: testSources(),
    });
    writeProject(project, files);
    linkNodeModules(project);
    http = spawn(process.execPath, ["--import", "tsx", "src/index.ts"], {
      cwd: project,
      env: { ...process.env, PORT: "0" },
      stdio: ["ignore", "ignore", "pipe"],
    });
    const child = http;
    url = await new Promise<string>((resolve, reject) => {
      let log = "";
      child.stderr!.on("data", (chunk: Buffer) => {
        log += chunk.toString("utf8");
        const port = /listening on .*?:(\d+)/.exec(log)?.[1];
        if (port) resolve(`http://127.0.0.1:${port}/mcp`);
      });
      child.once("exit", (code) => reject(new Error(`the server exited (${code}):\n${log}`)));
    });
  }, 2 * MINUTE);
  afterAll(() => {
    http?.kill();
  });

  const stdio = () => [process.execPath, "--import", "tsx", "src/index.ts", "--stdio"];

  describe.each([
    ["stdio", "legacy", "2025-11-25"],
    ["stdio", "auto", "2026-07-28"],
    ["http", "legacy", "2025-11-25"],
    ["http", "auto", "2026-07-28"],
  ] as const)("over %s, mode %s", (transport, mode, version) => {
    it(
      `speaks ${version}: tools, a resource, a prompt, an unknown tool, a request for input`,
      async () => {
        const seen = await pythonClient(mode, transport === "http" ? [url] : stdio(), project);
        expect(seen.protocolVersion).toBe(version);
        expect(seen.serverName).toBe("python-everything");
        expect(seen.tools).toContain("test_simple_text");
        expect(seen.simple).toMatchObject({
          content: [{ type: "text", text: "This is a simple text response for testing." }],
          isError: false,
        });
        expect(seen.resource.contents).toEqual([
          {
            uri: "test://static-text",
            mimeType: "text/plain",
            text: "This is the content of the static text resource.",
          },
        ]);
        expect(JSON.stringify(seen.prompt.messages)).toContain("arg1='a', arg2='b'");
        expect(seen.unknownTool.code).toBe(-32602);
        expect(seen.unknownTool.message).toContain("no_such_tool");
        expect(seen.elicited.content).toEqual([
          {
            type: "text",
            text: 'User response: action=accept, content={"username":"Alice","email":"Alice"}',
          },
        ]);
        if (mode === "auto")
          expect(seen.rounds?.content).toEqual([
            { type: "text", text: "Multi-round complete: Alice likes blue" },
          ]);
      },
      2 * MINUTE,
    );
  });
});

describe("a client scaffolded --from-server against a Python SDK server", () => {
  let project: string;
  const server = `${PYTHON} ${join(FIXTURES, "server.py")}`;

  beforeAll(async () => {
    const cwd = tempDir("python-server");
    const made = await runCli(["client", "py", "--from-server", server, "--quiet"], {
      cwd,
      timeoutMs: 2 * MINUTE,
    });
    expect(made.code, made.stderr).toBe(0);
    project = join(cwd, "py");
    linkNodeModules(project);
    // A program of the user's, against the typed wrappers the server's tools became.
    writeFileSync(
      join(project, "src", "try.ts"),
      `import { connect } from "./index.js";

const client = await connect({ command: ${JSON.stringify(PYTHON)}, args: [${JSON.stringify(join(FIXTURES, "server.py"))}] });
try {
  const sum = await client.tools.add({ a: 2, b: 40 });
  if (!sum.structuredContent) throw new Error("add answered without structuredContent");
  const total: number = sum.structuredContent.total;
  const tagged = await client.tools.tag({ items: ["x", "y"] });
  console.log(JSON.stringify({ total, tagged: tagged.content }));
} finally {
  await client.close();
}
`,
    );
    const compiled = compileProject(project, { emit: true });
    expect(compiled.errors).toEqual([]);
  }, 3 * MINUTE);

  it("the typed wrappers call its tools, structured output typed", async () => {
    const run = await runNode([join(project, "dist", "try.js")], project);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      total: 42,
      tagged: [{ type: "text", text: "x:blue, y:blue" }],
    });
  });

  it("the command line calls a tool, and refuses bad arguments before they are sent", async () => {
    const cli = join(project, "dist", "cli.js");
    const echoed = await runNode(
      [cli, "--stdio", server, "call", "echo", '{"text":"héllo"}'],
      project,
    );
    expect(echoed.code, echoed.stderr).toBe(0);
    expect(echoed.stdout).toContain('"text": "héllo"');
    const wrong = await runNode(
      [cli, "--stdio", server, "call", "add", '{"a":"two","b":1}'],
      project,
    );
    expect(wrong.code).not.toBe(0);
    expect(wrong.stderr).toContain("/a must be integer");
  });

  it("reads its resource and gets its prompt", async () => {
    const cli = join(project, "dist", "cli.js");
    const read = await runNode([cli, "--stdio", server, "read", "test://readme"], project);
    expect(read.code, read.stderr).toBe(0);
    expect(read.stdout).toContain("read me");
    const prompt = await runNode(
      [cli, "--stdio", server, "get-prompt", "greet", '{"who":"Ada"}'],
      project,
    );
    expect(prompt.code, prompt.stderr).toBe(0);
    expect(prompt.stdout).toContain("Hello Ada");
  });
});
