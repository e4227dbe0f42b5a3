/**
 * Credentials on the wire: a client's auth hook (an OAuth token provider,
 * an API key) wrapped around its HttpWire. Every request carries the
 * hook's headers; a request the server refuses with 401 or 403 is sent
 * once more when the hook renews them. The channel (http-client.ts) sees
 * only the reply that counts and knows nothing of credentials.
 */
import type { HttpWire, WireReply, WireRequest } from "./http-wire.js";

/**
 * Credentials for the requests of one client (an OAuth token provider, an
 * API key). `headers` is asked before every request; when the server
 * refuses a request with 401 or 403, `refused` decides whether to send it
 * once more with fresh headers.
 */
export interface HttpAuth {
  /** Headers that carry the credentials (e.g. `authorization`), by lower-case name. */
  headers(url: URL): Readonly<Record<string, string>> | Promise<Readonly<Record<string, string>>>;
  /**
   * The server refused a request (its status and headers, such as
   * WWW-Authenticate). Resolve true once new credentials are in place to
   * retry the request once; false to fail it.
   */
  refused(refusal: HttpRefusal): boolean | Promise<boolean>;
}

/** A request the server refused with 401 or 403, as the auth hook sees it. */
export interface HttpRefusal {
  readonly url: URL;
  readonly status: number;
  /** The reply's headers (lower-case names), WWW-Authenticate among them. */
  readonly headers: Readonly<Record<string, string>>;
  /** The credentials the refused request carried (what `headers` gave for it). */
  readonly sent: Readonly<Record<string, string>>;
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
      sent = auth ? await auth.headers(request.url) : {};
      return wire({ ...request, headers: { ...base, ...sent, ...request.headers } });
    };
    const reply = await send();
    if (!auth || (reply.status !== 401 && reply.status !== 403)) return reply;
    const retry = await auth.refused({
      url: request.url,
      status: reply.status,
      headers: reply.headers,
      sent,
    });
    if (!retry) return reply;
    reply.cancel();
    return send();
  };
}
