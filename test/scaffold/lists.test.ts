/**
 * mcp-gen.json's `lists` of a server project (generator/project/lists-module.ts):
 * src/generated/lists.gen.ts holds it, the scaffolded server pages its lists
 * with its page size and stamps its caching hints on every page, the
 * project compiles; bad values are MCPG801 at their place, and caching
 * hints for a revision whose list results have none are MCPG715.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { McpGenError } from "../../generator/diagnostics.js";
import { listResultsCarryHints, listsFiles } from "../../generator/project/lists-module.js";
import type { ServerSettings } from "../../generator/project/settings.js";
import type * as Runtime from "../../templates/runtime/index.js";
import { importFromProject, ROOT } from "../helpers/index.js";
import { request } from "../helpers/mcp-client.js";
import { linkNodeModules } from "../helpers/project.js";
import { runCli, tempDir } from "../helpers/run-cli.js";
import { compileProject } from "../helpers/typecheck.js";

let project: string;
const read = (path: string) => readFileSync(join(project, path), "utf8");
const settingsFile = () => JSON.parse(read("mcp-gen.json")) as Record<string, unknown>;

beforeAll(async () => {
  const cwd = tempDir("scaffold-lists");
  const run = await runCli(["server", "proj", "--example", "everything", "--quiet"], { cwd });
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  project = join(cwd, "proj");
  linkNodeModules(project);
});

/**
 * Every page of `method` the project's server answers, in process, following
 * nextCursor. (The project's modules load once per test file: after the
 * settings are final.)
 */
async function pagesOf(method: string): Promise<Array<Record<string, unknown>>> {
  const { createServer } = await importFromProject<{ createServer: () => Runtime.McpServer }>(
    project,
    "src/server.ts",
  );
  const server = createServer();
  const pages: Array<Record<string, unknown>> = [];
  let cursor: unknown;
  do {
    const outcome = await server.serve(
      request(method, cursor === undefined ? {} : { cursor }, pages.length + 1),
      { sink: { notify: () => {} }, signal: new AbortController().signal },
    );
    const { result } = outcome.response as { result: Record<string, unknown> };
    pages.push(result);
    cursor = result.nextCursor;
  } while (cursor !== undefined);
  return pages;
}

describe("mcp-gen.json lists", () => {
  it("a new server's lists.gen.ts holds no settings (pages of 100, the runtime's hints)", () => {
    expect(settingsFile()).not.toHaveProperty("lists");
    expect(read("src/generated/lists.gen.ts")).toContain(
      "export const listDefaults: ListDefaults = {};",
    );
  });

  it("regeneration carries pageSize, ttlMs and cacheScope to the server, and the project compiles", async () => {
    writeFileSync(
      join(project, "mcp-gen.json"),
      JSON.stringify({
        ...settingsFile(),
        lists: { pageSize: 2, ttlMs: 60000, cacheScope: "public" },
      }),
    );
    const run = await runCli(["generate", "--quiet"], { cwd: project });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(read("src/generated/lists.gen.ts")).toContain('"pageSize": 2');
    expect(compileProject(project).errors).toEqual([]);
    for (const method of ["tools/list", "prompts/list"]) {
      const pages = await pagesOf(`${method}`);
      expect(pages.length, method).toBeGreaterThan(1);
      for (const page of pages) {
        expect(page).toMatchObject({ ttlMs: 60000, cacheScope: "public" });
        expect(
          (page[method === "tools/list" ? "tools" : "prompts"] as unknown[]).length,
        ).toBeLessThanOrEqual(2);
      }
    }
  });

  it.each([
    [{ pageSize: 0 }, "/lists/pageSize", '"pageSize" must be >= 1'],
    [{ pageSize: 10001 }, "/lists/pageSize", '"pageSize" must be <= 10000'],
    [{ ttlMs: -1 }, "/lists/ttlMs", '"ttlMs" must be >= 0'],
    [
      { cacheScope: "shared" },
      "/lists/cacheScope",
      '"cacheScope" must be one of "public", "private"',
    ],
    [
      { size: 3 },
      "/lists/size",
      '"size" is not a setting of lists (settings: pageSize, ttlMs, cacheScope; docs/server.md)',
    ],
  ])("lists %j is MCPG801 at %s", async (lists, pointer, reason) => {
    const cwd = tempDir("lists-settings");
    const { lists: _kept, ...rest } = settingsFile();
    writeFileSync(join(cwd, "mcp-gen.json"), JSON.stringify({ ...rest, lists }));
    const run = await runCli(["generate", "--quiet"], { cwd });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`mcp-gen.json#${pointer}: error MCPG801: mcp-gen.json: ${reason}`);
  });
});

describe("caching hints and the revision", () => {
  const types = (revision: string) =>
    readFileSync(join(ROOT, "generated", revision, "types.gen.ts"), "utf8");
  const settings = (lists: ServerSettings["lists"], revision: string): ServerSettings => ({
    kind: "server",
    revision,
    extensions: [],
    tools: "tools.json",
    example: "minimal",
    transport: "both",
    lists,
  });

  it("2026-07-28's list results carry them, 2025-11-25's do not", () => {
    expect(listResultsCarryHints(types("2026-07-28"))).toBe(true);
    expect(listResultsCarryHints(types("2025-11-25"))).toBe(false);
    expect(listResultsCarryHints(undefined)).toBe(false);
  });

  it("hints for a revision without them are MCPG715, each at its place; a page size alone is fine", () => {
    const refused = () =>
      listsFiles(settings({ ttlMs: 5, cacheScope: "public" }, "my-draft"), types("2025-11-25"), "");
    expect(refused).toThrow(
      "lists.ttlMs is a caching hint, and list results of my-draft carry none (ttlMs and cacheScope came with 2026-07-28)",
    );
    const diagnostics = (() => {
      try {
        refused();
      } catch (error) {
        return (error as McpGenError).diagnostics;
      }
      return [];
    })();
    expect(diagnostics.map((d) => [d.code, d.location?.pointer])).toEqual([
      ["MCPG715", "/lists/ttlMs"],
      ["MCPG715", "/lists/cacheScope"],
    ]);
    expect(
      listsFiles(settings({ pageSize: 5 }, "my-draft"), types("2025-11-25"), "")[0]!.contents,
    ).toContain('"pageSize": 5');
  });
});
