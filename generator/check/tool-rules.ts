/**
 * Rules a tools file must meet before any code is made from it, beyond its
 * shape (check-tools.ts): tool names that would become the same
 * TypeScript name, or a name the tools module already uses, and
 * `x-mcp-header` annotations the spec does not allow (server/tools,
 * x-mcp-header). Each problem is one diagnostic at its JSON pointer.
 */
import { headerParametersOf } from "../runtime/rules.js";
import { diagnostic, type Diagnostic } from "../diagnostics.js";
import type { JsonObject } from "../load/json.js";
import type { ToolSpec } from "../load/tools-file.js";

/** A tool as far as these rules look at it. */
interface NamedTool {
  readonly name: string;
  readonly inputSchema: JsonObject;
}

/**
 * The names tools.gen.ts declares or imports itself (a server's or a
 * client's); a tool whose namespace had one of them would not compile (or
 * would shadow it).
 */
export const MODULE_NAMES: ReadonlySet<string> = new Set([
  "McpServer",
  "RequestContext",
  "SchemaCheck",
  "ToolResult",
  "Started",
  "runValidator",
  "Types",
  "ExtensionToolResult",
  "lazyModule",
  "checks2020",
  "checks07",
  "check",
  "TOOLS",
  "TOOL_NAMES",
  "TOOL_CHECKS",
  "ToolArguments",
  "ToolOutputs",
  "TypedToolResult",
  "ToolResultOf",
  "ToolHandlers",
  "registerTools",
  "missingHandlers",
  // A client's tools module.
  "CallToolOptions",
  "TaskCallOptions",
  "ToolWrappers",
]);

/**
 * Tools whose names map to the same TypeScript namespace (`get-item`,
 * `get_item` and `getItem` all become `GetItem`), or to a name of the
 * module itself. They are refused rather than renamed behind the user's
 * back: the namespace is what handlers are typed with.
 */
export function nameCollisions(
  tools: readonly NamedTool[],
  file: string,
  namespaceOf: (name: string) => string,
): Diagnostic[] {
  const seen = new Map<string, { name: string; index: number }>();
  const out: Diagnostic[] = [];
  tools.forEach((tool, index) => {
    const namespace = namespaceOf(tool.name);
    const first = seen.get(namespace);
    const where = { file, pointer: `/${index}/name` };
    if (first)
      out.push(
        diagnostic(
          "MCPG712",
          { name: tool.name, other: `tool ${first.name} (#/${first.index}/name)`, namespace },
          where,
        ),
      );
    else if (MODULE_NAMES.has(namespace))
      out.push(
        diagnostic(
          "MCPG712",
          { name: tool.name, other: "a name tools.gen.ts declares itself", namespace },
          where,
        ),
      );
    else seen.set(namespace, { name: tool.name, index });
  });
  return out;
}

/**
 * `x-mcp-header` annotations the spec does not allow: not an HTTP token,
 * used twice (ignoring case), on a parameter that is not a string, integer
 * or boolean, or anywhere but a property reachable from the schema root
 * through `properties` alone. The runtime's own check (headerParametersOf)
 * decides: where it would throw at start, generation stops.
 */
export function headerProblems(tool: NamedTool, file: string, pointer: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  try {
    headerParametersOf(tool);
  } catch (error) {
    out.push(
      diagnostic(
        "MCPG713",
        { tool: tool.name, reason: (error as Error).message.replace(/^tool [^:]*: /, "") },
        { file, pointer },
      ),
    );
  }
  return out;
}

/** `json_schema_2020_12_tool` → `JsonSchema_2020_12Tool`: a namespace name per tool. */
export function toolNamespace(name: string): string {
  const pascal = name
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join("");
  return /^[0-9]/.test(pascal) ? `Tool${pascal}` : pascal || "Tool";
}

/**
 * The namespace of each tool, unique in the module: tools whose names
 * differ only in punctuation or case of the first letter (`get-item`,
 * `get_item`, `GetItem`) would share one; the later ones in tools.json get
 * `_2`, `_3`, ... appended, and names that would shadow the module's own
 * declarations (`reserved`, by default those of tools.gen.ts) are
 * suffixed the same way.
 */
export function toolNamespaces(
  tools: readonly ToolSpec[],
  reserved: ReadonlySet<string> = MODULE_NAMES,
): Map<string, string> {
  const taken = new Set(reserved);
  const namespaces = new Map<string, string>();
  for (const tool of tools) {
    const base = toolNamespace(tool.name);
    let ns = base;
    for (let n = 2; taken.has(ns); n++) ns = `${base}_${n}`;
    taken.add(ns);
    namespaces.set(tool.name, ns);
  }
  return namespaces;
}
