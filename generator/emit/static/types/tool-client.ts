/**
 * The fixed code of a module `mcp-gen types` writes (emit-tool-types.ts
 * copies what follows the marker line as it is written, after the parts
 * it makes from the tools and the Standard Schema code of
 * ../standard-schema.ts): typed calls over the official MCP SDK's client,
 * each tool's arguments checked before they are sent and its
 * structuredContent when it returns, by the JSON Schema validator the SDK
 * uses; Standard Schemas of every tool; and one function per tool for
 * code mode. What comes before the marker stands in for the rest of the
 * module, so the code is type-checked with mcp-gen's own.
 */
import { fromJsonSchema } from "@modelcontextprotocol/client";
import type {
  CallToolRequestOptions,
  CallToolResult,
  Client,
  JsonSchemaType,
  jsonSchemaValidator,
  Tool,
} from "@modelcontextprotocol/client";
import {
  standardSchema,
  toolJsonSchema,
  type CheckResult,
  type StandardIssue,
  type StandardSchema,
} from "../standard-schema.js";
import {
  TOOL_FORMS,
  TOOLS,
  type ToolApi,
  type ToolArguments,
  type ToolOutputs,
} from "./stand-ins.js";

// mcp-gen copies this file from here on.
/** The name of every tool. */
export type ToolName = keyof ToolArguments;

/** The structured output of a tool: its outputSchema's type, or `unknown` for a tool without one. */
export type ToolOutput<K extends ToolName> = K extends keyof ToolOutputs ? ToolOutputs[K] : unknown;

/** The fields of the SDK's CallToolResult but `isError` and `structuredContent`, which ToolResult types. */
type ResultFields = {
  [
    P in keyof CallToolResult as P extends "structuredContent" | "isError" ? never : P
  ]: CallToolResult[P];
};

/**
 * What {@link callTool} resolves with: the SDK's CallToolResult. For a tool
 * with an outputSchema, a result that is not an error carries
 * structuredContent of the schema's type (checked on return); an error
 * result (`isError: true`) need not.
 */
export type ToolResult<K extends ToolName> = K extends keyof ToolOutputs
  ? | (ResultFields & { readonly isError?: false; readonly structuredContent: ToolOutputs[K] })
    | (ResultFields & { readonly isError: true; readonly structuredContent?: unknown })
  : ResultFields & { readonly isError?: boolean; readonly structuredContent?: unknown };

/** What a code-mode function of a tool without an outputSchema resolves with. */
export type ToolContent = Pick<CallToolResult, "content" | "structuredContent">;

/** Each tool's arguments and structured output as Standard Schemas (`output` undefined without an outputSchema). */
export type ToolSchemas = {
  readonly [K in ToolName]: {
    readonly arguments: StandardSchema<ToolArguments[K]>;
    readonly output: K extends keyof ToolOutputs ? StandardSchema<ToolOutputs[K]> : undefined;
  };
};

/** Options of {@link callTool}: the SDK's options of a call, and the Standard Schemas to check with. */
export type CallOptions = Omit<CallToolRequestOptions, "toolDefinition"> & {
  /** The checks (default {@link TOOL_SCHEMAS}); `toolSchemas(validator)` makes them with another validator. */
  readonly schemas?: ToolSchemas;
};

/** Arguments about to be sent, or a structuredContent received, that the tool's schema refuses. */
export class ToolSchemaError extends Error {
  readonly tool: string;
  readonly part: "arguments" | "structuredContent";
  readonly issues: readonly StandardIssue[];
  constructor(
    tool: string,
    part: "arguments" | "structuredContent",
    issues: readonly StandardIssue[],
  ) {
    super(
      `tool ${tool}: ${part === "arguments" ? "the arguments do not" : "the structuredContent it returned does not"} match its ${part === "arguments" ? "inputSchema" : "outputSchema"}: ${issues.map((i) => i.message).join("; ")}`,
    );
    this.name = "ToolSchemaError";
    this.tool = tool;
    this.part = part;
    this.issues = issues;
  }
}

/** A tool's own error result (`isError: true`), thrown by the code-mode functions of {@link toolFunctions}. */
export class ToolCallError extends Error {
  readonly tool: string;
  readonly result: CallToolResult;
  constructor(tool: string, result: CallToolResult) {
    const text = result.content
      .map((block) => (block.type === "text" ? block.text : `[${block.type}]`))
      .join(" ");
    super(`tool ${tool} reported an error${text ? `: ${text}` : ""}`);
    this.name = "ToolCallError";
    this.tool = tool;
    this.result = result;
  }
}

/** A schema's dialect and the Standard JSON Schema targets it can be given as. */
type SchemaForm = readonly [dialect: string, targets: readonly string[]];

/** TOOLS as the SDK types a tool: each is an entry of the server's tools/list, which mcp-gen checked as a Tool. */
const DEFINITIONS: readonly Tool[] = TOOLS as unknown as readonly Tool[];

/**
 * A Standard Schema of `schema`, checked by `validator` (the SDK's
 * default when undefined), compiled the first time it checks a value.
 */
function lazyStandardSchema<T>(
  schema: Readonly<Record<string, unknown>>,
  form: SchemaForm,
  validator: jsonSchemaValidator | undefined,
): StandardSchema<T> {
  let check: ((value: unknown) => CheckResult) | undefined;
  return standardSchema<T>(
    (value) => (check ??= compileCheck(schema, validator))(value),
    toolJsonSchema(schema, form[0], form[1]),
  );
}

function compileCheck(
  schema: Readonly<Record<string, unknown>>,
  validator: jsonSchemaValidator | undefined,
): (value: unknown) => CheckResult {
  const sdk = fromJsonSchema(schema as JsonSchemaType, validator)["~standard"];
  return (value) => {
    const verdict = sdk.validate(value);
    if (verdict instanceof Promise)
      throw new TypeError(
        "the JSON Schema validator checks asynchronously; a synchronous one is needed",
      );
    return verdict.issues
      ? { ok: false, errors: verdict.issues.map((issue) => ({ path: "", message: issue.message })) }
      : { ok: true };
  };
}

/**
 * Every tool's Standard Schemas, checked by `validator` (default: the
 * one the SDK's client uses, ajv on Node.js and @cfworker/json-schema on
 * Cloudflare Workers). Each schema is compiled the first time it checks.
 */
export function toolSchemas(validator?: jsonSchemaValidator): ToolSchemas {
  const schemas: Record<string, unknown> = {};
  DEFINITIONS.forEach((tool, index) => {
    const [, input, output] = TOOL_FORMS[index]!;
    Object.defineProperty(schemas, tool.name, {
      value: Object.freeze({
        arguments: lazyStandardSchema(tool.inputSchema, input, validator),
        output:
          tool.outputSchema && output
            ? lazyStandardSchema(tool.outputSchema, output, validator)
            : undefined,
      }),
      enumerable: true,
    });
  });
  return Object.freeze(schemas) as ToolSchemas;
}

/** Every tool's Standard Schemas, checked by the SDK's default validator. */
export const TOOL_SCHEMAS: ToolSchemas = toolSchemas();

/**
 * Calls tool `name` through the SDK's client: the arguments are checked
 * against its inputSchema before anything is sent, and a result that is
 * not an error against its outputSchema. Throws {@link ToolSchemaError}
 * when either does not match; the SDK's own errors as the SDK throws them.
 */
export async function callTool<K extends ToolName>(
  client: Client,
  name: K,
  args: ToolArguments[K],
  options: CallOptions = {},
): Promise<ToolResult<K>> {
  const { schemas = TOOL_SCHEMAS, ...requestOptions } = options;
  if (!Object.hasOwn(schemas, name))
    throw new TypeError(`${JSON.stringify(name)} is not a tool of this module`);
  const checks: {
    readonly arguments: StandardSchema<unknown>;
    readonly output: StandardSchema<unknown> | undefined;
  } = schemas[name];
  const sent = checks.arguments["~standard"].validate(args);
  if (sent.issues) throw new ToolSchemaError(name, "arguments", sent.issues);
  const definition = DEFINITIONS.find((tool) => tool.name === name);
  const result = await client.callTool(
    { name, arguments: argumentsObject(args) },
    definition ? { ...requestOptions, toolDefinition: definition } : requestOptions,
  );
  if (checks.output && result.isError !== true) {
    const received =
      result.structuredContent === undefined
        ? {
            issues: [
              { message: "structuredContent is missing, though the tool declares an outputSchema" },
            ],
          }
        : checks.output["~standard"].validate(result.structuredContent);
    if (received.issues) throw new ToolSchemaError(name, "structuredContent", received.issues);
  }
  return result as ToolResult<K>;
}

/** Arguments as the SDK's client takes them: an object, as every inputSchema says (checked above). */
function argumentsObject(value: unknown): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new TypeError("a tool's arguments are an object");
  return value as Record<string, unknown>;
}

/**
 * The tools as one function each, named as {@link ToolApi} names them
 * (what the API description of code mode declares): a function resolves
 * with the tool's structuredContent when the tool has an outputSchema,
 * else with its content; a tool's error result is thrown as
 * {@link ToolCallError}. Calls go through {@link callTool}, checked both
 * ways.
 */
export function toolFunctions(client: Client, options: CallOptions = {}): ToolApi {
  const api: Record<string, unknown> = {};
  DEFINITIONS.forEach((tool, index) => {
    const [functionName] = TOOL_FORMS[index]!;
    const call = async (args?: unknown) => {
      // Widened: with no tools, ToolResult<ToolName> is never, whose members cannot be read.
      const result: CallToolResult = await callTool(
        client,
        tool.name as ToolName,
        (args ?? {}) as ToolArguments[ToolName],
        options,
      );
      if (result.isError === true) throw new ToolCallError(tool.name, result);
      return tool.outputSchema
        ? result.structuredContent
        : { content: result.content, structuredContent: result.structuredContent };
    };
    Object.defineProperty(api, functionName, { value: call, enumerable: true });
  });
  return Object.freeze(api) as unknown as ToolApi;
}
