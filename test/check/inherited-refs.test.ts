/**
 * A tool schema's `$ref` through a name every object inherits
 * (`#/constructor` was an internal error, exit 3; `#/__proto__` compiled to
 * a validator that accepted anything) is MCPG718 at the `$ref`; one through
 * an own property of that name is followed as any other.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readTools } from "../../generator/check/check-tools.js";
import { McpGenError } from "../../generator/diagnostics.js";
import { tempDir } from "../helpers/index.js";
import { runCli } from "../helpers/run-cli.js";

/** The diagnostics `run` throws, as code and pointer. */
function problems(run: () => unknown): Array<[string, string | undefined]> {
  try {
    run();
    return [];
  } catch (error) {
    if (!(error instanceof McpGenError)) throw error;
    return error.diagnostics.map((d) => [d.code, d.location?.pointer]);
  }
}

const tool = (schema: Record<string, unknown>) => [
  { name: "t", inputSchema: { type: "object", ...schema } },
];

describe("a $ref through a name every object inherits", () => {
  it.each(["#/constructor", "#/__proto__", "#/toString", "#/properties/x/constructor"])(
    "%s is MCPG718 at the $ref",
    (ref) => {
      expect(
        problems(() =>
          readTools(
            tool({ properties: { x: { type: "string" }, y: { $ref: ref } } }),
            "tools.json",
          ),
        ),
      ).toEqual([["MCPG718", "/0/inputSchema/properties/y/$ref"]]);
    },
  );

  it("is followed when the schema has a property of that name", () => {
    const own = JSON.parse(
      '[{"name":"t","inputSchema":{"type":"object","$defs":{"constructor":{"type":"string"},"__proto__":{"type":"number"}},"properties":{"a":{"$ref":"#/$defs/constructor"},"b":{"$ref":"#/$defs/__proto__"}}}}]',
    ) as unknown;
    expect(problems(() => readTools(own, "tools.json"))).toEqual([]);
  });

  it("never gets past the CLI as an internal error or an accepting validator", async () => {
    const cwd = tempDir("inherited-ref");
    for (const [file, ref] of [
      ["c.json", "#/constructor"],
      ["p.json", "#/__proto__"],
    ] as const)
      writeFileSync(join(cwd, file), JSON.stringify(tool({ properties: { y: { $ref: ref } } })));
    for (const file of ["c.json", "p.json"]) {
      const run = await runCli(["server", `out-${file}`, "--tools", file, "--quiet"], { cwd });
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain("error MCPG718");
      expect(run.stderr).not.toContain("internal error");
    }
  });
});
