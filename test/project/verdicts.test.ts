/**
 * One project, one verdict: every command that plans a project's generated
 * files (project/index.ts) judges the same odd projects the same way. Each
 * case is a tools file (or settings) given to the scaffold, then put into
 * a scaffolded project and run through `generate`, `generate --check`,
 * `upgrade` (to the project's own revision) and `dev`'s regeneration. A
 * verdict is what refuses the project (the codes of the error), or what
 * it accepts with (the codes of its warnings, and the tools it keeps).
 */
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { readConfig } from "../../generator/config/config.js";
import { generateConfig } from "../../generator/config/generate-config.js";
import { startDev, type Regeneration } from "../../generator/dev/dev.js";
import { McpGenError, type Diagnostic } from "../../generator/diagnostics.js";
import { scaffoldClient, type ClientScaffoldOptions } from "../../generator/scaffold/client.js";
import {
  scaffoldServer,
  writeProject,
  type ServerScaffoldOptions,
} from "../../generator/scaffold/scaffold.js";
import { planUpgrade } from "../../generator/upgrade/upgrade.js";
import { tempDir, testSources } from "../helpers/index.js";
import { linkNodeModules } from "../helpers/project.js";

type Kind = "server" | "client";

/** What a command made of a project: refused with these codes, or accepted with these warnings. */
type Verdict = { refused: string[] } | { accepted: string[] };

const object = { type: "object" };
const tool = (name: string, inputSchema: object = object) => ({ name, inputSchema });

/** The odd tools files: each is judged by the rule of the project's kind (project/tools.ts). */
const ODD_TOOLS: ReadonlyArray<{
  readonly name: string;
  readonly tools: unknown;
  readonly want: Record<Kind, Verdict>;
}> = [
  {
    name: "get-item and get_item, one namespace",
    tools: [tool("get-item"), tool("get_item")],
    want: { server: { refused: ["MCPG712"] }, client: { accepted: [] } },
  },
  {
    name: "a tool whose arguments are not an object",
    tools: [tool("echo"), tool("listed", { type: "array" })],
    want: { server: { refused: ["MCPG701"] }, client: { accepted: ["MCPG720"] } },
  },
  {
    name: "a header annotation that is no HTTP token",
    tools: [
      tool("echo"),
      tool("headed", {
        type: "object",
        properties: { a: { type: "string", "x-mcp-header": "A B" } },
      }),
    ],
    want: { server: { refused: ["MCPG713"] }, client: { accepted: ["MCPG720"] } },
  },
  {
    name: "one name twice",
    tools: [tool("echo"), tool("echo")],
    want: { server: { refused: ["MCPG701"] }, client: { accepted: ["MCPG720"] } },
  },
  {
    name: "a tools/list result instead of a list",
    tools: { tools: [tool("echo")] },
    want: { server: { refused: ["MCPG701"] }, client: { refused: ["MCPG701"] } },
  },
  {
    name: "an ordinary list",
    tools: [tool("echo"), tool("get_item")],
    want: { server: { accepted: [] }, client: { accepted: [] } },
  },
];

let root: string;
/** A scaffolded project of each kind with ordinary tools, copied for each case. */
const base: Partial<Record<Kind, string>> = {};

async function scaffold(kind: Kind, options: ServerScaffoldOptions & ClientScaffoldOptions) {
  return kind === "server" ? scaffoldServer(options) : scaffoldClient(options);
}

beforeAll(async () => {
  root = tempDir("verdicts");
  const toolsFile = join(root, "ordinary.json");
  writeFileSync(toolsFile, JSON.stringify([tool("echo")]));
  for (const kind of ["server", "client"] as const) {
    const dir = join(root, `base-${kind}`);
    const made = await scaffold(kind, { dir, tools: toolsFile, sources: testSources() });
    writeProject(dir, made.files);
    // upgrade runs the project's typecheck in a copy: a trivial one (the verdict comes before it).
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    };
    pkg.scripts.typecheck = "node -e 0";
    writeFileSync(join(dir, "package.json"), `${JSON.stringify(pkg, null, 2)}\n`);
    linkNodeModules(dir);
    base[kind] = dir;
  }
}, 600_000);

/** The verdict of one command's run. */
async function verdictOf(run: () => Promise<readonly Diagnostic[]>): Promise<Verdict> {
  try {
    const warnings = await run();
    return { accepted: [...new Set(warnings.map((d) => d.code))].sort() };
  } catch (error) {
    if (!(error instanceof McpGenError)) throw error;
    return { refused: [...new Set(error.diagnostics.map((d) => d.code))].sort() };
  }
}

/** dev's first regeneration of the project, and the loop stopped before it compiles anything. */
async function devRegeneration(dir: string): Promise<readonly Diagnostic[]> {
  const outcome = await new Promise<Regeneration>((resolve) => {
    const handle = startDev({ dir, log: () => {} });
    handle.onRegenerated((first) => {
      void handle.close();
      resolve(first);
    });
  });
  if (!outcome.ok) throw outcome.error;
  return outcome.diagnostics;
}

/** Every command's verdict on the project in `dir`, each run in a fresh copy of it. */
async function commandVerdicts(dir: string): Promise<Record<string, Verdict>> {
  const copy = (label: string) => {
    const to = `${dir}-${label}`;
    cpSync(dir, to, { recursive: true, verbatimSymlinks: true });
    return to;
  };
  const config = (at: string) => readConfig(join(at, "mcp-gen.json"));
  const sources = testSources();
  const project = (outcome: Awaited<ReturnType<typeof generateConfig>>) =>
    outcome.project?.diagnostics ?? [];
  const revision = (at: string) =>
    (JSON.parse(readFileSync(join(at, "mcp-gen.json"), "utf8")) as { revision: string }).revision;
  const generateAt = copy("generate");
  const checkAt = copy("check");
  const upgradeAt = copy("upgrade");
  const devAt = copy("dev");
  return {
    generate: await verdictOf(async () =>
      project(await generateConfig(config(generateAt), { sources })),
    ),
    "generate --check": await verdictOf(async () =>
      project(await generateConfig(config(checkAt), { check: true, sources })),
    ),
    upgrade: await verdictOf(
      async () =>
        (await planUpgrade(upgradeAt, revision(upgradeAt), { sources, tests: false })).diagnostics,
    ),
    dev: await verdictOf(() => devRegeneration(devAt)),
  };
}

/**
 * The verdicts, each as its project's (a project's codes are MCPG7xx and
 * MCPG8xx: upgrade's notes on how it read each revision are left out),
 * beside what every one of them should be.
 */
function compared(
  verdicts: Record<string, Verdict>,
  want: Verdict,
): { got: Record<string, Verdict>; want: Record<string, Verdict> } {
  const own = (v: Verdict): Verdict =>
    "refused" in v ? v : { accepted: v.accepted.filter((code) => /^MCPG[78]/.test(code)) };
  return {
    got: Object.fromEntries(Object.entries(verdicts).map(([command, v]) => [command, own(v)])),
    want: Object.fromEntries(Object.keys(verdicts).map((command) => [command, want])),
  };
}

describe.each(["server", "client"] as const)("a %s project", (kind) => {
  it.each(ODD_TOOLS.map((c) => [c.name, c] as const))(
    "%s: one verdict from the scaffold and from every command",
    async (label, odd) => {
      const toolsFile = join(root, `${kind}-${label.replace(/\W+/g, "-")}.json`);
      writeFileSync(toolsFile, JSON.stringify(odd.tools, null, 2));
      const scaffolded = await verdictOf(async () => {
        const made = await scaffold(kind, {
          dir: join(root, "unwritten"),
          tools: toolsFile,
          sources: testSources(),
        });
        return "diagnostics" in made ? made.diagnostics : [];
      });
      const dir = join(root, `${kind}-${label.replace(/\W+/g, "-")}`);
      cpSync(base[kind]!, dir, { recursive: true, verbatimSymlinks: true });
      cpSync(toolsFile, join(dir, "tools.json"));
      const { got, want } = compared(
        { scaffold: scaffolded, ...(await commandVerdicts(dir)) },
        odd.want[kind],
      );
      expect(got).toEqual(want);
    },
    300_000,
  );
});

it("a server's settings its target cannot run: one verdict from the scaffold and from every command", async () => {
  const scaffolded = await verdictOf(async () => {
    await scaffoldServer({
      dir: join(root, "unwritten"),
      target: "workers",
      extensions: ["tasks"],
      sources: testSources(),
    });
    return [];
  });
  const dir = join(root, "server-workers-tasks");
  cpSync(base.server!, dir, { recursive: true, verbatimSymlinks: true });
  const settingsFile = join(dir, "mcp-gen.json");
  const settings = JSON.parse(readFileSync(settingsFile, "utf8")) as Record<string, unknown>;
  writeFileSync(
    settingsFile,
    JSON.stringify({ ...settings, transport: "http", target: "workers", extensions: ["tasks"] }),
  );
  const { got, want } = compared(
    { scaffold: scaffolded, ...(await commandVerdicts(dir)) },
    { refused: ["MCPG716"] },
  );
  expect(got).toEqual(want);
}, 300_000);
