/**
 * What a tools file may not do, refused when the project is generated:
 * tool names that would become one TypeScript name (or a name the tools
 * module declares itself), and `x-mcp-header` annotations the spec does
 * not allow. Each problem is one diagnostic at its JSON pointer.
 */
import { describe, expect, it } from "vitest";
import { McpGenError } from "../../generator/diagnostics.js";
import ts from "typescript";
import { readTools } from "../../generator/check/check-tools.js";
import { MODULE_NAMES } from "../../generator/check/tool-rules.js";
import { emitToolsModule, TOOLS_MODULE } from "../../generator/emit/emit-tools.js";

function diagnosticsOf(tools: unknown): string[] {
  try {
    readTools(tools, "tools.json");
  } catch (error) {
    if (error instanceof McpGenError)
      return error.diagnostics.map((d) => `${d.code} ${d.location?.pointer ?? ""}: ${d.message}`);
    throw error;
  }
  return [];
}

describe("refused at generation", () => {
  const input = { type: "object" };

  it("names that differ only in punctuation or case: each later one names the first", () => {
    expect(
      diagnosticsOf([
        { name: "get-item", inputSchema: input },
        { name: "get_item", inputSchema: input },
        { name: "getItem", inputSchema: input },
      ]),
    ).toEqual([
      'MCPG712 /1/name: tool name "get_item" becomes the TypeScript name GetItem, as tool get-item (#/0/name) does',
      'MCPG712 /2/name: tool name "getItem" becomes the TypeScript name GetItem, as tool get-item (#/0/name) does',
    ]);
  });

  it("a name that becomes one the tools module declares itself", () => {
    expect(diagnosticsOf([{ name: "tool_handlers", inputSchema: input }])).toEqual([
      'MCPG712 /0/name: tool name "tool_handlers" becomes the TypeScript name ToolHandlers, as a name tools.gen.ts declares itself does',
    ]);
  });

  it.each([
    [
      "a header name that is not an HTTP token",
      { a: { type: "string", "x-mcp-header": "Bad Header" } },
      'MCPG713 /0/inputSchema: tool t: invalid x-mcp-header: x-mcp-header "Bad Header" at a is not an HTTP token',
    ],
    [
      "an empty header name",
      { a: { type: "string", "x-mcp-header": "" } },
      'MCPG713 /0/inputSchema: tool t: invalid x-mcp-header: x-mcp-header "" at a is not an HTTP token',
    ],
    [
      "a header on a number",
      { a: { type: "number", "x-mcp-header": "A" } },
      "MCPG713 /0/inputSchema: tool t: invalid x-mcp-header: x-mcp-header on a needs a string, integer or boolean parameter",
    ],
    [
      "one header name twice, in another case",
      {
        a: { type: "string", "x-mcp-header": "Region" },
        b: { type: "string", "x-mcp-header": "REGION" },
      },
      "MCPG713 /0/inputSchema: tool t: invalid x-mcp-header: x-mcp-header REGION is used twice",
    ],
    [
      "a header inside anyOf, which is not statically reachable",
      { a: { anyOf: [{ type: "string", "x-mcp-header": "A" }] } },
      "MCPG713 /0/inputSchema: tool t: invalid x-mcp-header: x-mcp-header at /properties/a/anyOf/0 is not on a chain of properties from the root",
    ],
  ])("%s", (_title, properties, expected) => {
    expect(diagnosticsOf([{ name: "t", inputSchema: { type: "object", properties } }])).toEqual([
      expected,
    ]);
  });
});

describe("the names tools.gen.ts declares itself", () => {
  it.each(["server", "client"] as const)(
    "every one a tool's namespace could become is refused as a tool name (a %s's module, read with tsc)",
    async (kind) => {
      const tools = readTools(
        [{ name: "echo", inputSchema: { type: "object" }, outputSchema: { type: "object" } }],
        "tools.json",
      );
      const files = await emitToolsModule(
        tools,
        "",
        "../mcp-gen/runtime/index.js",
        "./protocol.gen.js",
        kind,
      );
      const text = files.find((f) => f.path === TOOLS_MODULE)!.contents;
      const source = ts.createSourceFile(TOOLS_MODULE, text, ts.ScriptTarget.ES2022);
      const names = new Set<string>();
      for (const statement of source.statements) {
        if (ts.isImportDeclaration(statement))
          for (const element of (statement.importClause?.namedBindings as ts.NamedImports)
            ?.elements ?? [])
            names.add(element.name.text);
        else if (ts.isVariableStatement(statement))
          for (const d of statement.declarationList.declarations)
            names.add((d.name as ts.Identifier).text);
        else if (
          "name" in statement &&
          statement.name &&
          ts.isIdentifier(statement.name as ts.Node)
        )
          names.add((statement.name as ts.Identifier).text);
      }
      // A tool's namespace is PascalCase; the tool's own (Echo) is the one name that may be there.
      const pascal = [...names].filter((n) => /^[A-Z]/.test(n) && n !== "Echo");
      expect(pascal.length).toBeGreaterThan(5);
      expect(pascal.filter((n) => !MODULE_NAMES.has(n))).toEqual([]);
    },
  );
});
