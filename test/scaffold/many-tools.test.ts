/**
 * A tools file of many tools: the compiled validators are split into
 * modules of SCHEMAS_PER_VALIDATOR_MODULE schemas each (one module of ten
 * thousand schemas overflowed ajv's stack, and a module's cost per schema
 * grows with its size), and every tool's checks reach its own validator,
 * whichever module holds it. Run in process from the scaffolded project's
 * own files. How long many tools take is measured by `npm run bench:tools`,
 * not here.
 */
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { scaffoldServer, writeProject } from "../../generator/scaffold/scaffold.js";
import { SCHEMAS_PER_VALIDATOR_MODULE } from "../../generator/emit/emit-tools.js";
import { importFromProject, tempDir, testSources } from "../helpers/index.js";
import { linkNodeModules } from "../helpers/project.js";

/** Enough tools, each with an input and an output schema, for three modules. */
const COUNT = Math.ceil((SCHEMAS_PER_VALIDATOR_MODULE * 2.5) / 2);

/** Tool i takes `n` equal to i, and gives `total` equal to i: a check passes only with its own tool's numbers. */
const tool = (i: number) => ({
  name: `tool_${i}`,
  inputSchema: {
    type: "object",
    properties: { n: { const: i } },
    required: ["n"],
  },
  outputSchema: {
    type: "object",
    properties: { total: { const: i } },
    required: ["total"],
  },
});

type Check = (value: unknown) => { ok: boolean } | Promise<{ ok: boolean }>;
interface ToolsModule {
  TOOL_CHECKS: Record<string, { arguments: Check; output?: Check }>;
}

describe(`${COUNT} tools`, () => {
  let project: string;
  let paths: string[];

  beforeAll(async () => {
    const dir = tempDir("many-tools");
    const toolsFile = join(dir, "tools.json");
    writeFileSync(toolsFile, JSON.stringify(Array.from({ length: COUNT }, (_, i) => tool(i))));
    project = join(dir, "proj");
    const { files } = await scaffoldServer({
      dir: project,
      tools: toolsFile,
      sources: testSources(),
    });
    paths = files.map((f) => f.path);
    writeProject(project, files);
    linkNodeModules(project);
  });

  it("split the validators into modules of at most SCHEMAS_PER_VALIDATOR_MODULE schemas", () => {
    expect(paths.filter((p) => p.includes("tool-validators"))).toEqual([
      "src/generated/tool-validators-2020-2.gen.d.ts",
      "src/generated/tool-validators-2020-2.gen.js",
      "src/generated/tool-validators-2020-3.gen.d.ts",
      "src/generated/tool-validators-2020-3.gen.js",
      "src/generated/tool-validators-2020.gen.d.ts",
      "src/generated/tool-validators-2020.gen.js",
    ]);
  });

  it("every tool's checks are its own validators, whichever module holds them", async () => {
    const { TOOL_CHECKS } = await importFromProject<ToolsModule>(
      project,
      "src/generated/tools.gen.ts",
    );
    expect(Object.keys(TOOL_CHECKS)).toHaveLength(COUNT);
    for (let i = 0; i < COUNT; i++) {
      const checks = TOOL_CHECKS[`tool_${i}`]!;
      expect((await checks.arguments({ n: i })).ok, `tool_${i}`).toBe(true);
      expect((await checks.arguments({ n: i + 1 })).ok, `tool_${i}`).toBe(false);
      expect((await checks.output!({ total: i })).ok, `tool_${i}`).toBe(true);
      expect((await checks.output!({ total: -1 })).ok, `tool_${i}`).toBe(false);
    }
  });
  it("loads a validator module the first time one of its checks runs: a module that is not there fails only its own checks, naming the file and the build's copy step, until it is there", async () => {
    const second = join(project, "src", "generated", "tool-validators-2020-2.gen.js");
    const text = readFileSync(second, "utf8");
    rmSync(second);
    try {
      // Importing the tools module loads no validator: it imports without the missing one.
      const { TOOL_CHECKS } = await importFromProject<ToolsModule>(
        project,
        "src/generated/tools.gen.ts",
      );
      expect((await TOOL_CHECKS["tool_0"]!.arguments({ n: 0 })).ok).toBe(true);
      const inSecond = `tool_${Math.ceil(SCHEMAS_PER_VALIDATOR_MODULE / 2) + 1}`;
      await expect(Promise.resolve(TOOL_CHECKS[inSecond]!.arguments({}))).rejects.toThrow(
        /^cannot load the tool validators of tool-validators-2020-2\.gen\.js \(a project built with tsc copies them next to its JavaScript: scripts\/copy-generated\.mjs, run by npm run build after tsc\): /,
      );
      // A loaded module answers at once, not through a promise.
      expect(TOOL_CHECKS["tool_1"]!.arguments({ n: 1 })).toEqual({ ok: true });
      // The file copied in place afterwards (the folder the tools module was imported from): the next check finds it.
      for (const copy of readdirSync(join(project, ".test-js")))
        writeFileSync(
          join(
            project,
            ".test-js",
            copy,
            "node_modules",
            "project",
            "src",
            "generated",
            basename(second),
          ),
          text,
        );
      expect((await TOOL_CHECKS[inSecond]!.arguments({ n: Number(inSecond.slice(5)) })).ok).toBe(
        true,
      );
    } finally {
      writeFileSync(second, text);
    }
  });

  it("a validator module another generation wrote is refused with what to do, never used to check another tool's arguments", async () => {
    const second = join(project, "src", "generated", "tool-validators-2020-2.gen.js");
    const text = readFileSync(second, "utf8");
    const stamp = /export const GENERATION = "([0-9a-f]{16})";/.exec(text)?.[1];
    expect(stamp).toBeDefined();
    writeFileSync(second, text.replace(`"${stamp}"`, '"0123456789abcdef"'));
    try {
      const { TOOL_CHECKS } = await importFromProject<ToolsModule>(
        project,
        "src/generated/tools.gen.ts",
      );
      const inSecond = `tool_${Math.ceil(SCHEMAS_PER_VALIDATOR_MODULE / 2) + 1}`;
      await expect(
        Promise.resolve(TOOL_CHECKS[inSecond]!.arguments({ n: Number(inSecond.slice(5)) })),
      ).rejects.toThrow(
        `tool-validators-2020-2.gen.js was written by another generation than tools.gen.js (its stamp 0123456789abcdef, this one ${stamp}): the output folder holds validators of other tools. Build again (npm run build copies them after tsc), and restart a process whose files were rebuilt while it ran`,
      );
      expect((await TOOL_CHECKS["tool_0"]!.arguments({ n: 0 })).ok).toBe(true);
    } finally {
      writeFileSync(second, text);
    }
  });
});
