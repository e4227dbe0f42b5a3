/**
 * What reaches an MCP client without being the response it waits for:
 * notifications, each routed to the request it names (a progress token, a
 * listen stream's subscription id), else to the request whose stream
 * carried it, else to the client's `onNotification`; and a legacy
 * server's requests (elicitation, sampling, roots, ping), answered on the
 * channel with the client's input handlers. What is not valid in the
 * revision spoken is reported and dropped.
 */
import type { ClientChannel } from "../core/channel.js";
import { META } from "../core/era.js";
import { Codes, McpError } from "../core/errors.js";
import {
  errorResponse,
  metaOf,
  paramsOf,
  resultResponse,
  type JsonRpcId,
  type JsonRpcMessage,
} from "../core/jsonrpc.js";
import {
  answerInputRequest,
  isInputMethod,
  type InputHandlers,
  type InputTypes,
} from "./inputs.js";
import type { ListReader } from "./lists.js";
import type { ClientProtocol } from "./protocol.js";

/** Where a notification for one request goes. */
type Route = (message: JsonRpcMessage) => void;

/** What the routing takes from its client. */
export interface IncomingHost {
  readonly channel: ClientChannel;
  readonly handlers: InputHandlers<InputTypes>;
  /** Whose cached lists a list-changed notification invalidates. */
  readonly lists: ListReader;
  /** The module of the revision the server speaks, once connected. */
  readonly speaking: () => ClientProtocol | undefined;
  readonly protocol: ClientProtocol;
  readonly legacy?: ClientProtocol;
  readonly onNotification?: (notification: JsonRpcMessage) => void;
  readonly warn: (message: string) => void;
}

/** The routes of a client's requests, and what arrives outside them. */
export class Incoming {
  /** Requests with an `onProgress`, by progress token. */
  readonly progressRoutes = new Map<string | number, Route>();
  /** Listen streams, by subscription id. */
  readonly subscriptionRoutes = new Map<JsonRpcId, Route>();

  constructor(private readonly host: IncomingHost) {}

  /**
   * A notification goes to the request it names (a progress token, a
   * subscription id), else to the request whose stream carried it, else to
   * the client's `onNotification`.
   */
  route(notification: JsonRpcMessage, carrier?: (message: JsonRpcMessage) => void): void {
    if (!this.acceptable(notification)) return;
    this.host.lists.invalidate(String(notification.method));
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
    else this.host.onNotification?.(notification);
  }

  /** What the channel could not attribute: a legacy server's requests, and notifications. */
  unsolicited(message: JsonRpcMessage): void {
    if (message.method === undefined) return;
    if ("id" in message) void this.answerServerRequest(message);
    else this.route(message);
  }

  /** Whether a notification is valid in the revision spoken; an invalid one is reported and dropped. */
  private acceptable(notification: JsonRpcMessage): boolean {
    const module = this.host.speaking() ?? this.host.protocol;
    const parsed = module.parseMessage(notification);
    if (parsed.ok) return true;
    this.host.warn(
      `the server sent an invalid ${String(notification.method)} notification: ${parsed.error.message}`,
    );
    return false;
  }

  /** A legacy server's request (elicitation, sampling, roots, ping), answered on the channel. */
  private async answerServerRequest(message: JsonRpcMessage): Promise<void> {
    const id = message.id;
    const module = this.host.speaking() ?? this.host.legacy ?? this.host.protocol;
    let response: JsonRpcMessage;
    const parsed = module.parseMessage(message);
    if (!parsed.ok) response = errorResponse(id, parsed.error);
    else if (message.method === "ping") response = resultResponse(id as JsonRpcId, {});
    else if (typeof message.method === "string" && isInputMethod(message.method)) {
      try {
        const answer = await answerInputRequest(
          { method: message.method, params: message.params },
          this.host.handlers,
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
    await this.host.channel
      .send(response)
      .catch((error: unknown) =>
        this.host.warn(
          `could not answer the server's ${String(message.method)}: ${(error as Error).message}`,
        ),
      );
  }
}
