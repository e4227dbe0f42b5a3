/**
 * stdio, the client half: starts an MCP server as a child process and
 * exchanges newline-delimited JSON-RPC with it over the child's stdin and
 * stdout (spec: stdio). The child's stderr is its log: passed through,
 * handed to a callback, or ignored, never read as messages. Shutdown
 * follows the spec: close stdin, wait, then SIGTERM, then SIGKILL.
 *
 * What the server writes is bounded like what a server reads: a line
 * longer than `maxLineBytes` (4 MiB by default, the server's limit) is
 * never held whole; the connection fails with LineTooLong and the server
 * is shut down, since the line's message, whatever request it answered,
 * is lost.
 *
 * This moves messages and nothing else: matching answers to requests is
 * core's PendingRequests, and what the messages mean is the client's.
 */
import { spawn } from "node:child_process";
import { readFrame } from "../core/framing.js";
import { isJsonObject, type JsonRpcMessage } from "../core/jsonrpc.js";
import { MAX_MESSAGE_BYTES } from "../core/limits.js";
import { readLines, writeLine } from "./lines.js";

/** How to start the server and what to do with what it writes. */
export interface StdioClientOptions {
  /** The program to run (looked up on PATH). */
  readonly command: string;
  readonly args?: readonly string[];
  readonly cwd?: string;
  /** The child's environment (default: this process's). */
  readonly env?: NodeJS.ProcessEnv;
  /** Each message the server writes to stdout, in order. */
  readonly onMessage: (message: JsonRpcMessage) => void;
  /** A line on stdout that is not a JSON-RPC message (the server broke the stdio rules); it is skipped. */
  readonly onError?: (error: Error) => void;
  /** The server's stderr: `"inherit"` (default) passes it through, `"ignore"` drops it, a function gets it as text. */
  readonly stderr?: "inherit" | "ignore" | ((text: string) => void);
  /** How long `close` waits for the child after closing its stdin, and again after SIGTERM (default 2000 ms). */
  readonly shutdownGraceMs?: number;
  /** The longest line accepted on the server's stdout, in bytes (default 4 MiB, as the server's stdio). */
  readonly maxLineBytes?: number;
}

/** The server wrote a line past `maxLineBytes`: it is told to `onError`, and the connection closes. */
export class LineTooLong extends Error {
  override readonly name = "LineTooLong";
}

/** How the child ended. */
export interface ChildExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** A running server, connected over its standard streams. */
export interface StdioConnection {
  readonly pid: number;
  /** Writes one message to the server's stdin; throws once the connection is closed. */
  send(message: JsonRpcMessage): void;
  /** Resolves when the child has exited, however that happened. */
  readonly exited: Promise<ChildExit>;
  /** Shuts the server down (stdin closed, then SIGTERM, then SIGKILL) and resolves with how it ended. */
  close(): Promise<ChildExit>;
}

/**
 * Starts the server and connects to it; resolves once the process runs,
 * rejects with an Error naming the command when it cannot start.
 */
export async function connectStdio(options: StdioClientOptions): Promise<StdioConnection> {
  const stderr = options.stderr ?? "inherit";
  const child = spawn(options.command, [...(options.args ?? [])], {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ["pipe", "pipe", typeof stderr === "function" ? "pipe" : stderr],
    windowsHide: true,
  });
  const exited = new Promise<ChildExit>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  await new Promise<void>((resolve, reject) => {
    child.once("spawn", resolve);
    child.once("error", (error) =>
      reject(new Error(`cannot start the MCP server ${options.command}: ${error.message}`)),
    );
  });
  if (typeof stderr === "function") child.stderr!.setEncoding("utf8").on("data", stderr);
  // Writes after the child exited fail with EPIPE; `send` refuses them once it knows.
  child.stdin!.on("error", () => {});
  const maxLineBytes = options.maxLineBytes ?? MAX_MESSAGE_BYTES;
  let overflowed = false;
  void readLines(child.stdout!, (line) => deliver(line, options), {
    maxLineBytes,
    onTooLong: () => {
      if (overflowed) return;
      overflowed = true;
      options.onError?.(
        new LineTooLong(
          `the MCP server ${options.command} wrote a line longer than ${maxLineBytes} bytes (maxLineBytes); the connection is closed`,
        ),
      );
      // Nothing more is read from it: what it writes now goes nowhere, and it is shut down.
      child.stdout!.destroy();
      void connection.close();
    },
  });

  let closed = false;
  const grace = options.shutdownGraceMs ?? 2000;
  const within = (ms: number) =>
    Promise.race([
      exited,
      new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), ms).unref()),
    ]);
  const connection: StdioConnection = {
    pid: child.pid!,
    exited,
    send(message) {
      if (closed || child.exitCode !== null || child.signalCode !== null)
        throw new Error(`the MCP server ${options.command} is no longer connected`);
      writeLine(child.stdin!, message);
    },
    async close() {
      if (!closed) {
        closed = true;
        child.stdin!.end();
        if ((await within(grace)) === undefined) {
          child.kill("SIGTERM");
          if ((await within(grace)) === undefined) child.kill("SIGKILL");
        }
      }
      return exited;
    },
  };
  return connection;
}

/** Hands a line's messages to `onMessage` (each item of a batch, too), anything else to `onError`. */
function deliver(line: string, options: StdioClientOptions): void {
  const frame = readFrame(line);
  const messages =
    frame.kind === "message"
      ? [frame.message]
      : frame.kind === "batch"
        ? frame.items.filter(isJsonObject)
        : [];
  if (messages.length === 0 || (frame.kind === "batch" && messages.length !== frame.items.length))
    options.onError?.(
      new Error(
        // Quoted as JSON: the line's control characters are escaped, not sent to a terminal.
        `the MCP server wrote a line that is not a JSON-RPC message: ${JSON.stringify(line.slice(0, 200))}${line.length > 200 ? "…" : ""}`,
      ),
    );
  for (const message of messages) options.onMessage(message);
}
