/**
 * A project's tools module (`src/generated/tools.gen.ts`), from its
 * tools.json: each tool's definition, the TypeScript types of its
 * arguments and structured output (translated by emit/ts-type.ts and
 * printed by the printer every generated module goes through), validators
 * for both compiled now (ajv standalone, so nothing compiles at run time),
 * the typed `ToolHandlers` map, and `registerTools`.
 *
 * Tool schemas follow the spec's JSON Schema rules (server/tools): 2020-12
 * when `$schema` is absent, draft-07 when declared, any other dialect an
 * error; remote `$ref`s are never fetched; depth and size are bounded.
 */
import { Ajv, Name, type Options } from "ajv";
import formatsPlugin from "ajv-formats";
import { Ajv2020 } from "ajv/dist/2020.js";
import standalone from "ajv/dist/standalone/index.js";
import { diagnostic, McpGenError, type Diagnostic } from "../diagnostics.js";
import { protoPropertiesAsPatterns } from "../emit/ajv-setup.js";
import { AJV_RUNTIME_HELPERS, AJV_RUNTIME_REQUIRE } from "../emit/compile-validators.js";
import { hardline, indent, join } from "../emit/doc.js";
import { prepareSchema } from "../emit/emit-types.js";
import { TsFileBuilder, type EmittedFile } from "../emit/file.js";
import { jsDoc, literal, propertyKey } from "../emit/names.js";
import {
  declarationDoc,
  jsonLiteral,
  objectLiteral,
  printCode,
  printInterface,
} from "../emit/ts-print.js";
import { declarationOf, type TsDeclaration } from "../emit/ts-type.js";
import {
  escapePointerSegment,
  isJsonObject,
  jsonText,
  parsePointer,
  type JsonObject,
  type JsonValue,
} from "../load/json.js";
import { forEachSchema, mapSchema } from "../load/schema-walk.js";
import { headerParametersOf } from "../../templates/runtime/core/headers.js";
import { headerProblems, MODULE_NAMES, nameCollisions } from "./tool-rules.js";

const standaloneCode = standalone as unknown as typeof standalone.default;
// ajv-formats is CommonJS with `exports.default`; imported from an ES module, the default import is the exports object.
const addFormats = formatsPlugin as unknown as typeof formatsPlugin.default;

/** A tool of tools.json. */
export interface ToolSpec {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly inputSchema: JsonObject;
  readonly outputSchema?: JsonObject;
  readonly annotations?: JsonObject;
  /** `taskSupport`: whether the tool may run as a task (Tasks extension). */
  readonly execution?: JsonObject;
}

/**
 * The tool names a generated tools module lists in TOOL_NAMES, whatever
 * its formatting; undefined when `text` has no such list.
 */
export function toolNamesIn(text: string): string[] | undefined {
  const list = /export const TOOL_NAMES = \[([^\]]*)\]/.exec(text);
  if (!list) return undefined;
  return [...list[1]!.matchAll(/"([A-Za-z0-9_.-]+)"/g)].map((m) => m[1]!);
}

/** The module paths inside `src/generated/`. */
export const TOOLS_MODULE = "tools.gen.ts";
const VALIDATOR_MODULES = {
  "2020-12": "tool-validators-2020.gen.ts",
  "draft-07": "tool-validators-draft-07.gen.ts",
} as const;

/**
 * How many compiled schemas one validator module holds. A tools file of
 * thousands of tools gets several modules per dialect: ajv assembles a
 * module's code in one piece (past some ten thousand schemas it overflows
 * the stack) and its cost per schema grows with the module, so bounded
 * modules keep generation linear in the number of tools.
 */
export const SCHEMAS_PER_VALIDATOR_MODULE = 500;

/** The path of a dialect's `part`-th validator module (0: the only one for most projects). */
function validatorModule(dialect: "2020-12" | "draft-07", part: number): string {
  const path = VALIDATOR_MODULES[dialect];
  return part === 0 ? path : path.replace(/\.gen\.ts$/, `-${part + 1}.gen.ts`);
}

/** The name tools.gen.ts imports a validator module as. */
function validatorNamespace(dialect: "2020-12" | "draft-07", part: number): string {
  const base = dialect === "2020-12" ? "checks2020" : "checks07";
  return part === 0 ? base : `${base}_${part + 1}`;
}

const DIALECTS: Readonly<Record<string, "2020-12" | "draft-07">> = {
  "https://json-schema.org/draft/2020-12/schema": "2020-12",
  "http://json-schema.org/draft-07/schema#": "draft-07",
  "http://json-schema.org/draft-07/schema": "draft-07",
};
/** Bounds on a tool schema, so a hostile tools.json cannot make generation (or validation) explode. */
const LIMITS = { depth: 32, subschemas: 2000 } as const;
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/**
 * Parses and checks tools.json; every problem is reported together. A
 * server's own tools.json is refused where two tool names would become one
 * TypeScript namespace (MCPG712): its author can rename them. A client
 * takes a server's names as they are (`refuseCollisions: false`), and
 * {@link toolNamespaces} numbers them.
 */
export function readTools(
  value: unknown,
  file: string,
  { refuseCollisions = true }: { readonly refuseCollisions?: boolean } = {},
): ToolSpec[] {
  const problems: Diagnostic[] = [];
  const where = (pointer: string) => ({ file, pointer });
  if (!Array.isArray(value))
    throw new McpGenError([
      diagnostic(
        "MCPG701",
        { reason: "tools.json must be an array of tool definitions" },
        where(""),
      ),
    ]);
  const names = new Set<string>();
  value.forEach((tool, i) => {
    const at = `/${i}`;
    if (!isJsonObject(tool))
      return problems.push(
        diagnostic("MCPG701", { reason: "a tool must be an object" }, where(at)),
      );
    if (typeof tool.name !== "string" || !TOOL_NAME.test(tool.name))
      problems.push(diagnostic("MCPG702", { name: jsonText(tool.name) }, where(`${at}/name`)));
    else if (names.has(tool.name))
      problems.push(
        diagnostic(
          "MCPG701",
          { reason: `tool ${tool.name} is defined twice` },
          where(`${at}/name`),
        ),
      );
    else names.add(tool.name);
    if (tool.description !== undefined && typeof tool.description !== "string")
      problems.push(
        diagnostic(
          "MCPG701",
          { reason: "description must be a string" },
          where(`${at}/description`),
        ),
      );
    const taskSupport = isJsonObject(tool.execution) ? tool.execution.taskSupport : undefined;
    if (
      (tool.execution !== undefined && !isJsonObject(tool.execution)) ||
      (taskSupport !== undefined &&
        !(["forbidden", "optional", "required"] as unknown[]).includes(taskSupport))
    )
      problems.push(
        diagnostic(
          "MCPG701",
          {
            reason:
              'execution must be an object whose taskSupport, if given, is "forbidden", "optional" or "required"',
          },
          where(`${at}/execution`),
        ),
      );
    // Arguments are always an object; structured output may be any JSON value (2026-07-28, server/tools).
    for (const key of ["inputSchema", "outputSchema"] as const) {
      const schema = tool[key];
      if (schema === undefined && key === "outputSchema") continue;
      if (!isJsonObject(schema) || (key === "inputSchema" && schema.type !== "object"))
        problems.push(
          diagnostic(
            "MCPG701",
            {
              reason:
                key === "inputSchema"
                  ? 'inputSchema must be a JSON Schema with "type": "object"'
                  : "outputSchema must be a JSON Schema (an object)",
            },
            where(`${at}/${key}`),
          ),
        );
      else problems.push(...schemaProblems(schema, file, `${at}/${key}`));
    }
    return undefined;
  });
  if (problems.length > 0) throw new McpGenError(problems);
  const tools = value as ToolSpec[];
  const ruled = [
    ...(refuseCollisions ? nameCollisions(tools, file, toolNamespace) : []),
    ...tools.flatMap((tool, i) => headerProblems(tool, file, `/${i}/inputSchema`)),
  ];
  if (ruled.length > 0) throw new McpGenError(ruled);
  return tools;
}

/**
 * The tools of a server's list that get typed wrappers: each one that
 * passes the same checks as a server's tools.json (name, schemas, dialect,
 * no remote `$ref`, size), once per name, with valid `x-mcp-header`
 * annotations. The others are reported (MCPG720) and left out. A list that
 * is not an array is an error.
 */
export function admitTools(
  value: unknown,
  file: string,
): { tools: ToolSpec[]; diagnostics: Diagnostic[] } {
  if (!Array.isArray(value)) return { tools: readTools(value, file), diagnostics: [] };
  const tools: ToolSpec[] = [];
  const diagnostics: Diagnostic[] = [];
  const names = new Set<string>();
  value.forEach((tool: unknown, i) => {
    const label =
      isJsonObject(tool) && typeof tool.name === "string" ? tool.name : `#${i} of ${file}`;
    const leaveOut = (reason: string) =>
      diagnostics.push(diagnostic("MCPG720", { tool: label, reason }, { file, pointer: `/${i}` }));
    let checked: ToolSpec;
    try {
      [checked] = readTools([tool], file, { refuseCollisions: false }) as [ToolSpec];
    } catch (error) {
      if (!(error instanceof McpGenError)) throw error;
      return leaveOut(error.diagnostics.map((d) => d.message).join("; "));
    }
    if (names.has(checked.name)) return leaveOut("another tool of the list has its name");
    try {
      headerParametersOf(checked);
    } catch (error) {
      return leaveOut((error as Error).message);
    }
    names.add(checked.name);
    tools.push(checked);
    return undefined;
  });
  return { tools, diagnostics };
}

/** The dialect of a tool schema: 2020-12 unless it declares draft-07. */
export function dialectOf(schema: JsonObject): "2020-12" | "draft-07" | undefined {
  return schema.$schema === undefined
    ? "2020-12"
    : typeof schema.$schema === "string"
      ? DIALECTS[schema.$schema]
      : undefined;
}

function schemaProblems(schema: JsonObject, file: string, pointer: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  const dialect = dialectOf(schema);
  if (!dialect)
    out.push(
      diagnostic(
        "MCPG703",
        { dialect: jsonText(schema.$schema) },
        { file, pointer: `${pointer}/$schema` },
      ),
    );
  let count = 0;
  let deepest = 0;
  forEachSchema(schema, pointer, (node, at) => {
    count++;
    deepest = Math.max(deepest, at.split("/").length - pointer.split("/").length);
    if (typeof node.$ref === "string" && !node.$ref.startsWith("#"))
      out.push(diagnostic("MCPG704", { ref: node.$ref }, { file, pointer: `${at}/$ref` }));
  });
  if (count > LIMITS.subschemas || deepest > LIMITS.depth * 2) {
    out.push(
      diagnostic(
        "MCPG705",
        {
          subschemas: count,
          depth: Math.ceil(deepest / 2),
          limits: `${LIMITS.subschemas} subschemas, depth ${LIMITS.depth}`,
        },
        { file, pointer },
      ),
    );
  }
  if (out.length === 0 && dialect) {
    const problem = compileProblem(schema, dialect);
    if (problem) out.push(diagnostic("MCPG706", { reason: problem }, { file, pointer }));
  }
  return out;
}

/**
 * ajv's options for tool schemas: lenient about unknown keywords
 * (annotations such as x-mcp-header); every problem reported, not just the
 * first, so a model can fix all its arguments at once; only own properties
 * count as present, so `constructor` or `toString` are names like any other.
 */
const AJV_OPTIONS: Options = {
  strict: false,
  allowUnionTypes: true,
  // An unknown format is an annotation (JSON Schema 2020-12), not an error; known ones are checked.
  logger: false,
  allErrors: true,
  ownProperties: true,
  messages: false,
  inlineRefs: false,
};

/** Where the generated validators take ajv-formats' format checks from (a dependency of every server project). */
export const FORMATS_MODULE = "ajv-formats/dist/formats.js";
const FORMATS_NAME = "fullFormats";

/**
 * An ajv for tool schemas, with ajv-formats' formats (date, email, uri, ...).
 * Its standalone code refers to a format check as `fullFormats.<name>`
 * (regular-expression formats are written inline), which the validator
 * module imports from {@link FORMATS_MODULE}.
 */
function createAjv(dialect: "2020-12" | "draft-07", options: Options): Ajv {
  const ajv = dialect === "2020-12" ? new Ajv2020(options) : new Ajv(options);
  addFormats(ajv, { mode: "full" });
  if (ajv.opts.code.source) ajv.opts.code.formats = new Name(FORMATS_NAME);
  return ajv;
}

/**
 * Why ajv cannot compile a schema (it is not valid in its dialect, a
 * pattern is not a regular expression, a local $ref points to nothing),
 * so that is reported as the user's problem rather than a crash.
 */
function compileProblem(schema: JsonObject, dialect: "2020-12" | "draft-07"): string | undefined {
  const { $schema: _s, ...rest } = schema;
  // A schema that declares ids gets an ajv of its own: its ids must not meet another tool's.
  const shared = !JSON.stringify(rest).includes('"$id"');
  const ajv = shared
    ? (checkingAjv[dialect] ??= createAjv(dialect, CHECKING_OPTIONS))
    : createAjv(dialect, CHECKING_OPTIONS);
  try {
    ajv.compile(rest);
    ajv.removeSchema(rest);
    return undefined;
  } catch (error) {
    // A failed compilation may leave half-added state behind: the next schema gets a fresh ajv.
    if (shared) checkingAjv[dialect] = undefined;
    return (error as Error).message;
  }
}

/**
 * One ajv per dialect for checking that tool schemas compile, reused from
 * tool to tool: setting up an ajv (meta-schemas, formats) costs far more
 * than compiling one tool's schema, and a new one per tool made a tools
 * file of thousands of tools take minutes.
 */
const checkingAjv: Partial<Record<"2020-12" | "draft-07", Ajv>> = {};

/** The checking ajv's options: its code is thrown away, so it is not optimized. */
const CHECKING_OPTIONS: Options = { ...AJV_OPTIONS, messages: true, code: { optimize: false } };

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
 * Which side a tools module is for: a server implements the tools
 * (`ToolHandlers`, `registerTools`), a client calls them (`ToolWrappers`,
 * typed by the same declarations and checked by the same validators).
 */
export type ToolsModuleKind = "server" | "client";

/**
 * The namespace of each tool, unique in the module: tools whose names
 * differ only in punctuation or case of the first letter (`get-item`,
 * `get_item`, `GetItem`) would share one; the later ones in tools.json get
 * `_2`, `_3`, ... appended, and names that would shadow the module's own
 * declarations are suffixed the same way.
 */
export function toolNamespaces(tools: readonly ToolSpec[]): Map<string, string> {
  const taken = new Set(MODULE_NAMES);
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

/** Emits tools.gen.ts and the validator modules it imports (a promise, which callers await). */
export function emitToolsModule(
  tools: readonly ToolSpec[],
  bannerText: string,
  runtimeImport: string,
  protocolImport: string,
  kind: ToolsModuleKind = "server",
  { followTasks = false }: { readonly followTasks?: boolean } = {},
): Promise<EmittedFile[]> {
  const validators = compileValidators(tools, protocolImport);
  const file = new TsFileBuilder(TOOLS_MODULE).importValues(protocolImport, "runValidator");
  if (kind === "server") {
    file.importTypes(
      runtimeImport,
      "McpServer",
      "RequestContext",
      "SchemaCheck",
      "TaskStarted",
      "ToolResult",
    );
    file.importTypes(protocolImport, "protocol", "Types");
  } else {
    file.importTypes(
      runtimeImport,
      followTasks ? "TaskCallOptions" : "CallToolOptions",
      "SchemaCheck",
      "TypedToolResult",
    );
    file.importTypes(protocolImport, "protocol");
  }
  for (const module of validators.files)
    file.importNamespace(`./${module.path.replace(/\.ts$/, ".js")}`, module.namespace, false);
  const namespaces = toolNamespaces(tools);
  for (const tool of tools) file.add(toolTypes(tool, namespaces.get(tool.name)!));
  file.add(
    `${jsDoc(`Every tool, as ${kind === "server" ? "tools/list shows it" : "the server listed it"} (from tools.json).`)}${printCode(
      ["export const TOOLS = ", jsonLiteral(tools as unknown as JsonValue), " as const;"],
    )}`,
  );
  file.add(
    `${jsDoc("The name of every tool, in order. mcp-gen reads them back to tell which tools a later tools.json adds.")}${printCode(["export const TOOL_NAMES = ", jsonLiteral(tools.map((t) => t.name)), " as const;"])}`,
  );
  file.add(argumentsMap(tools, namespaces));
  file.add(CHECK_ADAPTER);
  file.add(
    `${jsDoc("The schema checks of each tool's arguments, and of its structured output when it declares an outputSchema.")}${printCode(
      [
        "export const TOOL_CHECKS: {",
        indent([
          hardline,
          "readonly [name: string]: { readonly arguments: SchemaCheck; readonly output?: SchemaCheck };",
        ]),
        hardline,
        "} = ",
        objectLiteral(
          tools.map((t) => [propertyKey(t.name), validators.checks.get(t.name)!] as const),
          true,
        ),
        ";",
      ],
    )}`,
  );
  file.add(kind === "server" ? HANDLERS : followTasks ? TASK_WRAPPERS : WRAPPERS);
  return Promise.resolve([
    file.build(bannerText),
    ...validators.files.map((f) => ({ path: f.path, contents: `${bannerText}${f.contents}` })),
  ]);
}

function toolTypes(tool: ToolSpec, ns: string): string {
  const declarations = [
    ...schemaDeclarations(tool.inputSchema, "Arguments"),
    ...(tool.outputSchema
      ? schemaDeclarations(tool.outputSchema, "StructuredContent")
      : [
          {
            name: "StructuredContent",
            form: "alias",
            type: { kind: "name", name: "unknown" },
          } as const,
        ]),
  ];
  return `${jsDoc(`Types of tool ${literal(tool.name)}.`)}${printCode([
    `export namespace ${ns} {`,
    indent([hardline, join([hardline, hardline], declarations.map(declarationDoc))]),
    hardline,
    "}",
  ])}`;
}

/**
 * The declarations of a tool schema: `name` for the schema itself and
 * `name` + the key for each of its `$defs` (or draft-07 `definitions`),
 * which its `$ref`s name. A `$ref` to `#` names the schema; any other
 * reference (a pointer into the schema elsewhere) reads as `unknown`.
 */
function schemaDeclarations(schema: JsonObject, name: string): TsDeclaration[] {
  const { $schema: _s, $id: _i, title: _t, $defs, definitions, ...root } = schema;
  const defsKey = isJsonObject($defs) ? "$defs" : "definitions";
  const defs = isJsonObject($defs) ? $defs : isJsonObject(definitions) ? definitions : {};
  const names = new Map<string, string>();
  const taken = new Set([name]);
  for (const key of Object.keys(defs)) {
    const base = `${name}${toolNamespace(key).replace(/^Tool(?=[0-9])/, "")}`;
    let typeName = base;
    for (let n = 2; taken.has(typeName); n++) typeName = `${base}${n}`;
    taken.add(typeName);
    names.set(key, typeName);
  }
  const typeOfRef = (ref: string): string => {
    if (ref === "#") return name;
    const path = ref.startsWith("#/") ? parsePointer(decodeURIComponent(ref.slice(1))) : [];
    return (path.length === 2 && path[0] === defsKey && names.get(path[1]!)) || "unknown";
  };
  const declare = (typeName: string, node: JsonValue): TsDeclaration =>
    declarationOf(
      typeName,
      prepareSchema(asTuples(withoutTypeOverrides(schemaObject(node))), typeOfRef),
    );
  return [
    declare(name, root),
    ...[...names].map(([key, typeName]) => declare(typeName, defs[key]!)),
  ];
}

/**
 * `tsType` and `tsEnumNames` taken out of every subschema: the type
 * translation would print a `tsType` as TypeScript, and a tool list is
 * untrusted input (a server's tools/list), so its types come from JSON
 * Schema alone.
 */
function withoutTypeOverrides(schema: JsonObject): JsonObject {
  return mapSchema(schema, (node) => {
    const { tsType: _type, tsEnumNames: _names, ...kept } = node;
    return kept;
  }) as JsonObject;
}

/** A boolean schema as the object schema it stands for. */
function schemaObject(node: JsonValue): JsonObject {
  if (node === false) return { not: {} };
  return isJsonObject(node) ? node : {};
}

/**
 * Arrays of fixed positions (2020-12 `prefixItems`, draft-07 `items` as an
 * array) as the union of the tuples they accept: `[] | [A] | [A, B]` from
 * `minItems` up, each longest one open (`...T[]`) unless more items are
 * forbidden, which is what ts-type.ts's tuples express.
 */
function asTuples(schema: JsonObject): JsonObject {
  return mapSchema(schema, (node) => {
    const positional = Array.isArray(node.prefixItems)
      ? { items: node.prefixItems, rest: node.items }
      : Array.isArray(node.items)
        ? { items: node.items, rest: node.additionalItems }
        : undefined;
    if (!positional) return node;
    const {
      prefixItems: _p,
      items: _i,
      additionalItems: _a,
      minItems,
      maxItems: _m,
      ...rest
    } = node;
    const closed = positional.rest === false;
    const from = Math.min(typeof minItems === "number" ? minItems : 0, positional.items.length);
    const tuples: JsonValue[] = [];
    for (let length = from; length <= positional.items.length; length++) {
      const full = length === positional.items.length;
      tuples.push({
        type: "array",
        items: positional.items.slice(0, length),
        additionalItems: closed || !full ? false : (positional.rest ?? true),
      });
    }
    if (tuples.length === 1) return { ...rest, ...(tuples[0] as JsonObject) };
    const { type: _type, ...described } = rest;
    return { ...described, anyOf: tuples };
  }) as JsonObject;
}

function argumentsMap(tools: readonly ToolSpec[], namespaces: ReadonlyMap<string, string>): string {
  const members = (type: string, which: readonly ToolSpec[]) =>
    which.map((t) => [propertyKey(t.name), `${namespaces.get(t.name)}.${type}`] as const);
  const structured = tools.filter((t) => t.outputSchema !== undefined);
  return `${jsDoc("The arguments of each tool, by name.")}${printInterface("ToolArguments", members("Arguments", tools))}

${jsDoc("The structured output of each tool that declares an outputSchema, by name.")}${printInterface("ToolOutputs", members("StructuredContent", structured))}`;
}

/** The module's fixed code, written as it is printed. */
const HANDLERS = `${jsDoc("What the handler of a tool with an outputSchema returns: structuredContent of that type, or a tool execution error (isError: true), which needs none.")}export type TypedToolResult<S> =
  | (Omit<ToolResult, "structuredContent" | "isError"> & {
      readonly structuredContent: S;
      readonly isError?: false;
    })
  | (Omit<ToolResult, "structuredContent" | "isError"> & {
      readonly structuredContent?: S;
      readonly isError: true;
    });

${jsDoc("What the handler of tool K returns.")}export type ToolResultOf<K extends keyof ToolArguments> = K extends keyof ToolOutputs
  ? TypedToolResult<ToolOutputs[K]>
  : ToolResult;

${jsDoc("The results the revision's extensions add to tools/call (their resultType selects their definition), which a tool handler may return instead of the tool's own; Tasks results come from `ctx.runAsTask`. The runtime sends one only to a client whose capabilities declare its extension (-32021 otherwise): a handler that can fall back asks `ctx.declares(id)`.")}export type ExtensionToolResult = Exclude<
  protocol.ResultOf<"tools/call">,
  { readonly resultType: "complete" | "input_required" | "task" }
>;

${jsDoc("A handler for every tool of tools.json, typed by its schemas: it returns the tool's result, what `ctx.runAsTask` returned when the call became a task (Tasks extension), or a result another extension adds to tools/call.")}export type ToolHandlers = {
  readonly [K in keyof ToolArguments]: (
    args: ToolArguments[K],
    ctx: RequestContext<Types>,
  ) =>
    | ToolResultOf<K>
    | TaskStarted
    | ExtensionToolResult
    | Promise<ToolResultOf<K> | TaskStarted | ExtensionToolResult>;
};

${jsDoc("The tools of tools.json that `handlers` has no handler for (plain JavaScript, or a cast, can leave one out; the project's tests check this).")}export function missingHandlers(handlers: Partial<Record<string, unknown>>): string[] {
  const handlerOf = (name: string) => (Object.hasOwn(handlers, name) ? handlers[name] : undefined);
  return TOOLS.filter((t) => typeof handlerOf(t.name) !== "function").map((t) => t.name);
}

${jsDoc("Registers every tool of tools.json on `server`, with its handler; arguments are checked against the tool's inputSchema before the handler runs.")}export function registerTools(server: McpServer, handlers: ToolHandlers): void {
  for (const definition of TOOLS) {
    // A missing handler is registered as such: its calls answer a tool execution error that names it.
    const handler = (Object.hasOwn(handlers, definition.name) ? handlers[definition.name] : undefined) as
      | ((
          args: never,
          ctx: RequestContext<Types>,
        ) =>
          | ToolResult
          | TaskStarted
          | ExtensionToolResult
          | Promise<ToolResult | TaskStarted | ExtensionToolResult>)
      | undefined;
    const checks = TOOL_CHECKS[definition.name]!;
    server.tool(definition, handler as never, {
      checkArguments: checks.arguments,
      ...(checks.output ? { checkOutput: checks.output } : {}),
    });
  }
}`;

const WRAPPERS = `${jsDoc("A function per tool of tools.json, typed by its schemas: the arguments are checked against the tool's inputSchema before anything is sent, and structuredContent against its outputSchema on return. `Unfollowed` is the extension results the client has no continuation for: the function resolves with those as the server sent them, discriminated from the tool's result by resultType.")}export type ToolWrappers<Unfollowed = never> = {
  readonly [K in keyof ToolArguments]: (
    args: ToolArguments[K],
    options?: CallToolOptions,
  ) => Promise<
    | TypedToolResult<protocol.CallToolResult, K extends keyof ToolOutputs ? ToolOutputs[K] : unknown>
    | Unfollowed
  >;
};`;

const TASK_WRAPPERS = `${jsDoc("A function per tool of tools.json, typed by its schemas: the arguments are checked against the tool's inputSchema before anything is sent. A call the server runs as a task (Tasks extension) is followed to its end: polled, its input requests answered by the client's handlers, cancelled when `options.signal` fires; the function resolves with the tool's result either way, its structuredContent checked against the outputSchema. `Unfollowed` is the results of other extensions the client has no continuation for, as the server sent them.")}export type ToolWrappers<Unfollowed = never> = {
  readonly [K in keyof ToolArguments]: (
    args: ToolArguments[K],
    options?: TaskCallOptions,
  ) => Promise<
    | TypedToolResult<protocol.CallToolResult, K extends keyof ToolOutputs ? ToolOutputs[K] : unknown>
    | Unfollowed
  >;
};`;

/**
 * Compiles every tool schema with ajv, in one standalone module per
 * dialect (2020-12 with Ajv2020, draft-07 with Ajv), and the expressions
 * that wrap each compiled function as a SchemaCheck.
 */
function compileValidators(
  tools: readonly ToolSpec[],
  protocolImport: string,
): { files: Array<EmittedFile & { namespace: string }>; checks: Map<string, string> } {
  const groups = {
    "2020-12": [] as Array<{ id: string; schema: JsonObject }>,
    "draft-07": [] as Array<{ id: string; schema: JsonObject }>,
  };
  const checks = new Map<string, string>();
  tools.forEach((tool, i) => {
    const entry = (schema: JsonObject, kind: "input" | "output") => {
      const dialect = dialectOf(schema)!;
      const id = `tool${i}_${kind}`;
      const part = Math.floor(groups[dialect].length / SCHEMAS_PER_VALIDATOR_MODULE);
      const { $schema: _s, ...rest } = schema;
      groups[dialect].push({
        id,
        schema: {
          ...(protoPropertiesAsPatterns(rest) as JsonObject),
          $id: `mcp-gen:tool:${escapePointerSegment(tool.name)}:${kind}`,
        },
      });
      return `check(${validatorNamespace(dialect, part)}.${id})`;
    };
    const input = entry(tool.inputSchema, "input");
    const output = tool.outputSchema ? entry(tool.outputSchema, "output") : undefined;
    checks.set(tool.name, `{ arguments: ${input}${output ? `, output: ${output}` : ""} }`);
  });
  const files: Array<EmittedFile & { namespace: string }> = [];
  for (const [dialect, entries] of Object.entries(groups) as Array<
    ["2020-12" | "draft-07", (typeof groups)["2020-12"]]
  >) {
    for (let from = 0; from < entries.length; from += SCHEMAS_PER_VALIDATOR_MODULE) {
      const part = from / SCHEMAS_PER_VALIDATOR_MODULE;
      const module = validatorModuleFile(
        dialect,
        validatorModule(dialect, part),
        entries.slice(from, from + SCHEMAS_PER_VALIDATOR_MODULE),
        protocolImport,
      );
      files.push({ ...module, namespace: validatorNamespace(dialect, part) });
    }
  }
  return { files, checks };
}

/** One validator module: `entries` compiled by one ajv of `dialect`, as ajv's standalone code. */
function validatorModuleFile(
  dialect: "2020-12" | "draft-07",
  path: string,
  entries: ReadonlyArray<{ id: string; schema: JsonObject }>,
  protocolImport: string,
): EmittedFile {
  const ajv = createAjv(dialect, {
    ...AJV_OPTIONS,
    code: { source: true, esm: true, lines: true },
  });
  for (const e of entries) ajv.addSchema(e.schema);
  const code = standaloneCode(
    ajv,
    Object.fromEntries(entries.map((e) => [e.id, e.schema.$id as string])),
  );
  const module = new TsFileBuilder(path)
    .header("// @ts-nocheck -- ajv standalone output for the tool schemas of tools.json")
    .importValues(protocolImport, ...AJV_RUNTIME_HELPERS);
  // A format that is not a regular expression is a function of ajv-formats, `fullFormats.<name>` in the code.
  if (new RegExp(`\\b${FORMATS_NAME}\\.`).test(code))
    module.importValues(FORMATS_MODULE, FORMATS_NAME);
  return module.add(AJV_RUNTIME_REQUIRE).add(code).build("");
}

/** Turns a compiled validator into a SchemaCheck, with the errors every generated validator reports. */
const CHECK_ADAPTER = `const check =
  (validate: Parameters<typeof runValidator>[0]): SchemaCheck =>
  (value) =>
    runValidator(validate, value);`;

export type { JsonValue };
