/**
 * Request/answer matching for whichever side sends requests over a shared
 * channel: a client to its server, or a server to a legacy client on its
 * session. Each request gets an id no other pending request has; the
 * answer with that id settles it, and nothing else does: an answer with an
 * unknown id is reported, never guessed at.
 */
import { Codes, McpError, RemoteError } from "./errors.js";
import { isJsonObject, type JsonRpcId, type JsonRpcMessage } from "./jsonrpc.js";

/** How long answers are waited for, and how ids look. */
export interface PendingOptions {
  /** How long an answer is waited for, unless a request says otherwise. */
  readonly timeoutMs: number;
  /** Makes request ids: a prefix for string ids (`mcp-gen-1`), or none for numbers. */
  readonly idPrefix?: string;
}

interface Waiter {
  readonly resolve: (result: unknown) => void;
  readonly reject: (error: McpError) => void;
}

/** The requests sent and not answered yet. */
export class PendingRequests {
  private readonly waiting = new Map<JsonRpcId, Waiter>();
  private next = 0;
  private closed?: McpError;

  constructor(private readonly options: PendingOptions) {}

  /**
   * Sends a request with a fresh id through `send` and resolves with the
   * peer's result. Rejects with a RemoteError when the peer answers with an
   * error, and with -32603 when no answer comes within the timeout, when
   * `signal` aborts, or when the channel closes.
   */
  request(
    method: string,
    params: Record<string, unknown> | undefined,
    send: (request: JsonRpcMessage) => void,
    options: { readonly signal?: AbortSignal; readonly timeoutMs?: number } = {},
  ): Promise<unknown> {
    if (this.closed) return Promise.reject(this.closed);
    const { signal } = options;
    if (signal?.aborted)
      return Promise.reject(new McpError(Codes.InternalError, `${method} was cancelled`));
    const id = this.nextId();
    const timeoutMs = options.timeoutMs ?? this.options.timeoutMs;
    return new Promise((resolve, reject) => {
      const settle = (action: () => void) => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        this.waiting.delete(id);
        action();
      };
      const timer = setTimeout(
        () =>
          settle(() =>
            reject(
              new McpError(Codes.InternalError, `no answer to ${method} within ${timeoutMs} ms`),
            ),
          ),
        timeoutMs,
      );
      const onAbort = () =>
        settle(() => reject(new McpError(Codes.InternalError, `${method} was cancelled`)));
      signal?.addEventListener("abort", onAbort, { once: true });
      this.waiting.set(id, {
        resolve: (result) => settle(() => resolve(result)),
        reject: (error) => settle(() => reject(error)),
      });
      send(
        params === undefined
          ? { jsonrpc: "2.0", id, method }
          : { jsonrpc: "2.0", id, method, params },
      );
    });
  }

  /**
   * Settles the request a response answers: its result resolves it, its
   * error rejects it (as a RemoteError). False when no
   * request waits for the response's id (unknown, or already settled).
   */
  settle(response: JsonRpcMessage): boolean {
    const id = response.id;
    if (typeof id !== "string" && typeof id !== "number") return false;
    const waiter = this.waiting.get(id);
    if (!waiter) return false;
    const error = response.error;
    if (isJsonObject(error))
      waiter.reject(
        new RemoteError({
          code: typeof error.code === "number" ? error.code : Codes.InternalError,
          message: typeof error.message === "string" ? error.message : "unknown error",
          ...("data" in error ? { data: error.data } : {}),
        }),
      );
    else waiter.resolve(response.result);
    return true;
  }

  /** Fails every pending request, and every later one, with -32603 naming `reason`. */
  close(reason: string): void {
    this.closed = new McpError(Codes.InternalError, reason);
    for (const waiter of [...this.waiting.values()]) waiter.reject(this.closed);
  }

  /** How many requests wait for an answer. */
  get size(): number {
    return this.waiting.size;
  }

  private nextId(): JsonRpcId {
    const n = ++this.next;
    return this.options.idPrefix === undefined ? n : `${this.options.idPrefix}${n}`;
  }
}
