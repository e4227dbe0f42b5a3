/**
 * A server of more tools than one page of tools/list holds (100 unless
 * told otherwise): 117, as many as a public GitHub server has. Its own
 * tests, which follow nextCursor page by page, list every tool in order and
 * call each, in both eras, in memory and over HTTP, and pass.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { scaffoldServer, writeProject } from "../../generator/scaffold/scaffold.js";
import { tempDir, testSources } from "../helpers/index.js";
import { linkNodeModules, runNode } from "../helpers/project.js";

const COUNT = 117;

/** Tools of a few shapes: no arguments, a required string, an optional enum and an array. */
const tool = (i: number) => ({
  name: `tool_${String(i).padStart(3, "0")}`,
  description: `Tool number ${i}`,
  inputSchema: {
    type: "object",
    properties: {
      owner: { type: "string" },
      state: { type: "string", enum: ["open", "closed"] },
      labels: { type: "array", items: { type: "string" } },
    },
    ...(i % 3 === 0 ? { required: ["owner"] } : {}),
  },
});

describe(`a server of ${COUNT} tools`, () => {
  it("passes its own tests, listing the tools over two pages", async () => {
    const dir = tempDir("paged-tools");
    const toolsFile = join(dir, "tools.json");
    writeFileSync(toolsFile, JSON.stringify(Array.from({ length: COUNT }, (_, i) => tool(i))));
    const project = join(dir, "proj");
    const { files } = await scaffoldServer({
      dir: project,
      tools: toolsFile,
      sources: testSources(),
    });
    writeProject(project, files);
    linkNodeModules(project);
    const run = await runNode(
      [join(project, "node_modules", "vitest", "vitest.mjs"), "run", "--reporter=verbose"],
      project,
      {
        timeoutMs: 400_000,
        env: { NO_COLOR: "1" },
      },
    );
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stdout).toMatch(/lists every tool of tools\.json, in order, page by page/);
    expect(run.stdout).toMatch(/Tests\s+\d+ passed/);
    expect(run.stdout).not.toMatch(/\d+ failed/);
    // 117 tools, four clients (in memory and HTTP, both eras): every call ran.
    expect(run.stdout.match(/answers tools\/call tool_\d{3} /g)).toHaveLength(COUNT * 4);
  }, 420_000);
});
