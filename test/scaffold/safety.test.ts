/**
 * `mcp-gen server` through the real command line: where it may write
 * (never into a folder with anything in it unless --force, never out of
 * the current folder by way of `..`), what it accepts as a package name
 * and revision, and bad tools.json files, each with its diagnostic. A run
 * that fails writes nothing: no project folder, no temporary leftovers.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { knownRevisions, readRegistry } from "../../generator/load/registry.js";
import { leftovers, runCli, snapshotFolder, tempDir, type CliRun } from "../helpers/run-cli.js";

const FIX_DIR =
  "(fix: choose a new or empty folder (or pass --force to refresh a project mcp-gen made: your own files are kept))";
const FIX_FORCE =
  "(fix: move or delete the files named to have them written again; --force only refreshes src/generated/ and src/mcp-gen/ and adds missing files)";
const FIX_NAME =
  "(fix: use lowercase letters, digits, -, . and _ (optionally @scope/name), at most 214 characters)";
const FIX_TOOLS =
  "(fix: tools.json is an array of tools: { name, description, inputSchema, outputSchema?, annotations? })";
const FIX_TOOL_NAME =
  "(fix: rename the tool (MCP tool names are letters, digits, underscore, hyphen and dot))";
const FIX_DIALECT =
  "(fix: drop $schema for 2020-12, or declare http://json-schema.org/draft-07/schema#)";
const FIX_REMOTE =
  "(fix: inline the referenced schema under $defs and point the $ref at #/$defs/...)";
const FIX_SIZE = "(fix: simplify the schema, or split the tool)";
const FIX_COMPILE =
  "(fix: correct the keyword named above (data/… is its path in this schema) so that the schema is valid JSON Schema)";
const FIX_TYPE =
  "(fix: use one of string, number, integer, boolean, object, array, null (or an array of them))";
const FIX_PATH =
  "(fix: check the path (a path in mcp-gen.json's \"tools\" is relative to the project's folder))";
const FIX_SPEC =
  "(fix: scaffold with --spec 2026-07-28: its server also answers 2025-11-25 clients on the same endpoint)";

/** Runs `mcp-gen server ...args --quiet` in `cwd`. */
function scaffold(cwd: string, ...args: string[]): Promise<CliRun> {
  return runCli(["server", ...args, "--quiet"], { cwd });
}

/** Asserts a refused run: exit 2, nothing on stdout, exactly `lines` on stderr. */
function expectRefused(run: CliRun, lines: readonly string[]): void {
  expect(run.stderrLines).toEqual(lines);
  expect(run.code).toBe(2);
  expect(run.stdout).toBe("");
}

describe.concurrent("scaffold: where it writes", () => {
  it("refuses a folder that is not empty, in one MCPG707 line, and leaves it as it was", async () => {
    const cwd = tempDir("scaffold");
    mkdirSync(join(cwd, "proj"));
    writeFileSync(join(cwd, "proj", "notes.txt"), "mine\n");
    const before = snapshotFolder(join(cwd, "proj"));
    expectRefused(await scaffold(cwd, "proj"), [
      `proj: error MCPG707: cannot scaffold into proj: the folder is not empty ${FIX_DIR}`,
    ]);
    expect(snapshotFolder(join(cwd, "proj"))).toEqual(before);
    expect(leftovers(cwd)).toEqual([]);
  });

  it("refuses a hidden file too: any entry makes a folder not empty", async () => {
    const cwd = tempDir("scaffold");
    mkdirSync(join(cwd, "proj"));
    writeFileSync(join(cwd, "proj", ".env"), "SECRET=1\n");
    expectRefused(await scaffold(cwd, "proj"), [
      `proj: error MCPG707: cannot scaffold into proj: the folder is not empty ${FIX_DIR}`,
    ]);
  });

  it("refuses a target that is a file", async () => {
    const cwd = tempDir("scaffold");
    writeFileSync(join(cwd, "proj"), "a file\n");
    expectRefused(await scaffold(cwd, "proj"), [
      `proj: error MCPG707: cannot scaffold into proj: it is a file ${FIX_DIR}`,
    ]);
    expect(readFileSync(join(cwd, "proj"), "utf8")).toBe("a file\n");
  });

  it("with --force in a folder that is not a project: adds the project's files, keeps the others", async () => {
    const cwd = tempDir("scaffold");
    mkdirSync(join(cwd, "proj"));
    writeFileSync(join(cwd, "proj", "notes.txt"), "mine\n");
    const run = await scaffold(cwd, "proj", "--force");
    expect(run.code).toBe(0);
    expect(readFileSync(join(cwd, "proj", "notes.txt"), "utf8")).toBe("mine\n");
    const files = Object.keys(snapshotFolder(join(cwd, "proj")));
    expect(files).toContain("src/tools.ts");
    expect(run.stdout).toBe(
      `wrote ${files.length - 1} files to proj\nnext: cd proj && npm install && npm test && npm start\n`,
    );
    expect(readdirSync(cwd)).toEqual(["proj"]);
  });

  describe("with --force over a project in use (.git/, node_modules/, the user's edits)", () => {
    /** A scaffolded project as it looks after some use. */
    async function usedProject(): Promise<{ cwd: string; dir: string }> {
      const cwd = tempDir("scaffold");
      expect((await scaffold(cwd, "proj")).code).toBe(0);
      const dir = join(cwd, "proj");
      mkdirSync(join(dir, ".git", "refs"), { recursive: true });
      writeFileSync(join(dir, ".git", "HEAD"), "ref: refs/heads/main\n");
      mkdirSync(join(dir, "node_modules", "left-pad"), { recursive: true });
      writeFileSync(join(dir, "node_modules", "left-pad", "index.js"), "module.exports = 1;\n");
      writeFileSync(join(dir, "src", "mine.ts"), "export const mine = 1;\n");
      writeFileSync(join(dir, ".env"), "SECRET=1\n");
      return { cwd, dir };
    }

    it("refreshes the generated files, adds the missing ones, and leaves every other file byte for byte", async () => {
      const { cwd, dir } = await usedProject();
      const http = join(dir, "src", "mcp-gen", "runtime", "transport", "http.ts");
      const original = readFileSync(http, "utf8");
      writeFileSync(http, original.replace("/mcp", "/edited"));
      rmSync(join(dir, "src", "prompts.ts"));
      const before = snapshotFolder(dir);
      const run = await scaffold(cwd, "proj", "--force");
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      const after = snapshotFolder(dir);
      expect(readFileSync(http, "utf8")).toBe(original);
      expect(existsSync(join(dir, "src", "prompts.ts"))).toBe(true);
      const changed = Object.keys(after).filter((p) => after[p] !== before[p]);
      expect(changed.sort()).toEqual(["src/mcp-gen/runtime/transport/http.ts", "src/prompts.ts"]);
      expect(Object.keys(before).filter((p) => !(p in after))).toEqual([]);
      expect(leftovers(dir)).toEqual([]);
      expect(readdirSync(cwd)).toEqual(["proj"]);
    });

    it("refuses, naming every file of the user's that it would overwrite, and writes nothing", async () => {
      const { cwd, dir } = await usedProject();
      for (const file of ["src/tools.ts", "package.json"])
        writeFileSync(join(dir, file), `${readFileSync(join(dir, file), "utf8")}\n`);
      writeFileSync(
        join(dir, "src", "mcp-gen", "runtime", "transport", "http.ts"),
        "// edited, would be refreshed\n",
      );
      const before = snapshotFolder(dir);
      expectRefused(await scaffold(cwd, "proj", "--force"), [
        `proj: error MCPG711: refusing to scaffold over proj: it would overwrite 2 files you own, which differ from what mcp-gen would write: package.json, src/tools.ts (nothing was written) ${FIX_FORCE}`,
      ]);
      expect(snapshotFolder(dir)).toEqual(before);
      expect(readdirSync(cwd)).toEqual(["proj"]);
    });

    it("refuses a file mcp-gen did not write inside a generated folder, and writes nothing", async () => {
      const { cwd, dir } = await usedProject();
      writeFileSync(join(dir, "src", "generated", "mine.ts"), "export const x = 1;\n");
      rmSync(join(dir, "src", "prompts.ts"));
      const before = snapshotFolder(dir);
      const run = await scaffold(cwd, "proj", "--force");
      expect(run.code).toBe(2);
      expect(run.stderrLines).toEqual([
        `${join("proj", "src", "generated")}: error MCPG501: refusing to write into ${join("proj", "src", "generated")}: it holds files mcp-gen did not write (mine.ts) (fix: choose an empty or mcp-gen-owned folder for --out, or pass --force to replace it)`,
      ]);
      expect(snapshotFolder(dir)).toEqual(before);
    });
  });

  it("an empty folder is fine without --force", async () => {
    const cwd = tempDir("scaffold");
    mkdirSync(join(cwd, "proj"));
    expect((await scaffold(cwd, "proj")).code).toBe(0);
    expect(existsSync(join(cwd, "proj", "package.json"))).toBe(true);
  });

  it.each(["../x", "sub/../../x", "./../x"])(
    "scaffolds into %s, a new folder beside the current one, as into any path given",
    async (target) => {
      const parent = tempDir("scaffold");
      const cwd = join(parent, "inside");
      mkdirSync(cwd);
      const run = await scaffold(cwd, target);
      expect(run.code, run.stderr).toBe(0);
      expect(readdirSync(parent).sort()).toEqual(["inside", "x"]);
      expect(existsSync(join(parent, "x", "package.json"))).toBe(true);
    },
  );

  it("refuses .., the current folder's parent, which is not empty", async () => {
    const parent = tempDir("scaffold");
    const cwd = join(parent, "inside");
    mkdirSync(cwd);
    const run = await scaffold(cwd, "..", "--name", "proj");
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /^\.\.: error MCPG707: cannot scaffold into \.\.: the folder is not empty /m,
    );
    expect(readdirSync(parent)).toEqual(["inside"]);
  });

  it("accepts a .. that stays inside the current folder", async () => {
    const cwd = tempDir("scaffold");
    const run = await scaffold(cwd, "sub/../proj");
    expect(run.code).toBe(0);
    expect(readdirSync(cwd)).toEqual(["proj"]);
  });

  it("accepts an absolute target anywhere, named after its folder", async () => {
    const target = join(tempDir("scaffold"), "deep", "abs-server");
    const run = await scaffold(tempDir("elsewhere"), target);
    expect(run.code).toBe(0);
    expect(JSON.parse(readFileSync(join(target, "package.json"), "utf8"))).toHaveProperty(
      "name",
      "abs-server",
    );
  });
});

describe.concurrent("scaffold: package names (MCPG708)", () => {
  const long = "a".repeat(215);
  const bad: Array<readonly [string, string, string]> = [
    ["uppercase", "MyServer", "it has uppercase letters"],
    ["spaces", "my server", "it has characters npm does not allow"],
    ["a leading dot", ".hidden", "it starts with . or _"],
    ["a leading underscore", "_private", "it starts with . or _"],
    ["more than 214 characters", long, "it is longer than 214 characters"],
    ["a name npm reserves", "node_modules", "npm reserves it"],
  ];

  it.each(bad)("refuses --name with %s", async (_title, name, reason) => {
    const cwd = tempDir("scaffold");
    expectRefused(await scaffold(cwd, "proj", "--name", name), [
      `--name: error MCPG708: package name "${name}" is not valid: ${reason} ${FIX_NAME}`,
    ]);
    expect(readdirSync(cwd)).toEqual([]);
  });

  it.each(bad)(
    "refuses a folder name with %s when --name is not given",
    async (_title, name, reason) => {
      const cwd = tempDir("scaffold");
      expectRefused(await scaffold(cwd, name), [
        `${name}: error MCPG708: package name "${name}" is not valid: ${reason} ${FIX_NAME}`,
      ]);
      expect(readdirSync(cwd)).toEqual([]);
    },
  );

  it("a valid --name (scoped) wins over a folder name that would be refused", async () => {
    const cwd = tempDir("scaffold");
    const run = await scaffold(cwd, "My Server", "--name", "@acme/weather-server");
    expect(run.code).toBe(0);
    expect(JSON.parse(readFileSync(join(cwd, "My Server", "package.json"), "utf8"))).toHaveProperty(
      "name",
      "@acme/weather-server",
    );
  });

  it("a name of exactly 214 characters is accepted", async () => {
    const cwd = tempDir("scaffold");
    expect((await scaffold(cwd, "proj", "--name", "a".repeat(214))).code).toBe(0);
  });
});

describe.concurrent("scaffold: revisions (MCPG709, MCPG101)", () => {
  it.each(["2025-11-25", "2024-11-05"])(
    "refuses --spec %s: it is served only as the legacy era",
    async (revision) => {
      const cwd = tempDir("scaffold");
      expectRefused(await scaffold(cwd, "proj", "--spec", revision), [
        `--spec: error MCPG709: mcp-gen scaffolds servers for 2026-07-28 and later; ${revision} is served only as the legacy era of such a server ${FIX_SPEC}`,
      ]);
      expect(readdirSync(cwd)).toEqual([]);
    },
  );

  it.each([
    ["server", "2025-11-5", "2025-11-25"],
    ["client", "2026-07-18", "2026-07-28"],
  ])("%s --spec %s is taken for a misspelling of %s", async (kind, spec, meant) => {
    const cwd = tempDir("scaffold");
    const known = knownRevisions(readRegistry()).join(", ");
    const run = await runCli([kind, "proj", "--spec", spec, "--quiet"], { cwd });
    expectRefused(run, [
      `--spec: error MCPG101: unknown MCP revision "${spec}"; did you mean ${meant}? (fix: use one of ${known}, or pass --spec <dir> with a schema.json)`,
    ]);
    expect(readdirSync(cwd)).toEqual([]);
  });
});

/** A schema nested `levels` objects deep. */
function nested(levels: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: "string" };
  for (let i = 0; i < levels; i++) schema = { type: "object", properties: { x: schema } };
  return schema;
}
const wide = {
  type: "object",
  properties: Object.fromEntries(
    Array.from({ length: 2001 }, (_, i) => [`p${i}`, { type: "string" }]),
  ),
};
const obj = { type: "object" };

describe.concurrent(
  "scaffold: a bad tools.json is refused with its diagnostic, and nothing is written",
  () => {
    const cases: Array<readonly [string, unknown, readonly string[]]> = [
      [
        "not an array",
        { name: "echo" },
        [
          `tools.json#: error MCPG701: tools file: tools.json must be an array of tool definitions ${FIX_TOOLS}`,
        ],
      ],
      [
        "a tools/list result instead of its tools",
        { tools: [{ name: "echo", inputSchema: obj }] },
        [
          'tools.json#: error MCPG701: tools file: tools.json must be an array of tool definitions; this is an object whose "tools" holds them, as a tools/list result does (fix: keep only its "tools" array, for instance `jq .tools FILE > tools.json` (a client made with --from-server reads a running server\'s tools/list itself))',
        ],
      ],
      [
        "a mistyped type",
        [
          {
            name: "echo",
            inputSchema: {
              type: "object",
              properties: { x: { type: "strng" }, y: { type: ["integer", "nul"] }, z: { type: 7 } },
            },
          },
        ],
        [
          `tools.json#/0/inputSchema/properties/x/type: error MCPG719: "type": "strng" is no JSON Schema type; did you mean "string"? ${FIX_TYPE}`,
          `tools.json#/0/inputSchema/properties/y/type: error MCPG719: "type": "nul" is no JSON Schema type; did you mean "null"? ${FIX_TYPE}`,
          `tools.json#/0/inputSchema/properties/z/type: error MCPG719: "type": 7 is no JSON Schema type ${FIX_TYPE}`,
        ],
      ],
      [
        "a tool that is not an object",
        ["echo"],
        [`tools.json#/0: error MCPG701: tools file: a tool must be an object ${FIX_TOOLS}`],
      ],
      [
        "a tool name with a space",
        [{ name: "get weather", inputSchema: obj }],
        [
          `tools.json#/0/name: error MCPG702: tool name "get weather" is not 1 to 128 of A-Z a-z 0-9 _ - . ${FIX_TOOL_NAME}`,
        ],
      ],
      [
        "a tool name of 129 characters",
        [{ name: "t".repeat(129), inputSchema: obj }],
        [
          `tools.json#/0/name: error MCPG702: tool name "${"t".repeat(129)}" is not 1 to 128 of A-Z a-z 0-9 _ - . ${FIX_TOOL_NAME}`,
        ],
      ],
      [
        "a tool without a name",
        [{ inputSchema: obj }],
        [
          `tools.json#/0/name: error MCPG702: tool name "undefined" is not 1 to 128 of A-Z a-z 0-9 _ - . ${FIX_TOOL_NAME}`,
        ],
      ],
      [
        "the same name twice",
        [
          { name: "echo", inputSchema: obj },
          { name: "other", inputSchema: obj },
          { name: "echo", inputSchema: obj },
        ],
        [`tools.json#/2/name: error MCPG701: tools file: tool echo is defined twice ${FIX_TOOLS}`],
      ],
      [
        "an inputSchema that is not an object schema",
        [{ name: "echo", inputSchema: { type: "string" } }],
        [
          `tools.json#/0/inputSchema: error MCPG701: tools file: inputSchema must be a JSON Schema with "type": "object" ${FIX_TOOLS}`,
        ],
      ],
      [
        "no inputSchema",
        [{ name: "echo" }],
        [
          `tools.json#/0/inputSchema: error MCPG701: tools file: inputSchema must be a JSON Schema with "type": "object" ${FIX_TOOLS}`,
        ],
      ],
      [
        "an outputSchema that is an array",
        [{ name: "echo", inputSchema: obj, outputSchema: [] }],
        [
          `tools.json#/0/outputSchema: error MCPG701: tools file: outputSchema must be a JSON Schema (an object) ${FIX_TOOLS}`,
        ],
      ],
      [
        "a description that is not a string",
        [{ name: "echo", description: 1, inputSchema: obj }],
        [
          `tools.json#/0/description: error MCPG701: tools file: description must be a string ${FIX_TOOLS}`,
        ],
      ],
      [
        "a draft-04 schema",
        [
          {
            name: "echo",
            inputSchema: { $schema: "http://json-schema.org/draft-04/schema#", type: "object" },
          },
        ],
        [
          `tools.json#/0/inputSchema/$schema: error MCPG703: tool schema dialect "http://json-schema.org/draft-04/schema#" is not supported (MCP tool schemas are 2020-12 by default, or draft-07 when declared) ${FIX_DIALECT}`,
        ],
      ],
      [
        "a 2019-09 outputSchema",
        [
          {
            name: "echo",
            inputSchema: obj,
            outputSchema: {
              $schema: "https://json-schema.org/draft/2019-09/schema",
              type: "object",
            },
          },
        ],
        [
          `tools.json#/0/outputSchema/$schema: error MCPG703: tool schema dialect "https://json-schema.org/draft/2019-09/schema" is not supported (MCP tool schemas are 2020-12 by default, or draft-07 when declared) ${FIX_DIALECT}`,
        ],
      ],
      [
        "a remote $ref",
        [
          {
            name: "echo",
            inputSchema: {
              type: "object",
              properties: { where: { $ref: "https://example.com/geo.json#/$defs/Place" } },
            },
          },
        ],
        [
          `tools.json#/0/inputSchema/properties/where/$ref: error MCPG704: remote $ref "https://example.com/geo.json#/$defs/Place" in a tool schema (mcp-gen never fetches referenced schemas) ${FIX_REMOTE}`,
        ],
      ],
      [
        "a relative file $ref",
        [
          {
            name: "echo",
            inputSchema: { type: "object", properties: { where: { $ref: "geo.json" } } },
          },
        ],
        [
          `tools.json#/0/inputSchema/properties/where/$ref: error MCPG704: remote $ref "geo.json" in a tool schema (mcp-gen never fetches referenced schemas) ${FIX_REMOTE}`,
        ],
      ],
      [
        "a schema nested 33 levels deep",
        [{ name: "deep", inputSchema: nested(33) }],
        [
          `tools.json#/0/inputSchema: error MCPG705: tool schema too large: 34 subschemas, depth 33 (limits: 2000 subschemas, depth 32) ${FIX_SIZE}`,
        ],
      ],
      [
        "a schema of 2002 subschemas",
        [{ name: "wide", inputSchema: wide }],
        [
          `tools.json#/0/inputSchema: error MCPG705: tool schema too large: 2002 subschemas, depth 1 (limits: 2000 subschemas, depth 32) ${FIX_SIZE}`,
        ],
      ],
      [
        "a local $ref to nothing",
        [
          {
            name: "echo",
            inputSchema: { type: "object", properties: { x: { $ref: "#/$defs/Missing" } } },
          },
        ],
        [
          `tools.json#/0/inputSchema: error MCPG706: cannot compile a tool schema: can't resolve reference #/$defs/Missing from id # ${FIX_COMPILE}`,
        ],
      ],
      [
        "a pattern that is not a regular expression",
        [
          {
            name: "echo",
            inputSchema: { type: "object", properties: { x: { type: "string", pattern: "([" } } },
          },
        ],
        [
          `tools.json#/0/inputSchema: error MCPG706: cannot compile a tool schema: Invalid regular expression: /([/u: Unterminated character class ${FIX_COMPILE}`,
        ],
      ],
      [
        "a keyword of the wrong type",
        [{ name: "echo", inputSchema: { type: "object", required: "x" } }],
        [
          `tools.json#/0/inputSchema: error MCPG706: cannot compile a tool schema: schema is invalid: data/required must be array ${FIX_COMPILE}`,
        ],
      ],
      [
        "several problems at once, all reported",
        [
          { name: "a b", inputSchema: { type: "string" } },
          {
            name: "ok",
            inputSchema: obj,
            outputSchema: { type: "object", properties: { r: { $ref: "http://x.example/r" } } },
          },
          { name: "ok", inputSchema: obj },
        ],
        [
          `tools.json#/0/name: error MCPG702: tool name "a b" is not 1 to 128 of A-Z a-z 0-9 _ - . ${FIX_TOOL_NAME}`,
          `tools.json#/0/inputSchema: error MCPG701: tools file: inputSchema must be a JSON Schema with "type": "object" ${FIX_TOOLS}`,
          `tools.json#/1/outputSchema/properties/r/$ref: error MCPG704: remote $ref "http://x.example/r" in a tool schema (mcp-gen never fetches referenced schemas) ${FIX_REMOTE}`,
          `tools.json#/2/name: error MCPG701: tools file: tool ok is defined twice ${FIX_TOOLS}`,
        ],
      ],
    ];

    it.each(cases)("%s", async (_title, tools, lines) => {
      const cwd = tempDir("scaffold");
      writeFileSync(join(cwd, "tools.json"), JSON.stringify(tools, null, 2));
      expectRefused(await scaffold(cwd, "proj", "--tools", "tools.json"), lines);
      expect(readdirSync(cwd), "no project folder, no temporary leftovers").toEqual(["tools.json"]);
    });

    it("a tools.json that is not JSON", async () => {
      const cwd = tempDir("scaffold");
      writeFileSync(join(cwd, "tools.json"), '[{"name": "echo",]\n');
      expectRefused(await scaffold(cwd, "proj", "--tools", "tools.json"), [
        "tools.json:1:18: error MCPG201: malformed JSON: expected a double-quoted property name, found ']' (fix: fix the JSON syntax at the position shown)",
      ]);
      expect(readdirSync(cwd)).toEqual(["tools.json"]);
    });

    it("a tools.json that does not exist is bad input (exit 2), not a crash", async () => {
      const cwd = tempDir("scaffold");
      expectRefused(await scaffold(cwd, "proj", "--tools", "missing.json"), [
        `missing.json: error MCPG701: tools file: there is no such file ${FIX_PATH}`,
      ]);
      expect(readdirSync(cwd)).toEqual([]);
    });

    it("a failure inside an existing parent folder leaves the parent as it was", async () => {
      const cwd = tempDir("scaffold");
      mkdirSync(join(cwd, "parent"));
      writeFileSync(join(cwd, "parent", "keep.txt"), "keep\n");
      writeFileSync(join(cwd, "tools.json"), "{}");
      const before = snapshotFolder(cwd);
      expect((await scaffold(cwd, "parent/proj", "--tools", "tools.json")).code).toBe(2);
      expect(snapshotFolder(cwd)).toEqual(before);
      expect(readdirSync(join(cwd, "parent"))).toEqual(["keep.txt"]);
    });
  },
);
