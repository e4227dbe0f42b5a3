/**
 * Graceful shutdown on SIGTERM and SIGINT: the first signal stops the
 * server (`RunningHttpServer.shutdown`: no new connections, streams
 * ended, requests under way finished within the deadline) and exits with
 * 0, or 1 when requests had to be cut at the deadline. A second signal
 * exits at once.
 */

/** Something that stops gracefully; resolves true when nothing had to be cut. */
export interface Stoppable {
  shutdown(): Promise<boolean>;
}

/** Stops `server` on SIGTERM or SIGINT, then exits; returns a function that removes the handlers. */
export function stopOnSignals(
  server: Stoppable,
  options: {
    readonly log?: (message: string) => void;
    readonly exit?: (code: number) => void;
  } = {},
): () => void {
  const log = options.log ?? ((message: string) => process.stderr.write(`${message}\n`));
  const exit = options.exit ?? ((code: number) => process.exit(code));
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      log(`${signal} again: exiting now`);
      exit(1);
      return;
    }
    stopping = true;
    log(`${signal}: stopping (requests under way may finish)`);
    server.shutdown().then(
      (clean) => {
        if (!clean) log("stopped: requests still under way at the deadline were cut");
        exit(clean ? 0 : 1);
      },
      () => exit(1),
    );
  };
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
  return () => {
    process.off("SIGTERM", onSignal);
    process.off("SIGINT", onSignal);
  };
}
