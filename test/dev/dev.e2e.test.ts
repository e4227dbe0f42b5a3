/**
 * `mcp-gen dev` in a scaffolded server project, driven through the library
 * (startDev) as the command does: the first compile starts the server; an
 * edit to a handler is served after a restart; a type error is shown and
 * the last good server keeps answering; a tool added to tools.json is
 * regenerated, its stub written, and the missing handler named. In a
 * client project the same loop keeps dist/cli.js current: an edit is
 * compiled and runs at once, a type error leaves the last good build, and
 * a tool added to tools.json gets its typed wrapper. Real compiler (the
 * project's typescript), a real server on 127.0.0.1, the client's real
 * command line.
 */
import { execFile, spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDev, type DevHandle } from "../../generator/dev/dev.js";
import { freePort } from "../../scripts/shared/free-port.js";
import { scaffoldClient } from "../../generator/scaffold/client.js";
import { scaffoldServer, writeProject } from "../../generator/scaffold/scaffold.js";
import { ROOT, tempDir, testSources } from "../helpers/index.js";
import { headersFor, post, request } from "../helpers/mcp-client.js";
import { linkNodeModules } from "../helpers/project.js";
import { until } from "../helpers/wait.js";

const MINUTE = 60_000;
let project: string;
let dev: DevHandle;
let url: string;
const log: string[] = [];
let starts = 0;

/** The echo tool's answer from the running server, or undefined while none answers. */
async function echo(text: string): Promise<string | undefined> {
  const message = request("tools/call", { name: "echo", arguments: { text } });
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: headersFor(message),
      body: JSON.stringify(message),
    });
    const body = (await response.json()) as {
      result?: { content?: Array<{ text?: string }> };
    };
    return body.result?.content?.[0]?.text;
  } catch {
    return undefined;
  }
}

beforeAll(async () => {
  project = join(tempDir("dev"), "srv");
  const { files } = await scaffoldServer({ dir: project, name: "srv", sources: testSources() });
  writeProject(project, files);
  linkNodeModules(project);
  const port = await freePort();
  url = `http://127.0.0.1:${port}/mcp`;
  dev = startDev({
    dir: project,
    env: { PORT: String(port) },
    log: (line) => log.push(line),
  });
  dev.onStart((count) => (starts = count));
  await until(async () => (await echo("hi")) === "hi", {
    what: "the first start",
    timeoutMs: 2 * MINUTE,
    everyMs: 200,
  });
}, 3 * MINUTE);

afterAll(async () => {
  await dev?.close();
});

describe("mcp-gen dev in a server project", () => {
  it(
    "an edit to a handler is served after one restart",
    async () => {
      const tools = join(project, "src", "tools.ts");
      const before = starts;
      writeFileSync(
        tools,
        readFileSync(tools, "utf8").replace(
          'content: [{ type: "text", text }]',
          'content: [{ type: "text", text: `edited: ${text}` }]',
        ),
      );
      await until(async () => (await echo("x")) === "edited: x", {
        what: "the edited handler",
        timeoutMs: MINUTE,
        everyMs: 100,
      });
      expect(starts).toBe(before + 1);
      expect(log).toContain(`server restarted (${before})`);
    },
    2 * MINUTE,
  );

  it(
    "a type error is shown, and the last good server keeps answering",
    async () => {
      const tools = join(project, "src", "tools.ts");
      const good = readFileSync(tools, "utf8");
      const before = starts;
      writeFileSync(tools, good.replace("text: `edited: ${text}`", "text: 42"));
      await until(() => log.some((l) => l.includes("the server keeps running")), {
        what: "the compile error",
        timeoutMs: MINUTE,
      });
      expect(log.some((l) => /tools\.ts.*error TS2322/.test(l))).toBe(true);
      expect(await echo("y")).toBe("edited: y");
      expect(starts).toBe(before);
      writeFileSync(tools, good);
      await until(() => starts === before + 1, {
        what: "the restart after the fix",
        timeoutMs: MINUTE,
      });
    },
    2 * MINUTE,
  );

  it(
    "a change to mcp-gen.json regenerates the project and restarts the server with it",
    async () => {
      const settingsFile = join(project, "mcp-gen.json");
      const settings = JSON.parse(readFileSync(settingsFile, "utf8")) as Record<string, unknown>;
      const before = starts;
      writeFileSync(
        settingsFile,
        JSON.stringify({ ...settings, lists: { ttlMs: 60_000, cacheScope: "public" } }, null, 2),
      );
      await until(() => starts > before, {
        what: "the restart after regenerating",
        timeoutMs: MINUTE,
      });
      expect(readFileSync(join(project, "src", "generated", "lists.gen.ts"), "utf8")).toContain(
        `"ttlMs": 60000`,
      );
      // The restarted server answers tools/list with the new caching hints once it listens.
      const hints = async () => {
        try {
          const { result } = (await post(url, request("tools/list", {}))).body as {
            result?: { ttlMs?: number; cacheScope?: string };
          };
          return `${result?.ttlMs} ${result?.cacheScope}`;
        } catch {
          return undefined;
        }
      };
      await until(async () => (await hints()) === "60000 public", {
        what: "tools/list with the new hints",
        timeoutMs: MINUTE,
        everyMs: 100,
      });
    },
    2 * MINUTE,
  );

  it(
    "a tool added to tools.json: regenerated, its stub written, the missing handler named",
    async () => {
      const toolsFile = join(project, "tools.json");
      const tools = JSON.parse(readFileSync(toolsFile, "utf8")) as unknown[];
      tools.push({
        name: "shout",
        description: "Shouts.",
        inputSchema: { type: "object", properties: { text: { type: "string" } } },
      });
      writeFileSync(toolsFile, JSON.stringify(tools, null, 2));
      await until(() => log.some((l) => l.startsWith("new tool: wrote its handler stub")), {
        what: "the regeneration",
        timeoutMs: MINUTE,
      });
      await until(() => log.some((l) => l.includes(`Property 'shout' is missing`)), {
        what: "the missing handler named",
        timeoutMs: MINUTE,
      });
      expect(await echo("z")).toBe("edited: z");
    },
    2 * MINUTE,
  );
});

describe("mcp-gen dev --stdio", () => {
  it(
    "the protocol owns stdout: the loop speaks on stderr, and an edit is answered by the restarted server",
    async () => {
      const dir = join(tempDir("dev-stdio"), "srv");
      const { files } = await scaffoldServer({ dir, name: "srv", sources: testSources() });
      writeProject(dir, files);
      linkNodeModules(dir);
      const child = spawn(
        process.execPath,
        [join(ROOT, "dist", "generator", "cli", "main.js"), "dev", "--stdio"],
        { cwd: dir, env: process.env, stdio: ["pipe", "pipe", "pipe"] },
      );
      let stdout = "";
      let stderr = "";
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
      child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
      let id = 0;
      /** Sends an echo call until one is answered with `text`. */
      const answered = (text: string) =>
        until(
          () => {
            const message = request("tools/call", { name: "echo", arguments: { text } }, ++id);
            child.stdin.write(`${JSON.stringify(message)}\n`);
            return (
              stdout.includes(`"text":"${text}"`) || stdout.includes(`"text":"edited: ${text}"`)
            );
          },
          { what: `an answer to ${text}`, timeoutMs: 2 * MINUTE, everyMs: 500 },
        );
      try {
        await answered("first");
        const tools = join(dir, "src", "tools.ts");
        writeFileSync(
          tools,
          readFileSync(tools, "utf8").replace(
            'content: [{ type: "text", text }]',
            'content: [{ type: "text", text: `edited: ${text}` }]',
          ),
        );
        await until(() => stderr.includes("server restarted"), {
          what: "the restart",
          timeoutMs: MINUTE,
        });
        await answered("second");
        expect(stdout).toContain('"text":"edited: second"');
        const lines = stdout.split("\n").filter(Boolean);
        for (const line of lines)
          expect((JSON.parse(line) as { jsonrpc?: string }).jsonrpc, line).toBe("2.0");
        expect(stderr).toContain("mcp-gen dev: watching the project");
      } finally {
        child.kill("SIGTERM");
        await new Promise((resolve) => child.once("exit", resolve));
      }
    },
    4 * MINUTE,
  );
});

describe("mcp-gen dev in a client project", () => {
  let client: string;
  let clientDev: DevHandle;
  const clientLog: string[] = [];
  const compiles = () => clientLog.filter((l) => l === "compiled: dist/cli.js is current").length;
  const built = (file: string) => readFileSync(join(client, "dist", file), "utf8");
  /** Waits for `condition`; on a timeout the error carries the loop's log. */
  const waitFor = (condition: () => boolean, what: string) =>
    until(condition, { what, timeoutMs: MINUTE }).catch((error: unknown) => {
      throw new Error(`${String(error)}\nthe dev loop's log:\n${clientLog.join("\n")}`);
    });
  /** The client's command line, as `npm run -s mcp -- <args>` runs it. */
  const cli = (args: string[]) =>
    new Promise<{ code: number; output: string }>((resolve) => {
      execFile(
        process.execPath,
        [join(client, "dist", "cli.js"), ...args],
        { cwd: client, timeout: MINUTE },
        (error, stdout, stderr) =>
          resolve({ code: error ? Number(error.code ?? 1) : 0, output: `${stdout}${stderr}` }),
      );
    });

  beforeAll(async () => {
    client = join(tempDir("dev-client"), "cli");
    const { files } = await scaffoldClient({ dir: client, name: "cli", sources: testSources() });
    writeProject(client, files);
    linkNodeModules(client);
    clientDev = startDev({ dir: client, log: (line) => clientLog.push(line) });
    await until(() => compiles() >= 1, {
      what: "the client's first compile",
      timeoutMs: 2 * MINUTE,
      everyMs: 200,
    });
  }, 3 * MINUTE);

  afterAll(async () => {
    await clientDev?.close();
  });

  it(
    "an edit is compiled and the command line runs it; a type error keeps the last good build",
    async () => {
      const cliFile = join(client, "src", "cli.ts");
      const good = readFileSync(cliFile, "utf8");
      const edited = good.replace("const USAGE = `usage:", "const USAGE = `edited usage:");
      expect(edited).not.toBe(good);
      writeFileSync(cliFile, edited);
      await waitFor(() => built("cli.js").includes("edited usage:"), "the edit compiled");
      const run = await cli([]);
      expect(run.code).toBe(2);
      expect(run.output).toContain("edited usage:");

      writeFileSync(cliFile, `${edited}\nconst broken: number = "text";\n`);
      await waitFor(
        () => clientLog.some((l) => l.includes("dist/cli.js keeps the last code")),
        "the compile error",
      );
      expect(clientLog.some((l) => /cli\.ts.*error TS2322/.test(l))).toBe(true);
      expect(built("cli.js")).toContain("edited usage:");
      expect(clientLog.some((l) => l.includes("server"))).toBe(false);
      const before = compiles();
      writeFileSync(cliFile, good);
      await waitFor(() => compiles() > before, "the compile after the fix");
      await waitFor(() => !built("cli.js").includes("edited usage:"), "the fix compiled");
    },
    3 * MINUTE,
  );

  it(
    "a tool added to tools.json gets its typed wrapper",
    async () => {
      writeFileSync(
        join(client, "tools.json"),
        JSON.stringify([
          {
            name: "shout",
            description: "Shouts.",
            inputSchema: { type: "object", properties: { text: { type: "string" } } },
          },
        ]),
      );
      await waitFor(
        () =>
          existsSync(join(client, "dist", "generated", "tools.gen.js")) &&
          built(join("generated", "tools.gen.js")).includes("shout"),
        "the regenerated build",
      );
      expect(clientLog.some((l) => l.startsWith("regenerated "))).toBe(true);
    },
    3 * MINUTE,
  );
});
