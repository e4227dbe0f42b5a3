/**
 * `mcp-gen server --target node|bun|deno|workers`: each target gets its
 * entry file, scripts and settings files, records itself in mcp-gen.json
 * (node, the default, records nothing), and compiles under --strict. A
 * Worker's entry reaches only the Fetch entry of the runtime (no node:http,
 * no streams, no processes). What a Worker cannot run is refused with
 * MCPG716, at scaffold (every problem at once, nothing written) and when
 * mcp-gen.json asks for it later.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runCli, tempDir } from "../helpers/run-cli.js";
import { linkNodeModules } from "../helpers/project.js";
import { compileProject } from "../helpers/typecheck.js";
import { importsOf } from "../helpers/import-graph.js";

const TARGETS = ["node", "bun", "deno", "workers"] as const;

let cwd: string;
const project = (target: string) => join(cwd, target);
const read = (target: string, path: string) => readFileSync(join(project(target), path), "utf8");
const scripts = (target: string) =>
  (JSON.parse(read(target, "package.json")) as { scripts: Record<string, string> }).scripts;

beforeAll(async () => {
  cwd = tempDir("targets");
  for (const target of TARGETS) {
    const run = await runCli(
      ["server", target, "--target", target, "--example", "everything", "--quiet"],
      { cwd },
    );
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    linkNodeModules(project(target));
  }
}, 120_000);

describe("mcp-gen server --target", () => {
  it("records the target in mcp-gen.json, except node; workers serve HTTP only", () => {
    const settings = (target: string) => JSON.parse(read(target, "mcp-gen.json")) as object;
    expect(settings("node")).not.toHaveProperty("target");
    expect(settings("node")).toHaveProperty("transport", "both");
    expect(settings("bun")).toMatchObject({ target: "bun", transport: "both" });
    expect(settings("deno")).toMatchObject({ target: "deno", transport: "both" });
    expect(settings("workers")).toMatchObject({ target: "workers", transport: "http" });
  });

  it("writes each target's scripts, entry and settings files", () => {
    expect(scripts("node")).toMatchObject({ start: "exec node dist/index.js", dev: "mcp-gen dev" });
    expect(scripts("bun")).toMatchObject({
      start: "bun src/index.ts",
      "start:stdio": "bun src/index.ts --stdio",
    });
    expect(read("bun", "src/index.ts")).toContain("Bun.serve({");
    expect(scripts("deno")).toMatchObject({
      start: "deno task start",
      "start:stdio": "deno task start:stdio",
    });
    expect(JSON.parse(read("deno", "deno.json"))).toMatchObject({
      nodeModulesDir: "manual",
      tasks: { start: expect.stringContaining("src/index.ts") as unknown },
    });
    expect(read("deno", "src/index.ts")).toContain("Deno.serve(");
    expect(scripts("workers")).toMatchObject({
      start: "wrangler dev",
      deploy: "wrangler deploy",
      build: "wrangler deploy --dry-run --outdir dist",
    });
    expect(JSON.parse(read("workers", "package.json"))).toHaveProperty(
      ["devDependencies", "wrangler"],
      "4.86.0",
    );
    expect(read("workers", "wrangler.toml")).toContain('compatibility_flags = ["nodejs_compat"]');
    expect(read("workers", "wrangler.toml")).toContain('main = "src/index.ts"');
    expect(read("workers", "src/index.ts")).toContain("export default {");
    for (const target of ["node", "bun", "workers"])
      expect(existsSync(join(project(target), "deno.json"))).toBe(false);
    for (const target of ["node", "bun", "deno"])
      expect(existsSync(join(project(target), "wrangler.toml"))).toBe(false);
  });

  it("each README says how to run and deploy its target", () => {
    expect(read("bun", "README.md")).toContain("bun src/index.ts");
    expect(read("deno", "README.md")).toContain("deno task start");
    expect(read("deno", "README.md")).toContain("deno deploy");
    expect(read("workers", "README.md")).toContain("npm run deploy");
    expect(read("workers", "README.md")).toContain("wrangler secret put MCP_REQUEST_STATE_KEY");
    expect(read("node", "README.md")).not.toContain("wrangler");
  });

  it.each(TARGETS)("%s: the project compiles under --strict", (target) => {
    expect(compileProject(project(target)).errors).toEqual([]);
  });

  it("a Worker's own files import the runtime's Fetch entry, never index.ts", () => {
    for (const file of ["src/index.ts", "src/server.ts"]) {
      const imported = importsOf(read("workers", file)).filter((i) =>
        i.includes("mcp-gen/runtime"),
      );
      expect(imported).toEqual(["./mcp-gen/runtime/fetch.js"]);
    }
    expect(read("workers", "src/server.ts")).not.toContain("scaleOutFromEnvironment");
  });
});

describe("what a Worker cannot run is refused (MCPG716)", () => {
  it("stdio, Tasks and --auth, each named at once, and nothing is written", async () => {
    const run = await runCli(
      [
        "server",
        "refused",
        "--target",
        "workers",
        "--transport",
        "both",
        "--extension",
        "tasks",
        "--auth",
      ],
      { cwd },
    );
    expect(run.code).not.toBe(0);
    const lines = run.stderr.split("\n").filter((line) => line.includes("MCPG716"));
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^--transport: error MCPG716: --target workers cannot run stdio/);
    expect(lines[1]).toMatch(
      /^--extension: error MCPG716: --target workers cannot run the Tasks extension/,
    );
    expect(lines[2]).toMatch(
      /^--auth: error MCPG716: --target workers cannot run OAuth authorization/,
    );
    expect(existsSync(join(cwd, "refused"))).toBe(false);
  });

  it("the same parts on Bun and Deno are scaffolded", async () => {
    for (const target of ["bun", "deno"]) {
      const run = await runCli(
        [
          "server",
          `${target}-all`,
          "--target",
          target,
          "--extension",
          "tasks",
          "--auth",
          "--quiet",
        ],
        { cwd },
      );
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
    }
  });

  it("regenerating a Worker whose mcp-gen.json gained Tasks is refused, naming the field", async () => {
    const settingsFile = join(project("workers"), "mcp-gen.json");
    const settings = JSON.parse(readFileSync(settingsFile, "utf8")) as Record<string, unknown>;
    writeFileSync(settingsFile, JSON.stringify({ ...settings, extensions: ["tasks"] }));
    const run = await runCli(["generate"], { cwd: project("workers") });
    writeFileSync(settingsFile, `${JSON.stringify(settings, null, 2)}\n`);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain("mcp-gen.json#/extensions: error MCPG716");
  });

  it("an unknown target in mcp-gen.json is refused, naming the field", async () => {
    const settingsFile = join(project("workers"), "mcp-gen.json");
    const settings = readFileSync(settingsFile, "utf8");
    writeFileSync(settingsFile, settings.replace('"workers"', '"lambda"'));
    const run = await runCli(["generate"], { cwd: project("workers") });
    writeFileSync(settingsFile, settings);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain("mcp-gen.json#/target: error MCPG801");
  });
});
