/**
 * The warning for a tool pattern the validators leave out: a project whose
 * tool validators run in linear time (shared/linear-patterns.ts) cannot
 * run a pattern with lookaround or backreferences, so the check names each
 * one, its tool and its place, and why RE2 refuses it.
 */
import { diagnostic, type Diagnostic } from "../diagnostics.js";
import type { JsonObject } from "../shared/json-value.js";
import { linearSchema } from "../shared/linear-patterns.js";

/**
 * The warnings (MCPG724) for the patterns of `tools` that re2js cannot run
 * and the validators leave out, each at its tool's schema in `file`.
 */
export function droppedPatternWarnings(
  tools: ReadonlyArray<{
    readonly name: string;
    readonly inputSchema: JsonObject;
    readonly outputSchema?: JsonObject;
  }>,
  file: string,
): Diagnostic[] {
  return tools.flatMap((tool, i) =>
    (["inputSchema", "outputSchema"] as const).flatMap((kind) => {
      const schema = tool[kind];
      if (!schema) return [];
      return linearSchema(schema).dropped.map((d) =>
        diagnostic(
          "MCPG724",
          { tool: tool.name, pattern: JSON.stringify(d.pattern), reason: d.reason },
          { file, pointer: `/${i}/${kind}${d.pointer}` },
        ),
      );
    }),
  );
}
