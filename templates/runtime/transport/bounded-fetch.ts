/**
 * HTTP requests to another server whose answer this process does not
 * trust: one deadline covers connecting, the headers and the whole body;
 * the body is read up to a size limit (Content-Length checked first, then
 * counted as it arrives, never held past the limit); redirects are
 * followed only within the same origin, a few times. Every failure is a
 * FetchFailure that says what went wrong and where, never a hang.
 *
 * Used for the authorization server's metadata, keys and introspection
 * (auth/). Bodies are read by bounded-read.ts, as the client's are.
 */
import { BodyTooLarge, declaredLength, readTextWithin } from "./bounded-read.js";

/** The largest answer read by default, in bytes (1 MiB). */
export const MAX_FETCH_BYTES = 1024 * 1024;

/** How a bounded fetch is limited. */
export interface BoundedFetchOptions {
  /** The largest body read, in bytes (default 1 MiB). */
  readonly maxBytes?: number;
  /** The whole exchange, body included, must end within this time, in ms. */
  readonly timeoutMs: number;
  /** Redirects followed within the URL's origin (default 3; a redirect elsewhere is refused). */
  readonly maxRedirects?: number;
  /** The fetch used (default: global fetch). */
  readonly fetch?: typeof fetch;
}

/** What a bounded fetch read: the final status, headers and the body as text. */
export interface BoundedAnswer {
  readonly url: string;
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
}

/** Why a bounded fetch failed. */
export type FetchFailureReason = "unreachable" | "timeout" | "redirect" | "size";

/** A bounded fetch that failed: `reason` says how, the message says what and where. */
export class FetchFailure extends Error {
  override readonly name = "FetchFailure";
  constructor(
    readonly reason: FetchFailureReason,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Fetches `url` within the limits; resolves with the whole body, whatever the status. */
export async function fetchBounded(
  url: string,
  init: RequestInit,
  options: BoundedFetchOptions,
): Promise<BoundedAnswer> {
  const signal = AbortSignal.timeout(options.timeoutMs);
  const deadline = deadlineOf(signal, options.timeoutMs, url);
  try {
    return await Promise.race([exchange(url, init, options, signal), deadline.promise]);
  } finally {
    deadline.clear();
  }
}

async function exchange(
  url: string,
  init: RequestInit,
  options: BoundedFetchOptions,
  signal: AbortSignal,
): Promise<BoundedAnswer> {
  const fetcher = options.fetch ?? fetch;
  const origin = new URL(url).origin;
  let current = url;
  for (let redirects = 0; ; redirects++) {
    let response: Response;
    try {
      response = await fetcher(current, { ...init, signal, redirect: "manual" });
    } catch (error) {
      if (signal.aborted) throw timeoutFailure(current, options.timeoutMs, error);
      throw new FetchFailure("unreachable", `${current}: ${causeOf(error)}`, { cause: error });
    }
    const location = response.headers.get("location");
    if (response.status >= 300 && response.status < 400 && location !== null) {
      void response.body?.cancel().catch(() => {});
      const next = new URL(location, current);
      const method = (init.method ?? "GET").toUpperCase();
      if (next.origin !== origin || method !== "GET")
        throw new FetchFailure(
          "redirect",
          `${current}: a redirect to ${next.origin} is not followed (only GET within ${origin})`,
        );
      if (redirects >= (options.maxRedirects ?? 3))
        throw new FetchFailure("redirect", `${current}: more than ${redirects} redirects`);
      current = next.href;
      continue;
    }
    const limits = { maxBytes: options.maxBytes ?? MAX_FETCH_BYTES, timeoutMs: options.timeoutMs };
    const text = await readText(response, limits, current, signal);
    return { url: current, status: response.status, headers: response.headers, text };
  }
}

/** The body as UTF-8 text, refused as soon as it passes `maxBytes`. */
async function readText(
  response: Response,
  { maxBytes, timeoutMs }: { maxBytes: number; timeoutMs: number },
  url: string,
  signal: AbortSignal,
): Promise<string> {
  const body = response.body as ReadableStream<Uint8Array> | null;
  if (!body) return "";
  try {
    return await readTextWithin(body, maxBytes, {
      declared: declaredLength(response.headers.get("content-length")),
      stop: () => void body.cancel().catch(() => {}),
    });
  } catch (error) {
    if (error instanceof BodyTooLarge)
      throw new FetchFailure("size", `${url}: ${error.message.replace(/^the body/, "the answer")}`);
    if (signal.aborted) throw timeoutFailure(url, timeoutMs, error);
    throw new FetchFailure("unreachable", `${url}: ${causeOf(error)}`, { cause: error });
  }
}

/** A promise that rejects when the deadline passes, even if the fetch used ignores its signal. */
function deadlineOf(signal: AbortSignal, timeoutMs: number, url: string) {
  let timer: NodeJS.Timeout | undefined;
  const promise = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(timeoutFailure(url, timeoutMs)), timeoutMs + 50);
    signal.addEventListener("abort", () => reject(timeoutFailure(url, timeoutMs)), {
      once: true,
    });
  });
  promise.catch(() => {});
  return { promise, clear: () => clearTimeout(timer) };
}

function timeoutFailure(url: string, timeoutMs: number, cause?: unknown): FetchFailure {
  return new FetchFailure(
    "timeout",
    `${url}: no answer within ${timeoutMs} ms (the body included)`,
    { cause },
  );
}

/** The most telling message of a network error (undici hides it in `cause`). */
function causeOf(error: unknown): string {
  if (error instanceof Error)
    return error.cause instanceof Error ? error.cause.message : error.message;
  return String(error);
}
