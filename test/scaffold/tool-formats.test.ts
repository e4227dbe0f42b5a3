/**
 * Tools whose arguments use `format`: the generated tool validators check
 * each format with ajv-formats, whatever its name. A format whose name is
 * no identifier (`date-time`, `uri-reference`, `json-pointer`) is written
 * `fullFormats["date-time"]` in ajv's code, and the module must import
 * ajv-formats for it as for `fullFormats.email`: the project's modules are
 * loaded and each format is checked, in both dialects a tool may declare.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runCli, tempDir } from "../helpers/run-cli.js";
import { importFromProject } from "../helpers/index.js";
import { linkNodeModules } from "../helpers/project.js";

const FORMATS = {
  when: { type: "string", format: "date-time" },
  link: { type: "string", format: "uri-reference" },
  at: { type: "string", format: "json-pointer" },
  contact: { type: "string", format: "email" },
};
const TOOLS = [
  { name: "plan", inputSchema: { type: "object", properties: FORMATS } },
  {
    name: "plan07",
    inputSchema: {
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      properties: FORMATS,
    },
  },
];
const GOOD = {
  when: "2026-12-06T10:00:00Z",
  link: "../docs#top",
  at: "/a/b~1c",
  contact: "someone@example.com",
};
const BAD = {
  when: "yesterday at noon",
  link: "http://exa mple.com/ a b",
  at: "a/b",
  contact: "not an address",
};

interface Verdict {
  ok: boolean;
  errors?: ReadonlyArray<{ path: string; message: string }>;
}
type Check = (value: unknown) => Verdict | Promise<Verdict>;

let checks: Record<string, { arguments: Check }>;

beforeAll(async () => {
  const cwd = tempDir("tool-formats");
  const toolsFile = join(cwd, "tools.json");
  writeFileSync(toolsFile, JSON.stringify(TOOLS));
  const run = await runCli(["server", "proj", "--tools", toolsFile, "--quiet"], { cwd });
  expect(run.code, run.stderr).toBe(0);
  const project = join(cwd, "proj");
  linkNodeModules(project);
  ({ TOOL_CHECKS: checks } = await importFromProject<{
    TOOL_CHECKS: Record<string, { arguments: Check }>;
  }>(project, "src/generated/tools.gen.ts"));
});

describe.each(["plan", "plan07"])("%s: formats checked by ajv-formats", (tool) => {
  it("accepts values of each format", async () => {
    expect(await checks[tool]!.arguments(GOOD)).toMatchObject({ ok: true });
  });

  it.each(Object.keys(BAD))("refuses a %s that is not of its format, naming it", async (name) => {
    const verdict = await checks[tool]!.arguments({
      ...GOOD,
      [name]: BAD[name as keyof typeof BAD],
    });
    expect(verdict.ok).toBe(false);
    expect(verdict.errors?.map((e) => e.path)).toEqual([`/${name}`]);
  });
});
