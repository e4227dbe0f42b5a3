/**
 * How the CLI talks: results on stdout, progress and diagnostics on
 * stderr, one line per diagnostic, stacks only for internal errors.
 */
import { formatDiagnostic, McpGenError, type Diagnostic } from "../diagnostics.js";

/** The CLI's exit codes. */
export const EXIT = { ok: 0, checkFailed: 1, badInput: 2, internal: 3 } as const;

/** Prints notes and warnings (to stderr). */
export function printDiagnostics(diagnostics: readonly Diagnostic[], quiet = false): void {
  for (const d of diagnostics)
    if (!quiet || d.severity !== "note") process.stderr.write(`${formatDiagnostic(d)}\n`);
}

/**
 * Waits for Ctrl-C or SIGTERM, then closes `handle` and resolves once it is
 * closed; a second signal while closing does nothing more. The handlers
 * stay on to the end: a signal that arrives as a write ends is then not
 * re-delivered as a kill.
 */
export function closeOnSignal(handle: { close(): Promise<void> }): Promise<void> {
  return new Promise<void>((resolve) => {
    let stopping = false;
    const stop = () => {
      if (stopping) return;
      stopping = true;
      void handle.close().then(resolve);
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
}

/** A command line that cannot work as given (not bad input, and not a bug). */
export class UsageError extends Error {}

/** A usage error to throw from a command handler. */
export function usage(message: string): UsageError {
  return new UsageError(message);
}

/** Prints an error the library threw and returns the exit code it deserves. */
export function reportError(error: unknown): number {
  if (error instanceof UsageError) {
    process.stderr.write(`mcp-gen: ${error.message}\nRun mcp-gen --help for usage.\n`);
    return EXIT.badInput;
  }
  if (error instanceof McpGenError) {
    printDiagnostics(error.diagnostics);
    return EXIT.badInput;
  }
  const stack = error instanceof Error ? (error.stack ?? error.message) : String(error);
  process.stderr.write(
    `mcp-gen: internal error\n${stack}\nThis is a bug in mcp-gen; please report it with the command you ran.\n`,
  );
  return EXIT.internal;
}
