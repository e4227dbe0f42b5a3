/**
 * The parts of a client's OAuth discovery that oauth4webapi leaves to its
 * caller (spec: basic/authorization, authorization server discovery):
 * reading a `WWW-Authenticate: Bearer` challenge, where the protected
 * resource metadata may be (the challenge's `resource_metadata` alone, else
 * the path-aware well-known URL, then the root one), whether that metadata
 * belongs to the MCP server being called, where the authorization server's
 * metadata may be (RFC 8414 and OpenID, path inserted and appended), and
 * which scope to ask for, on the first try and on step-up.
 */

/** The parameters of one `Bearer` challenge (RFC 6750 3), lower-case names. */
export type BearerChallenge = Readonly<Record<string, string>>;

/**
 * The `Bearer` challenge of a WWW-Authenticate header, or undefined when
 * it has none. Parameters are `name=token` or `name="quoted string"` (RFC
 * 9110 11.2); other schemes in the same header are skipped.
 */
export function parseBearerChallenge(header: string | undefined): BearerChallenge | undefined {
  return parseChallenge(header, "Bearer");
}

/**
 * The challenge of `scheme` (`Bearer`, `DPoP`: an auth-scheme token) in a
 * WWW-Authenticate header, its parameters by lower-case name; undefined
 * when the header has none of that scheme.
 */
export function parseChallenge(
  header: string | undefined,
  scheme: "Bearer" | "DPoP",
): BearerChallenge | undefined {
  if (header === undefined) return undefined;
  const found = new RegExp(`(?:^|,)\\s*${scheme}(?:\\s+|\\s*$|\\s*,)`, "i").exec(header);
  if (!found) return undefined;
  const params: Record<string, string> = {};
  const rest = header.slice(found.index + found[0].length);
  const pattern =
    /\s*([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]*))\s*(?:,|$)/y;
  let match: RegExpExecArray | null;
  while ((match = pattern.exec(rest)) !== null) {
    const value = match[2] !== undefined ? match[2].replace(/\\(.)/g, "$1") : match[3]!;
    params[match[1]!.toLowerCase()] = value;
    if (pattern.lastIndex >= rest.length) break;
    // A new scheme (a token with no `=` after it) ends this challenge.
    if (/^\s*[!#$%&'*+.^_`|~0-9A-Za-z-]+\s*(?:$|,|\s+[^=\s])/.test(rest.slice(pattern.lastIndex)))
      break;
  }
  return params;
}

/**
 * Where to look for the protected resource metadata of `serverUrl`: the
 * challenge's `resource_metadata` only, when it names one; else the
 * path-aware well-known URL, then the root one (RFC 9728 3.1).
 */
export function resourceMetadataUrls(serverUrl: string, challenge?: BearerChallenge): string[] {
  const named = challenge?.resource_metadata;
  if (named !== undefined) return [new URL(named, serverUrl).href];
  const url = new URL(serverUrl);
  const path = url.pathname === "/" ? "" : url.pathname.replace(/\/$/, "");
  const root = new URL("/.well-known/oauth-protected-resource", url.origin).href;
  return path === ""
    ? [root]
    : [new URL(`/.well-known/oauth-protected-resource${path}`, url.origin).href, root];
}

/**
 * Whether protected resource metadata naming `resource` may be used for
 * `serverUrl`: same origin, and the resource's path equal to the server's
 * or a prefix of it at a `/` boundary. A client must not send its token
 * to one server for another's resource.
 */
export function resourceMatches(resource: string, serverUrl: string): boolean {
  let named: URL;
  try {
    named = new URL(resource);
  } catch {
    return false;
  }
  const server = new URL(serverUrl);
  if (named.origin !== server.origin || named.hash !== "") return false;
  const prefix = named.pathname.replace(/\/$/, "");
  const path = server.pathname.replace(/\/$/, "");
  return prefix === "" || path === prefix || path.startsWith(`${prefix}/`);
}

/** Where an authorization server's metadata may be (core/well-known.ts, shared with a server's auth/). */
export { authorizationServerMetadataUrls } from "../core/well-known.js";

/**
 * The scope to ask for: the challenge's `scope`, else the resource's
 * `scopes_supported`, else none (undefined); on step-up (after 403
 * insufficient_scope) joined with what was granted before, so no scope is
 * lost. `offline_access` is added when the authorization server lists it
 * and a refresh token is wanted.
 */
export function scopeToRequest(options: {
  readonly challenge?: BearerChallenge;
  readonly scopesSupported?: readonly string[];
  readonly previous?: readonly string[];
  readonly serverScopes?: readonly string[];
  readonly offline?: boolean;
}): string | undefined {
  const asked =
    options.challenge?.scope !== undefined
      ? options.challenge.scope.split(" ")
      : (options.scopesSupported ?? []);
  const scopes = new Set([...(options.previous ?? []), ...asked].filter((s) => s !== ""));
  if (options.offline && options.serverScopes?.includes("offline_access"))
    scopes.add("offline_access");
  return scopes.size === 0 ? undefined : [...scopes].join(" ");
}
