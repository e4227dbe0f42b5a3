/**
 * The tools a server offers (features.ts) and how a request about them is
 * answered: registration (names checked, each once, in order), tools/list
 * in either era, and tools/call: arguments checked, the call offered to
 * the extensions in use (Tasks: as a task), the result checked against the
 * tool's outputSchema.
 */
import type { Era } from "../core/era.js";
import { Codes, invalidParams, McpError } from "../core/errors.js";
import { extensionOfResultType } from "../core/extensions.js";
import { headerParametersOf, type HeaderParameter } from "../core/headers.js";
import type { ProtocolModule } from "../core/protocol.js";
import { BaseContext, Started, type RequestContext } from "./context.js";
import type { SchemaCheck, ToolDefinition, ToolHandler, ToolResult } from "./definitions.js";
import { NotImplemented } from "./errors.js";
import type { ExtensionsInUse } from "./extension.js";
import type { ListPager } from "./lists.js";
import {
  describeProblems,
  invalidArgumentsResult,
  isObjectSchema,
  isPlainObject,
  isToolResult,
} from "./tool-results.js";
import type { ExtensionResult } from "./typed.js";

/** Tool names: 1 to 128 of `A-Z a-z 0-9 _ - .` (spec: tools, tool names). */
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

interface Tool {
  readonly definition: ToolDefinition;
  readonly handler: ToolHandler;
  readonly checkArguments?: SchemaCheck;
  readonly checkOutput?: SchemaCheck;
}

/** The checks of a tool's arguments and output, from its schemas (the generated tools module makes them). */
export interface ToolChecks {
  readonly checkArguments?: SchemaCheck;
  readonly checkOutput?: SchemaCheck;
}

/** What the tools take from the server that offers them. */
export interface ToolsHost {
  readonly protocol: ProtocolModule;
  readonly lists: ListPager;
  readonly inUse: ExtensionsInUse;
  readonly onError: (error: unknown, where: string) => void;
}

/** A server's tools, in the order they were added. */
export class ServerTools {
  private readonly tools = new Map<string, Tool>();
  private readonly mirrored = new Map<string, ReadonlyArray<HeaderParameter>>();

  constructor(private readonly host: ToolsHost) {}

  /** How many tools there are. */
  get size(): number {
    return this.tools.size;
  }

  /** Every tool's definition, in order. */
  definitions(): ToolDefinition[] {
    return [...this.tools.values()].map((tool) => tool.definition);
  }

  /** Adds a tool. Names are checked (1 to 128 of A-Z a-z 0-9 _ - .) and must be unique; tools/list keeps the order of registration. */
  add(definition: ToolDefinition, handler: ToolHandler, options: ToolChecks = {}): void {
    if (!TOOL_NAME.test(definition.name))
      throw new Error(`tool name "${definition.name}" must be 1 to 128 of A-Z a-z 0-9 _ - .`);
    if (this.tools.has(definition.name))
      throw new Error(`tool "${definition.name}" is already registered`);
    this.host.inUse.checkTool(definition);
    this.mirrored.set(definition.name, headerParametersOf(definition));
    this.tools.set(definition.name, {
      definition,
      // A handlers map from plain JavaScript (or cast past its type) may lack one: calls answer a tool error naming it.
      handler: typeof handler === "function" ? handler : this.missingHandler(definition.name),
      ...(options.checkArguments ? { checkArguments: options.checkArguments } : {}),
      ...(options.checkOutput ? { checkOutput: options.checkOutput } : {}),
    });
  }

  /** Answers every call of a tool registered without a handler with a tool execution error that names it. */
  private missingHandler(name: string): ToolHandler {
    const text = `Tool ${name} has no handler: this server registered it without one (add a handler named "${name}" to its tool handlers)`;
    return () => {
      this.host.onError(new Error(text), `tools/call ${name}`);
      return { content: [{ type: "text", text }], isError: true };
    };
  }

  /** The `x-mcp-header` parameters of a tool, which HTTP clients mirror into `Mcp-Param-*` headers. */
  headerParameters(tool: string): ReadonlyArray<HeaderParameter> {
    return this.mirrored.get(tool) ?? [];
  }

  /**
   * `tools/list`: a page of the tools, in registration order. Before 2026-07-28 an
   * outputSchema had to be an object schema: a legacy client sees a tool
   * with any other outputSchema without it (and its calls without
   * structuredContent, see {@link ServerTools.call}).
   */
  list(
    params: Readonly<Record<string, unknown>> | undefined,
    era: Era = "modern",
  ): Record<string, unknown> {
    return this.host.lists.page("tools/list", this.definitions(), params, (definition) => {
      if (era === "modern") return definition;
      // 2025-11-25 defines execution.taskSupport for its own task mechanism, which this runtime does not serve.
      const { execution: _execution, ...legacyDefinition } = definition;
      if (!legacyDefinition.outputSchema || isObjectSchema(legacyDefinition.outputSchema))
        return legacyDefinition;
      const { outputSchema: _dropped, ...rest } = legacyDefinition;
      return rest;
    });
  }

  /**
   * `tools/call` (spec: tools). An unknown tool is a protocol error
   * (-32602). Arguments that fail the inputSchema are a tool execution
   * error (`isError: true`) listing every problem with its JSON pointer, so
   * a model can correct itself. A handler not written yet answers a tool
   * error too. A tool with an outputSchema must return conforming
   * `structuredContent` unless its result is an error: anything else is
   * the server's bug, reported to `onError` with the tool's name and
   * answered -32603 without internals.
   */
  async call(
    params: Readonly<Record<string, unknown>>,
    ctx: RequestContext,
    era: Era = "modern",
  ): Promise<Record<string, unknown>> {
    const name = params.name as string;
    const tool = this.tools.get(name);
    if (!tool) throw invalidParams(`Unknown tool: ${name}`, { name });
    const args = (params.arguments ?? {}) as Record<string, unknown>;
    if (tool.checkArguments) {
      const checked = await tool.checkArguments(args);
      if (!checked.ok) return invalidArgumentsResult(name, checked.errors);
    }
    this.offerToolCall(tool, ctx);
    let result: ToolResult | Started | ExtensionResult;
    try {
      result = await tool.handler(args, ctx);
    } catch (error) {
      if (error instanceof NotImplemented)
        return { content: [{ type: "text", text: error.message }], isError: true };
      throw error;
    }
    // Checked against its definition, and against the client's capabilities, on its way out (dispatch.ts).
    if (result instanceof Started) return { ...result.result };
    if (this.isExtensionResult(result)) return { ...result };
    return this.checkedToolResult(tool, result, era);
  }

  /** Whether a handler returned a result whose resultType an extension adds (the Tasks extension's, or a user's). */
  private isExtensionResult(result: object): result is ExtensionResult {
    return (
      "resultType" in result &&
      extensionOfResultType(this.host.protocol, (result as ExtensionResult).resultType) !==
        undefined
    );
  }

  /**
   * Asks each extension in use whether it takes this call's work (Tasks:
   * as a task, when the tool supports tasks and the client declared the
   * extension); an extension may also refuse the call. What it offers is
   * what `ctx.runAs(id, work)` hands the work to.
   */
  private offerToolCall(tool: Tool, ctx: RequestContext): void {
    const finish = async (value: unknown): Promise<Record<string, unknown>> => {
      if (value instanceof Started || !isToolResult(value))
        throw new McpError(
          Codes.InternalError,
          "Internal error: the work handed over did not return a tool result",
        );
      return this.checkedToolResult(tool, value, "modern");
    };
    // Every extension may refuse the call; work is handed only to one the request declares (2026-07-28).
    for (const [id, starter] of this.host.inUse.offers({ tool: tool.definition, ctx, finish }))
      if (ctx instanceof BaseContext && ctx.era === "modern" && ctx.declares(id))
        ctx.offer(id, starter);
  }

  /**
   * A tool's result as the client gets it. A tool with an outputSchema must
   * return conforming `structuredContent` unless its result is an error:
   * anything else is the server's bug, reported to `onError` with the
   * tool's name and answered -32603 without internals.
   */
  private async checkedToolResult(
    tool: Tool,
    result: ToolResult,
    era: Era,
  ): Promise<Record<string, unknown>> {
    const name = tool.definition.name;
    if (tool.checkOutput && result.isError !== true) {
      const problem =
        result.structuredContent === undefined
          ? "returned no structuredContent, though it declares an outputSchema"
          : describeProblems(await tool.checkOutput(result.structuredContent));
      if (problem) {
        this.host.onError(new Error(`tool ${name} ${problem}`), `tools/call ${name}`);
        throw new McpError(Codes.InternalError, "Internal error");
      }
    }
    if (
      era === "legacy" &&
      result.structuredContent !== undefined &&
      !isPlainObject(result.structuredContent)
    ) {
      // 2025-11-25 allows only an object here; the content blocks carry the result.
      const { structuredContent: _dropped, ...rest } = result;
      return { ...rest };
    }
    return { ...result };
  }
}
