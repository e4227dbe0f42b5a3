/**
 * emitToolSchemas: a project's tools as Standard Schema V1 objects with
 * Standard JSON Schema (`src/generated/tool-schemas.gen.ts`): each tool's
 * arguments and structured output, typed by tools.gen.ts's declarations,
 * checked by the tool validators TOOL_CHECKS runs and described by the
 * schemas tools.json declares. What a project built on the official MCP
 * SDK passes to `registerTool` as inputSchema and outputSchema. Standard
 * Schemas validate synchronously, so this module imports its validator
 * modules at once, where TOOL_CHECKS loads them on first use.
 */
import { dialectOf } from "../check/check-tools.js";
import type { JsonObject } from "../load/json.js";
import type { ToolSpec } from "../load/tools-file.js";
import { hardline, indent } from "./doc.js";
import type { EmittedFile } from "./file.js";
import { TsFileBuilder } from "./file.js";
import { layOutValidators, type ValidatorPlace } from "./emit-tools.js";
import { jsonSchemaTargets } from "./json-schema-targets.js";
import { jsDoc, literal, propertyKey } from "./names.js";
import { jsonLiteral, objectLiteral, parameterList, printCode } from "./ts-print.js";

/** The module path inside `src/generated/`. */
export const TOOL_SCHEMAS_MODULE = "tool-schemas.gen.ts";

/**
 * Emits tool-schemas.gen.ts, beside tools.gen.ts (`toolsModule`, its
 * specifier) and importing the Standard Schema code from `protocolImport`.
 */
export function emitToolSchemas(
  tools: readonly ToolSpec[],
  bannerText: string,
  toolsModule: string,
  protocolImport: string,
): EmittedFile {
  const layout = layOutValidators(tools);
  const file = new TsFileBuilder(TOOL_SCHEMAS_MODULE)
    .importValues(protocolImport, "runValidator", "standardSchema", "toolJsonSchema")
    .importTypes(protocolImport, "StandardSchema")
    .importValues(toolsModule, "TOOLS")
    .importTypes(toolsModule, "ToolArguments", "ToolOutputs");
  for (const module of layout.modules)
    file.importNamespace(`./${module.path}`, module.namespace, false);
  file.add(
    `${jsDoc("Each tool's arguments and structured output as Standard Schema V1 objects with Standard JSON Schema (`~standard.validate`, `~standard.jsonSchema`), typed by ToolArguments and ToolOutputs and checked like every call the runtime serves: what the official MCP SDK's `registerTool` takes as `inputSchema` and `outputSchema`. `output` is undefined for a tool without an outputSchema.")}${printCode(
      [
        "export const TOOL_SCHEMAS: {",
        indent([
          hardline,
          "readonly [K in keyof ToolArguments]: {",
          indent([
            hardline,
            "readonly arguments: StandardSchema<ToolArguments[K]>;",
            hardline,
            "readonly output: K extends keyof ToolOutputs ? StandardSchema<ToolOutputs[K]> : undefined;",
          ]),
          hardline,
          "};",
        ]),
        hardline,
        "} = ",
        objectLiteral(
          tools.map(
            (tool, i) =>
              [propertyKey(tool.name), toolEntry(tool, i, layout.places.get(tool.name)!)] as const,
          ),
          true,
        ),
        ";",
      ],
    )}`,
  );
  return file.build(bannerText);
}

/** `{ arguments: standardSchema(check, toolJsonSchema(schema, dialect, targets)), output: … }` for the `index`-th tool. */
function toolEntry(
  tool: ToolSpec,
  index: number,
  place: { input: ValidatorPlace; output?: ValidatorPlace },
) {
  const check = (p: ValidatorPlace) =>
    `(value: unknown) => runValidator(${p.namespace}.${p.id}, value)`;
  const schema = (check: string, path: string, declared: JsonObject) => {
    const dialect = dialectOf(declared) ?? "2020-12";
    const described = [
      "toolJsonSchema",
      parameterList([
        path,
        literal(dialect === "2020-12" ? "draft-2020-12" : "draft-07"),
        jsonLiteral(jsonSchemaTargets(dialect, [declared])),
      ]),
    ];
    return ["standardSchema", parameterList([check, described])];
  };
  return objectLiteral([
    ["arguments", schema(check(place.input), `TOOLS[${index}].inputSchema`, tool.inputSchema)],
    [
      "output",
      tool.outputSchema && place.output
        ? schema(check(place.output), `TOOLS[${index}].outputSchema`, tool.outputSchema)
        : "undefined",
    ],
  ]);
}
