/**
 * What an MCP server offers (tools, resources, resource templates,
 * prompts, completions, methods of extensions) and the era-independent
 * handling of each feature request; the tools and their calls are
 * tool-calls.ts's. McpServer (server.ts) adds the two entry points
 * transports call; the eras (modern.ts, legacy.ts) parse, route
 * (dispatch.ts) and shape results around these handlers.
 */
import type { Era } from "../core/era.js";
import type { Authorization } from "../core/exchange.js";
import { ForeignDataError, invalidParams, type McpError } from "../core/errors.js";
import { extensionOfNotification, extensionOfRequest } from "../core/extensions.js";
import { nameParameterOf, type HeaderParameter } from "../core/headers.js";
import type { JsonRpcMessage } from "../core/jsonrpc.js";
import { validateDefinition, type ProtocolModule } from "../core/protocol.js";
import { checkedNotification, INPUT_KINDS, type RequestContext } from "./context.js";
import type {
  CompletionHandler,
  CompletionResult,
  MethodHandler,
  PromptDefinition,
  PromptHandler,
  PromptResult,
  ReadResult,
  ResourceDefinition,
  ResourceReader,
  ResourceTemplateDefinition,
  SchemaCheck,
  ServerOptions,
  ToolDefinition,
  ToolHandler,
  ToolResult,
  TypedMethodHandler,
} from "./definitions.js";
import { answeringStubs, notImplementedAsError } from "./errors.js";
import { ExtensionsInUse, type ServerExtension } from "./extension.js";
import type { TaskRunner } from "./tasks.js";
import { taskRunner, tasksExtension } from "./tasks-extension.js";
import { RANDOM_CURSOR_KEY_WARNING } from "./cursors.js";
import { ListPager, listOptionsFromEnvironment } from "./lists.js";
import { RANDOM_KEY_WARNING, RequestStateCodec } from "./request-state.js";
import {
  keepWithin,
  SERVER_LIMITS,
  serverLimitsFromEnvironment,
  type ServerLimits,
} from "./limits.js";
import {
  agreedCoreFilter,
  ChangeHub,
  type Change,
  type ChangeBus,
  type SubscriptionFilter,
} from "./subscriptions.js";
import { templateMatcher } from "./uri-template.js";
import { ServerTools, type ToolChecks } from "./tool-calls.js";
import type {
  NotificationName,
  NotificationParamsFor,
  ServerTypes,
  UntypedServer,
} from "./typed.js";

/** The shapes of features and handlers (definitions.ts), also importable from here. */
export type {
  CompletionHandler,
  CompletionResult,
  MethodHandler,
  PromptDefinition,
  PromptHandler,
  PromptResult,
  ReadResult,
  ResourceDefinition,
  ResourceReader,
  ResourceTemplateDefinition,
  SchemaCheck,
  ServerOptions,
  ToolDefinition,
  ToolHandler,
  ToolResult,
  TypedMethodHandler,
};

interface TemplateEntry {
  readonly definition: ResourceTemplateDefinition;
  readonly match: (uri: string) => Record<string, string> | undefined;
  readonly read: ResourceReader;
}

/**
 * An MCP server's features and their handling, whatever the era and the
 * transport. `T`, the generated maps of the revision served, types the
 * handlers of `method` (see typed.ts); it does not change what runs.
 */
export class ServerFeatures<T extends ServerTypes = UntypedServer> {
  readonly protocol: ProtocolModule;
  readonly legacy?: ProtocolModule;
  readonly info: ServerOptions["info"];
  readonly instructions?: string;
  readonly requestState: RequestStateCodec;
  readonly cache: { readonly ttlMs: number; readonly cacheScope: "public" | "private" };
  readonly validateResults: boolean;
  /** Pages tools/list, resources/list, resources/templates/list and prompts/list (lists.ts). */
  readonly lists: ListPager;
  readonly changes = new ChangeHub();
  /** What one client may make the server keep (limits.ts). */
  readonly limits: ServerLimits;
  readonly onError: (error: unknown, where: string) => void;
  private readonly extensions: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  private readonly tools: ServerTools;
  private readonly resources = new Map<
    string,
    { definition: ResourceDefinition; read: ResourceReader }
  >();
  private readonly templates: TemplateEntry[] = [];
  private readonly prompts = new Map<
    string,
    { definition: PromptDefinition; handler: PromptHandler }
  >();
  private completion?: CompletionHandler;
  private readonly methods = new Map<string, MethodHandler>();
  /** The run-time parts of extensions (`use`), the Tasks extension's among them. */
  private readonly inUse = new ExtensionsInUse();
  /** Runs the tasks of the Tasks extension; undefined when the protocol module lacks it. */
  readonly tasks?: TaskRunner;
  private readonly changeBus?: ChangeBus;
  /** Whether other instances may serve this server's clients: it was given a shared task store, change bus or session store. */
  private readonly sharesState: boolean;

  constructor(options: ServerOptions) {
    this.protocol = options.protocol;
    if (options.legacy) this.legacy = options.legacy;
    this.info = options.info;
    if (options.instructions !== undefined) this.instructions = options.instructions;
    this.requestState = options.requestState ?? RequestStateCodec.fromEnvironment();
    this.cache = options.cache ?? { ttlMs: 0, cacheScope: "private" };
    this.validateResults = options.validateResults ?? true;
    this.lists = new ListPager(options.lists ?? listOptionsFromEnvironment());
    this.extensions = options.extensions ?? {};
    this.sharesState = Boolean(options.tasks?.store ?? options.changeBus ?? options.sessions);
    this.onError =
      options.onError ??
      ((error, where) =>
        process.stderr.write(
          `mcp server: ${where}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
        ));
    this.tools = new ServerTools({
      protocol: this.protocol,
      lists: this.lists,
      inUse: this.inUse,
      onError: (error, where) => this.onError(error, where),
    });
    this.limits = { ...SERVER_LIMITS, ...(options.limits ?? serverLimitsFromEnvironment()) };
    if (options.changeBus) {
      this.changeBus = options.changeBus;
      this.changes.relay(options.changeBus, (change) => this.relayable(change));
    }
    if (Object.hasOwn(this.protocol.METHODS, "tasks/get")) {
      this.tasks = taskRunner(options.tasks, {
        publish: (change) => this.changes.publish(change),
        listening: () => this.changes.size > 0,
        protocol: this.protocol,
        capabilities: () => this.capabilities(),
        checkAnswer: (method, answer) =>
          validateDefinition(this.protocol, INPUT_KINDS[method].answer, answer).ok,
        onError: (error, where) => this.onError(error, where),
      });
      this.inUse.add(tasksExtension(this.tasks, this.protocol), this.protocol, []);
    }
  }

  /**
   * Adds the run-time part of an extension (extension.ts): its requests,
   * listen fields and tools/call offers, served by the same rules as the
   * Tasks extension's. Its methods must be in the protocol module (the
   * extension merged into the revision), and its tools checks apply to
   * the tools registered before it too.
   */
  use(extension: ServerExtension<T>): this {
    const definitions = this.tools.definitions();
    // The maps only type the extension's handlers; the runtime validates what they get and return.
    this.inUse.add(extension as ServerExtension, this.protocol, definitions);
    return this;
  }

  /** Adds a tool. Names are checked (1 to 128 of A-Z a-z 0-9 _ - .) and must be unique; tools/list keeps the order of registration. */
  tool(definition: ToolDefinition, handler: ToolHandler, options: ToolChecks = {}): this {
    this.tools.add(definition, handler, options);
    return this;
  }

  /** The `x-mcp-header` parameters of a tool, which HTTP clients mirror into `Mcp-Param-*` headers. */
  headerParameters(tool: string): ReadonlyArray<HeaderParameter> {
    return this.tools.headerParameters(tool);
  }

  /** The params member a request mirrors into `Mcp-Name`: the core's, or a merged extension's (Tasks: taskId). */
  nameParameter(method: string): string | undefined {
    return nameParameterOf(this.protocol, method);
  }

  /** Adds a resource with a fixed URI. */
  resource(definition: ResourceDefinition, read: ResourceReader<T>): this {
    this.resources.set(definition.uri, { definition, read });
    return this;
  }

  /** Adds a resource template: `{id}` matches one path segment, `{+path}` may span several (RFC 6570; the rules are in uri-template.ts). */
  resourceTemplate(definition: ResourceTemplateDefinition, read: ResourceReader<T>): this {
    this.templates.push({ definition, match: templateMatcher(definition.uriTemplate), read });
    return this;
  }

  /** Adds a prompt. */
  prompt(definition: PromptDefinition, handler: PromptHandler<T>): this {
    this.prompts.set(definition.name, { definition, handler });
    return this;
  }

  /** Sets the completion handler (argument autocompletion for prompts and resource templates). */
  completions(handler: CompletionHandler): this {
    this.completion = handler;
    return this;
  }

  /**
   * Handles a request method of the protocol module that has no built-in
   * handler, typically an extension's (`jobs/get`). Requests are validated
   * against their definition first, and results are shaped and checked as
   * for every other method. A method of an extension is answered -32021
   * for a client that did not declare the extension, before the handler
   * runs. On a typed server (`McpServer<Types>`) params and result are
   * typed by the generated maps.
   */
  method<M extends string>(name: M, handler: TypedMethodHandler<T, M>): this {
    // The maps only type the handler; the runtime validates what it gets and returns.
    this.methods.set(name, handler as unknown as MethodHandler);
    return this;
  }

  /** The handler registered for `method` with {@link ServerFeatures.method}, if any. */
  customMethod(method: string): MethodHandler | undefined {
    return answeringStubs(this.methods.get(method));
  }

  /** The handler of `method` an extension in use serves (2026-07-28 era only), if any. */
  extensionMethod(method: string): MethodHandler | undefined {
    return answeringStubs(this.inUse.method(method));
  }

  /** Rewrites a request before it is validated, when an extension in use prepares its method. */
  prepare(message: JsonRpcMessage): Promise<JsonRpcMessage> {
    return this.inUse.prepare(message);
  }

  /**
   * Releases what the server holds beyond its transports: what extensions
   * hold (running tasks are aborted, the task store closed) and the change
   * bus. For the end of the process (after the transport stopped) and for
   * tests.
   */
  async close(): Promise<void> {
    await Promise.all([this.inUse.close(), this.changeBus?.close()]);
  }

  /**
   * The instance stops, after its transport stopped taking requests: tasks
   * whose work runs here get `graceMs` to end, the others are failed at
   * once ("the instance running this task stopped") instead of staying
   * "working" until their lease lapses; then everything is closed. The
   * HTTP transport calls this on shutdown (SIGTERM) with what is left of
   * its deadline.
   */
  async shutdown(graceMs = 0): Promise<void> {
    await this.inUse.stop(graceMs);
    await this.close();
  }

  /** Tells listeners that the tool list changed. */
  notifyToolsChanged(): void {
    this.changes.publish({ kind: "tools" });
  }

  /** Tells listeners that the prompt list changed. */
  notifyPromptsChanged(): void {
    this.changes.publish({ kind: "prompts" });
  }

  /** Tells listeners that the resource list changed. */
  notifyResourcesChanged(): void {
    this.changes.publish({ kind: "resources" });
  }

  /** Tells listeners subscribed to `uri` that it changed. */
  notifyResourceUpdated(uri: string): void {
    this.changes.publish({ kind: "resource", uri });
  }

  /** Publishes a change (for tests and custom transports). */
  publish(change: Change): void {
    this.changes.publish(change);
  }

  /**
   * Sends a notification of an extension to the listen streams that asked
   * for `to.key` under the filter field `to.field` (one of the
   * `listenFields` of an extension in use), on every instance with a change
   * bus. It is checked against its definition first (an invalid one
   * throws), and a notification of another extension than the field's is
   * refused, so that it reaches only clients that declared its extension.
   */
  notifyListeners<M extends NotificationName<T>>(
    method: M,
    params: NotificationParamsFor<T, M>,
    to: { readonly field: string; readonly key: string },
  ): void {
    this.inUse.checkListenField(to.field, extensionOfNotification(this.protocol, method), method);
    const message = checkedNotification(this.protocol, method, params);
    this.changes.publish({
      kind: "keyed",
      field: to.field,
      key: to.key,
      method,
      params: message.params,
    });
  }

  /** The server's capabilities, from what is registered. */
  capabilities(): Record<string, unknown> {
    const caps: Record<string, unknown> = { logging: {} };
    if (this.tools.size > 0) caps.tools = { listChanged: true };
    if (this.resources.size > 0 || this.templates.length > 0)
      caps.resources = { subscribe: true, listChanged: true };
    if (this.prompts.size > 0) caps.prompts = { listChanged: true };
    if (this.completion) caps.completions = {};
    const extensions = this.inUse.capabilities(this.extensions);
    if (Object.keys(extensions).length > 0) caps.extensions = extensions;
    return caps;
  }

  /**
   * What a server that shares a store with other instances (a task store,
   * change bus or session store was given) should know at start: a key made
   * at random, which the other instances do not have. One instance, or
   * stdio, has nothing to hear: its tokens come back to it.
   */
  deploymentWarnings(): readonly string[] {
    if (!this.sharesState) return [];
    if (this.requestState.randomKey) return [RANDOM_KEY_WARNING];
    return this.lists.cursors.randomKey ? [RANDOM_CURSOR_KEY_WARNING] : [];
  }

  /** Whether a feature method is offered (methods of features nothing was registered for are "not found"). */
  offers(method: string): boolean {
    // An extension's method (Skills' resources/directory/read) is offered as its negotiation rule says.
    if (extensionOfRequest(this.protocol, method) !== undefined) return true;
    if (method.startsWith("tools/")) return this.tools.size > 0;
    if (method.startsWith("resources/"))
      return this.resources.size > 0 || this.templates.length > 0;
    if (method.startsWith("prompts/")) return this.prompts.size > 0;
    if (method === "completion/complete") return this.completion !== undefined;
    return true;
  }

  /** `tools/list`: a page of the tools, in registration order (tool-calls.ts). */
  listTools(
    params: Readonly<Record<string, unknown>> | undefined,
    era: Era = "modern",
  ): Record<string, unknown> {
    return this.tools.list(params, era);
  }

  /** `tools/call` (tool-calls.ts). */
  callTool(
    params: Readonly<Record<string, unknown>>,
    ctx: RequestContext,
    era: Era = "modern",
  ): Promise<Record<string, unknown>> {
    return this.tools.call(params, ctx, era);
  }

  /** `resources/list`: a page of the fixed resources, in registration order. */
  listResources(params: Readonly<Record<string, unknown>> | undefined): Record<string, unknown> {
    const definitions = [...this.resources.values()].map((r) => r.definition);
    return this.lists.page("resources/list", definitions, params, (d) => d);
  }

  /** `resources/templates/list`: a page of the resource templates, in registration order. */
  listResourceTemplates(
    params: Readonly<Record<string, unknown>> | undefined,
  ): Record<string, unknown> {
    const definitions = this.templates.map((t) => t.definition);
    return this.lists.page("resources/templates/list", definitions, params, (d) => d);
  }

  /** `resources/read`: a fixed resource, else the first template that matches; `notFound` builds the era's error. */
  async readResource(
    params: Readonly<Record<string, unknown>>,
    ctx: RequestContext,
    notFound: (uri: string) => McpError,
  ): Promise<Record<string, unknown>> {
    const uri = params.uri as string;
    const fixed = this.resources.get(uri);
    if (fixed) return { ...(await notImplementedAsError(() => fixed.read(uri, {}, ctx))) };
    for (const template of this.templates) {
      const variables = template.match(uri);
      if (variables)
        return { ...(await notImplementedAsError(() => template.read(uri, variables, ctx))) };
    }
    throw notFound(uri);
  }

  /** `prompts/list`: a page of the prompts, in registration order. */
  listPrompts(params: Readonly<Record<string, unknown>> | undefined): Record<string, unknown> {
    const definitions = [...this.prompts.values()].map((p) => p.definition);
    return this.lists.page("prompts/list", definitions, params, (d) => d);
  }

  /** `prompts/get`: checks required arguments, runs the handler. */
  async getPrompt(
    params: Readonly<Record<string, unknown>>,
    ctx: RequestContext,
  ): Promise<Record<string, unknown>> {
    const name = params.name as string;
    const prompt = this.prompts.get(name);
    if (!prompt) throw invalidParams(`Unknown prompt: ${name}`, { name });
    const args = (params.arguments ?? {}) as Record<string, string>;
    const missing = (prompt.definition.arguments ?? [])
      .filter((a) => a.required && args[a.name] === undefined)
      .map((a) => a.name);
    if (missing.length > 0)
      throw invalidParams(`Missing required arguments for prompt ${name}: ${missing.join(", ")}`, {
        missing,
      });
    return { ...(await notImplementedAsError(() => prompt.handler(args, ctx))) };
  }

  /** `completion/complete`. */
  async complete(
    params: Readonly<Record<string, unknown>>,
    ctx: RequestContext,
  ): Promise<Record<string, unknown>> {
    const completion = await notImplementedAsError(() => this.completion!(params, ctx));
    return { completion: { ...completion, values: [...completion.values].slice(0, 100) } };
  }

  /**
   * What a listen request subscribes to here: the asked-for filter, minus
   * what the server cannot deliver and the keys an extension does not
   * authorize. -32021 for an extension's field (`taskIds`) asked without
   * declaring the extension; -32602 for a filter past maxListenFilterBytes.
   */
  async listenFilter(
    requested: Readonly<Record<string, unknown>>,
    capabilities: Readonly<Record<string, unknown>>,
    authorization: Authorization | undefined,
  ): Promise<SubscriptionFilter> {
    const refusal = this.inUse.listenRefusal(requested, capabilities);
    if (refusal) throw refusal;
    keepWithin(requested, this.limits, "maxListenFilterBytes", "the listen filter's keys");
    const resources = this.resources.size > 0 || this.templates.length > 0;
    const offered = { tools: this.tools.size > 0, prompts: this.prompts.size > 0, resources };
    const extensions = await this.inUse.listenFields(requested, authorization);
    return { ...agreedCoreFilter(requested, offered), ...extensions };
  }

  /** Whether a change heard from another instance may reach listen streams (ExtensionsInUse.relayProblem). */
  private relayable(change: Change): boolean {
    const problem = change.kind === "keyed" ? this.inUse.relayProblem(change, this.protocol) : "";
    if (problem)
      this.onError(
        new ForeignDataError(`a change on the change bus was dropped: ${problem}`),
        "change bus",
      );
    return !problem;
  }
}
