/**
 * Waiting in tests: for a condition, not for a guess at how long
 * something takes. `until` polls and gives up with what it was waiting for;
 * `sleep` is for the few tests where time passing is the point.
 */

/** Resolves after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Polls `probe` every `everyMs` until it returns something other than
 * undefined, false or null, and resolves with that; rejects naming `what`
 * (and the last value seen, and `detail()` when given: a log, say) after
 * `timeoutMs`. The deadline is generous on purpose: a loaded machine makes
 * things slow, not wrong.
 */
export async function until<T>(
  probe: () => T | Promise<T>,
  {
    what = "the condition",
    timeoutMs = 10_000,
    everyMs = 10,
    detail,
  }: { what?: string; timeoutMs?: number; everyMs?: number; detail?: () => string } = {},
): Promise<Exclude<T, undefined | false | null>> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  for (;;) {
    last = await probe();
    if (last !== undefined && last !== false && last !== null)
      return last as Exclude<T, undefined | false | null>;
    if (Date.now() > deadline)
      throw new Error(
        `${what} was not met within ${timeoutMs} ms (last: ${JSON.stringify(last)})` +
          (detail ? `:\n${detail()}` : ""),
      );
    await sleep(everyMs);
  }
}
