/**
 * `mcp-gen upgrade` in a project made by `mcp-gen server`, through the CLI
 * and the library API. The next revision is a copy of 2026-07-28 where
 * Implementation gains a required property: a handler of the user's that
 * builds an Implementation no longer compiles, and neither does the
 * runtime's own discover result carry it. The dry run names that file,
 * handler and error, and the runtime message and field, and changes
 * nothing; the upgrade is refused unless --force, which writes the
 * generated files and mcp-gen.json, never the user's, and says what it
 * skipped. A second synthetic revision requires TextContent.annotations,
 * which only the runtime's invalid-arguments result misses: the project
 * still compiles, but its own tests fail in the copy, and the upgrade says
 * which test and which runtime message. A third requires Icon.theme, which
 * neither the typecheck nor the runtime meets: only a test of the user's
 * fails, and that alone stops the upgrade unless --force.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { McpGenError } from "../../generator/diagnostics.js";
import { planUpgrade } from "../../generator/upgrade/upgrade.js";
import { runCli, snapshotFolder, tempDir } from "../helpers/run-cli.js";
import { SCHEMA_DIR, testSources } from "../helpers/index.js";
import { linkNodeModules } from "../helpers/project.js";

/** An upgrade runs the project's typecheck and its tests in a copy: tens of seconds on a shared machine. */
const UPGRADE_TIMEOUT = 4 * 60_000;

const USER_FILE = `import type { protocol } from "./generated/protocol.gen.js";

export const handlers = {
  describe: (): protocol.Implementation => ({ name: "example", version: "1.0.0" }),
};
`;

/** A test of the user's that holds for 2026-07-28 and fails once an Icon needs a theme. */
const ICON_TEST = `import { expect, it } from "vitest";
import { protocol } from "../src/generated/protocol.gen.js";

it("an icon needs only its source", () => {
  expect(protocol.isIcon({ src: "https://example.com/icon.png" })).toBe(true);
});
`;

let next: string;
let annotated: string;
let themed: string;

/** A copy of 2026-07-28 with one more required property, in a folder of its own. */
function synthetic(name: string, definition: string, property: string, schema?: object): string {
  const dir = join(tempDir(name), name);
  mkdirSync(dir);
  copyFileSync(join(SCHEMA_DIR, "2026-07-28", "schema.ts"), join(dir, "schema.ts"));
  const json = JSON.parse(readFileSync(join(SCHEMA_DIR, "2026-07-28", "schema.json"), "utf8")) as {
    $defs: Record<string, { properties: Record<string, unknown>; required: string[] }>;
  };
  if (schema) json.$defs[definition]!.properties[property] = schema;
  json.$defs[definition]!.required.push(property);
  writeFileSync(join(dir, "schema.json"), JSON.stringify(json));
  return dir;
}

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
  next = synthetic("next", "Implementation", "vendor", { type: "string" });
  annotated = synthetic("annotated", "TextContent", "annotations");
  themed = synthetic("themed", "Icon", "theme", { type: "string" });
});

describe("mcp-gen upgrade", () => {
  it(
    "--dry-run shows the diff, the generated files that change and the user's handlers that no longer compile; nothing changes",
    async () => {
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
      // serverInfo rides in the _meta of every result, so each result of the runtime misses it.
      expect(lines).toContain(
        `Runtime messages against ${relative(dir, next)}: 3 problems; the runtime cannot serve this revision`,
      );
      expect(lines).toContain(
        "  discover result (server/discover): Implementation.vendor missing at /_meta/io.modelcontextprotocol~1serverInfo/vendor (DiscoverResult): Implementation.vendor is required by the target revision, and the runtime does not set it",
      );
      expect(lines).toContain("Dry run: nothing was changed.");
      expect(lines.some((l) => /^ {2}src\/generated\/.+ \((changed|new|removed)\)$/.test(l))).toBe(
        true,
      );
      expect(snapshotFolder(join(dir, "src"))).toEqual(before);
      expect(readFileSync(join(dir, "mcp-gen.json"), "utf8")).toBe(settings);
    },
    UPGRADE_TIMEOUT,
  );

  it(
    "is refused while the runtime cannot serve the revision; --force writes the generated files and the revision, never the user's files, and says what it skipped",
    async () => {
      const dir = await project();
      const userFiles = (snapshot: Record<string, string>) =>
        Object.fromEntries(
          Object.entries(snapshot).filter(([p]) => !/^(generated|mcp-gen)\//.test(p)),
        );
      const before = userFiles(snapshotFolder(join(dir, "src")));
      const settingsBefore = readFileSync(join(dir, "mcp-gen.json"), "utf8");
      const refused = await runCli(["upgrade", next, "--quiet"], { cwd: dir, timeoutMs: 240_000 });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(
        /error MCPG808: the runtime cannot serve .*next, so nothing was changed: the invalid-arguments result \(tools\/call\) misses Implementation\.vendor .*; the discover result \(server\/discover\) misses Implementation\.vendor/,
      );
      expect(refused.stdout).toContain(
        "Not upgraded: nothing was changed (--force upgrades anyway).",
      );
      expect(readFileSync(join(dir, "mcp-gen.json"), "utf8")).toBe(settingsBefore);
      const run = await runCli(["upgrade", next, "--force", "--quiet"], {
        cwd: dir,
        timeoutMs: 240_000,
      });
      expect(run.code).toBe(1);
      expect(run.stdout).toContain(
        "--force: upgraded despite the runtime check (3 messages the target revision refuses).",
      );
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
    },
    UPGRADE_TIMEOUT,
  );

  it(
    "a client project: the same plan, the user's handler named, the client's generated files written",
    async () => {
      const dir = await project("client");
      const run = await runCli(["upgrade", next, "--force", "--quiet"], {
        cwd: dir,
        timeoutMs: 240_000,
      });
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
    },
    UPGRADE_TIMEOUT,
  );

  it(
    "the library: the same revision changes nothing and breaks nothing; outside a project is MCPG805",
    async () => {
      const dir = await project();
      const plan = await planUpgrade(dir, "2026-07-28", { sources: testSources() });
      expect(plan.diff.changes).toEqual([]);
      expect(plan.changes).toEqual([]);
      expect(plan.problems).toEqual([]);
      expect(plan.typecheck).toBe("npm run typecheck");
      expect(plan.tests).toMatchObject({ command: "npm test", exitCode: 0, failures: [] });
      expect(plan.tests!.passed).toBeGreaterThan(0);
      expect(plan.runtime.problems).toEqual([]);
      expect(plan.runtime.checked.map((c) => c.definition)).toEqual([
        "JSONRPCErrorResponse",
        "JSONRPCErrorResponse",
        "CallToolResult",
        "DiscoverResult",
        "InputRequiredResult",
      ]);
      const error = await planUpgrade(tempDir("empty"), "2026-07-28").catch((e: unknown) => e);
      expect(error).toBeInstanceOf(McpGenError);
      expect((error as McpGenError).diagnostics.map((d) => d.code)).toEqual(["MCPG805"]);
    },
    UPGRADE_TIMEOUT,
  );

  it(
    "a revision requiring a field only the runtime misses: the typecheck passes, yet --dry-run exits 1 naming the field, the runtime message and the failing test",
    async () => {
      const dir = await project();
      const run = await runCli(["upgrade", annotated, "--dry-run", "--quiet"], {
        cwd: dir,
        timeoutMs: 240_000,
      });
      expect(run.code).toBe(1);
      const lines = run.stdout.split("\n");
      expect(lines).toContain("npm run typecheck in a copy with the new files: no errors");
      expect(lines).toContain(
        "  invalid-arguments result (tools/call): TextContent.annotations missing at /content/0/annotations (CallToolResult): TextContent.annotations is required by the target revision, and the runtime does not set it",
      );
      expect(lines.find((l) => l.startsWith("npm test in the copy: "))).toMatch(/: \d+ failed/);
      expect(
        lines.some((l) =>
          /^ {2}test\/server\.test\.ts > .*the server produced an invalid result/.test(l),
        ),
      ).toBe(true);
    },
    UPGRADE_TIMEOUT,
  );

  it(
    "a failing test of the user's alone stops the upgrade (MCPG809, nothing changed); --force upgrades and says it skipped the tests",
    async () => {
      const dir = await project();
      // Only this test of the user's meets Icon; neither the typecheck nor the runtime's messages do.
      writeFileSync(join(dir, "test", "icons.test.ts"), ICON_TEST);
      const settingsBefore = readFileSync(join(dir, "mcp-gen.json"), "utf8");
      const generatedBefore = snapshotFolder(join(dir, "src", "generated"));
      const refused = await runCli(["upgrade", themed, "--quiet"], {
        cwd: dir,
        timeoutMs: 240_000,
      });
      expect(refused.code).toBe(1);
      expect(refused.stdout).toContain("npm run typecheck in a copy with the new files: no errors");
      expect(refused.stdout).toMatch(/Runtime messages against .*themed: \d+ checked, all valid/);
      expect(refused.stderr).not.toContain("MCPG808");
      expect(refused.stderr).toMatch(
        /error MCPG809: .*npm test.*test\/icons\.test\.ts > an icon needs only its source: .*expected false to be true/,
      );
      expect(refused.stdout).toContain(
        "Not upgraded: nothing was changed (--force upgrades anyway).",
      );
      expect(readFileSync(join(dir, "mcp-gen.json"), "utf8")).toBe(settingsBefore);
      expect(snapshotFolder(join(dir, "src", "generated"))).toEqual(generatedBefore);

      const forced = await runCli(["upgrade", themed, "--force", "--quiet"], {
        cwd: dir,
        timeoutMs: 240_000,
      });
      expect(forced.stdout).toContain("--force: upgraded despite npm test (1 failing test).");
      expect(forced.stdout).toContain(`Upgraded to ${relative(dir, themed)}`);
      expect(readFileSync(join(dir, "src", "generated", "themed", "types.gen.ts"), "utf8")).toMatch(
        /theme: string;/,
      );
    },
    UPGRADE_TIMEOUT,
  );

  it("outside a project refuses before it prints anything else", async () => {
    const run = await runCli(["upgrade", "2026-07-28"], { cwd: tempDir("not-a-project") });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderrLines).toHaveLength(1);
    expect(run.stderrLines[0]).toMatch(/error MCPG805: .* is not a project made by mcp-gen server/);
  });
});
