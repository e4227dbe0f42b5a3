/**
 * Drift of a client against its server: a client made with `--from-server`
 * (a small real server over stdio, whose tools are a file the test
 * changes) records the server; `mcp-gen generate --check` in the project
 * (what `npm run regenerate -- --check` runs) lists the server again and
 * fails with the tool diff when its tools changed; `mcp-gen generate`
 * (`npm run regenerate`) then takes the server's tools, and the typecheck
 * names the user's call that the change breaks.
 */
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/index.js";
import { runCli, tempDir } from "../helpers/run-cli.js";
import { linkNodeModules } from "../helpers/project.js";
import { compileProject } from "../helpers/typecheck.js";

const MINUTE = 60_000;
const SERVER = join(ROOT, "test", "diff", "fixtures", "tools-server.mjs");

const echo = (properties: object, required: string[]) => ({
  name: "echo",
  description: "Echoes the text",
  inputSchema: { type: "object", properties, required },
});
const BEFORE = [echo({ text: { type: "string" } }, ["text"])];
const AFTER = [
  echo({ text: { type: "string" }, times: { type: "integer", minimum: 1 } }, ["text", "times"]),
  { name: "ping", inputSchema: { type: "object" } },
];
/** The user's own code: one call of the typed wrapper, as written against the first list. */
const USE = `import type { ToolWrappers } from "./index.js";

export async function shout(tools: ToolWrappers): Promise<void> {
  await tools.echo({ text: "hi" });
}
`;

describe("a client made --from-server, when the server's tools change", () => {
  let project: string;
  let serverTools: string;
  beforeAll(async () => {
    const cwd = tempDir("client-drift");
    serverTools = join(cwd, "server-tools.json");
    writeFileSync(serverTools, JSON.stringify(BEFORE));
    const command = [process.execPath, SERVER, serverTools].map((w) => JSON.stringify(w)).join(" ");
    const made = await runCli(["client", "proj", "--from-server", command, "--quiet"], { cwd });
    expect(made.code, made.stderr).toBe(0);
    project = join(cwd, "proj");
    linkNodeModules(project);
    writeFileSync(join(project, "src", "use.ts"), USE);
    expect(compileProject(project).errors).toEqual([]);
  }, 2 * MINUTE);

  const check = () => runCli(["generate", "--check", "--quiet"], { cwd: project });
  const toolNames = () =>
    (JSON.parse(readFileSync(join(project, "tools.json"), "utf8")) as Array<{ name: string }>).map(
      (t) => t.name,
    );

  it("--check passes while the server lists what tools.json records", async () => {
    const run = await check();
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("are those of tools.json");
    expect(run.stdout).toContain("the project is up to date");
  });

  it("--check exits 1 with the tool diff once they differ, and changes nothing", async () => {
    writeFileSync(serverTools, JSON.stringify(AFTER));
    const run = await check();
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toContain("tools.json (1 tool) -> ");
    expect(run.stdout).toContain("Breaking for clients (1)\n  echo: required argument times added");
    expect(run.stdout).toContain("Breaking for servers (1)\n  ping: added");
    expect(run.stdout).toMatch(/the server's tools changed: 2 changes against tools\.json/);
    expect(toolNames()).toEqual(["echo"]);
  });

  it(
    "a regeneration takes the server's tools; the typecheck names the call the change breaks",
    async () => {
      const run = await runCli(["generate", "--quiet"], { cwd: project });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain("tools.json now holds the server's tools (2 changes)");
      expect(toolNames()).toEqual(["echo", "ping"]);
      const tools = readFileSync(join(project, "src", "generated", "tools.gen.ts"), "utf8");
      expect(tools).toContain("export namespace Ping {");
      const errors = compileProject(project).errors;
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatch(/^src\/use\.ts\(4,\d+\): .*Property .times. is missing/);
      expect((await check()).code).toBe(0);
    },
    2 * MINUTE,
  );

  it("a server that cannot be listed is exit 2, naming the recorded server", async () => {
    renameSync(serverTools, `${serverTools}.gone`);
    try {
      const run = await check();
      expect(run.code).toBe(2);
      expect(run.stderr).toContain("MCPG721");
      expect(run.stderr).toContain("fromServer (mcp-gen.json)");
    } finally {
      renameSync(`${serverTools}.gone`, serverTools);
    }
  });
});
