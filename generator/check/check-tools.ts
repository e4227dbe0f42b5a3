/**
 * Checks a tools file's tools before any code is made from them: their
 * shape, their schemas (dialect, no remote `$ref`, size, compiling) and
 * the rules of tool-rules.ts. Every problem is reported together.
 *
 * Tool schemas follow the spec's JSON Schema rules (server/tools): 2020-12
 * when `$schema` is absent, draft-07 when declared, any other dialect an
 * error; remote `$ref`s are never fetched; depth and size are bounded.
 */
import type { Ajv } from "ajv";
import { headerParametersOf } from "../runtime/rules.js";
import { diagnostic, McpGenError, type Diagnostic } from "../diagnostics.js";
import { isJsonObject, jsonText, type JsonObject, type JsonValue } from "../load/json.js";
import { editDistance } from "../load/resolve-spec.js";
import { DIALECT_URIS } from "../shared/json-schema-dialects.js";
import { forEachSchema } from "../shared/schema-walk.js";
import type { ToolSpec } from "../load/tools-file.js";
import { createAjv, toolAjvChoices, type AjvChoices } from "../shared/ajv.js";
import { pointerOfRef } from "./check-sources.js";
import { headerProblems, nameCollisions, toolNamespace } from "./tool-rules.js";

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
        isJsonObject(value) && Array.isArray(value.tools)
          ? {
              reason:
                'tools.json must be an array of tool definitions; this is an object whose "tools" holds them, as a tools/list result does',
              fix: 'keep only its "tools" array, for instance `jq .tools FILE > tools.json` (a client made with --from-server reads a running server\'s tools/list itself)',
            }
          : { reason: "tools.json must be an array of tool definitions" },
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
      ? DIALECT_URIS[schema.$schema]
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
    else if (typeof node.$ref === "string" && inheritedTarget(schema, node.$ref))
      out.push(diagnostic("MCPG718", { ref: node.$ref }, { file, pointer: `${at}/$ref` }));
    for (const wrong of unknownTypes(node.type))
      out.push(
        diagnostic(
          "MCPG719",
          {
            type:
              typeof wrong === "string"
                ? JSON.stringify(jsonText(wrong))
                : jsonText(wrong as JsonValue),
            ...typeSuggestion(wrong),
          },
          { file, pointer: `${at}/type` },
        ),
      );
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
 * Whether a local `$ref` reaches, through a name every JavaScript object
 * inherits (`constructor`, `__proto__`, `toString`, ...), something that is
 * not in the schema: ajv would follow it into Object.prototype (an internal
 * error for `#/constructor`, a validator accepting anything for
 * `#/__proto__`). A name the schema has as its own property is followed as
 * any other.
 */
function inheritedTarget(schema: JsonObject, ref: string): boolean {
  const segments = pointerOfRef(ref);
  if (segments === undefined) return false;
  let node: JsonValue | undefined = schema;
  for (const segment of segments) {
    const own = Array.isArray(node)
      ? /^(0|[1-9]\d*)$/.test(segment) && Number(segment) < node.length
      : isJsonObject(node) && Object.hasOwn(node, segment);
    if (!own) return segment === "__proto__" || segment in Object.prototype;
    node = Array.isArray(node) ? node[Number(segment)] : (node as JsonObject)[segment];
  }
  return false;
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
    ? (checkingAjv[dialect] ??= createAjv(checkingChoices(dialect)))
    : createAjv(checkingChoices(dialect));
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

/** The checking ajv's choices: the tool validators', but its code is thrown away, so it is not optimized. */
function checkingChoices(dialect: "2020-12" | "draft-07"): AjvChoices {
  return { ...toolAjvChoices(dialect), compileOnly: true };
}

/** The seven types of JSON Schema. */
const JSON_SCHEMA_TYPES = ["string", "number", "integer", "boolean", "object", "array", "null"];

/** The values of a `type` keyword that name no JSON Schema type (a typo, most often). */
function unknownTypes(type: unknown): unknown[] {
  if (type === undefined) return [];
  const types = Array.isArray(type) ? type : [type];
  return types.filter((t) => typeof t !== "string" || !JSON_SCHEMA_TYPES.includes(t));
}

/** The type a mistyped `type` was most likely meant to be, when one is within two typos. */
function typeSuggestion(type: unknown): { suggestion?: string } {
  if (typeof type !== "string") return {};
  const near = JSON_SCHEMA_TYPES.filter((t) => editDistance(type.toLowerCase(), t) <= 2);
  return near.length === 1 ? { suggestion: near[0]! } : {};
}
