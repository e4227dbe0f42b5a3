/**
 * `mcp-gen generate` with no flags in a project made by `mcp-gen server`
 * (through the real command line, in the project folder): it rewrites
 * src/generated and src/mcp-gen from mcp-gen.json and tools.json, and
 * never touches the user's files; `--check` then passes, and fails naming
 * a generated file edited by hand.
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runCli, snapshotFolder, tempDir } from "../helpers/run-cli.js";

const FIX_STALE = "(fix: run npm run regenerate in the project folder)";
const generatedOnly = (path: string) =>
  path.startsWith("src/generated/") || path.startsWith("src/mcp-gen/");
const userOnly = (snapshot: Record<string, string>) =>
  Object.fromEntries(Object.entries(snapshot).filter(([path]) => !generatedOnly(path)));

let project: string;
beforeAll(async () => {
  const cwd = tempDir("regenerate");
  expect((await runCli(["server", "proj", "--quiet"], { cwd })).code).toBe(0);
  project = join(cwd, "proj");
});

describe("regeneration in a scaffolded project", () => {
  it("a fresh project is up to date", async () => {
    const run = await runCli(["generate", "--check", "--quiet"], { cwd: project });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^the project is up to date \(\d+ generated files\)\n$/);
  });

  it("after the user edits src/tools.ts and adds a tool to tools.json: user files stay byte for byte, generated ones follow tools.json, the new tool's stub is a new file", async () => {
    const tools = join(project, "src", "tools.ts");
    writeFileSync(tools, `${readFileSync(tools, "utf8")}\n// my own note, kept by regeneration\n`);
    const list = JSON.parse(readFileSync(join(project, "tools.json"), "utf8")) as unknown[];
    list.push({
      name: "reverse",
      description: "Reverses a text.",
      inputSchema: {
        type: "object",
        properties: { text: { type: "string" }, times: { type: "integer" } },
        required: ["text"],
      },
    });
    writeFileSync(join(project, "tools.json"), `${JSON.stringify(list, null, 2)}\n`);
    const before = snapshotFolder(project);

    const stale = await runCli(["generate", "--check", "--quiet"], { cwd: project });
    expect(stale.code).toBe(1);
    expect(stale.stderrLines).toEqual([
      `src/generated/tool-schemas.gen.ts: error MCPG503: src/generated/tool-schemas.gen.ts is stale ${FIX_STALE}`,
      `src/generated/tool-validators-2020.gen.d.ts: error MCPG503: src/generated/tool-validators-2020.gen.d.ts is stale ${FIX_STALE}`,
      `src/generated/tool-validators-2020.gen.js: error MCPG503: src/generated/tool-validators-2020.gen.js is stale ${FIX_STALE}`,
      `src/generated/tools.gen.ts: error MCPG503: src/generated/tools.gen.ts is stale ${FIX_STALE}`,
    ]);
    expect(snapshotFolder(project), "--check writes nothing").toEqual(before);

    const run = await runCli(["generate"], { cwd: project });
    expect(run.code).toBe(0);
    expect(run.stderrLines).toEqual([`mcp-gen: regenerating the project in ${project}`]);
    expect(run.stdout).toMatch(
      /^regenerated \d+ files in src\/generated and src\/mcp-gen\nnew tool: wrote its handler stub to src\/tools\/reverse.ts; add it to the handlers in src\/tools.ts\n$/,
    );

    const after = snapshotFolder(project);
    const { "src/tools/reverse.ts": stub, ...userAfter } = userOnly(after);
    expect(userAfter).toEqual(userOnly(before));
    const stubText = Buffer.from(stub!, "base64").toString("utf8");
    expect(stubText).toContain(
      'export const handler: ToolHandlers["reverse"] = async (args, ctx) => {',
    );
    expect(stubText).toContain('import { handler as reverse } from "./tools/reverse.js";');
    expect(
      Object.keys(after)
        .filter((p) => after[p] !== before[p])
        .sort(),
    ).toEqual([
      "src/generated/tool-schemas.gen.ts",
      "src/generated/tool-validators-2020.gen.d.ts",
      "src/generated/tool-validators-2020.gen.js",
      "src/generated/tools.gen.ts",
      "src/tools/reverse.ts",
    ]);
    const module = readFileSync(join(project, "src", "generated", "tools.gen.ts"), "utf8");
    expect(module).toContain(
      "export namespace Reverse {\n  export interface Arguments {\n    text: string;\n    times?: number;\n  }",
    );
    expect(module).toContain(
      "export interface ToolArguments {\n  echo: Echo.Arguments;\n  reverse: Reverse.Arguments;\n}",
    );
    expect(readFileSync(tools, "utf8")).toContain("// my own note, kept by regeneration");

    const check = await runCli(["generate", "--check"], { cwd: project });
    expect(check.code).toBe(0);
    expect(check.stdout).toMatch(/^the project is up to date/);
  });

  it("regenerating twice writes the same bytes, and a stub once written is never written again", async () => {
    rmSync(join(project, "src", "tools", "reverse.ts"));
    const before = snapshotFolder(project);
    expect((await runCli(["generate", "--quiet"], { cwd: project })).code).toBe(0);
    expect(snapshotFolder(project)).toEqual(before);
  });

  it("--check fails naming a generated file edited by hand (and one added), generate refuses to delete the added one, then puts the edited one back", async () => {
    const runtime = join(project, "src", "mcp-gen", "runtime", "transport", "http.ts");
    const original = readFileSync(runtime, "utf8");
    writeFileSync(runtime, original.replace("/mcp", "/edited"));
    writeFileSync(
      join(project, "src", "generated", "stray.gen.ts"),
      "// mcp-gen did not write this\n",
    );
    const check = await runCli(["generate", "--check", "--quiet"], { cwd: project });
    expect(check.code).toBe(1);
    expect(check.stderrLines).toEqual([
      `src/generated/stray.gen.ts: error MCPG503: src/generated/stray.gen.ts is extra ${FIX_STALE}`,
      `src/mcp-gen/runtime/transport/http.ts: error MCPG503: src/mcp-gen/runtime/transport/http.ts is stale ${FIX_STALE}`,
    ]);
    expect(check.stdout).toBe("the project is stale: 2 generated files differ\n");

    // A file mcp-gen did not write is never deleted behind the user's back.
    const refused = await runCli(["generate", "--quiet"], { cwd: project });
    expect(refused.code).toBe(2);
    expect(refused.stderrLines).toEqual([
      `${join(project, "src", "generated")}: error MCPG501: refusing to write into ${join(project, "src", "generated")}: it holds files mcp-gen did not write (stray.gen.ts) (fix: choose an empty or mcp-gen-owned folder for --out, or pass --force to replace it)`,
    ]);
    rmSync(join(project, "src", "generated", "stray.gen.ts"));
    expect((await runCli(["generate", "--quiet"], { cwd: project })).code).toBe(0);
    expect(readFileSync(runtime, "utf8")).toBe(original);
    expect((await runCli(["generate", "--check", "--quiet"], { cwd: project })).code).toBe(0);
  });
});

describe("a tool removed from tools.json", () => {
  it("is named with the handler to delete, which is the user's code and stays", async () => {
    const cwd = tempDir("regenerate-removed");
    expect((await runCli(["server", "proj", "--quiet"], { cwd })).code).toBe(0);
    const dir = join(cwd, "proj");
    const handlers = readFileSync(join(dir, "src", "tools.ts"), "utf8");
    writeFileSync(join(dir, "tools.json"), "[]\n");
    const run = await runCli(["generate"], { cwd: dir });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /^regenerated \d+ files in src\/generated and src\/mcp-gen\nremoved tool: echo is no longer in tools\.json; delete its handler from src\/tools\.ts \(and src\/tools\/echo\.ts, if it holds it\)\n$/,
    );
    expect(readFileSync(join(dir, "src", "tools.ts"), "utf8")).toBe(handlers);
    const again = await runCli(["generate"], { cwd: dir });
    expect(again.stdout).not.toContain("removed tool");
  });
});

describe("regeneration with settings that cannot be used", () => {
  it.each([
    [
      "without extensions",
      { kind: "server", revision: "2026-07-28", tools: "tools.json" },
      `error MCPG801: mcp-gen.json: "extensions" is missing (a project's settings need revision, extensions and tools)`,
      "/extensions",
    ],
    [
      "with extensions that are not names",
      { kind: "server", revision: "2026-07-28", tools: "tools.json", extensions: [1] },
      `error MCPG801: mcp-gen.json: "0" must be a string`,
      "/extensions/0",
    ],
  ])(
    "an mcp-gen.json %s is MCPG801 at its place (exit 2), not a crash",
    async (_title, settings, message, pointer) => {
      const cwd = tempDir("settings");
      writeFileSync(join(cwd, "mcp-gen.json"), JSON.stringify(settings));
      const run = await runCli(["generate", "--quiet"], { cwd });
      expect(run.stderrLines).toEqual([
        `${join(cwd, "mcp-gen.json")}#${pointer}: ${message} (fix: edit mcp-gen.json at the place named; its format is schema/config.schema.json in mcp-gen's package (docs/config.md))`,
      ]);
      expect(run.code).toBe(2);
    },
  );

  it("a tools file the settings name but that is gone is MCPG701 (exit 2)", async () => {
    const cwd = tempDir("settings");
    writeFileSync(
      join(cwd, "mcp-gen.json"),
      JSON.stringify({
        kind: "server",
        revision: "2026-07-28",
        tools: "tools.json",
        extensions: [],
        example: "minimal",
        transport: "both",
      }),
    );
    const run = await runCli(["generate", "--quiet"], { cwd });
    expect(run.stderrLines).toEqual([
      "tools.json: error MCPG701: tools file: there is no such file (fix: check the path (a path in mcp-gen.json's \"tools\" is relative to the project's folder))",
    ]);
    expect(run.code).toBe(2);
  });
});

describe("regeneration outside a project", () => {
  it("without mcp-gen.json here or above, generate with no flags is MCPG802 (exit 2)", async () => {
    const cwd = tempDir("empty");
    const run = await runCli(["generate"], { cwd });
    expect(run.code).toBe(2);
    expect(run.stderrLines).toEqual([
      `error MCPG802: no mcp-gen.json in ${cwd} or any folder above it (fix: pass --spec and --out, or write an mcp-gen.json such as { "targets": [{ "spec": "2026-07-28", "out": "src/mcp" }] })`,
    ]);
  });
});

describe("a project scaffolded before its build copied the generated JavaScript", () => {
  const OLD_SCRIPTS = { build: "tsc -p .", prestart: "tsc -b", "prestart:stdio": "tsc -b" };

  /** A project as mcp-gen scaffolded it before: TypeScript validators, builds that run tsc alone, no copy script. */
  async function oldProject(scripts: Record<string, string>): Promise<string> {
    const cwd = tempDir("old-build");
    expect((await runCli(["server", "old", "--quiet"], { cwd })).code).toBe(0);
    const dir = join(cwd, "old");
    const generated = join(dir, "src", "generated");
    const validators = readFileSync(join(generated, "tool-validators-2020.gen.js"), "utf8");
    writeFileSync(join(generated, "tool-validators-2020.gen.ts"), validators);
    rmSync(join(generated, "tool-validators-2020.gen.js"));
    rmSync(join(generated, "tool-validators-2020.gen.d.ts"));
    rmSync(join(dir, "scripts", "copy-generated.mjs"));
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    };
    Object.assign(pkg.scripts, scripts);
    writeFileSync(join(dir, "package.json"), `${JSON.stringify(pkg, null, 2)}\n`);
    return dir;
  }

  it("gets the copy script and the step in every build script mcp-gen wrote; the rest of package.json stays, and the TypeScript validators give way to JavaScript", async () => {
    const dir = await oldProject(OLD_SCRIPTS);
    const before = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as Record<
      string,
      unknown
    >;
    const run = await runCli(["generate"], { cwd: dir });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      "build: wrote scripts/copy-generated.mjs, which copies src/generated's JavaScript to dist/ after tsc\n",
    );
    expect(run.stdout).toContain(
      "build: added the copy of src/generated's JavaScript to dist/ to package.json's build scripts\n",
    );
    const after = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    };
    expect(after.scripts).toMatchObject({
      build: "tsc -p . && node scripts/copy-generated.mjs",
      prestart: "tsc -b && node scripts/copy-generated.mjs",
      "prestart:stdio": "tsc -b && node scripts/copy-generated.mjs",
    });
    expect({ ...after, scripts: undefined }).toEqual({ ...before, scripts: undefined });
    const snapshot = snapshotFolder(dir);
    expect(Object.keys(snapshot).filter((p) => p.includes("tool-validators"))).toEqual([
      "src/generated/tool-validators-2020.gen.d.ts",
      "src/generated/tool-validators-2020.gen.js",
    ]);
    expect(snapshot["scripts/copy-generated.mjs"]).toBeDefined();

    const again = await runCli(["generate"], { cwd: dir });
    expect(again.code).toBe(0);
    expect(again.stdout).not.toContain("build:");
    expect(snapshotFolder(dir)).toEqual(snapshot);
  });

  it("generate --check fails on it, naming the copy script and package.json, and writes nothing", async () => {
    const dir = await oldProject({ ...OLD_SCRIPTS, "prestart:stdio": "tsc -b && cp x dist" });
    const before = snapshotFolder(dir);
    const run = await runCli(["generate", "--check", "--quiet"], { cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stderrLines).toEqual(
      expect.arrayContaining([
        `scripts/copy-generated.mjs: error MCPG503: scripts/copy-generated.mjs is missing ${FIX_STALE}`,
        `package.json: error MCPG503: package.json is stale ${FIX_STALE}`,
        expect.stringMatching(/warning MCPG717: package\.json's script prestart:stdio /),
      ]),
    );
    expect(snapshotFolder(dir)).toEqual(before);
  });

  it("a build script the user changed is left as it is, with a warning that says what to add", async () => {
    const dir = await oldProject({ ...OLD_SCRIPTS, build: "tsc -p . && cp -r assets dist" });
    const run = await runCli(["generate", "--quiet"], { cwd: dir });
    expect(run.code).toBe(0);
    expect(run.stderrLines).toContain(
      `${join(dir, "package.json")}: warning MCPG717: package.json's script build ("tsc -p . && cp -r assets dist") compiles with tsc but does not copy src/generated's JavaScript (the tool validators) to dist/, so the built project starts but fails every tool call (its checks cannot load); mcp-gen left the script as it is because it is not the one mcp-gen wrote (fix: add \`&& node scripts/copy-generated.mjs\` after tsc in the build script)`,
    );
    const after = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    };
    expect(after.scripts.build).toBe("tsc -p . && cp -r assets dist");
    expect(after.scripts.prestart).toBe("tsc -b && node scripts/copy-generated.mjs");
  });

  it("package.json keeps its own indentation and line ends (CRLF here) when the step is added", async () => {
    const dir = await oldProject(OLD_SCRIPTS);
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as unknown;
    writeFileSync(
      join(dir, "package.json"),
      `${JSON.stringify(pkg, null, "\t").replace(/\n/g, "\r\n")}\r\n`,
    );
    expect((await runCli(["generate", "--quiet"], { cwd: dir })).code).toBe(0);
    const after = readFileSync(join(dir, "package.json"), "utf8");
    expect(after.split("\r\n").length - 1).toBe(after.split("\n").length - 1);
    expect(after).toContain('\r\n\t"scripts": {\r\n\t\t');
    expect(after).toContain('"build": "tsc -p . && node scripts/copy-generated.mjs"');
  });

  it("a package.json that is not JSON is left exactly as it is (npm reports it), and the copy script is still written", async () => {
    const dir = await oldProject(OLD_SCRIPTS);
    writeFileSync(join(dir, "package.json"), '{ "scripts": { "build": "tsc -p ." }');
    const run = await runCli(["generate", "--quiet"], { cwd: dir });
    expect(run.code).toBe(0);
    expect(readFileSync(join(dir, "package.json"), "utf8")).toBe(
      '{ "scripts": { "build": "tsc -p ." }',
    );
    expect(snapshotFolder(dir)["scripts/copy-generated.mjs"]).toBeDefined();
  });
});
