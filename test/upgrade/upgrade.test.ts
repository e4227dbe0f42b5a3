/**
 * `mcp-gen upgrade` in a project made by `mcp-gen server`, through the CLI
 * and the library API. The next revision is a copy of 2026-07-28 where
 * Implementation gains a required property: a handler of the user's that
 * builds an Implementation no longer compiles. The dry run names that
 * file, handler and error and changes nothing; the upgrade writes the
 * generated files and mcp-gen.json, never the user's.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { McpGenError } from "../../generator/diagnostics.js";
import { planUpgrade } from "../../generator/upgrade/upgrade.js";
import { runCli, snapshotFolder, tempDir } from "../helpers/run-cli.js";
import { SCHEMA_DIR, testSources } from "../helpers/index.js";
import { linkNodeModules } from "../helpers/project.js";

const USER_FILE = `import type { protocol } from "./generated/protocol.gen.js";

export const handlers = {
  describe: (): protocol.Implementation => ({ name: "example", version: "1.0.0" }),
};
`;

let next: string;

/** A fresh project with node_modules linked and a file of the user's that uses a generated type. */
async function project(kind: "server" | "client" = "server"): Promise<string> {
  const cwd = tempDir("upgrade");
  expect((await runCli([kind, "proj", "--quiet"], { cwd })).code).toBe(0);
  const dir = join(cwd, "proj");
  linkNodeModules(dir);
  writeFileSync(join(dir, "src", "identity.ts"), USER_FILE);
  return dir;
}

beforeAll(() => {
  next = join(tempDir("next"), "next");
  mkdirSync(next);
  copyFileSync(join(SCHEMA_DIR, "2026-07-28", "schema.ts"), join(next, "schema.ts"));
  const schema = JSON.parse(
    readFileSync(join(SCHEMA_DIR, "2026-07-28", "schema.json"), "utf8"),
  ) as {
    $defs: Record<string, { properties: Record<string, unknown>; required: string[] }>;
  };
  schema.$defs.Implementation!.properties.vendor = { type: "string" };
  schema.$defs.Implementation!.required.push("vendor");
  writeFileSync(join(next, "schema.json"), JSON.stringify(schema));
});

describe("mcp-gen upgrade", () => {
  it("--dry-run shows the diff, the generated files that change and the user's handlers that no longer compile; nothing changes", async () => {
    const dir = await project();
    const before = snapshotFolder(join(dir, "src"));
    const settings = readFileSync(join(dir, "mcp-gen.json"), "utf8");
    const run = await runCli(["upgrade", next, "--dry-run", "--quiet"], {
      cwd: dir,
      timeoutMs: 240_000,
    });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(1);
    const lines = run.stdout.split("\n");
    expect(lines[0]).toMatch(/^2026-07-28 -> .*next \(2026-07-28\): \d+ changes/);
    expect(lines).toContain(
      "  + Implementation: property vendor added (required)  [breaks servers and clients]",
    );
    expect(lines).toContain(
      "npm run typecheck in a copy with the new files: 1 error in your files",
    );
    expect(lines.find((l) => l.startsWith("  src/identity.ts:"))).toMatch(
      /^ {2}src\/identity\.ts:4:\d+ in handlers\.describe: TS2741 Property 'vendor' is missing/,
    );
    expect(lines).toContain("Dry run: nothing was changed.");
    expect(lines.some((l) => /^ {2}src\/generated\/.+ \((changed|new|removed)\)$/.test(l))).toBe(
      true,
    );
    expect(snapshotFolder(join(dir, "src"))).toEqual(before);
    expect(readFileSync(join(dir, "mcp-gen.json"), "utf8")).toBe(settings);
  });

  it("without --dry-run writes the generated files and the revision, never the user's files", async () => {
    const dir = await project();
    const userFiles = (snapshot: Record<string, string>) =>
      Object.fromEntries(
        Object.entries(snapshot).filter(([p]) => !/^(generated|mcp-gen)\//.test(p)),
      );
    const before = userFiles(snapshotFolder(join(dir, "src")));
    const run = await runCli(["upgrade", next, "--quiet"], { cwd: dir, timeoutMs: 240_000 });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      `Upgraded to ${relative(dir, next)}: wrote the generated files and mcp-gen.json; your files were not changed (fix the errors above).`,
    );
    expect(userFiles(snapshotFolder(join(dir, "src")))).toEqual(before);
    const settings = JSON.parse(readFileSync(join(dir, "mcp-gen.json"), "utf8")) as {
      revision: string;
    };
    expect(settings.revision).toBe(relative(dir, next));
    // The project now regenerates from the new revision and is up to date.
    const check = await runCli(["generate", "--check", "--quiet"], {
      cwd: dir,
      timeoutMs: 120_000,
    });
    expect(check.code).toBe(0);
  });

  it("a client project: the same plan, the user's handler named, the client's generated files written", async () => {
    const dir = await project("client");
    const run = await runCli(["upgrade", next, "--quiet"], { cwd: dir, timeoutMs: 240_000 });
    expect(run.code).toBe(1);
    expect(run.stdout.split("\n").find((l) => l.startsWith("  src/identity.ts:"))).toMatch(
      /^ {2}src\/identity\.ts:4:\d+ in handlers\.describe: TS2741 Property 'vendor' is missing/,
    );
    expect(readFileSync(join(dir, "src", "generated", "next", "types.gen.ts"), "utf8")).toContain(
      "vendor: string;",
    );
    expect(readFileSync(join(dir, "src", "generated", "protocol.gen.ts"), "utf8")).toContain(
      '"./next/index.js"',
    );
  });

  it("the library: the same revision changes nothing and breaks nothing; outside a project is MCPG805", async () => {
    const dir = await project();
    const plan = await planUpgrade(dir, "2026-07-28", { sources: testSources() });
    expect(plan.diff.changes).toEqual([]);
    expect(plan.changes).toEqual([]);
    expect(plan.problems).toEqual([]);
    expect(plan.typecheck).toBe("npm run typecheck");
    const error = await planUpgrade(tempDir("empty"), "2026-07-28").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpGenError);
    expect((error as McpGenError).diagnostics.map((d) => d.code)).toEqual(["MCPG805"]);
  });
});
