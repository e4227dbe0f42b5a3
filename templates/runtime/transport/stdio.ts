/**
 * stdio, the server half: newline-delimited JSON-RPC on stdin and stdout
 * (spec: stdio); the runtime writes nothing else to stdout (logs go to
 * stderr). What happens to a line: framing (core/framing), era
 * (core/era), then the served side (modern) or the connection's one
 * legacy session, which `initialize` opens. `notifications/cancelled`
 * cancels a running request of either era, and ends a listen
 * subscription. A batch is served only in a 2025-03-26 session, and
 * answered with one array.
 *
 * A line longer than the limit is dropped as it arrives and answered with
 * -32600. When the input ends (the client closed stdin, spec: stdio
 * shutdown), listen subscriptions end, requests under way finish and
 * their answers are written (within `drainMs`), then serveStdio resolves.
 */
import type { Readable, Writable } from "node:stream";
import { detectEra, missingEnvelope } from "../core/era.js";
import { Codes, McpError } from "../core/errors.js";
import type { Exchange } from "../core/exchange.js";
import { allowsBatches, batchRefused, readFrame, splitBatch } from "../core/framing.js";
import {
  errorResponse,
  isResponse,
  paramsOf,
  type JsonRpcId,
  type JsonRpcMessage,
  type JsonRpcResponse,
} from "../core/jsonrpc.js";
import { MAX_MESSAGE_BYTES } from "../core/limits.js";
import { integer } from "./fetch-settings.js";
import { readLines, writeLine, writeLines } from "./lines.js";
import { STREAM_DEFAULTS } from "./streams.js";
import type { ServedSession, ServedSide } from "./served.js";

/** Where the stdio transport reads and writes (process.stdin / process.stdout by default). */
export interface StdioOptions {
  readonly input?: Readable;
  readonly output?: Writable;
  /** The longest line accepted, in bytes (default 4 MiB); a longer one is answered with -32600. */
  readonly maxLineBytes?: number;
  /** How long requests under way at the end of the input may take to finish (default 10 s); the rest are cancelled. */
  readonly drainMs?: number;
  /** The most messages a JSON-RPC batch may hold (2025-03-26 sessions; default 100). */
  readonly maxBatchItems?: number;
  /** The most listen streams open at once on the connection, its one client's (default 16). */
  readonly maxListenStreams?: number;
}

/**
 * The stdio settings from environment variables (each optional; a value
 * that cannot be used throws a SettingError naming the variable):
 * `MCP_MAX_LINE_BYTES` (maxLineBytes, default 4194304),
 * `MCP_MAX_BATCH_ITEMS` (maxBatchItems, 100) and
 * `MCP_MAX_LISTEN_STREAMS_PER_CLIENT` (maxListenStreams, 16).
 */
export function stdioSettingsFromEnvironment(
  env: Readonly<Record<string, string | undefined>> = process.env,
): StdioOptions {
  const settings: Record<string, number> = {};
  const set = (option: string, value: number | undefined) => {
    if (value !== undefined) settings[option] = value;
  };
  set("maxLineBytes", integer(env, "MCP_MAX_LINE_BYTES", 1024, 1 << 30));
  set("maxBatchItems", integer(env, "MCP_MAX_BATCH_ITEMS", 1, 100_000));
  set("maxListenStreams", integer(env, "MCP_MAX_LISTEN_STREAMS_PER_CLIENT", 1, 1_000_000));
  return settings;
}

/** Serves `side` (an McpServer) on stdio until the input ends. */
export function serveStdio(side: ServedSide, options: StdioOptions = {}): Promise<void> {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const send = (message: unknown) => writeLine(output, message);
  const sink = { notify: send };
  const running = new Map<JsonRpcId, AbortController>();
  /** Requests whose method is subscriptions/listen: they end with the input instead of being waited for. */
  const listening = new Set<AbortController>();
  /** Answers not written yet. */
  const inFlight = new Set<Promise<void>>();
  let session: ServedSession | undefined;

  /** Serves one message; resolves with the response to write, if any. */
  const serve = async (message: JsonRpcMessage): Promise<JsonRpcResponse | undefined> => {
    if (isResponse(message)) {
      session?.receive(message);
      return undefined;
    }
    if (message.method === "notifications/cancelled") {
      running.get(paramsOf(message).requestId as JsonRpcId)?.abort();
      await session?.serve(message, { sink, signal: new AbortController().signal });
      return undefined;
    }
    const verdict = detectEra(message, { servesLegacy: side.servesLegacy });
    const era = "era" in verdict ? verdict.era : undefined;
    if (era === undefined || (era === "legacy" && !session && message.method !== "initialize")) {
      const refusal = "refused" in verdict ? verdict.refused : missingEnvelope();
      return "id" in message ? errorResponse(message.id, refusal.toJSON()) : undefined;
    }
    if (era === "legacy" && message.method === "initialize") {
      session?.close();
      session = side.openSession();
      session.standalone = sink;
    }
    const controller = new AbortController();
    const id = "id" in message ? (message.id as JsonRpcId) : undefined;
    const listen = message.method === "subscriptions/listen";
    if (listen && listening.size >= maxListenStreams && id !== undefined)
      return errorResponse(id, tooManyListens(maxListenStreams).toJSON());
    if (id !== undefined) running.set(id, controller);
    if (listen) listening.add(controller);
    const exchange: Exchange = { sink, signal: controller.signal };
    try {
      const outcome =
        era === "modern"
          ? await side.serve(message, exchange)
          : await session!.serve(message, exchange);
      // A cancelled request gets no response (spec: cancellation).
      return controller.signal.aborted ? undefined : outcome.response;
    } finally {
      if (id !== undefined) running.delete(id);
      if (listen) listening.delete(controller);
    }
  };

  /**
   * A batch: only in a session that negotiated 2025-03-26, of at most
   * maxBatchItems messages; the responses go back as one array, in the
   * batch's order.
   */
  const serveBatch = async (items: readonly unknown[]): Promise<unknown> => {
    if (!session || !allowsBatches(session.protocolVersion))
      return errorResponse(null, batchRefused().toJSON());
    const split = splitBatch(items, options.maxBatchItems);
    if (split instanceof McpError) return errorResponse(null, split.toJSON());
    const answered = await Promise.all(
      split.entries.map(async (entry) =>
        entry instanceof McpError ? errorResponse(null, entry.toJSON()) : serve(entry),
      ),
    );
    const responses = answered.filter((response) => response !== undefined);
    return responses.length > 0 ? new BatchAnswer(responses) : undefined;
  };

  const maxLineBytes = options.maxLineBytes ?? MAX_MESSAGE_BYTES;
  const maxListenStreams = options.maxListenStreams ?? STREAM_DEFAULTS.perClient;
  const ended = readLines(
    input,
    (line) => {
      const frame = readFrame(line);
      const answer =
        frame.kind === "invalid"
          ? Promise.resolve(errorResponse(null, frame.error.toJSON()))
          : frame.kind === "batch"
            ? serveBatch(frame.items)
            : serve(frame.message);
      const written = answer.then(
        (response) => {
          if (response instanceof BatchAnswer) writeLines(output, response.responses);
          else if (response !== undefined) send(response);
        },
        (error: unknown) => side.onError(error, "stdio transport"),
      );
      inFlight.add(written);
      void written.finally(() => inFlight.delete(written));
    },
    {
      maxLineBytes,
      onTooLong: () =>
        send(
          errorResponse(
            null,
            new McpError(Codes.InvalidRequest, "Invalid Request", {
              reason: `the line is longer than ${maxLineBytes} bytes, the most a message may have; it was dropped`,
            }).toJSON(),
          ),
        ),
    },
  );
  return ended.then(async () => {
    for (const controller of listening) controller.abort();
    await drain(inFlight, options.drainMs ?? 10_000);
    for (const controller of running.values()) controller.abort();
    await drain(inFlight, 1000);
    session?.close();
    // Resolves once what was written before has been handed to the output (or it failed).
    const flushed = new Promise<void>((resolve) => output.write("", () => resolve()));
    await drain(new Set([flushed]), 1000);
  });
}

/** The responses to a batch, written as one array. */
class BatchAnswer {
  constructor(readonly responses: readonly JsonRpcResponse[]) {}
}

/** -32600 for a listen request past the connection's limit. */
function tooManyListens(limit: number): McpError {
  return new McpError(
    Codes.InvalidRequest,
    `Too many open streams: this client holds ${limit} listen streams, the most one client may (MCP_MAX_LISTEN_STREAMS_PER_CLIENT); close one first`,
    { limit },
  );
}

/** Waits until `pending` is empty, or `ms` passed. */
async function drain(pending: Set<Promise<void>>, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (pending.size > 0) {
    const left = deadline - Date.now();
    if (left <= 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled([...pending]),
      new Promise((resolve) => (timer = setTimeout(resolve, left))),
    ]);
    clearTimeout(timer);
  }
}
