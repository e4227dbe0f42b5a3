/**
 * Credentials on the wire: a client's auth hook (an OAuth token provider,
 * an API key) wrapped around its HttpWire. Every request carries the
 * hook's headers; a request the server refuses with 401 or 403 is sent
 * once more when the hook renews them, at most once for each reason the
 * hook gives (new credentials; a DPoP nonce the server asked for) and at
 * most twice in all. The channel (http-client.ts) sees only the reply that
 * counts and knows nothing of credentials.
 */
import type { HttpWire, WireReply, WireRequest } from "./http-wire.js";

/**
 * Credentials for the requests of one client (an OAuth token provider, an
 * API key). `headers` is asked before every request; when the server
 * refuses a request with 401 or 403, `refused` decides whether to send it
 * once more with fresh headers.
 */
export interface HttpAuth {
  /**
   * Headers that carry the credentials (e.g. `authorization`, and `dpop`
   * for a proof bound to this request's `method` and `url`), by lower-case name.
   */
  headers(
    url: URL,
    method: string,
  ): Readonly<Record<string, string>> | Promise<Readonly<Record<string, string>>>;
  /**
   * The server refused a request (its status and headers, such as
   * WWW-Authenticate). Resolve true once new credentials are in place to
   * retry the request once; a word naming another reason to send it again
   * (`"dpop-nonce"`: the same credentials with the nonce the server asked
   * for); false to fail it. A request is sent again at most once per reason
   * (`refusal.retried` lists those already used) and twice in all.
   */
  refused(refusal: HttpRefusal): RetryVerdict | Promise<RetryVerdict>;
}

/** What an auth hook says of a refused request: send it again (true: new credentials, or another reason), or not. */
export type RetryVerdict = boolean | "dpop-nonce";

/** The most times one request is sent again after 401 or 403. */
const MAX_RETRIES = 2;

/** A request the server refused with 401 or 403, as the auth hook sees it. */
export interface HttpRefusal {
  readonly url: URL;
  readonly status: number;
  /** The reply's headers (lower-case names), WWW-Authenticate among them. */
  readonly headers: Readonly<Record<string, string>>;
  /** The credentials the refused request carried (what `headers` gave for it). */
  readonly sent: Readonly<Record<string, string>>;
  /** The reasons this request was already sent again for (`"credentials"` for new credentials). */
  readonly retried: readonly string[];
}

/**
 * `wire` with the headers sent on every request (`base`) and, with `auth`,
 * its credentials and its one retry after 401 or 403. A request's own
 * headers win over the credentials, and those over `base`.
 */
export function credentialedWire(
  wire: HttpWire,
  base: Readonly<Record<string, string>> | undefined,
  auth: HttpAuth | undefined,
): HttpWire {
  return async (request: WireRequest): Promise<WireReply> => {
    let sent: Readonly<Record<string, string>> = {};
    const send = async () => {
      sent = auth ? await auth.headers(request.url, request.method) : {};
      return wire({ ...request, headers: { ...base, ...sent, ...request.headers } });
    };
    const retried: string[] = [];
    let reply = await send();
    while (auth && (reply.status === 401 || reply.status === 403) && retried.length < MAX_RETRIES) {
      const verdict = await auth.refused({
        url: request.url,
        status: reply.status,
        headers: reply.headers,
        sent,
        retried: [...retried],
      });
      const reason = verdict === true ? "credentials" : verdict;
      if (reason === false || retried.includes(reason)) return reply;
      retried.push(reason);
      reply.cancel();
      reply = await send();
    }
    return reply;
  };
}
