/**
 * stdio, the server half: newline-delimited JSON-RPC on stdin and stdout
 * (spec: stdio); the runtime writes nothing else to stdout (logs go to
 * stderr). What happens to a line: framing (core/framing), era
 * (core/era), then the served side (modern) or the connection's one
 * legacy session, which `initialize` opens. `notifications/cancelled`
 * cancels a running request of either era, and ends a listen
 * subscription.
 */
import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";
import { detectEra, missingEnvelope } from "../core/era.js";
import type { Exchange } from "../core/exchange.js";
import { batchRefused, readFrame, writeFrame } from "../core/framing.js";
import {
  errorResponse,
  isResponse,
  paramsOf,
  type JsonRpcId,
  type JsonRpcMessage,
} from "../core/jsonrpc.js";
import type { ServedSession, ServedSide } from "./served.js";

/** Where the stdio transport reads and writes (process.stdin / process.stdout by default). */
export interface StdioOptions {
  readonly input?: Readable;
  readonly output?: Writable;
}

/** Serves `side` (an McpServer) on stdio until the input ends. */
export function serveStdio(side: ServedSide, options: StdioOptions = {}): Promise<void> {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const send = (message: JsonRpcMessage) => output.write(`${writeFrame(message)}\n`);
  const sink = { notify: send };
  const running = new Map<JsonRpcId, AbortController>();
  let session: ServedSession | undefined;

  const serve = async (message: JsonRpcMessage) => {
    if (isResponse(message)) {
      session?.receive(message);
      return;
    }
    if (message.method === "notifications/cancelled") {
      running.get(paramsOf(message).requestId as JsonRpcId)?.abort();
      await session?.serve(message, { sink, signal: new AbortController().signal });
      return;
    }
    const verdict = detectEra(message, { servesLegacy: side.servesLegacy });
    const era = "era" in verdict ? verdict.era : undefined;
    if (era === undefined || (era === "legacy" && !session && message.method !== "initialize")) {
      if ("id" in message)
        send(
          errorResponse(
            message.id,
            ("refused" in verdict ? verdict.refused : missingEnvelope()).toJSON(),
          ),
        );
      return;
    }
    if (era === "legacy" && message.method === "initialize") {
      session?.close();
      session = side.openSession();
      session.standalone = sink;
    }
    const controller = new AbortController();
    const id = "id" in message ? (message.id as JsonRpcId) : undefined;
    if (id !== undefined) running.set(id, controller);
    const exchange: Exchange = { sink, signal: controller.signal };
    try {
      const outcome =
        era === "modern"
          ? await side.serve(message, exchange)
          : await session!.serve(message, exchange);
      if (outcome.response && !controller.signal.aborted) send(outcome.response);
    } finally {
      if (id !== undefined) running.delete(id);
    }
  };

  const lines = createInterface({ input, crlfDelay: Infinity });
  lines.on("line", (line) => {
    if (line.trim() === "") return;
    const frame = readFrame(line);
    if (frame.kind === "invalid") send(errorResponse(null, frame.error.toJSON()));
    else if (frame.kind === "batch") send(errorResponse(null, batchRefused().toJSON()));
    else serve(frame.message).catch((error: unknown) => side.onError(error, "stdio transport"));
  });
  return new Promise((resolve) =>
    lines.on("close", () => {
      for (const controller of running.values()) controller.abort();
      session?.close();
      resolve();
    }),
  );
}
