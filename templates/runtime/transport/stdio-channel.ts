/**
 * stdio as a client's channel: the server runs as a child process
 * (connectStdio) and every message shares its stdin and stdout, so
 * responses are matched to requests by id here, and everything else (the
 * notifications of every request, requests a legacy server sends) goes to
 * `onMessage`, where the client tells them apart (by progress token and
 * subscription id). Cancelling a request is a notification on the same
 * channel, which the client sends.
 */
import { ChannelError, type ChannelRequestOptions, type ClientChannel } from "../core/channel.js";
import type { JsonRpcId, JsonRpcMessage } from "../core/jsonrpc.js";
import {
  connectStdio,
  LineTooLong,
  type StdioClientOptions,
  type StdioConnection,
} from "./stdio-client.js";

/** How to start the server (as for connectStdio, without `onMessage`, which the channel owns). */
export type StdioChannelOptions = Omit<StdioClientOptions, "onMessage" | "onError"> & {
  /** Lines on the server's stdout that are not JSON-RPC (it broke the stdio rules); they are skipped. */
  readonly onWarning?: (message: string) => void;
};

/**
 * A command line as a program and its arguments, the way a shell would
 * split it (without running a shell): whitespace separates words, single
 * and double quotes group them, a backslash escapes the next character
 * (inside double quotes too). Throws an Error for an unclosed quote.
 */
export function parseCommandLine(text: string): { command: string; args: string[] } {
  const words: string[] = [];
  let word = "";
  let started = false;
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
      else if (c === "\\" && quote === '"' && i + 1 < text.length) word += text[++i];
      else word += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      started = true;
    } else if (c === "\\" && i + 1 < text.length) {
      word += text[++i];
      started = true;
    } else if (/\s/.test(c)) {
      if (started) words.push(word);
      word = "";
      started = false;
    } else {
      word += c;
      started = true;
    }
  }
  if (quote) throw new Error(`the command line ${text} has an unclosed ${quote}`);
  if (started) words.push(word);
  if (words.length === 0) throw new Error("the command line is empty");
  return { command: words[0]!, args: words.slice(1) };
}

/** Starts the server and connects to it over its standard streams. */
export async function spawnStdio(options: StdioChannelOptions): Promise<StdioClientChannel> {
  const channel = new StdioClientChannel(options.command);
  const { onWarning, ...rest } = options;
  const connection = await connectStdio({
    ...rest,
    onMessage: (message) => channel.receive(message),
    onError: (error) => {
      if (error instanceof LineTooLong) channel.fail(error);
      else onWarning?.(error.message);
    },
  });
  channel.attach(connection);
  return channel;
}

/** A client's connection to a server it runs as a child process. */
export class StdioClientChannel implements ClientChannel {
  readonly streamPerRequest = false;
  readonly mirrorsHeaders = false;
  onMessage?: (message: JsonRpcMessage) => void;

  private connection?: StdioConnection;
  private readonly waiting = new Map<
    JsonRpcId,
    { resolve: (message: JsonRpcMessage) => void; reject: (error: Error) => void }
  >();
  private ended?: ChannelError;

  constructor(private readonly command: string) {}

  /** The server process's id. */
  get pid(): number | undefined {
    return this.connection?.pid;
  }

  /** @internal Binds the started process; its exit fails whatever still waits. */
  attach(connection: StdioConnection): void {
    this.connection = connection;
    void connection.exited.then(({ code, signal }) => {
      this.ended ??= new ChannelError(
        `the MCP server ${this.command} exited (${signal ?? `code ${code}`})`,
      );
      for (const waiter of [...this.waiting.values()]) waiter.reject(this.ended);
      this.waiting.clear();
    });
  }

  /** @internal The connection cannot go on (the server broke a limit): whatever waits, and whatever comes, fails with `error`. */
  fail(error: Error): void {
    this.ended ??= new ChannelError(error.message, {}, { cause: error });
    for (const waiter of [...this.waiting.values()]) waiter.reject(this.ended);
    this.waiting.clear();
  }

  /** @internal A message from the server's stdout. */
  receive(message: JsonRpcMessage): void {
    const id = message.id;
    if (message.method === undefined && (typeof id === "string" || typeof id === "number")) {
      const waiter = this.waiting.get(id);
      if (waiter) {
        this.waiting.delete(id);
        waiter.resolve(message);
        return;
      }
    }
    this.onMessage?.(message);
  }

  request(message: JsonRpcMessage, options: ChannelRequestOptions = {}): Promise<JsonRpcMessage> {
    const id = message.id as JsonRpcId;
    const { signal } = options;
    if (this.ended) return Promise.reject(this.ended);
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        this.waiting.delete(id);
        reject(signal!.reason as Error);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.waiting.set(id, {
        resolve: (response) => {
          signal?.removeEventListener("abort", onAbort);
          resolve(response);
        },
        reject: (error) => {
          signal?.removeEventListener("abort", onAbort);
          reject(error);
        },
      });
      try {
        this.connection!.send(message);
      } catch (error) {
        this.waiting.delete(id);
        signal?.removeEventListener("abort", onAbort);
        reject(new ChannelError((error as Error).message, {}, { cause: error }));
      }
    });
  }

  send(message: JsonRpcMessage): Promise<void> {
    if (this.ended) return Promise.reject(this.ended);
    this.connection!.send(message);
    return Promise.resolve();
  }

  beginSession(): Promise<void> {
    return Promise.resolve();
  }

  async close(): Promise<void> {
    await this.connection?.close();
  }
}
