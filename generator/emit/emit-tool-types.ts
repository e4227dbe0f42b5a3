/**
 * emitToolTypes: what `mcp-gen types` writes for any client of a server.
 *
 * - One self-contained TypeScript module over the official SDK's client
 *   (`@modelcontextprotocol/client`, its only import): each tool's
 *   argument and result types (the translation a project's tools module
 *   uses, emit-tools.ts), the tools as the server listed them, their
 *   Standard Schemas (the Standard Schema code of static/standard-schema.ts,
 *   checked by the SDK's JSON Schema validator), a typed `callTool` that
 *   checks both ways, and `toolFunctions` for code mode
 *   (static/types/tool-client.ts).
 * - The API description of code mode, a `.d.ts` that imports nothing: one
 *   function per tool, documented from the tool's title, description and
 *   hints, with the same types.
 */
import { dialectOf } from "../check/check-tools.js";
import { MODULE_NAMES, toolNamespaces } from "../check/tool-rules.js";
import type { JsonObject, JsonValue } from "../load/json.js";
import type { ToolSpec } from "../load/tools-file.js";
import { staticFragment, standardSchemaSource } from "./emit-support.js";
import { argumentsMap, toolTypes } from "./emit-tools.js";
import { type EmittedFile, TsFileBuilder } from "./file.js";
import { jsonSchemaTargets } from "./json-schema-targets.js";
import { jsDoc, literal, propertyKey } from "./names.js";
import { arrayLiteral, jsonLiteral, printCode } from "./ts-print.js";

/** The package the module is written over: the official SDK's client. */
const SDK_CLIENT = "@modelcontextprotocol/client";
/** What the module imports from it, values and types. */
const SDK_VALUES = ["fromJsonSchema"];
const SDK_TYPES = [
  "CallToolRequestOptions",
  "CallToolResult",
  "Client",
  "JsonSchemaType",
  "jsonSchemaValidator",
  "Tool",
];

/** The fixed code of the API description: the content a tool without an outputSchema resolves with. */
const API_CONTENT = `${jsDoc("A block of a tool's content: text, an image or audio (base64), a link to a resource, or a resource itself.")}export type ContentBlock =
  | { readonly type: "text"; readonly text: string }
  | { readonly type: "image"; readonly data: string; readonly mimeType: string }
  | { readonly type: "audio"; readonly data: string; readonly mimeType: string }
  | { readonly type: "resource_link"; readonly uri: string; readonly name: string; readonly mimeType?: string }
  | { readonly type: "resource"; readonly resource: { readonly uri: string; readonly mimeType?: string; readonly text?: string; readonly blob?: string } };

${jsDoc("What the function of a tool without an outputSchema resolves with.")}export interface ToolContent {
  readonly content: readonly ContentBlock[];
  readonly structuredContent?: unknown;
}`;

/** Where the two files go. */
export interface ToolTypesPaths {
  /** The module, a `.ts` file. */
  readonly module: string;
  /** The API description of code mode, a `.d.ts` file. */
  readonly api: string;
}

/** Emits the module and the API description of `tools` (checked tools), each under `bannerText`. */
export function emitToolTypes(
  tools: readonly ToolSpec[],
  bannerText: string,
  paths: ToolTypesPaths,
): EmittedFile[] {
  const namespaces = toolNamespaces(tools, reservedNames());
  const functions = functionNames(tools, namespaces);
  return [
    emitModule(tools, namespaces, functions, bannerText, paths.module),
    emitApi(tools, namespaces, functions, bannerText, paths.api),
  ];
}

function emitModule(
  tools: readonly ToolSpec[],
  namespaces: ReadonlyMap<string, string>,
  functions: ReadonlyMap<string, string>,
  bannerText: string,
  path: string,
): EmittedFile {
  const file = new TsFileBuilder(path)
    .importValues(SDK_CLIENT, ...SDK_VALUES)
    .importTypes(SDK_CLIENT, ...SDK_TYPES);
  file.add(standardSchemaCode());
  for (const tool of tools) file.add(toolTypes(tool, namespaces.get(tool.name)!));
  file.add(
    `${jsDoc("Every tool, as the server listed it.")}${printCode([
      "export const TOOLS = ",
      jsonLiteral(tools as unknown as JsonValue),
      " as const;",
    ])}`,
  );
  file.add(argumentsMap(tools, namespaces));
  file.add(formsTable(tools, functions));
  file.add(apiInterface(tools, namespaces, functions));
  file.add(staticFragment("types/tool-client.ts"));
  return file.build(bannerText);
}

function emitApi(
  tools: readonly ToolSpec[],
  namespaces: ReadonlyMap<string, string>,
  functions: ReadonlyMap<string, string>,
  bannerText: string,
  path: string,
): EmittedFile {
  const file = new TsFileBuilder(path);
  for (const tool of tools) file.add(toolTypes(tool, namespaces.get(tool.name)!));
  file.add(API_CONTENT);
  file.add(apiInterface(tools, namespaces, functions));
  file.add(
    `${jsDoc("The server's tools, one function each (ToolApi says what each takes and gives).")}export declare const tools: ToolApi;`,
  );
  return file.build(bannerText);
}

/**
 * The Standard Schema code, without the file comment of its source (which
 * speaks of the folders it is copied into): the rest is as written.
 */
function standardSchemaCode(): string {
  return standardSchemaSource()
    .replace(/^\/\*\*[\s\S]*?\*\/\n+/, "")
    .replace(/\n$/, "");
}

/**
 * For each tool, in order: its function's name in ToolApi, and the dialect
 * and Standard JSON Schema targets of its inputSchema and outputSchema.
 */
function formsTable(tools: readonly ToolSpec[], functions: ReadonlyMap<string, string>): string {
  const form = (schema: JsonObject) => {
    const dialect = dialectOf(schema) ?? "2020-12";
    const targets = jsonSchemaTargets(dialect, [schema]);
    return arrayLiteral([
      literal(dialect === "2020-12" ? "draft-2020-12" : "draft-07"),
      arrayLiteral(targets.map((t) => literal(t))),
    ]);
  };
  return `${jsDoc("For each tool of TOOLS, in order: its function's name in ToolApi, and the dialect and JSON Schema targets of its inputSchema and outputSchema.")}${printCode(
    [
      "const TOOL_FORMS: ReadonlyArray<readonly [functionName: string, input: readonly [dialect: string, targets: readonly string[]], output?: readonly [dialect: string, targets: readonly string[]]]> = ",
      arrayLiteral(
        tools.map((tool) =>
          arrayLiteral([
            literal(functions.get(tool.name)!),
            form(tool.inputSchema),
            ...(tool.outputSchema ? [form(tool.outputSchema)] : []),
          ]),
        ),
      ),
      ";",
    ],
  )}`;
}

/** `interface ToolApi`: one function per tool, documented from the tool. */
function apiInterface(
  tools: readonly ToolSpec[],
  namespaces: ReadonlyMap<string, string>,
  functions: ReadonlyMap<string, string>,
): string {
  const members = tools.map((tool) => {
    const ns = namespaces.get(tool.name)!;
    const optional =
      !Array.isArray(tool.inputSchema.required) || tool.inputSchema.required.length === 0;
    const result = tool.outputSchema ? `${ns}.StructuredContent` : "ToolContent";
    const doc = jsDoc(tool.title, tool.description, toolNote(tool))
      .trimEnd()
      .split("\n")
      .map((l) => `  ${l}`)
      .join("\n");
    return `${doc}\n  ${propertyKey(functions.get(tool.name)!)}(args${optional ? "?" : ""}: ${ns}.Arguments): Promise<${result}>;`;
  });
  return `${jsDoc(
    "The server's tools, one function each: it takes the tool's arguments and resolves with its structuredContent when the tool declares an outputSchema, else with its content; a tool's error result is thrown.",
  )}export interface ToolApi {\n${members.join("\n\n")}\n}`;
}

/** `Tool \`get_weather\`; read-only.`: the tool's name and what its hints say, with the specification's defaults. */
function toolNote(tool: ToolSpec): string {
  const hint = (key: string, fallback: boolean) =>
    typeof tool.annotations?.[key] === "boolean" ? tool.annotations[key] : fallback;
  const notes: string[] = [];
  if (hint("readOnlyHint", false)) notes.push("read-only");
  else {
    notes.push(hint("destructiveHint", true) ? "may destroy data" : "does not destroy data");
    if (hint("idempotentHint", false)) notes.push("idempotent");
  }
  if (!hint("openWorldHint", true)) notes.push("closed world");
  return `Tool \`${tool.name}\`: ${notes.join(", ")}.`;
}

/** Each tool's function name in ToolApi: its namespace with a lower-case first letter (`GetItem_2` → `getItem_2`). */
function functionNames(
  tools: readonly ToolSpec[],
  namespaces: ReadonlyMap<string, string>,
): Map<string, string> {
  return new Map(
    tools.map((t) => {
      const ns = namespaces.get(t.name)!;
      return [t.name, ns.charAt(0).toLowerCase() + ns.slice(1)];
    }),
  );
}

let reserved: ReadonlySet<string> | undefined;

/**
 * The names the module and the API description declare or import
 * themselves, which no tool's namespace may take: read from the fixed code
 * they carry, so the list cannot fall behind it.
 */
export function reservedNames(): ReadonlySet<string> {
  if (reserved) return reserved;
  const code = [standardSchemaCode(), staticFragment("types/tool-client.ts"), API_CONTENT].join(
    "\n",
  );
  const declared = [
    ...code.matchAll(
      /^(?:export )?(?:declare )?(?:async )?(?:const|let|function|type|interface|class|namespace) ([A-Za-z_$][\w$]*)/gm,
    ),
  ].map((m) => m[1]!);
  reserved = new Set([
    ...MODULE_NAMES,
    ...declared,
    ...SDK_VALUES,
    ...SDK_TYPES,
    "TOOLS",
    "TOOL_FORMS",
    "ToolArguments",
    "ToolOutputs",
    "ToolApi",
    "tools",
  ]);
  return reserved;
}
