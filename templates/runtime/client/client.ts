/**
 * McpClient: the protocol side of an MCP client, over any ClientChannel
 * (transport/: Streamable HTTP, stdio). It knows nothing of HTTP.
 *
 * - Eras (spec: versioning): `connect` probes with `server/discover`,
 *   speaking the modern revision; a DiscoverResult or a modern error
 *   (UnsupportedProtocolVersionError: retry with a version the server
 *   lists) keeps the client modern, anything else means a legacy server,
 *   which gets `initialize` and a session. A later
 *   UnsupportedProtocolVersionError renegotiates and retries once.
 * - Every modern request carries the `_meta` envelope; every response is
 *   checked against the revision's schema (generated validators) before it
 *   is returned; a missing resultType is "complete", an unknown one is an
 *   error.
 * - Multi Round-Trip Requests: an InputRequiredResult is answered with the
 *   input handlers and the request retried with a fresh id, the answers in
 *   `inputResponses` and the server's `requestState` echoed as received,
 *   up to `maxRounds` rounds.
 * - Progress, logs and listen streams are routed to the request they
 *   belong to (incoming.ts, which also answers a legacy server's
 *   requests); cancellation is an AbortSignal (on stdio and in legacy
 *   sessions it is also a `notifications/cancelled`).
 */
import { awaitTask, type AwaitTaskOptions } from "./tasks.js";
import type { ClientChannel } from "../core/channel.js";
import { FIRST_MODERN, META } from "../core/era.js";
import { nameParameterOf } from "../core/headers.js";
import { Codes, McpError, RemoteError } from "../core/errors.js";
import { methodRefusal } from "../core/extensions.js";
import { isJsonObject, paramsOf, type JsonRpcId, type JsonRpcMessage } from "../core/jsonrpc.js";
import { mrtrResultType, requestEntry } from "../core/protocol.js";
import { withEnvelope } from "./envelope.js";
import { errorOf, InvalidResponseError, readError } from "./errors.js";
import {
  inputCapabilities,
  type InputHandlers,
  type InputTypes,
  type UntypedInputs,
} from "./inputs.js";
import {
  Negotiation,
  type NegotiationSettings,
  type ServerDescription,
  type Speaking,
} from "./negotiation.js";
import { ListReader, type ListLimits, type ListMethod } from "./lists.js";
import { parseResponseOf } from "./protocol.js";
import { answerInputs, completeRounds } from "./rounds.js";
import { checkToolOutput, ToolDirectory, type SchemaCheck } from "./tools.js";
import { Incoming } from "./incoming.js";

export type { ClientInfo, ServerDescription } from "./negotiation.js";
export { checkToolOutput, type SchemaCheck } from "./tools.js";

/** How a client is set up. */
export interface ClientOptions<T extends InputTypes = UntypedInputs> extends NegotiationSettings {
  /** The transport: `connectHttp(url)` or `await spawnStdio({ command })`. */
  readonly channel: ClientChannel;
  /** Handlers of the server's requests for input; each one present is declared as a capability. */
  readonly handlers?: InputHandlers<T>;
  /** Capabilities besides those the handlers imply (extensions, url-mode elicitation), merged over them. */
  readonly capabilities?: Readonly<Record<string, unknown>>;
  /** The most rounds of a Multi Round-Trip Request before it fails (default 10). */
  readonly maxRounds?: number;
  /** How long a request waits for its response, unless it says otherwise (default 60 s; 0: no limit). */
  readonly timeoutMs?: number;
  /** Notifications that belong to no request (list changes of a legacy session, logs). */
  readonly onNotification?: (notification: JsonRpcMessage) => void;
  /** Problems that fail no request (a tool left out of tools/list, an invalid notification). */
  readonly onWarning?: (message: string) => void;
  /** How far the list helpers (listTools, …) follow a server's pages: maxPages (100), maxItems (10000). */
  readonly lists?: ListLimits;
}

/** How one request is made. */
export interface RequestOptions {
  readonly signal?: AbortSignal;
  /** Overrides the client's `timeoutMs` for this request (0: no limit). */
  readonly timeoutMs?: number;
  /** Asks the server for progress (a progress token is sent) and receives it. */
  readonly onProgress?: (progress: {
    readonly progress: number;
    readonly total?: number;
    readonly message?: string;
  }) => void;
  /** The least severe log level the server may send for this request (modern era). */
  readonly logLevel?: string;
  /** Log messages (`notifications/message`) about this request. */
  readonly onLog?: (params: Record<string, unknown>) => void;
  /** Any other notification about this request. */
  readonly onNotification?: (notification: JsonRpcMessage) => void;
}

/** How a tool is called. */
export interface CallToolOptions extends RequestOptions {
  /** Checks of the tool's arguments (before sending) and its structuredContent (on return). */
  readonly checks?: { readonly arguments?: SchemaCheck; readonly output?: SchemaCheck };
}

/** An open `subscriptions/listen` stream. */
export interface Subscription {
  /** The subscription's id (the JSON-RPC id of its request). */
  readonly id: JsonRpcId;
  /** The notification filter the server agreed to, once it acknowledged the subscription. */
  readonly acknowledged: Promise<Record<string, unknown>>;
  /** Settles when the subscription ends: resolves when the client closed it or the server ended it gracefully. */
  readonly closed: Promise<void>;
  /** Ends the subscription. */
  close(): void;
}

const DEFAULT_TIMEOUT_MS = 60_000;

/** An MCP client of one server. */
export class McpClient<T extends InputTypes = UntypedInputs> {
  private readonly channel: ClientChannel;
  /** The input handlers, as the revision-independent code sees them. */
  private readonly handlers: InputHandlers<InputTypes>;
  private readonly tools = new ToolDirectory();
  private readonly lists: ListReader;
  private readonly capabilities: Readonly<Record<string, unknown>>;
  private readonly incoming: Incoming;
  private readonly subscriptions = new Set<AbortController>();
  private readonly negotiation: Negotiation;
  private speaking?: Speaking;
  private description?: ServerDescription;
  private connecting?: Promise<ServerDescription>;
  private lastId = 0;

  constructor(private readonly options: ClientOptions<T>) {
    this.channel = options.channel;
    this.handlers = (options.handlers ?? {}) as unknown as InputHandlers<InputTypes>;
    this.lists = new ListReader(options.lists);
    this.incoming = new Incoming({
      channel: this.channel,
      handlers: this.handlers,
      lists: this.lists,
      // Until the server's revision is known, the client's own modules judge what it sends.
      speaking: () => this.speaking?.module,
      protocol: options.protocol,
      ...(options.legacy ? { legacy: options.legacy } : {}),
      ...(options.onNotification ? { onNotification: options.onNotification } : {}),
      warn: (message) => this.warn(message),
    });
    this.channel.onMessage = (message) => this.incoming.unsolicited(message);
    this.capabilities = {
      ...inputCapabilities(this.handlers),
      ...options.capabilities,
    };
    this.negotiation = new Negotiation({
      settings: options,
      channel: this.channel,
      capabilities: this.capabilities,
      nextId: () => this.nextId(),
      exchange: (speaking, id, method, params, exchangeOptions) =>
        this.exchange(speaking, id, method, params, exchangeOptions),
      resultOf: (speaking, method, params, response) =>
        this.resultOf(speaking, method, params, response),
      speak: (speaking) => (this.speaking = speaking),
    });
  }

  /** The server, once connected. */
  get server(): ServerDescription | undefined {
    return this.description;
  }

  /**
   * Finds out how to talk to the server (see the file's comment) and
   * resolves with what it learned. Requests connect on their own; calling
   * it first only makes failures come earlier.
   */
  connect(): Promise<ServerDescription> {
    this.connecting ??= this.negotiation
      .negotiate()
      .then((description) => (this.description = description))
      .catch((error: unknown) => {
        this.connecting = undefined;
        throw error;
      });
    return this.connecting;
  }

  /**
   * Sends a request of the revision in use and resolves with its checked,
   * completed result: Multi Round-Trip Requests are driven to the end, a
   * tools/list leaves out tools with invalid header annotations. Rejects with
   * RemoteError (the server's error), InvalidResponseError, ChannelError,
   * McpError (timeout, too many rounds) or the signal's reason.
   */
  async request(
    method: string,
    params: Readonly<Record<string, unknown>> = {},
    options: RequestOptions = {},
  ): Promise<Record<string, unknown>> {
    await this.connect();
    return this.requestOnce(method, params, options, false);
  }

  /**
   * Every tool, resource, resource template or prompt of the server: the
   * list is followed along `nextCursor` to its end (bounded by the
   * client's `lists` limits: a ListError past them or on a cursor loop),
   * and each page is kept for its `ttlMs` until the matching
   * list_changed notification arrives (lists.ts).
   */
  listTools = (options: RequestOptions = {}) => this.listAll("tools/list", options);
  listResources = (options: RequestOptions = {}) => this.listAll("resources/list", options);
  listResourceTemplates = (options: RequestOptions = {}) =>
    this.listAll("resources/templates/list", options);
  listPrompts = (options: RequestOptions = {}) => this.listAll("prompts/list", options);

  private async listAll(method: ListMethod, options: RequestOptions): Promise<unknown[]> {
    return this.lists.all(method, (page, params) => this.request(page, params, options));
  }

  /**
   * Calls a tool. With `checks` (a generated tool wrapper gives them), the
   * arguments are checked against the tool's inputSchema before anything is
   * sent, and structuredContent against its outputSchema on return.
   */
  async callTool(
    name: string,
    args: Readonly<Record<string, unknown>> = {},
    options: CallToolOptions = {},
  ): Promise<Record<string, unknown>> {
    const checked = await options.checks?.arguments?.(args);
    if (checked && !checked.ok)
      throw new McpError(
        Codes.InvalidParams,
        `tool ${name}: the arguments do not match its inputSchema: ${checked.errors[0]?.path || "/"} ${checked.errors[0]?.message ?? ""}`.trimEnd(),
        { errors: checked.errors },
      );
    const result = await this.request("tools/call", { name, arguments: args }, options);
    if (result.resultType === "complete")
      await checkToolOutput(name, result, options.checks?.output);
    return result;
  }

  /**
   * Follows a task of the Tasks extension (a tools/call answered with
   * resultType "task") to its end: polls tasks/get at the server's
   * pollIntervalMs, answers its input requests with this client's input
   * handlers through tasks/update, and resolves with the task's result.
   * A failed task rejects with a RemoteError carrying its error; `signal`
   * stops following it and cancels it (tasks/cancel). The client must
   * declare the extension (`capabilities: TASKS_CAPABILITIES`).
   */
  awaitTask(
    handle: Readonly<Record<string, unknown>>,
    options: AwaitTaskOptions = {},
  ): Promise<Record<string, unknown>> {
    return awaitTask(
      {
        request: (method, params, requestOptions) => this.request(method, params, requestOptions),
        answer: (requests, signal) => this.answerInputs(requests, signal),
      },
      handle,
      options,
    );
  }

  /**
   * Opens a `subscriptions/listen` stream (2026-07-28) for the notifications
   * `filter` asks for (`toolsListChanged`, `resourceSubscriptions`, …).
   */
  listen(
    filter: Readonly<Record<string, unknown>>,
    onNotification: (notification: JsonRpcMessage) => void,
    options: { readonly signal?: AbortSignal } = {},
  ): Subscription {
    const controller = new AbortController();
    options.signal?.addEventListener("abort", () => controller.abort(options.signal!.reason), {
      once: true,
    });
    const id = this.nextId();
    let acknowledge!: (filter: Record<string, unknown>) => void;
    const acknowledged = new Promise<Record<string, unknown>>((resolve) => (acknowledge = resolve));
    const route = (message: JsonRpcMessage) => {
      if (message.method === "notifications/subscriptions/acknowledged") {
        const agreed = paramsOf(message).notifications;
        acknowledge(isJsonObject(agreed) ? agreed : {});
      } else onNotification(message);
    };
    this.subscriptions.add(controller);
    this.incoming.subscriptionRoutes.set(id, route);
    const closed = (async () => {
      try {
        const speaking = await this.connect().then(() => this.speaking!);
        if (speaking.era !== "modern")
          throw new McpError(
            Codes.MethodNotFound,
            `subscriptions/listen needs a ${FIRST_MODERN} server; this one speaks ${speaking.version}`,
          );
        const response = await this.exchange(
          speaking,
          id,
          "subscriptions/listen",
          { notifications: filter },
          { signal: controller.signal, timeoutMs: 0, onNotification: route },
        );
        this.resultOf(speaking, "subscriptions/listen", {}, response);
      } catch (error) {
        if (!controller.signal.aborted) throw error;
      } finally {
        this.subscriptions.delete(controller);
        this.incoming.subscriptionRoutes.delete(id);
      }
    })();
    // Marked handled, so a caller that never looks at `closed` gets no unhandled rejection.
    closed.catch(() => {});
    return { id, acknowledged, closed, close: () => controller.abort() };
  }

  /** Ends every subscription and the connection (a legacy session, a server process). */
  async close(): Promise<void> {
    for (const subscription of this.subscriptions) subscription.abort();
    await this.channel.close();
  }

  // --------------------------------------------------------------- requests

  private async requestOnce(
    method: string,
    params: Readonly<Record<string, unknown>>,
    options: RequestOptions,
    retried: boolean,
  ): Promise<Record<string, unknown>> {
    const speaking = this.speaking!;
    const entry = requestEntry(speaking.module, method, "server");
    if (!entry)
      throw new McpError(
        Codes.MethodNotFound,
        `${method} is not a request a client sends in ${speaking.version}`,
      );
    // An extension's method is sent only when its negotiation rule holds, as the server will judge
    // it: never to a server that did not declare what the method needs (core/extensions.ts).
    const refused = methodRefusal(speaking.module, method, {
      client: this.capabilities,
      server: this.description?.capabilities ?? {},
    });
    if (refused) throw refused;
    try {
      return speaking.era === "modern" && entry.mrtr
        ? await this.rounds(speaking, method, params, options)
        : await this.round(speaking, method, params, options);
    } catch (error) {
      if (retried || !(error instanceof RemoteError)) throw error;
      if (error.code === Codes.UnsupportedProtocolVersion) {
        this.description = await this.negotiation.renegotiate(error, this.description!);
        return this.requestOnce(method, params, options, true);
      }
      if (error.code === Codes.HeaderMismatch && method === "tools/call") {
        // The tool's header annotations may have changed: list the tools again, then retry (spec: client behavior).
        this.lists.forget("tools/list");
        await this.listAll("tools/list", { ...(options.signal ? { signal: options.signal } : {}) });
        return this.requestOnce(method, params, options, true);
      }
      throw error;
    }
  }

  /** A Multi Round-Trip Request, driven to a result that needs no more input (rounds.ts). */
  private rounds(
    speaking: Speaking,
    method: string,
    params: Readonly<Record<string, unknown>>,
    options: RequestOptions,
  ): Promise<Record<string, unknown>> {
    return completeRounds(method, params, {
      maxRounds: this.options.maxRounds ?? 10,
      inputRequired: mrtrResultType(speaking.module),
      round: (next) => this.round(speaking, method, next, options),
      answer: (requests) => this.answerInputs(requests, options.signal),
    });
  }

  private answerInputs(
    requests: Record<string, unknown>,
    signal: AbortSignal | undefined,
  ): Promise<Record<string, unknown>> {
    return answerInputs(requests, signal, this.handlers, this.options.protocol);
  }

  /** One request and its checked result. */
  private async round(
    speaking: Speaking,
    method: string,
    params: Readonly<Record<string, unknown>>,
    options: RequestOptions,
  ): Promise<Record<string, unknown>> {
    const headerParameters =
      method === "tools/call" && typeof params.name === "string"
        ? this.tools.headerParameters(params.name)
        : undefined;
    const response = await this.exchange(speaking, this.nextId(), method, params, {
      ...options,
      ...(headerParameters ? { headerParameters } : {}),
    });
    const result = this.resultOf(speaking, method, params, response);
    if (method === "tools/list" && Array.isArray(result.tools))
      return {
        ...result,
        tools: this.tools.admit(
          result.tools,
          speaking.era === "modern" && this.channel.mirrorsHeaders,
          (message) => this.warn(message),
        ),
      };
    return result;
  }

  /** The result of a response, checked against the schema; the server's error as a RemoteError. */
  private resultOf(
    speaking: Speaking,
    method: string,
    params: Readonly<Record<string, unknown>>,
    response: JsonRpcMessage,
  ): Record<string, unknown> {
    const error = errorOf(response);
    if (error)
      throw method === "resources/read" ? readError(params.uri, error) : new RemoteError(error);
    const parsed = parseResponseOf(speaking.module, response, method);
    if (!parsed.ok) throw new InvalidResponseError(method, parsed.error);
    return (parsed.message as { result: Record<string, unknown> }).result;
  }

  /**
   * Sends one request and resolves with its response: the envelope (modern)
   * and `_meta` of the options added, the timeout and signal applied, the
   * request's notifications routed, and a cancelled request announced with
   * `notifications/cancelled` where closing its stream does not say it.
   */
  private async exchange(
    speaking: Speaking,
    id: JsonRpcId,
    method: string,
    params: Readonly<Record<string, unknown>>,
    options: RequestOptions & {
      readonly headerParameters?: ReturnType<ToolDirectory["headerParameters"]>;
    },
  ): Promise<JsonRpcMessage> {
    const meta: Record<string, unknown> = isJsonObject(params._meta) ? { ...params._meta } : {};
    if (options.onProgress) {
      meta.progressToken = id;
      const onProgress = options.onProgress;
      this.incoming.progressRoutes.set(id, (message) => {
        const { progress, total, message: text } = paramsOf(message);
        if (typeof progress === "number")
          onProgress({
            progress,
            ...(typeof total === "number" ? { total } : {}),
            ...(typeof text === "string" ? { message: text } : {}),
          });
      });
    }
    if (options.logLevel !== undefined && speaking.era === "modern")
      meta[META.logLevel] = options.logLevel;
    const withMeta = Object.keys(meta).length > 0 ? { ...params, _meta: meta } : params;
    const message: JsonRpcMessage = {
      jsonrpc: "2.0",
      id,
      method,
      params:
        speaking.era === "modern"
          ? withEnvelope(withMeta, {
              protocolVersion: speaking.version,
              capabilities: this.capabilities,
              clientInfo: this.options.info,
            })
          : withMeta,
    };
    const controller = new AbortController();
    const timeoutMs = options.timeoutMs ?? this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const timer =
      timeoutMs > 0
        ? setTimeout(
            () =>
              controller.abort(
                new McpError(Codes.InternalError, `no answer to ${method} within ${timeoutMs} ms`),
              ),
            timeoutMs,
          )
        : undefined;
    const { signal } = options;
    const onAbort = () => controller.abort(signal!.reason);
    if (signal?.aborted) onAbort();
    else signal?.addEventListener("abort", onAbort, { once: true });
    const own = (notification: JsonRpcMessage) => {
      if (notification.method === "notifications/message" && options.onLog)
        options.onLog(paramsOf(notification));
      else if (options.onNotification) options.onNotification(notification);
      else this.options.onNotification?.(notification);
    };
    const nameParameter = nameParameterOf(this.options.protocol, method);
    try {
      return await this.channel.request(message, {
        signal: controller.signal,
        onNotification: (notification) => this.incoming.route(notification, own),
        ...(options.headerParameters ? { headerParameters: options.headerParameters } : {}),
        ...(nameParameter ? { nameParameter } : {}),
      });
    } catch (error) {
      if (!controller.signal.aborted) throw error;
      if (!this.channel.streamPerRequest || speaking.era === "legacy")
        this.channel
          .send({
            jsonrpc: "2.0",
            method: "notifications/cancelled",
            params: {
              requestId: id,
              reason: String((controller.signal.reason as Error)?.message ?? "cancelled"),
            },
          })
          .catch(() => {});
      throw controller.signal.reason;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      if (options.onProgress) this.incoming.progressRoutes.delete(id);
    }
  }

  // ---------------------------------------------------- messages from the server

  private nextId(): number {
    return ++this.lastId;
  }

  private warn(message: string): void {
    this.options.onWarning?.(message);
  }
}
