/**
 * The stdio transport: newline-delimited JSON-RPC on stdin and stdout; the
 * runtime writes nothing else to stdout (logs go to stderr). Both eras: a
 * message with the modern `_meta` envelope is a modern request; `initialize`
 * starts the connection's one legacy session. `notifications/cancelled`
 * cancels a running request (and ends a listen subscription).
 */
import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";
import { Codes } from "./errors.js";
import { MAX_DEPTH, nestsDeeperThan } from "./limits.js";
import { handleLegacy, type LegacySession, LegacySessions } from "./legacy.js";
import { errorResponse, handleModern, META } from "./modern.js";
import type { McpServer } from "./server.js";

/** Where the stdio transport reads and writes (process.stdin / process.stdout by default). */
export interface StdioOptions {
  readonly input?: Readable;
  readonly output?: Writable;
}

/** Serves `server` on stdio until the input ends. */
export function serveStdio(server: McpServer, options: StdioOptions = {}): Promise<void> {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const send = (message: Record<string, unknown>) => output.write(`${JSON.stringify(message)}\n`);
  const sink = { notify: send };
  const running = new Map<string | number, AbortController>();
  const sessions = new LegacySessions(server);
  let session: LegacySession | undefined;

  const serve = async (message: Record<string, unknown>) => {
    const params = (message.params ?? {}) as Record<string, unknown>;
    const meta =
      params._meta && typeof params._meta === "object"
        ? (params._meta as Record<string, unknown>)
        : undefined;
    if (message.method === undefined) {
      session?.receive(message);
      return;
    }
    if (message.method === "notifications/cancelled") {
      running.get(params.requestId as string | number)?.abort();
      if (session)
        await handleLegacy(server, session, message, {
          sink,
          signal: new AbortController().signal,
        });
      return;
    }
    const modern = meta !== undefined && META.protocolVersion in meta;
    if (!modern && !(server.legacy && (session || message.method === "initialize"))) {
      if ("id" in message)
        send(
          errorResponse(message.id, {
            code: Codes.InvalidParams,
            message: `Invalid params: missing _meta["${META.protocolVersion}"]`,
          }),
        );
      return;
    }
    const controller = new AbortController();
    const id = message.id as string | number | undefined;
    if (id !== undefined) running.set(id, controller);
    try {
      if (!modern && message.method === "initialize") session = sessions.create();
      const outcome = modern
        ? await handleModern(server, message, { sink, signal: controller.signal })
        : await handleLegacy(server, session!, message, { sink, signal: controller.signal });
      if (outcome.response && !controller.signal.aborted) send(outcome.response);
    } finally {
      if (id !== undefined) running.delete(id);
    }
  };

  const lines = createInterface({ input, crlfDelay: Infinity });
  lines.on("line", (line) => {
    if (line.trim() === "") return;
    if (nestsDeeperThan(line, MAX_DEPTH)) {
      send(
        errorResponse(null, {
          code: Codes.InvalidRequest,
          message: "Invalid Request",
          data: { reason: `the message nests deeper than ${MAX_DEPTH} levels` },
        }),
      );
      return;
    }
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch (error) {
      send(
        errorResponse(null, {
          code: Codes.ParseError,
          message: "Parse error",
          data: { reason: (error as Error).message },
        }),
      );
      return;
    }
    if (typeof message !== "object" || message === null || Array.isArray(message)) {
      send(
        errorResponse(null, {
          code: Codes.InvalidRequest,
          message: "Invalid Request",
          data: { reason: "a message must be a JSON object" },
        }),
      );
      return;
    }
    serve(message as Record<string, unknown>).catch((error) =>
      server.onError(error, "stdio transport"),
    );
  });
  return new Promise((resolve) =>
    lines.on("close", () => {
      for (const controller of running.values()) controller.abort();
      resolve();
    }),
  );
}
