/**
 * How a client's OAuth requests are made: every metadata, registration and
 * token request goes through OAuthRequests, which allows https only (http
 * on loopback hosts, or when allowed), bounds each request in time and
 * each answer in size (counted as it arrives), and reports any failure as
 * an OAuthError naming the step it happened in.
 */
import * as oauth from "oauth4webapi";

/** Why a sign-in failed: the step and what went wrong. */
export class OAuthError extends Error {
  constructor(
    readonly step:
      | "resource metadata"
      | "authorization server metadata"
      | "registration"
      | "authorization"
      | "token"
      | "token exchange",
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`OAuth ${step}: ${message}`, options);
    this.name = "OAuthError";
  }
}

/** The client's options these requests follow (see OAuthClientOptions). */
export interface RequestSettings {
  readonly timeoutMs?: number;
  readonly allowHttp?: boolean;
  readonly fetch?: typeof fetch;
  /** The largest answer read from an authorization server or identity provider (default 1 MiB). */
  readonly maxResponseBytes?: number;
}

/** Default of {@link RequestSettings.maxResponseBytes}. */
export const MAX_OAUTH_RESPONSE_BYTES = 1024 * 1024;

/** An answer larger than the limit: the rest of it is not read. */
export class AnswerTooLarge extends Error {
  override readonly name = "AnswerTooLarge";
}

/** The HTTP side of one OAuth client. */
export class OAuthRequests {
  private readonly fetcher: typeof fetch;

  constructor(private readonly settings: RequestSettings) {
    this.fetcher = boundedFetch(
      settings.fetch ?? fetch,
      settings.maxResponseBytes ?? MAX_OAUTH_RESPONSE_BYTES,
    );
  }

  /** A GET for metadata, bounded in time; a network failure is the step's error. */
  async get(url: string, step: OAuthError["step"]): Promise<Response> {
    this.checkProtocol(url, step);
    const fetcher = this.fetcher;
    try {
      return await fetcher(url, {
        headers: { accept: "application/json" },
        redirect: "manual",
        signal: AbortSignal.timeout(this.settings.timeoutMs ?? 30_000),
      });
    } catch (error) {
      throw new OAuthError(step, `cannot reach ${url}: ${describeError(error)}`, { cause: error });
    }
  }

  /** An oauth4webapi request, its network failures and timeouts reported as the step's error. */
  async call(
    step: OAuthError["step"],
    endpoint: string,
    request: () => Promise<Response>,
  ): Promise<Response> {
    this.checkProtocol(endpoint, step);
    try {
      return await request();
    } catch (error) {
      throw new OAuthError(step, describeError(error), { cause: error });
    }
  }

  requestOptions() {
    const timeout = this.settings.timeoutMs ?? 30_000;
    return {
      signal: () => AbortSignal.timeout(timeout),
      [oauth.customFetch]: this.fetcher,
      // oauth4webapi refuses http:// endpoints; checkProtocol already allowed these.
      [oauth.allowInsecureRequests]: true,
    };
  }

  /** https only, unless allowed or on a loopback host. */
  checkProtocol(url: string, step: OAuthError["step"]): void {
    const parsed = new URL(url);
    if (parsed.protocol === "https:") return;
    if (parsed.protocol === "http:" && (this.settings.allowHttp || isLoopback(parsed.hostname)))
      return;
    throw new OAuthError(step, `${url} is not https; set allowHttp to allow it`);
  }

  /** A response's body, which must be a JSON object. */
  async json(
    response: Response,
    url: string,
    step: OAuthError["step"],
  ): Promise<Record<string, unknown>> {
    let body: unknown;
    try {
      body = await response.json();
    } catch (error) {
      throw new OAuthError(
        step,
        error instanceof AnswerTooLarge ? `${url}: ${error.message}` : `${url} did not answer JSON`,
      );
    }
    if (typeof body !== "object" || body === null || Array.isArray(body))
      throw new OAuthError(step, `${url} did not answer a JSON object`);
    return body as Record<string, unknown>;
  }
}

/** Whether a host name is this machine's own. */
export function isLoopback(hostname: string): boolean {
  return hostname === "localhost" || hostname === "127.0.0.1" || hostname === "[::1]";
}

/**
 * `fetchImpl` whose answers are cut at `maxBytes`: a Content-Length past
 * it is refused before the body is read, and a body that passes it while
 * arriving fails with AnswerTooLarge.
 */
function boundedFetch(fetchImpl: typeof fetch, maxBytes: number): typeof fetch {
  return async (input, init) => {
    const response = await fetchImpl(input, init);
    const declared = Number(response.headers.get("content-length") ?? NaN);
    if (declared > maxBytes) {
      await response.body?.cancel().catch(() => {});
      throw new AnswerTooLarge(`the answer has ${declared} bytes, more than ${maxBytes}`);
    }
    if (response.body === null) return response;
    let seen = 0;
    const limited = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          seen += chunk.byteLength;
          if (seen > maxBytes)
            controller.error(new AnswerTooLarge(`the answer has more than ${maxBytes} bytes`));
          else controller.enqueue(chunk);
        },
      }),
    );
    return new Response(limited, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

/** What went wrong in a request, in a line. */
export function describeError(error: unknown): string {
  for (let cause = error; cause instanceof Error; cause = cause.cause)
    if (cause instanceof AnswerTooLarge) return cause.message;
  if (error instanceof oauth.ResponseBodyError)
    return `${error.error}${error.error_description ? `: ${error.error_description}` : ""} (HTTP ${error.status})`;
  if (error instanceof oauth.AuthorizationResponseError)
    return `${error.error}${error.error_description ? `: ${error.error_description}` : ""}`;
  if (error instanceof Error && error.name === "TimeoutError") return "no answer in time";
  return error instanceof Error ? error.message : String(error);
}

/** The start of a failed response's body, for its error message. */
export async function bodyText(response: Response): Promise<string> {
  try {
    return (await response.text()).slice(0, 500);
  } catch {
    return "";
  }
}
