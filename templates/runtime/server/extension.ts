/**
 * What an extension adds to a server at run time beyond its generated
 * types and the handlers of its methods: requests it serves itself, fields
 * it adds to a `subscriptions/listen` filter, a say in every tools/call,
 * work to do on a request before it is checked, and what it holds. The
 * Tasks extension is one (tasks-extension.ts); a project registers its own
 * with `server.use(extension)`.
 *
 * Negotiation is not the extension's to do: the runtime applies the same
 * rule to every merged extension (dispatch.ts, modern.ts, features.ts). Its
 * methods, its results, its notifications and its listen fields reach only
 * requests whose client capabilities declare it, and a tool call's work is
 * handed only to an extension the request declares.
 */
import type { McpError } from "../core/errors.js";
import type { Authorization } from "../core/exchange.js";
import {
  declaresExtension,
  extensionOfNotification,
  extensionRequired,
} from "../core/extensions.js";
import type { JsonRpcMessage } from "../core/jsonrpc.js";
import type { ProtocolModule } from "../core/protocol.js";
import { checkedNotification, type RequestContext, type Starter } from "./context.js";
import type { MethodHandler, ToolDefinition, TypedMethodHandler } from "./definitions.js";
import type { KeyedNotification } from "./subscriptions.js";
import type { ServerTypes, UntypedServer } from "./typed.js";

/** A tools/call an extension may take over (see {@link ServerExtension.offerToolCall}). */
export interface ToolCallOffer<T extends ServerTypes = UntypedServer> {
  /** The tool called. */
  readonly tool: ToolDefinition;
  /** The call's context (its era, the client's capabilities). */
  readonly ctx: RequestContext<T>;
  /**
   * Turns what the work returned into the tool's result, checked as a
   * handler's result is (the outputSchema); rejects with an McpError when
   * it is not a tool result.
   */
  readonly finish: (value: unknown) => Promise<Record<string, unknown>>;
}

/** A key a listen request asks for under an extension's listen field. */
export interface ListenKeyRequest {
  readonly field: string;
  readonly key: string;
  /** Who the request acts for, when the transport checks authorization. */
  readonly authorization?: Authorization;
}

/**
 * A server's run-time part of one extension; `T`, the generated maps of a
 * typed server (`McpServer<Types>`), types its methods' params and results.
 */
export interface ServerExtension<T extends ServerTypes = UntypedServer> {
  /** The extension's identifier, as in the revision's EXTENSIONS. */
  readonly id: string;
  /** Its settings under server/discover's `capabilities.extensions` (default `{}`; the server's `extensions` option wins). */
  readonly capability?: Readonly<Record<string, unknown>>;
  /**
   * Handlers of requests it serves, in the 2026-07-28 era (extensions are
   * declared per request; a legacy session cannot declare one). Requests
   * are validated, negotiated and their results checked as for a
   * `server.method` handler.
   */
  readonly methods?: {
    readonly [M in keyof T["params"] & string]?: TypedMethodHandler<T, M>;
  };
  /**
   * The fields it adds to a listen request's filter, each a list of keys
   * (Tasks: `taskIds`). A listen stream gets the notifications published
   * under one of its keys (`server.notifyListeners`); a request asking
   * for such a field without declaring the extension is answered -32021.
   */
  readonly listenFields?: readonly string[];
  /**
   * Whether a listen request may listen for `key` under one of its
   * `listenFields` (the request's authorization says who asks). A key it
   * refuses is left out of the acknowledged filter, as an unknown key
   * should be, so a client learns nothing of keys that are not its own;
   * the notifications published under it never reach that stream. Without
   * the hook every key is agreed to, so keys must be unguessable, or the
   * notifications carry nothing a stranger may not read.
   */
  authorizeListenKey?(request: ListenKeyRequest): boolean | Promise<boolean>;
  /** Rewrites a request of a method before it is validated (Tasks: tasks/update keeps only the answers its task waits for). */
  readonly prepare?: Readonly<
    Record<string, (message: JsonRpcMessage) => JsonRpcMessage | Promise<JsonRpcMessage>>
  >;
  /** Checks a tool's definition when the tool is registered (throw to refuse it). */
  checkTool?(definition: ToolDefinition): void;
  /**
   * Called before a tool's handler runs: may refuse the call (throw an
   * McpError), or return what `ctx.runAs(id, work)` hands the handler's
   * work to (Tasks: run it as a task, answering at once with its handle).
   * The work is handed over only in the 2026-07-28 era and when the
   * request's client capabilities declare the extension; otherwise it runs
   * inline.
   */
  offerToolCall?(call: ToolCallOffer<T>): Starter | undefined;
  /** The instance stops: work running here gets `graceMs` to end. */
  stop?(graceMs: number): Promise<void>;
  /** Releases what the extension holds (after stop, or at the end of a test). */
  close?(): Promise<void>;
}

/**
 * The extensions a server uses, in the order they were added: what the
 * server asks of them (ServerFeatures), each question in one place.
 */
export class ExtensionsInUse {
  private readonly list: ServerExtension[] = [];

  /** Adds `extension`; its methods must be in `protocol`, and its tools check applies to `tools` (those registered already). */
  add(extension: ServerExtension, protocol: ProtocolModule, tools: Iterable<ToolDefinition>): void {
    if (this.list.some((e) => e.id === extension.id))
      throw new Error(`extension "${extension.id}" is already in use on this server`);
    for (const method of Object.keys(extension.methods ?? {}))
      if (!Object.hasOwn(protocol.METHODS, method))
        throw new Error(
          `extension "${extension.id}" serves ${method}, which ${protocol.PROTOCOL_VERSION} does not have (fix: generate the protocol module with the extension merged, --extension)`,
        );
    for (const tool of tools) extension.checkTool?.(tool);
    this.list.push(extension);
  }

  /** Runs every extension's check of a tool being registered. */
  checkTool(definition: ToolDefinition): void {
    for (const extension of this.list) extension.checkTool?.(definition);
  }

  /** The handler of `method` an extension serves, if one does. */
  method(method: string): MethodHandler | undefined {
    for (const { methods } of this.list)
      if (methods && Object.hasOwn(methods, method)) return methods[method];
    return undefined;
  }

  /** The request as the extensions that prepare its method leave it. */
  async prepare(message: JsonRpcMessage): Promise<JsonRpcMessage> {
    let prepared = message;
    for (const extension of this.list) {
      const method = String(prepared.method);
      // Own properties only: a method named like an Object.prototype member ("toString") prepares nothing.
      const prepare =
        extension.prepare && Object.hasOwn(extension.prepare, method)
          ? extension.prepare[method]
          : undefined;
      if (prepare) prepared = await prepare(prepared);
    }
    return prepared;
  }

  /** Each extension's capability settings, under the ids `declared` does not set already. */
  capabilities(declared: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>> {
    const all: Record<string, unknown> = { ...declared };
    for (const extension of this.list) all[extension.id] ??= extension.capability ?? {};
    return all;
  }

  /** The starters the extensions offer for a tools/call, by extension id. */
  offers(call: ToolCallOffer): ReadonlyArray<readonly [string, Starter]> {
    const offered: Array<readonly [string, Starter]> = [];
    for (const extension of this.list) {
      const starter = extension.offerToolCall?.(call);
      if (starter) offered.push([extension.id, starter]);
    }
    return offered;
  }

  /** -32021 for a listen request asking for an extension's field without declaring the extension. */
  listenRefusal(
    requested: Readonly<Record<string, unknown>>,
    capabilities: Readonly<Record<string, unknown>>,
  ): McpError | undefined {
    for (const extension of this.list)
      for (const field of extension.listenFields ?? [])
        if (requested[field] !== undefined && !declaresExtension(capabilities, extension.id))
          return extensionRequired(
            extension.id,
            `subscriptions/listen for ${field} needs the ${extension.id} extension in the request's client capabilities`,
          );
    return undefined;
  }

  /**
   * The extensions' fields of a listen request's filter, each the keys
   * (strings) it asks for that the extension's authorizeListenKey agrees to.
   */
  async listenFields(
    requested: Readonly<Record<string, unknown>>,
    authorization: Authorization | undefined,
  ): Promise<Record<string, string[]>> {
    const agreed: Record<string, string[]> = {};
    for (const extension of this.list)
      for (const field of extension.listenFields ?? []) {
        const asked = requested[field];
        if (!Array.isArray(asked)) continue;
        const keys = asked.filter((k): k is string => typeof k === "string");
        const authorize = extension.authorizeListenKey?.bind(extension);
        const allowed = authorize
          ? await Promise.all(keys.map(async (key) => authorize({ field, key, authorization })))
          : undefined;
        agreed[field] = allowed ? keys.filter((_, i) => allowed[i] === true) : keys;
      }
    return agreed;
  }

  /**
   * What is wrong with a keyed change heard from another instance, or
   * undefined when it may reach listen streams: its field must be a listen
   * field of an extension in use, and its notification the core's or that
   * extension's, matching its definition.
   */
  relayProblem(change: KeyedNotification, protocol: ProtocolModule): string | undefined {
    const owner = this.list.find((e) => e.listenFields?.includes(change.field));
    const extension = extensionOfNotification(protocol, change.method);
    if (!owner || (extension !== undefined && extension !== owner.id))
      return `${change.method} under the listen field "${change.field}", which no extension in use has for it`;
    try {
      checkedNotification(protocol, change.method, change.params);
      return undefined;
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  }

  /**
   * Throws unless an extension in use has the listen field `field` and the
   * notification `method` (of the extension `extension`, or of the core) may
   * go under it: never one of another extension than the field's, which
   * would reach clients that did not declare it.
   */
  checkListenField(field: string, extension: string | undefined, method: string): void {
    const owner = this.list.find((e) => e.listenFields?.includes(field));
    if (!owner)
      throw new Error(
        `no extension in use has the listen field "${field}" (fix: list it in the listenFields of the extension passed to server.use)`,
      );
    if (extension !== undefined && extension !== owner.id)
      throw new Error(
        `${method} belongs to the ${extension} extension, not to ${owner.id}, whose listen field "${field}" is`,
      );
  }

  /** The instance stops: each extension's work running here gets `graceMs`. */
  async stop(graceMs: number): Promise<void> {
    await Promise.all(this.list.map(async (extension) => extension.stop?.(graceMs)));
  }

  /** Releases what the extensions hold. */
  async close(): Promise<void> {
    await Promise.all(this.list.map(async (extension) => extension.close?.()));
  }
}
