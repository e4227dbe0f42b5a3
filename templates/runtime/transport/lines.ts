/**
 * Newline-delimited framing over a byte stream, for both halves of stdio
 * (spec: stdio): one message per line; a `\r` before the newline is
 * dropped, blank lines are skipped, and a last line without a newline
 * still counts.
 */
import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";
import { writeFrame } from "../core/framing.js";

/** Calls `onLine` for each line of `input`; resolves when the input ends. */
export function readLines(input: Readable, onLine: (line: string) => void): Promise<void> {
  const lines = createInterface({ input, crlfDelay: Infinity });
  lines.on("line", (line) => {
    if (line.trim() !== "") onLine(line);
  });
  return new Promise((resolve) => lines.once("close", resolve));
}

/** Writes one message as one line. */
export function writeLine(output: Writable, message: unknown): void {
  output.write(`${writeFrame(message)}\n`);
}
