/**
 * The user's whole journey with the package as npm ships it: the tarball
 * `npm pack` makes is installed into an empty folder, and its `mcp-gen`
 * prints its version, scaffolds a server and generates a revision. The
 * server is scaffolded inside an npm workspace whose root has a vitest
 * config of its own (a monorepo); the project depends on that same
 * tarball, and `npm run regenerate` runs that copy. A tool added to
 * tools.json gets a stub of its own, the user's files stay as they are,
 * and until the handler is wired the project's own typecheck and tests
 * fail naming it. The documented tool gate runs as its CI job does
 * (`npx --no-install mcp-gen diff --tools <base> "node dist/index.js
 * --stdio" --fail-on breaking-for-clients`), and a client made
 * `--from-server` in the same workspace meets its server's changed tools
 * with `npm run regenerate -- --check`, `npm run regenerate` and
 * `npm run typecheck`. Real npm, real child processes; slow by nature.
 */
import { execFile } from "node:child_process";
import {
  copyFileSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { stripVTControlCharacters } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { ROOT, tempDir } from "../helpers/index.js";

const MINUTE = 60_000;
/** A stdio MCP server that lists the tools of a JSON file named on its command line. */
const TOOLS_SERVER = join(ROOT, "test", "diff", "fixtures", "tools-server.mjs");
const ECHO = {
  name: "echo",
  description: "Echoes the text",
  inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
};
/** The client's user calling the typed wrapper as the first list has it. */
const CLIENT_USE = `import type { ToolWrappers } from "./index.js";

export async function shout(tools: ToolWrappers): Promise<void> {
  await tools.echo({ text: "hi" });
}
`;
const VERSION = (
  JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }
).version;

interface Run {
  readonly code: number | null;
  readonly output: string;
}

/** Runs a command to its end in `cwd`, with this test run's own variables left out of its environment. */
function run(command: string, args: readonly string[], cwd: string, timeoutMs = 5 * MINUTE) {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      ([k]) => !/^(VITEST|MCP_GEN_SCHEMA|NODE_ENV$|TEST$)/.test(k),
    ),
  );
  return new Promise<Run>((resolve) => {
    execFile(
      command,
      args,
      { cwd, env, timeout: timeoutMs, maxBuffer: 32 * 1024 * 1024 },
      (error, stdout, stderr) =>
        resolve({
          code: error ? (typeof error.code === "number" ? error.code : null) : 0,
          output: stripVTControlCharacters(`${stdout}${stderr}`),
        }),
    );
  });
}

function expectOk(result: Run, what: string): void {
  expect(result.code, `${what}:\n${result.output}`).toBe(0);
}

let tarball: string;
let installed: string;
let bin: string;
let work: string;
let installOutput: string;

beforeAll(async () => {
  const packs = tempDir("pack");
  // As prepack does, but for the build: dist/ is built by the global setup, and building it again
  // here would rewrite files that other tests run. prepare is left out of the packed package.json.
  const manifest = join(ROOT, "scripts", "build", "pack-manifest.mjs");
  expectOk(await run(process.execPath, [manifest, "strip"], ROOT), "pack-manifest strip");
  let packed: Run;
  try {
    packed = await run(
      "npm",
      ["pack", "--ignore-scripts", "--silent", "--pack-destination", packs],
      ROOT,
    );
  } finally {
    expectOk(await run(process.execPath, [manifest, "restore"], ROOT), "pack-manifest restore");
  }
  expectOk(packed, "npm pack");
  tarball = join(packs, `mcp-gen-${VERSION}.tgz`);
  installed = tempDir("installed");
  const install = await run(
    "npm",
    ["install", "--no-audit", "--no-fund", tarball],
    installed,
    8 * MINUTE,
  );
  expectOk(install, "npm install <tarball>");
  installOutput = install.output;
  bin = join(installed, "node_modules", ".bin", "mcp-gen");
  work = tempDir("journey");
}, 10 * MINUTE);

describe("the npm pack tarball, installed into an empty folder", () => {
  it("is a copy, not a link to the repository", () => {
    const copy = join(installed, "node_modules", "mcp-gen");
    expect(lstatSync(copy).isSymbolicLink()).toBe(false);
    expect(realpathSync(bin)).toBe(join(copy, "dist", "generator", "cli", "main.js"));
  });

  it("installs without running or declaring an install script (no npm 11 install-scripts warning)", () => {
    expect(installOutput).not.toContain("install-scripts");
    const manifest = JSON.parse(
      readFileSync(join(installed, "node_modules", "mcp-gen", "package.json"), "utf8"),
    ) as { scripts: Record<string, string> };
    for (const script of ["preinstall", "install", "postinstall", "prepare"])
      expect(manifest.scripts[script], script).toBeUndefined();
  });

  it("mcp-gen --version prints its version", async () => {
    const version = await run(bin, ["--version"], work);
    expectOk(version, "mcp-gen --version");
    expect(version.output).toBe(`${VERSION}\n`);
  });

  it("mcp-gen generate --spec 2026-07-28 writes the revision's module", async () => {
    const generated = await run(bin, ["generate", "--spec", "2026-07-28", "--out", "out"], work);
    expectOk(generated, "mcp-gen generate");
    expect(existsSync(join(work, "out", "index.ts"))).toBe(true);
    expect(readFileSync(join(work, "out", "types.gen.ts"), "utf8")).toContain(
      "export interface CallToolResult {",
    );
  });
});

describe("a server scaffolded by it inside a monorepo", () => {
  let root: string;
  let project: string;

  beforeAll(async () => {
    root = join(work, "mono");
    mkdirSync(join(root, "packages"), { recursive: true });
    writeFileSync(
      join(root, "package.json"),
      `${JSON.stringify({ name: "mono", private: true, workspaces: ["packages/*"] }, null, 2)}\n`,
    );
    // A root config that would break the project's tests if vitest took it: another include, a setup file that throws.
    writeFileSync(
      join(root, "vitest.config.ts"),
      'export default { test: { include: ["root-tests/**/*.test.ts"], setupFiles: ["./root-setup.ts"] } };\n',
    );
    writeFileSync(join(root, "root-setup.ts"), 'throw new Error("the root\'s setup file ran");\n');
    expectOk(
      await run(bin, ["server", "srv", "--quiet"], join(root, "packages")),
      "mcp-gen server",
    );
    project = join(root, "packages", "srv");
    // The main branch's tools.json, as the gate's `git show origin/main:tools.json` would give it.
    copyFileSync(join(project, "tools.json"), join(work, "tools-base.json"));
    // A client of a small stdio server whose tools are a file the tests change.
    const serverTools = join(work, "server-tools.json");
    writeFileSync(serverTools, JSON.stringify([ECHO]));
    const command = [process.execPath, TOOLS_SERVER, serverTools]
      .map((w) => JSON.stringify(w))
      .join(" ");
    expectOk(
      await run(
        bin,
        ["client", "cli", "--from-server", command, "--quiet"],
        join(root, "packages"),
      ),
      "mcp-gen client --from-server",
    );
    writeFileSync(join(root, "packages", "cli", "src", "use.ts"), CLIENT_USE);
    expectOk(
      await run("npm", ["install", "--no-audit", "--no-fund"], root, 8 * MINUTE),
      "npm install at the workspace root",
    );
  }, 10 * MINUTE);

  it("depends on a copy of the tarball that made it, in its own vendor/ folder", () => {
    const manifest = JSON.parse(readFileSync(join(project, "package.json"), "utf8")) as {
      devDependencies: Record<string, string>;
      scripts: Record<string, string>;
    };
    expect(manifest.devDependencies["mcp-gen"]).toBe(`file:vendor/mcp-gen-${VERSION}.tgz`);
    expect(
      readFileSync(join(project, "vendor", `mcp-gen-${VERSION}.tgz`)).equals(readFileSync(tarball)),
    ).toBe(true);
    expect(manifest.scripts.regenerate).toBe("mcp-gen generate");
    expect(lstatSync(join(root, "node_modules", "mcp-gen")).isSymbolicLink()).toBe(false);
  });

  it(
    "npm test and npm run typecheck pass, with the project's own configs",
    async () => {
      const tested = await run("npm", ["test"], project);
      expectOk(tested, "npm test");
      expect(tested.output).toMatch(/Tests\s+\d+ passed \(\d+\)/);
      expectOk(await run("npm", ["run", "typecheck"], project), "npm run typecheck");
    },
    6 * MINUTE,
  );

  it(
    "a tool added to tools.json: npm run regenerate writes its stub, keeps the user's files, and tests and typecheck fail naming it until it is wired",
    async () => {
      const toolsFile = join(project, "tools.json");
      const tools = JSON.parse(readFileSync(toolsFile, "utf8")) as unknown[];
      tools.push({
        name: "get-item",
        description: "Gets an item by id.",
        inputSchema: {
          type: "object",
          properties: { id: { type: "string" } },
          required: ["id"],
        },
        outputSchema: { type: "array", items: { type: "string" } },
      });
      writeFileSync(toolsFile, `${JSON.stringify(tools, null, 2)}\n`);
      const handlers = join(project, "src", "tools.ts");
      const before = readFileSync(handlers, "utf8");

      const regenerated = await run("npm", ["run", "regenerate"], project);
      expectOk(regenerated, "npm run regenerate");
      expect(regenerated.output).toContain(
        "new tool: wrote its handler stub to src/tools/get-item.ts; add it to the handlers in src/tools.ts",
      );
      expect(readFileSync(handlers, "utf8")).toBe(before);
      expect(readFileSync(join(project, "src", "generated", "tools.gen.ts"), "utf8")).toContain(
        `Generated by mcp-gen ${VERSION}`,
      );

      const typecheck = await run("npm", ["run", "typecheck"], project);
      expect(typecheck.code).not.toBe(0);
      expect(typecheck.output).toContain(`Property '"get-item"' is missing`);
      const tested = await run("npm", ["test"], project);
      expect(tested.code).not.toBe(0);
      expect(tested.output).toContain('"get-item"');
      expect(tested.output).toContain("tools of tools.json without a handler in src/tools.ts");

      writeFileSync(
        handlers,
        before
          .replace(
            'import type { ToolHandlers } from "./generated/tools.gen.js";',
            'import type { ToolHandlers } from "./generated/tools.gen.js";\nimport { handler as getItem } from "./tools/get-item.js";',
          )
          .replace(/\n};\n$/, '\n  "get-item": getItem,\n};\n'),
      );
      expectOk(await run("npm", ["run", "typecheck"], project), "npm run typecheck, wired");
      expectOk(await run("npm", ["test"], project), "npm test, wired");
    },
    10 * MINUTE,
  );
});

describe("the tool gate and the client's drift check, as their docs run them", () => {
  it(
    "the documented CI job: the built server against the main branch's tools.json passes an added tool and fails a removed one",
    async () => {
      const project = join(work, "mono", "packages", "srv");
      expectOk(await run("npm", ["run", "build"], project), "npm run build");
      const gate = (base: string) =>
        run(
          "npx",
          [
            "--no-install",
            "mcp-gen",
            "diff",
            "--tools",
            base,
            "node dist/index.js --stdio",
            "--fail-on",
            "breaking-for-clients",
          ],
          project,
        );
      // The branch added get-item: breaking for servers, not for clients.
      const added = await gate(join(work, "tools-base.json"));
      expectOk(added, "the gate with a tool added");
      expect(added.output).toContain("get-item: added");
      // Main listed a tool this branch no longer serves: the clients that call it break.
      const mainTools = JSON.parse(
        readFileSync(join(work, "tools-base.json"), "utf8"),
      ) as unknown[];
      const withRetired = join(work, "tools-base-retired.json");
      writeFileSync(
        withRetired,
        JSON.stringify([...mainTools, { name: "retired", inputSchema: { type: "object" } }]),
      );
      const removed = await gate(withRetired);
      expect(removed.code, removed.output).toBe(1);
      expect(removed.output).toContain("retired: removed");
      expect(removed.output).toMatch(/breaking for clients/i);
    },
    6 * MINUTE,
  );

  it(
    "npm run regenerate -- --check passes, then fails with the tool diff once the server changes; npm run regenerate and npm run typecheck name the broken call",
    async () => {
      const client = join(work, "mono", "packages", "cli");
      const check = () => run("npm", ["run", "regenerate", "--", "--check"], client);
      expectOk(await check(), "npm run regenerate -- --check, unchanged");
      writeFileSync(
        join(work, "server-tools.json"),
        JSON.stringify([
          {
            ...ECHO,
            inputSchema: {
              type: "object",
              properties: { text: { type: "string" }, times: { type: "integer" } },
              required: ["text", "times"],
            },
          },
        ]),
      );
      const drifted = await check();
      expect(drifted.code, drifted.output).toBe(1);
      expect(drifted.output).toContain("echo: required argument times added");
      expectOk(await run("npm", ["run", "regenerate"], client), "npm run regenerate");
      const typecheck = await run("npm", ["run", "typecheck"], client);
      expect(typecheck.code).not.toBe(0);
      expect(typecheck.output).toMatch(
        /src\/use\.ts\(4,\d+\): error TS\d+: [^\n]*\n\s+Property 'times' is missing/,
      );
      expectOk(await check(), "npm run regenerate -- --check, regenerated");
    },
    6 * MINUTE,
  );
});

describe("the tarball installed globally (npm install -g)", () => {
  let prefix: string;
  let project: string;
  let globalInstall: Run;

  beforeAll(async () => {
    prefix = tempDir("global");
    globalInstall = await run(
      "npm",
      ["install", "-g", "--prefix", prefix, "--no-audit", "--no-fund", tarball],
      work,
      8 * MINUTE,
    );
    expectOk(globalInstall, "npm install -g <tarball>");
    const dir = tempDir("global-project");
    project = join(dir, "srv");
    expectOk(await run(join(prefix, "bin", "mcp-gen"), ["server", "srv"], dir), "mcp-gen server");
  }, 10 * MINUTE);

  it("installs without an npm 11 install-scripts warning", () => {
    expect(globalInstall.output).not.toContain("install-scripts");
  });

  it(
    "a project carries a copy of the installed mcp-gen, and installs and regenerates moved to another path with the global install gone",
    async () => {
      const manifest = JSON.parse(readFileSync(join(project, "package.json"), "utf8")) as {
        devDependencies: Record<string, string>;
      };
      expect(manifest.devDependencies["mcp-gen"]).toBe(`file:vendor/mcp-gen-${VERSION}.tgz`);
      // A teammate's clone: another path, and no mcp-gen installed anywhere.
      const clone = join(tempDir("teammate"), "srv");
      cpSync(project, clone, { recursive: true });
      rmSync(prefix, { recursive: true, force: true });
      const installing = await run(
        "npm",
        ["install", "--no-audit", "--no-fund"],
        clone,
        8 * MINUTE,
      );
      expectOk(installing, "npm install in the moved project");
      expect(installing.output).not.toContain("install-scripts");
      expect(lstatSync(join(clone, "node_modules", "mcp-gen")).isSymbolicLink()).toBe(false);
      const regenerated = await run("npm", ["run", "regenerate"], clone);
      expectOk(regenerated, "npm run regenerate");
      expect(regenerated.output).toContain(`regenerating the project in ${clone}`);
    },
    10 * MINUTE,
  );
});
