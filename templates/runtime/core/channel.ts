/**
 * What a client asks of the transport that carries its messages, and what
 * comes back: the client-side counterpart of exchange.ts. The client
 * (client/) decides what to send and what answers mean; a channel
 * (transport/: HTTP, stdio) moves messages and reports, without judging
 * them, what the wire said. Neither imports the other.
 */
import type { HeaderParameter } from "./headers.js";
import type { JsonRpcMessage } from "./jsonrpc.js";

/** How one request is sent. */
export interface ChannelRequestOptions {
  /** Aborts the request: the channel stops waiting (HTTP also closes the request's stream). */
  readonly signal?: AbortSignal;
  /**
   * The notifications the server sends about this request (progress, logs,
   * the notifications of a listen stream), when the channel can tell which
   * request they belong to (HTTP: they arrive on the request's own stream).
   * Others go to `onMessage`.
   */
  readonly onNotification?: (message: JsonRpcMessage) => void;
  /** The `x-mcp-header` parameters of the tool a `tools/call` names (HTTP mirrors them into `Mcp-Param-*`). */
  readonly headerParameters?: readonly HeaderParameter[];
  /** The params member an extension's request mirrors into `Mcp-Name` (HTTP; nameParameterOf). */
  readonly nameParameter?: string;
}

/** A transport as a client uses it. */
export interface ClientChannel {
  /**
   * True when each request has a stream of its own whose closing cancels it
   * (HTTP). False for a shared channel (stdio), where a client cancels with
   * `notifications/cancelled`.
   */
  readonly streamPerRequest: boolean;
  /** True when `x-mcp-header` annotations matter on this transport (HTTP), so invalid ones disqualify a tool. */
  readonly mirrorsHeaders: boolean;
  /**
   * Sends a request and resolves with the JSON-RPC response that answers it
   * (a result or an error, whatever the transport's status). Rejects with a
   * ChannelError when no response came: the connection failed, the reply
   * was not JSON-RPC, or the stream ended first; and when `signal` aborts.
   */
  request(message: JsonRpcMessage, options?: ChannelRequestOptions): Promise<JsonRpcMessage>;
  /** Sends a notification, or (legacy era) the answer to a request the server sent. */
  send(message: JsonRpcMessage): Promise<void>;
  /**
   * Where messages that answer none of the client's requests go: requests a
   * legacy server sends, and notifications the channel cannot attribute. Set
   * by the client.
   */
  onMessage?: (message: JsonRpcMessage) => void;
  /**
   * The legacy era's session has begun with `protocolVersion` (after
   * `initialize`): HTTP sends it as MCP-Protocol-Version from now on and
   * opens the stream on which the server sends requests of its own.
   */
  beginSession(protocolVersion: string): Promise<void>;
  /** Ends the connection (HTTP: the session, if any; stdio: the server process). */
  close(): Promise<void>;
}

/** What the wire said when it carried no JSON-RPC response. */
export interface ChannelFailure {
  /** The HTTP status, when there was one. */
  readonly status?: number;
  /** The start of the reply's body, when there was one. */
  readonly body?: string;
  /** The reply's headers (lower-case names), when there were any. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** A request that got no JSON-RPC response. */
export class ChannelError extends Error {
  readonly status?: number;
  readonly body?: string;
  readonly headers?: Readonly<Record<string, string>>;

  constructor(message: string, failure: ChannelFailure = {}, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ChannelError";
    if (failure.status !== undefined) this.status = failure.status;
    if (failure.body !== undefined) this.body = failure.body;
    if (failure.headers !== undefined) this.headers = failure.headers;
  }
}
