/**
 * A small MCP client for runtime tests: builds 2026-07-28 requests the way
 * a conforming client sends them (body `_meta` envelope and the mirrored
 * headers), posts them over real HTTP, and reads the answer whether it
 * comes as a JSON body or as an event stream. Also a line reader for the
 * stdio transport. Tests override any header or field to break one rule
 * at a time.
 */
import { request as httpRequest } from "node:http";
import type { Readable } from "node:stream";
import * as legacy from "../../generated/2025-11-25/index.js";
import * as protocol from "../../generated/2026-07-28/index.js";
import { McpServer, type ServerOptions } from "../../templates/runtime/index.js";

export { legacy, protocol };

/** The revision the runtime serves in these tests. */
export const VERSION = protocol.PROTOCOL_VERSION;

/** The modern `_meta` envelope, with the client capabilities given. */
export function envelope(
  clientCapabilities: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    "io.modelcontextprotocol/protocolVersion": VERSION,
    "io.modelcontextprotocol/clientCapabilities": clientCapabilities,
    "io.modelcontextprotocol/clientInfo": { name: "runtime-tests", version: "1.0.0" },
  };
}

/** A server for tests: both eras, results checked, handler crashes collected instead of printed. */
export function testServer(
  options: Partial<ServerOptions> = {},
): McpServer & { errors: unknown[] } {
  const errors: unknown[] = [];
  const server = new McpServer({
    protocol,
    legacy,
    info: { name: "runtime-tests", version: "1.0.0" },
    onError: (error) => errors.push(error),
    ...options,
  });
  return Object.assign(server, { errors });
}

/** A JSON-RPC request of the modern era: `params._meta` carries the envelope (merged with any `_meta` given). */
export function request(
  method: string,
  params: Record<string, unknown> = {},
  id: string | number = 1,
  clientCapabilities: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    jsonrpc: "2.0",
    id,
    method,
    params: {
      ...params,
      _meta: { ...envelope(clientCapabilities), ...((params._meta as object | undefined) ?? {}) },
    },
  };
}

/** The requests that mirror a param into `Mcp-Name`, and which. */
const NAMED_PARAM: Readonly<Record<string, string>> = {
  "tools/call": "name",
  "prompts/get": "name",
  "resources/read": "uri",
  "tasks/get": "taskId",
  "tasks/update": "taskId",
  "tasks/cancel": "taskId",
  // The jobs extension of test/fixtures/ext-jobs, whose manifest names it.
  "jobs/get": "jobId",
};

/** The headers a conforming client sends with `message`: version, method, and the name for named requests. */
export function headersFor(message: Record<string, unknown>): Record<string, string> {
  const params = (message.params ?? {}) as Record<string, unknown>;
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": VERSION,
    "mcp-method": String(message.method),
  };
  const key = NAMED_PARAM[String(message.method)];
  const name = key === undefined ? undefined : params[key];
  if (typeof name === "string") headers["mcp-name"] = name;
  return headers;
}

/** What an HTTP exchange gave back. */
export interface Reply {
  readonly status: number;
  readonly headers: Headers;
  /** The raw body. */
  readonly text: string;
  /** Every JSON-RPC message of the body: one for a JSON body, each `data:` line of an event stream. */
  readonly messages: ReadonlyArray<Record<string, unknown>>;
  /** The last message (the response, on an event stream). */
  readonly body: Record<string, unknown>;
}

/** Parses a body as JSON or as an event stream. */
export function readBody(text: string, contentType: string | null): Array<Record<string, unknown>> {
  if (text === "") return [];
  if (contentType?.startsWith("text/event-stream"))
    return text
      .split("\n")
      .filter((line) => line.startsWith("data: "))
      .map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>);
  return [JSON.parse(text) as Record<string, unknown>];
}

/** POSTs a message with the headers a conforming client sends, then `headers` on top (undefined removes one). */
export async function post(
  url: string,
  message: unknown,
  headers: Record<string, string | undefined> = {},
): Promise<Reply> {
  const base =
    typeof message === "object" && message !== null && !Array.isArray(message)
      ? headersFor(message as Record<string, unknown>)
      : { "content-type": "application/json", "mcp-protocol-version": VERSION };
  const merged = Object.fromEntries(
    Object.entries({ ...base, ...headers }).filter(
      (e): e is [string, string] => e[1] !== undefined,
    ),
  );
  return send(url, {
    method: "POST",
    headers: merged,
    body: typeof message === "string" ? message : JSON.stringify(message),
  });
}

/** Any HTTP request to `url`, its body read in full. */
export async function send(url: string, init: RequestInit): Promise<Reply> {
  const response = await fetch(url, init);
  const text = await response.text();
  const messages = readBody(text, response.headers.get("content-type"));
  return {
    status: response.status,
    headers: response.headers,
    text,
    messages,
    body: messages.at(-1) ?? {},
  };
}

/** Reads newline-delimited JSON messages from a stream, one at a time. */
export class LineReader {
  private buffer = "";
  private readonly queue: Array<Record<string, unknown>> = [];
  private waiting?: (message: Record<string, unknown>) => void;

  constructor(stream: Readable) {
    stream.on("data", (chunk: Buffer) => {
      this.buffer += chunk.toString("utf8");
      let newline: number;
      while ((newline = this.buffer.indexOf("\n")) >= 0) {
        const line = this.buffer.slice(0, newline);
        this.buffer = this.buffer.slice(newline + 1);
        if (line.trim() === "") continue;
        const message = JSON.parse(line) as Record<string, unknown>;
        if (this.waiting) {
          const waiting = this.waiting;
          this.waiting = undefined;
          waiting(message);
        } else this.queue.push(message);
      }
    });
  }

  /** The next message (fails after `ms`). */
  next(ms = 10_000): Promise<Record<string, unknown>> {
    const queued = this.queue.shift();
    if (queued) return Promise.resolve(queued);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting = undefined;
        reject(new Error(`no message within ${ms} ms`));
      }, ms);
      this.waiting = (message) => {
        clearTimeout(timer);
        resolve(message);
      };
    });
  }

  /** Messages received but not read yet. */
  get pending(): number {
    return this.queue.length;
  }
}

/** What a raw node:http exchange gave back. */
export interface RawReply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly text: string;
}

/**
 * One request over node:http, with headers exactly as given (fetch will
 * not send a Host of our choosing, nor bytes outside ASCII in a value).
 */
export function raw(
  url: string,
  options: {
    method?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    setHost?: boolean;
  } = {},
): Promise<RawReply> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method: options.method ?? "POST",
        headers: options.headers ?? {},
        setHost: options.setHost ?? true,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString("utf8"),
          }),
        );
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}

/** An event stream being read as it arrives. */
export interface OpenStream {
  readonly status: number;
  readonly headers: Headers;
  /** The next message on the stream (fails after `ms`). */
  next(ms?: number): Promise<Record<string, unknown>>;
  /** Resolves when the server ends the stream. */
  readonly ended: Promise<void>;
  /** Closes the stream from the client's side (the client goes away). */
  close(): void;
}

/** POSTs `message` and reads the event stream it answers with, message by message. */
export async function openStream(
  url: string,
  message: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<OpenStream> {
  const controller = new AbortController();
  const response = await fetch(url, {
    method: "POST",
    headers: { ...headersFor(message), ...headers },
    body: JSON.stringify(message),
    signal: controller.signal,
  });
  return readStream(response, controller);
}

/** Sends `init` (a GET for a legacy session's standalone stream, or a POST) and reads its event stream. */
export async function openRequestStream(url: string, init: RequestInit): Promise<OpenStream> {
  const controller = new AbortController();
  const response = await fetch(url, { ...init, signal: controller.signal });
  return readStream(response, controller);
}

function readStream(response: Response, controller: AbortController): OpenStream {
  const queue: Array<Record<string, unknown>> = [];
  const waiters: Array<(message: Record<string, unknown>) => void> = [];
  let buffer = "";
  const decoder = new TextDecoder();
  const ended = (async () => {
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const event = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = event.split("\n").find((line) => line.startsWith("data: "));
          if (!data) continue;
          const parsed = JSON.parse(data.slice(6)) as Record<string, unknown>;
          const waiter = waiters.shift();
          if (waiter) waiter(parsed);
          else queue.push(parsed);
        }
      }
    } catch (error) {
      if (!controller.signal.aborted) throw error;
    }
  })();
  return {
    status: response.status,
    headers: response.headers,
    ended,
    close: () => controller.abort(),
    next: (ms = 10_000) => {
      const queued = queue.shift();
      if (queued) return Promise.resolve(queued);
      return new Promise((resolve, reject) => {
        const waiter = (m: Record<string, unknown>) => {
          clearTimeout(timer);
          resolve(m);
        };
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(waiter), 1);
          reject(new Error(`no message within ${ms} ms`));
        }, ms);
        waiters.push(waiter);
      });
    },
  };
}
