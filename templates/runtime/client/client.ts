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
 *   belong to; cancellation is an AbortSignal (on stdio and in legacy
 *   sessions it is also a `notifications/cancelled`).
 */
import { awaitTask, type AwaitTaskOptions } from "./tasks.js";
import { ChannelError, type ClientChannel } from "../core/channel.js";
import { FIRST_MODERN, META, type Era } from "../core/era.js";
import { Codes, McpError, RemoteError } from "../core/errors.js";
import {
  errorResponse,
  isJsonObject,
  metaOf,
  paramsOf,
  resultResponse,
  type JsonRpcErrorObject,
  type JsonRpcId,
  type JsonRpcMessage,
} from "../core/jsonrpc.js";
import { mrtrResultType, requestEntry, type ValidationOutcome } from "../core/protocol.js";
import { withEnvelope } from "./envelope.js";
import { InvalidResponseError, readError } from "./errors.js";
import {
  answerInputRequest,
  inputCapabilities,
  isInputMethod,
  type InputHandlers,
  type InputTypes,
  type UntypedInputs,
} from "./inputs.js";
import { parseResponseOf, type ClientProtocol } from "./protocol.js";
import { ToolDirectory } from "./tools.js";

/** Who the client is, as it tells every server. */
export interface ClientInfo {
  readonly name: string;
  readonly version: string;
  readonly [field: string]: unknown;
}

/** How a client is set up. */
export interface ClientOptions<T extends InputTypes = UntypedInputs> {
  /** The generated module of the modern revision the client speaks. */
  readonly protocol: ClientProtocol;
  /** The generated module of the legacy revision (2025-11-25), for servers that need `initialize`. */
  readonly legacy?: ClientProtocol;
  /** The transport: `connectHttp(url)` or `await spawnStdio({ command })`. */
  readonly channel: ClientChannel;
  readonly info: ClientInfo;
  /** Handlers of the server's requests for input; each one present is declared as a capability. */
  readonly handlers?: InputHandlers<T>;
  /** Capabilities besides those the handlers imply (extensions, url-mode elicitation), merged over them. */
  readonly capabilities?: Readonly<Record<string, unknown>>;
  /**
   * The protocol version to speak: `"auto"` (default) probes the server and
   * falls back to a legacy session when it needs one; a modern version is
   * used as the first choice; a legacy version opens a session at once.
   */
  readonly protocolVersion?: string;
  /** The most rounds of a Multi Round-Trip Request before it fails (default 10). */
  readonly maxRounds?: number;
  /** How long a request waits for its response, unless it says otherwise (default 60 s; 0: no limit). */
  readonly timeoutMs?: number;
  /** On stdio, how long the `server/discover` probe waits before a silent server is taken for a legacy one (default 10 s). */
  readonly probeTimeoutMs?: number;
  /** Notifications that belong to no request (list changes of a legacy session, logs). */
  readonly onNotification?: (notification: JsonRpcMessage) => void;
  /** Problems that fail no request (a tool left out of tools/list, an invalid notification). */
  readonly onWarning?: (message: string) => void;
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

/** A validator of tool arguments or structured output (generated from the tool's schemas). */
export type SchemaCheck = (value: unknown) => ValidationOutcome;

/** How a tool is called. */
export interface CallToolOptions extends RequestOptions {
  /** Checks of the tool's arguments (before sending) and its structuredContent (on return). */
  readonly checks?: { readonly arguments?: SchemaCheck; readonly output?: SchemaCheck };
}

/** What the client learned about the server it talks to. */
export interface ServerDescription {
  readonly era: Era;
  /** The protocol version in use. */
  readonly protocolVersion: string;
  readonly serverInfo?: {
    readonly name: string;
    readonly version: string;
    readonly [field: string]: unknown;
  };
  readonly capabilities: Readonly<Record<string, unknown>>;
  readonly instructions?: string;
  /** The versions the server listed in server/discover (modern servers). */
  readonly supportedVersions?: readonly string[];
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

/** The era and version being spoken, and the module that checks them. */
interface Speaking {
  readonly era: Era;
  readonly version: string;
  readonly module: ClientProtocol;
}

const DEFAULT_TIMEOUT_MS = 60_000;

/** An MCP client of one server. */
export class McpClient<T extends InputTypes = UntypedInputs> {
  private readonly channel: ClientChannel;
  /** The input handlers, as the revision-independent code sees them. */
  private readonly handlers: InputHandlers<InputTypes>;
  private readonly tools = new ToolDirectory();
  private readonly capabilities: Readonly<Record<string, unknown>>;
  private readonly progressRoutes = new Map<string | number, (message: JsonRpcMessage) => void>();
  private readonly subscriptionRoutes = new Map<JsonRpcId, (message: JsonRpcMessage) => void>();
  private readonly subscriptions = new Set<AbortController>();
  private speaking?: Speaking;
  private description?: ServerDescription;
  private connecting?: Promise<ServerDescription>;
  private lastId = 0;

  constructor(private readonly options: ClientOptions<T>) {
    this.channel = options.channel;
    this.handlers = (options.handlers ?? {}) as unknown as InputHandlers<InputTypes>;
    this.channel.onMessage = (message) => this.unsolicited(message);
    this.capabilities = {
      ...inputCapabilities(this.handlers),
      ...options.capabilities,
    };
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
    this.connecting ??= this.negotiate().catch((error: unknown) => {
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
   * Calls a tool. With `checks` (a generated tool wrapper gives them), the
   * arguments are checked against the tool's inputSchema before anything is
   * sent, and structuredContent against its outputSchema on return.
   */
  async callTool(
    name: string,
    args: Readonly<Record<string, unknown>> = {},
    options: CallToolOptions = {},
  ): Promise<Record<string, unknown>> {
    const checked = options.checks?.arguments?.(args);
    if (checked && !checked.ok)
      throw new McpError(
        Codes.InvalidParams,
        `tool ${name}: the arguments do not match its inputSchema: ${checked.errors[0]?.path || "/"} ${checked.errors[0]?.message ?? ""}`.trimEnd(),
        { errors: checked.errors },
      );
    const result = await this.request("tools/call", { name, arguments: args }, options);
    if (result.resultType === "complete") checkToolOutput(name, result, options.checks?.output);
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
    this.subscriptionRoutes.set(id, route);
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
        this.subscriptionRoutes.delete(id);
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

  // ------------------------------------------------------------ negotiation

  private async negotiate(): Promise<ServerDescription> {
    const { protocol, legacy } = this.options;
    const preferred = this.options.protocolVersion ?? "auto";
    if (preferred !== "auto" && preferred < FIRST_MODERN) return this.initialize(preferred);
    let version = preferred === "auto" ? protocol.PROTOCOL_VERSION : preferred;
    if (
      !Object.hasOwn(protocol.METHODS, "server/discover") &&
      version === protocol.PROTOCOL_VERSION
    )
      return this.speakUnprobed(version);
    for (let attempt = 0; attempt < 3; attempt++) {
      const speaking: Speaking = { era: "modern", version, module: protocol };
      let response: JsonRpcMessage;
      try {
        response = await this.exchange(
          speaking,
          this.nextId(),
          "server/discover",
          {},
          // stdio has no status to tell a legacy server by: one that stays silent is legacy (spec: stdio).
          this.channel.streamPerRequest ? {} : { timeoutMs: this.options.probeTimeoutMs ?? 10_000 },
        );
      } catch (error) {
        // No answer, or a reply that is no JSON-RPC: a legacy server, unless it refused our credentials.
        const refused =
          error instanceof ChannelError && (error.status === 401 || error.status === 403);
        if (!legacy || refused) throw error;
        return this.initialize(
          legacy.PROTOCOL_VERSION,
          `server/discover failed (${(error as Error).message})`,
        );
      }
      const error = errorOf(response);
      if (error?.code === Codes.UnsupportedProtocolVersion) {
        const next = this.versionFrom(error.data);
        if (next === undefined) throw this.noCommonVersion(error);
        if (next.era === "legacy") return this.initialize(next.version);
        version = next.version;
        continue;
      }
      if (
        error?.code === Codes.HeaderMismatch ||
        error?.code === Codes.MissingRequiredClientCapability
      )
        throw new RemoteError(error);
      const parsed = error ? undefined : parseResponseOf(protocol, response, "server/discover");
      if (!parsed?.ok) {
        if (!legacy)
          throw error
            ? new RemoteError(error)
            : new InvalidResponseError(
                "server/discover",
                parsed!.ok ? { code: 0, message: "" } : parsed!.error,
              );
        return this.initialize(
          legacy.PROTOCOL_VERSION,
          error
            ? `server/discover failed with ${error.code} ${error.message}`
            : "server/discover gave no DiscoverResult",
        );
      }
      const result = (parsed.message as { result: Record<string, unknown> }).result;
      const supported = Array.isArray(result.supportedVersions)
        ? result.supportedVersions.filter((v): v is string => typeof v === "string")
        : [];
      if (!supported.includes(version)) {
        const next = this.versionFrom({ supported });
        if (next === undefined)
          throw new McpError(
            Codes.UnsupportedProtocolVersion,
            `the server supports ${supported.join(", ") || "no version"}; this client speaks ${this.spokenVersions().join(", ")}`,
          );
        if (next.era === "legacy") return this.initialize(next.version);
        version = next.version;
        continue;
      }
      this.speaking = speaking;
      const meta = isJsonObject(result._meta) ? result._meta : {};
      const info = meta[META.serverInfo] ?? result.serverInfo;
      return (this.description = {
        era: "modern",
        protocolVersion: version,
        ...(isJsonObject(info) ? { serverInfo: info as ServerDescription["serverInfo"] } : {}),
        capabilities: isJsonObject(result.capabilities) ? result.capabilities : {},
        ...(typeof result.instructions === "string" ? { instructions: result.instructions } : {}),
        supportedVersions: supported,
      });
    }
    throw new McpError(
      Codes.UnsupportedProtocolVersion,
      "the server kept refusing the protocol versions it listed as supported",
    );
  }

  /**
   * A revision without `server/discover` (a draft of the spec between two
   * revisions) cannot be probed: its own version is spoken as told, and
   * what the server offers is learnt from its answers.
   */
  private speakUnprobed(version: string): ServerDescription {
    this.speaking = { era: "modern", version, module: this.options.protocol };
    return (this.description = { era: "modern", protocolVersion: version, capabilities: {} });
  }

  /** Opens a legacy session: `initialize`, then `notifications/initialized`. */
  private async initialize(version: string, why?: string): Promise<ServerDescription> {
    const legacy = this.options.legacy;
    if (!legacy)
      throw new McpError(
        Codes.UnsupportedProtocolVersion,
        `the server needs a legacy session (${why ?? version}), and this client has no legacy protocol module`,
      );
    const speaking: Speaking = { era: "legacy", version, module: legacy };
    const response = await this.exchange(
      speaking,
      this.nextId(),
      "initialize",
      { protocolVersion: version, capabilities: this.capabilities, clientInfo: this.options.info },
      {},
    );
    const result = this.resultOf(speaking, "initialize", {}, response);
    const agreed = result.protocolVersion as string;
    if (!this.legacyVersions().includes(agreed))
      throw new McpError(
        Codes.UnsupportedProtocolVersion,
        `the server answered initialize with protocol version ${agreed}, which this client does not speak (${this.spokenVersions().join(", ")})${why ? `; before that, ${why}` : ""}`,
      );
    this.speaking = { ...speaking, version: agreed };
    await this.channel.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    await this.channel.beginSession(agreed);
    return (this.description = {
      era: "legacy",
      protocolVersion: agreed,
      ...(isJsonObject(result.serverInfo)
        ? { serverInfo: result.serverInfo as ServerDescription["serverInfo"] }
        : {}),
      capabilities: isJsonObject(result.capabilities) ? result.capabilities : {},
      ...(typeof result.instructions === "string" ? { instructions: result.instructions } : {}),
    });
  }

  /** A version of `data.supported` (an UnsupportedProtocolVersionError's) this client speaks, newest first. */
  private versionFrom(data: unknown): { era: Era; version: string } | undefined {
    const listed = isJsonObject(data) && Array.isArray(data.supported) ? data.supported : [];
    const modern = this.options.protocol.PROTOCOL_VERSION;
    if (listed.includes(modern)) return { era: "modern", version: modern };
    const legacy = this.legacyVersions().find((v) => listed.includes(v));
    return legacy === undefined ? undefined : { era: "legacy", version: legacy };
  }

  /** The legacy versions this client speaks (those of its legacy module's revision and earlier), newest first. */
  private legacyVersions(): string[] {
    const legacy = this.options.legacy;
    if (!legacy) return [];
    const known = legacy.KNOWN_REVISIONS ?? [legacy.PROTOCOL_VERSION];
    return known.filter((v) => v <= legacy.PROTOCOL_VERSION && v < FIRST_MODERN).reverse();
  }

  private spokenVersions(): string[] {
    return [this.options.protocol.PROTOCOL_VERSION, ...this.legacyVersions()];
  }

  private noCommonVersion(error: JsonRpcErrorObject): McpError {
    const listed = (error.data as { supported?: unknown } | undefined)?.supported;
    return new McpError(
      Codes.UnsupportedProtocolVersion,
      `the server supports ${Array.isArray(listed) ? listed.join(", ") : "no version it named"}; this client speaks ${this.spokenVersions().join(", ")}`,
      error.data,
    );
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
    try {
      return speaking.era === "modern" && entry.mrtr
        ? await this.rounds(speaking, method, params, options)
        : await this.round(speaking, method, params, options);
    } catch (error) {
      if (retried || !(error instanceof RemoteError)) throw error;
      if (error.code === Codes.UnsupportedProtocolVersion) {
        await this.renegotiate(error);
        return this.requestOnce(method, params, options, true);
      }
      if (error.code === Codes.HeaderMismatch && method === "tools/call") {
        // The tool's header annotations may have changed: list the tools again, then retry (spec: client behavior).
        await this.listAllTools(options);
        return this.requestOnce(method, params, options, true);
      }
      throw error;
    }
  }

  /** After an UnsupportedProtocolVersionError: the version (and era) the server lists. */
  private async renegotiate(error: RemoteError): Promise<void> {
    const next = this.versionFrom(error.data);
    if (next === undefined) throw this.noCommonVersion(error.toJSON());
    if (next.era === "legacy") {
      this.description = await this.initialize(next.version);
      return;
    }
    this.speaking = { era: "modern", version: next.version, module: this.options.protocol };
    this.description = { ...this.description!, protocolVersion: next.version };
  }

  private async listAllTools(options: RequestOptions): Promise<void> {
    let cursor: unknown;
    do {
      const page = await this.round(
        this.speaking!,
        "tools/list",
        cursor === undefined ? {} : { cursor },
        { ...(options.signal ? { signal: options.signal } : {}) },
      );
      cursor = page.nextCursor;
    } while (typeof cursor === "string");
  }

  /**
   * A Multi Round-Trip Request: each InputRequiredResult is answered and the
   * request sent again with a new id, carrying `inputResponses` and the
   * server's `requestState` exactly as received (and neither when the
   * server sent none), until a result completes or `maxRounds` is reached.
   */
  private async rounds(
    speaking: Speaking,
    method: string,
    params: Readonly<Record<string, unknown>>,
    options: RequestOptions,
  ): Promise<Record<string, unknown>> {
    const maxRounds = this.options.maxRounds ?? 10;
    const { inputResponses: _responses, requestState: _state, ...original } = params;
    let next: Readonly<Record<string, unknown>> = params;
    for (let round = 1; ; round++) {
      const result = await this.round(speaking, method, next, options);
      if (result.resultType !== mrtrResultType(speaking.module)) return result;
      if (round >= maxRounds)
        throw new McpError(
          Codes.InternalError,
          `${method}: the server still asked for input after ${maxRounds} rounds (maxRounds)`,
        );
      const retry: Record<string, unknown> = { ...original };
      if (isJsonObject(result.inputRequests))
        retry.inputResponses = await this.answerInputs(result.inputRequests, options.signal);
      if (typeof result.requestState === "string") retry.requestState = result.requestState;
      next = retry;
    }
  }

  /** Answers every input request of a round (in parallel), keyed as the server keyed them. */
  private async answerInputs(
    requests: Record<string, unknown>,
    signal: AbortSignal | undefined,
  ): Promise<Record<string, unknown>> {
    const context = { signal: signal ?? new AbortController().signal };
    const answers = await Promise.all(
      Object.entries(requests).map(async ([key, request]) => {
        const { method, params } = isJsonObject(request) ? request : {};
        const answer = await answerInputRequest(
          { method: String(method), params },
          this.handlers,
          this.options.protocol,
          { ...context, key },
        );
        return [key, answer] as const;
      }),
    );
    return Object.fromEntries(answers);
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
      this.progressRoutes.set(id, (message) => {
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
    try {
      return await this.channel.request(message, {
        signal: controller.signal,
        onNotification: (notification) => this.route(notification, own),
        ...(options.headerParameters ? { headerParameters: options.headerParameters } : {}),
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
      if (options.onProgress) this.progressRoutes.delete(id);
    }
  }

  // ---------------------------------------------------- messages from the server

  /**
   * A notification goes to the request it names (a progress token, a
   * subscription id), else to the request whose stream carried it, else to
   * the client's `onNotification`.
   */
  private route(notification: JsonRpcMessage, carrier?: (message: JsonRpcMessage) => void): void {
    if (!this.acceptable(notification)) return;
    if (notification.method === "notifications/progress") {
      const token = paramsOf(notification).progressToken;
      const route =
        typeof token === "string" || typeof token === "number"
          ? this.progressRoutes.get(token)
          : undefined;
      if (route) return route(notification);
    }
    const subscription = metaOf(notification)?.[META.subscriptionId];
    if (typeof subscription === "string" || typeof subscription === "number") {
      const route = this.subscriptionRoutes.get(subscription);
      if (route) return route(notification);
    }
    if (carrier) carrier(notification);
    else this.options.onNotification?.(notification);
  }

  /** What the channel could not attribute: a legacy server's requests, and notifications. */
  private unsolicited(message: JsonRpcMessage): void {
    if (message.method === undefined) return;
    if ("id" in message) void this.answerServerRequest(message);
    else this.route(message);
  }

  /** Whether a notification is valid in the revision spoken; an invalid one is reported and dropped. */
  private acceptable(notification: JsonRpcMessage): boolean {
    const module = this.speaking?.module ?? this.options.protocol;
    const parsed = module.parseMessage(notification);
    if (parsed.ok) return true;
    this.warn(
      `the server sent an invalid ${String(notification.method)} notification: ${parsed.error.message}`,
    );
    return false;
  }

  /** A legacy server's request (elicitation, sampling, roots, ping), answered on the channel. */
  private async answerServerRequest(message: JsonRpcMessage): Promise<void> {
    const id = message.id;
    const module = this.speaking?.module ?? this.options.legacy ?? this.options.protocol;
    let response: JsonRpcMessage;
    const parsed = module.parseMessage(message);
    if (!parsed.ok) response = errorResponse(id, parsed.error);
    else if (message.method === "ping") response = resultResponse(id as JsonRpcId, {});
    else if (typeof message.method === "string" && isInputMethod(message.method)) {
      try {
        const answer = await answerInputRequest(
          { method: message.method, params: message.params },
          this.handlers,
          module,
          { key: String(id), signal: new AbortController().signal },
        );
        response = resultResponse(id as JsonRpcId, answer);
      } catch (error) {
        const failure =
          error instanceof McpError ? error : new McpError(Codes.InternalError, "Internal error");
        response = errorResponse(id, failure.toJSON());
      }
    } else
      response = errorResponse(id, { code: Codes.MethodNotFound, message: "Method not found" });
    await this.channel
      .send(response)
      .catch((error: unknown) =>
        this.warn(
          `could not answer the server's ${String(message.method)}: ${(error as Error).message}`,
        ),
      );
  }

  private nextId(): number {
    return ++this.lastId;
  }

  private warn(message: string): void {
    this.options.onWarning?.(message);
  }
}

/** A response's error object, when it is an error response. */
function errorOf(response: JsonRpcMessage): JsonRpcErrorObject | undefined {
  const error = response.error;
  if (!isJsonObject(error)) return undefined;
  return {
    code: typeof error.code === "number" ? error.code : Codes.InternalError,
    message: typeof error.message === "string" ? error.message : "unknown error",
    ...("data" in error ? { data: error.data } : {}),
  };
}

/**
 * Checks a tool's result against its outputSchema (`output`, generated from
 * it): a result that is not a tool error must carry structuredContent of
 * that schema. Throws an McpError (-32603) naming the first problem; a
 * call's result is checked as it arrives, a task's when the task completes.
 */
export function checkToolOutput(
  name: string,
  result: Readonly<Record<string, unknown>>,
  output: SchemaCheck | undefined,
): void {
  if (!output || result.isError === true) return;
  const verdict =
    result.structuredContent === undefined
      ? { ok: false as const, errors: [{ path: "/structuredContent", message: "is missing" }] }
      : output(result.structuredContent);
  if (!verdict.ok)
    throw new McpError(
      Codes.InternalError,
      `tool ${name}: the server's structuredContent does not match the tool's outputSchema: ${verdict.errors[0]?.path || "/"} ${verdict.errors[0]?.message ?? ""}`.trimEnd(),
      { errors: verdict.errors },
    );
}
