/**
 * Newline-delimited framing over a byte stream, for both halves of stdio
 * (spec: stdio): one message per line; a `\r` before the newline is
 * dropped, blank lines are skipped, and a last line without a newline
 * still counts. Lines are split on the newline byte before they are
 * decoded, so a character split across chunks arrives whole.
 */
import type { Readable, Writable } from "node:stream";
import { writeFrame } from "../core/framing.js";

/** How lines are read. */
export interface LineOptions {
  /**
   * The longest line accepted, in bytes (default: no limit). A longer line
   * is dropped as it arrives, never held whole, and `onTooLong` is told.
   */
  readonly maxLineBytes?: number;
  /** Called once for each line dropped for its length, with the bytes it had when it was dropped. */
  readonly onTooLong?: (bytes: number) => void;
}

/** Calls `onLine` for each line of `input`; resolves when the input ends. */
export function readLines(
  input: Readable,
  onLine: (line: string) => void,
  options: LineOptions = {},
): Promise<void> {
  const max = options.maxLineBytes ?? Infinity;
  let parts: Buffer[] = [];
  let size = 0;
  let dropping = false;
  const emit = (tail: Buffer) => {
    const bytes = parts.length === 0 ? tail : Buffer.concat([...parts, tail]);
    parts = [];
    size = 0;
    const end = bytes.length > 0 && bytes[bytes.length - 1] === 13 /* \r */ ? -1 : undefined;
    const line = bytes.subarray(0, end).toString("utf8");
    if (line.trim() !== "") onLine(line);
  };
  const take = (chunk: Buffer) => {
    let start = 0;
    for (let newline = chunk.indexOf(10); newline >= 0; newline = chunk.indexOf(10, start)) {
      const piece = chunk.subarray(start, newline);
      start = newline + 1;
      if (dropping) dropping = false;
      else if (size + piece.length > max) options.onTooLong?.(size + piece.length);
      else {
        emit(piece);
        continue;
      }
      parts = [];
      size = 0;
    }
    if (start >= chunk.length || dropping) return;
    const rest = chunk.subarray(start);
    if (size + rest.length > max) {
      options.onTooLong?.(size + rest.length);
      parts = [];
      size = 0;
      dropping = true;
      return;
    }
    parts.push(rest);
    size += rest.length;
  };
  input.on("data", (chunk: Buffer | string) =>
    take(typeof chunk === "string" ? Buffer.from(chunk) : chunk),
  );
  return new Promise((resolve) => {
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      if (!dropping && size > 0) emit(Buffer.alloc(0));
      resolve();
    };
    input.once("end", finish);
    input.once("close", finish);
  });
}

/** Writes one message as one line. */
export function writeLine(output: Writable, message: unknown): void {
  output.write(`${writeFrame(message)}\n`);
}

/**
 * Writes messages as one line holding their array, piece by piece: one
 * text of every message joined would be as large as all of them, and past
 * JavaScript's longest string (about 512 MiB) it cannot be made at all.
 * The pieces are written in one go, so no other line comes between them.
 */
export function writeLines(output: Writable, messages: readonly unknown[]): void {
  output.cork();
  try {
    messages.forEach((message, index) =>
      output.write(`${index === 0 ? "[" : ","}${writeFrame(message)}`),
    );
    output.write("]\n");
  } finally {
    output.uncork();
  }
}
