/**
 * A real peer in Python: test/interop/python/mcp_gen_peer.py builds every
 * request with the models of generated-python/ and parses every answer with
 * parse_response, against a freshly scaffolded "everything" server with
 * Tasks over Streamable HTTP on 127.0.0.1, in both eras: 2025-11-25
 * (initialize, a session, tools) and 2026-07-28 (server/discover, tools,
 * Multi Round-Trip Requests answered over two rounds, a task polled until
 * it completes).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scaffoldServer, writeProject } from "../../generator/scaffold/scaffold.js";
import { ROOT, tempDir, testSources } from "../helpers/index.js";
import { linkNodeModules } from "../helpers/project.js";
import { pythonAvailable, pythonTargets, runPython } from "../helpers/python.js";

const PEER = join(ROOT, "test", "interop", "python", "mcp_gen_peer.py");

describe.skipIf(!pythonAvailable())("a Python peer on the generated models", () => {
  let server: ChildProcess | undefined;
  let url: string;

  beforeAll(async () => {
    const project = join(tempDir("python-models-peer"), "everything");
    const { files } = await scaffoldServer({
      dir: project,
      example: "everything",
      name: "python-models-peer",
      extensions: ["tasks"],
      sources: testSources(),
    });
    writeProject(project, files);
    linkNodeModules(project);
    server = spawn(process.execPath, ["--import", "tsx", "src/index.ts"], {
      cwd: project,
      env: { ...process.env, PORT: "0" },
      stdio: ["ignore", "ignore", "pipe"],
    });
    const child = server;
    url = await new Promise<string>((resolve, reject) => {
      let log = "";
      child.stderr!.on("data", (chunk: Buffer) => {
        log += chunk.toString("utf8");
        const port = /listening on .*?:(\d+)/.exec(log)?.[1];
        if (port) resolve(`http://127.0.0.1:${port}/mcp`);
      });
      child.once("exit", (code) => reject(new Error(`the server exited (${code}): ${log}`)));
    });
  }, 300_000);

  afterAll(() => {
    server?.kill();
  });

  async function peer(era: "legacy" | "stateless", folder: string) {
    const target = pythonTargets().find((t) => t.folder === folder)!;
    const run = await runPython([PEER, era, url, target.dir, target.module]);
    expect(run.code, run.stderr + run.stdout).toBe(0);
    return JSON.parse(run.stdout) as Record<string, unknown>;
  }

  it("2025-11-25: initialize, a session, tools listed and called", async () => {
    const seen = await peer("legacy", "2025-11-25");
    expect(seen.protocolVersion).toBe("2025-11-25");
    expect(seen.session).toBe(true);
    expect(seen.tools).toContain("test_simple_text");
    expect(seen.simple).toBe("This is a simple text response for testing.");
  }, 120_000);

  it("2026-07-28 with Tasks: discover, tools, MRTR over two rounds, a task to completion", async () => {
    const seen = await peer("stateless", "2026-07-28+tasks");
    expect(seen.tools).toContain("slow_compute");
    expect(seen.simple).toBe("This is a simple text response for testing.");
    expect(seen.rounds).toBe(2);
    expect(seen.mrtr).toBe("Multi-round complete: Ada likes green");
    expect(seen.task).toMatchObject({ resultType: "task", status: "completed" });
  }, 120_000);
});
