/**
 * The emit stage of a project's tools module (`src/generated/tools.gen.ts`),
 * from its checked tools (check/check-tools.ts): each tool's definition,
 * the TypeScript types of its arguments and structured output (translated
 * by ts-type.ts and printed by the printer every generated module goes
 * through), validators for both compiled now (ajv standalone, so nothing
 * compiles at run time), the typed `ToolHandlers` map, and `registerTools`.
 */
import { createHash } from "node:crypto";
import { FORMATS_MODULE, FORMATS_NAME, toolAjvChoices } from "../shared/ajv.js";
import {
  LINEAR_REGEXP_CODE,
  LINEAR_REGEXP_MODULE,
  LINEAR_REGEXP_NAME,
  linearSchema,
} from "../shared/linear-patterns.js";
import { dialectOf } from "../check/check-tools.js";
import { toolNamespace, toolNamespaces } from "../check/tool-rules.js";
import {
  escapePointerSegment,
  isJsonObject,
  parsePointer,
  type JsonObject,
  type JsonValue,
} from "../load/json.js";
import { mapSchema } from "../shared/schema-walk.js";
import type { CompiledCodeCache } from "../load/code-cache.js";
import type { ToolSpec } from "../load/tools-file.js";
import { protoPropertiesAsPatterns } from "./ajv-setup.js";
import {
  AJV_RUNTIME_HELPERS,
  AJV_RUNTIME_REQUIRE,
  compileValidators as compileStandalone,
} from "./compile-validators.js";
import { hardline, indent, join } from "./doc.js";
import { staticFragment } from "./emit-support.js";
import { prepareSchema } from "./emit-types.js";
import { TsFileBuilder, type EmittedFile } from "./file.js";
import { jsDoc, literal, propertyKey } from "./names.js";
import {
  declarationDoc,
  jsonLiteral,
  objectLiteral,
  printCode,
  printInterface,
} from "./ts-print.js";
import { declarationOf, type TsDeclaration } from "./ts-type.js";

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
/**
 * The validator modules are JavaScript with a declaration file beside
 * each, not TypeScript: ajv's output is megabytes for a thousand tools,
 * and tsc parses and binds a `@ts-nocheck` module all the same (a
 * thousand-tool project's typecheck peaked at 800 MiB, 500 MiB with the
 * declarations only). tsc does not copy them to dist/, so a project's
 * build does (`scripts/copy-generated.mjs`).
 */
const VALIDATOR_MODULES = {
  "2020-12": "tool-validators-2020.gen.js",
  "draft-07": "tool-validators-draft-07.gen.js",
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
  return part === 0 ? path : path.replace(/\.gen\.js$/, `-${part + 1}.gen.js`);
}

/** The name tools.gen.ts imports a validator module as. */
function validatorNamespace(dialect: "2020-12" | "draft-07", part: number): string {
  const base = dialect === "2020-12" ? "checks2020" : "checks07";
  return part === 0 ? base : `${base}_${part + 1}`;
}

/**
 * TOOLS of a tools file with no tool. `[] as const` would type its
 * elements `never`, on which the code that walks TOOLS does not compile;
 * the elements' type says what every tool has, and that no name is one.
 */
const NO_TOOLS =
  'export const TOOLS: ReadonlyArray<{\n  readonly name: never;\n  readonly inputSchema: { readonly type: "object"; readonly required?: readonly string[] };\n}> = [];';

/**
 * Which side a tools module is for: a server implements the tools
 * (`ToolHandlers`, `registerTools`), a client calls them (`ToolWrappers`,
 * typed by the same declarations and checked by the same validators).
 */
export type ToolsModuleKind = "server" | "client";

/** Emits tools.gen.ts and the validator modules it imports (a promise, which callers await). */
export function emitToolsModule(
  tools: readonly ToolSpec[],
  bannerText: string,
  runtimeImport: string,
  protocolImport: string,
  kind: ToolsModuleKind = "server",
  {
    followTasks = false,
    cache,
    linearPatterns = false,
  }: {
    readonly followTasks?: boolean;
    readonly cache?: CompiledCodeCache;
    /** Run patterns in linear time (re2js), leaving out those it cannot run (check/linear-patterns.ts). */
    readonly linearPatterns?: boolean;
  } = {},
): Promise<EmittedFile[]> {
  const layout = layOutValidators(tools);
  const validators = compileValidators(layout, protocolImport, cache, linearPatterns);
  const file = new TsFileBuilder(TOOLS_MODULE).importValues(protocolImport, "runValidator");
  if (kind === "server") {
    file.importTypes(
      runtimeImport,
      "McpServer",
      "RequestContext",
      "SchemaCheck",
      "Started",
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
  const namespaces = toolNamespaces(tools);
  for (const tool of tools) file.add(toolTypes(tool, namespaces.get(tool.name)!));
  file.add(
    `${jsDoc(`Every tool, as ${kind === "server" ? "tools/list shows it" : "the server listed it"} (from tools.json).`)}${
      tools.length === 0
        ? NO_TOOLS
        : printCode([
            "export const TOOLS = ",
            jsonLiteral(tools as unknown as JsonValue),
            " as const;",
          ])
    }`,
  );
  file.add(
    `${jsDoc("The name of every tool, in order. mcp-gen reads them back to tell which tools a later tools.json adds.")}${printCode(["export const TOOL_NAMES = ", jsonLiteral(tools.map((t) => t.name)), " as const;"])}`,
  );
  file.add(argumentsMap(tools, namespaces));
  file.add(staticFragment("tools/check-adapter.ts"));
  file.add(
    `${jsDoc("The validator modules, each loaded the first time one of its checks runs.")}${validators
      .map(
        (m) =>
          `const ${m.namespace} = lazyModule(() => import(${literal(`./${m.path}`)}), ${literal(m.path)}, ${literal(m.generation)});`,
      )
      .join("\n")}`,
  );
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
          tools.map((t) => [propertyKey(t.name), checksOf(layout.places.get(t.name)!)] as const),
          true,
        ),
        ";",
      ],
    )}`,
  );
  // The fixed code, type-checked in generator/emit/static/tools/ against stand-ins for the parts above.
  file.add(
    staticFragment(
      kind === "server"
        ? "tools/handlers.ts"
        : followTasks
          ? "tools/task-wrappers.ts"
          : "tools/wrappers.ts",
    ),
  );
  return Promise.resolve([
    file.build(bannerText),
    ...validators.flatMap((m) => [
      { path: m.path, contents: `${bannerText}${m.contents}` },
      { path: m.declarations.path, contents: `${bannerText}${m.declarations.contents}` },
    ]),
  ]);
}

/** A tool's entry of TOOL_CHECKS: `{ arguments: check(module, "id"), output: … }`. */
function checksOf(place: { input: ValidatorPlace; output?: ValidatorPlace }): string {
  const check = (p: ValidatorPlace) => `check(${p.namespace}, ${literal(p.id)})`;
  return `{ arguments: ${check(place.input)}${place.output ? `, output: ${check(place.output)}` : ""} }`;
}

/** A tool's namespace of types: `Arguments`, and `StructuredContent` (unknown without an outputSchema). */
export function toolTypes(tool: ToolSpec, ns: string): string {
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

/** The interfaces ToolArguments and ToolOutputs: each tool's types by its name. */
export function argumentsMap(
  tools: readonly ToolSpec[],
  namespaces: ReadonlyMap<string, string>,
): string {
  const members = (type: string, which: readonly ToolSpec[]) =>
    which.map((t) => [propertyKey(t.name), `${namespaces.get(t.name)}.${type}`] as const);
  const structured = tools.filter((t) => t.outputSchema !== undefined);
  return `${jsDoc("The arguments of each tool, by name.")}${printInterface("ToolArguments", members("Arguments", tools))}

${jsDoc("The structured output of each tool that declares an outputSchema, by name.")}${printInterface("ToolOutputs", members("StructuredContent", structured))}`;
}

/** A validator module: its JavaScript, the declarations tsc reads instead, and the name tools.gen.ts gives it. */
interface ValidatorModule extends EmittedFile {
  readonly namespace: string;
  /** The stamp the module exports as GENERATION, which tools.gen.ts checks on loading it. */
  readonly generation: string;
  readonly declarations: EmittedFile;
}

/** Where one compiled validator lives: its module's name in the tools module, and its export. */
export interface ValidatorPlace {
  readonly namespace: string;
  readonly id: string;
}

/** One schema of a validator module: its export name, and the tool schema it is compiled from. */
interface ValidatorEntry {
  readonly id: string;
  readonly tool: string;
  readonly kind: "input" | "output";
  readonly schema: JsonObject;
}

/** The modules of one project's tool validators, before compiling: each module's path, name and schemas. */
interface ValidatorLayout {
  readonly modules: ReadonlyArray<{
    readonly dialect: "2020-12" | "draft-07";
    readonly path: string;
    readonly namespace: string;
    readonly entries: readonly ValidatorEntry[];
  }>;
  /** Per tool, where its arguments' validator and its output's (when it has an outputSchema) live. */
  readonly places: ReadonlyMap<string, { input: ValidatorPlace; output?: ValidatorPlace }>;
}

/**
 * Places every tool schema in a validator module: one series of modules
 * per dialect (2020-12 with Ajv2020, draft-07 with Ajv), each of at most
 * SCHEMAS_PER_VALIDATOR_MODULE schemas, in the order of the tools.
 */
export function layOutValidators(tools: readonly ToolSpec[]): ValidatorLayout {
  const groups = { "2020-12": [] as ValidatorEntry[], "draft-07": [] as ValidatorEntry[] };
  const places = new Map<string, { input: ValidatorPlace; output?: ValidatorPlace }>();
  tools.forEach((tool, i) => {
    const entry = (schema: JsonObject, kind: "input" | "output"): ValidatorPlace => {
      const dialect = dialectOf(schema)!;
      const id = `tool${i}_${kind}`;
      const part = Math.floor(groups[dialect].length / SCHEMAS_PER_VALIDATOR_MODULE);
      groups[dialect].push({ id, tool: tool.name, kind, schema });
      return { namespace: validatorNamespace(dialect, part), id };
    };
    const input = entry(tool.inputSchema, "input");
    const output = tool.outputSchema ? entry(tool.outputSchema, "output") : undefined;
    places.set(tool.name, output ? { input, output } : { input });
  });
  const modules: Array<ValidatorLayout["modules"][number]> = [];
  for (const [dialect, entries] of Object.entries(groups) as Array<
    ["2020-12" | "draft-07", ValidatorEntry[]]
  >) {
    for (let from = 0; from < entries.length; from += SCHEMAS_PER_VALIDATOR_MODULE) {
      const part = from / SCHEMAS_PER_VALIDATOR_MODULE;
      modules.push({
        dialect,
        path: validatorModule(dialect, part),
        namespace: validatorNamespace(dialect, part),
        entries: entries.slice(from, from + SCHEMAS_PER_VALIDATOR_MODULE),
      });
    }
  }
  return { modules, places };
}

/** Compiles every validator module of `layout` with ajv, with the declaration file beside each. */
function compileValidators(
  layout: ValidatorLayout,
  protocolImport: string,
  cache: CompiledCodeCache | undefined,
  linearPatterns: boolean,
): ValidatorModule[] {
  return layout.modules.map((m) => ({
    ...validatorModuleFile(m.dialect, m.path, m.entries, protocolImport, cache, linearPatterns),
    namespace: m.namespace,
    declarations: validatorDeclarations(m.path, m.entries, protocolImport),
  }));
}

/** The declaration file beside a validator module (`x.gen.d.ts` for `x.gen.js`): each export a compiled validator. */
function validatorDeclarations(
  path: string,
  entries: ReadonlyArray<{ id: string }>,
  protocolImport: string,
): EmittedFile {
  return new TsFileBuilder(declarationsPath(path))
    .importTypes(protocolImport, "runValidator")
    .add("type CompiledValidator = Parameters<typeof runValidator>[0];")
    .add(
      `${jsDoc("The stamp of the generation that wrote this module: tools.gen.ts compares it with its own on loading.")}export declare const GENERATION: string;`,
    )
    .add(entries.map((e) => `export declare const ${e.id}: CompiledValidator;`).join("\n"))
    .build("");
}

/** The declaration file's path of a JavaScript module's. */
function declarationsPath(path: string): string {
  return path.replace(/\.js$/, ".d.ts");
}

/** The `$id` a tool schema is compiled under, naming the tool and which of its schemas it is. */
function schemaId(entry: ValidatorEntry): string {
  return `mcp-gen:tool:${escapePointerSegment(entry.tool)}:${entry.kind}`;
}

/**
 * A tool schema as ajv compiles it: its `$schema` left out (the dialect
 * picks the ajv), own properties only, its `$id`; with linear patterns,
 * without the ones re2js cannot run (the project's generation warned of
 * them, MCPG724).
 */
function compiledSchema(entry: ValidatorEntry, linearPatterns: boolean): JsonObject {
  const { $schema: _s, ...rest } = linearPatterns
    ? linearSchema(entry.schema).schema
    : entry.schema;
  return { ...(protoPropertiesAsPatterns(rest) as JsonObject), $id: schemaId(entry) };
}

/** One validator module: `entries` compiled by one ajv of `dialect`, as ajv's standalone code. */
function validatorModuleFile(
  dialect: "2020-12" | "draft-07",
  path: string,
  entries: readonly ValidatorEntry[],
  protocolImport: string,
  cache: CompiledCodeCache | undefined,
  linearPatterns: boolean,
): EmittedFile & { readonly generation: string } {
  const code = compileStandalone(
    {
      schemas: entries.map((e) => compiledSchema(e, linearPatterns)),
      exports: Object.fromEntries(entries.map((e) => [e.id, schemaId(e)])),
    },
    { ...toolAjvChoices(dialect), ...(linearPatterns ? { linearPatterns } : {}) },
    cache,
  );
  // Deno reads a JavaScript module's types from the file this names; tsc and Node go by the file name.
  const module = new TsFileBuilder(path)
    .header(`// @ts-self-types="./${declarationsPath(path)}"`)
    .importValues(protocolImport, ...AJV_RUNTIME_HELPERS);
  // A format that is not a regular expression is a function of ajv-formats: `fullFormats.email` in
  // the code, or `fullFormats["date-time"]` for a name that is no identifier.
  if (new RegExp(`\\b${FORMATS_NAME}\\b`).test(code))
    module.importValues(FORMATS_MODULE, FORMATS_NAME);
  // Patterns run by re2js: the engine ajv's code calls, defined once per module.
  const linear = new RegExp(`\\b${LINEAR_REGEXP_NAME}\\b`).test(code);
  if (linear) module.importValues(LINEAR_REGEXP_MODULE, "RE2JS");
  // The stamp is the validators' code: the same tools give the same stamp, run after run.
  const generation = createHash("sha256").update(code).digest("hex").slice(0, 16);
  return {
    ...module
      .add(AJV_RUNTIME_REQUIRE)
      .add(linear ? LINEAR_REGEXP_CODE : "")
      .add(code)
      .add(`export const GENERATION = ${literal(generation)};`)
      .build(""),
    generation,
  };
}

export type { JsonValue };
