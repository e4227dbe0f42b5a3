/**
 * A real OAuth 2.1 authorization server for tests: oidc-provider on
 * 127.0.0.1, issuing access tokens for the resource indicators it is given
 * (JWT per RFC 9068, or opaque for introspection), with login and consent
 * done at once (the account `test-user` consents to every scope it is
 * asked), so an authorization code flow runs without a browser.
 *
 * It knows these clients:
 * - `service` (client_secret_post): client credentials, for tokens without
 *   a user (`clientCredentialsToken`).
 * - `resource-server` (client_secret_basic): the MCP server's own client,
 *   the one that may call the introspection endpoint.
 * - `pre-registered-client` / `pre-registered-secret`
 *   (client_secret_basic): authorization code with PKCE and refresh
 *   tokens, for the redirect URIs given in `redirectUris`.
 * - any client registered dynamically (RFC 7591) at `<issuer>/reg`.
 *
 * Every server started is closed with `close()`; nothing is written to disk
 * (oidc-provider's in-memory adapter).
 */
import type { webcrypto } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair } from "jose";
import Provider from "oidc-provider";

/** What the authorization server issues. */
export interface AuthorizationServerOptions {
  /** The resource indicators (RFC 8707) it issues tokens for; the first is the default. */
  readonly resources: readonly string[];
  /** The scopes of those resources (besides openid and offline_access). */
  readonly scopes: readonly string[];
  /** `jwt` (RFC 9068, the default) or `opaque` (checked by introspection). */
  readonly tokenFormat?: "jwt" | "opaque";
  /** How long an access token lives, in seconds (default 600). */
  readonly accessTokenTTL?: number;
  /** Redirect URIs of `pre-registered-client` (default: none, so no authorization code flow). */
  readonly redirectUris?: readonly string[];
  /** The ES256 key it signs tokens with (key id `k1`; default: a new one), for tests that also sign their own. */
  readonly signingKey?: webcrypto.CryptoKey;
  /** DPoP (RFC 9449): tokens asked for with a proof are bound to its key (default off). */
  readonly dpop?: boolean;
  /** More clients, as oidc-provider's client metadata. */
  readonly clients?: readonly Record<string, unknown>[];
}

/** A running authorization server. */
export interface TestAuthorizationServer {
  /** Its issuer URL (`http://127.0.0.1:<port>`), also the base of every endpoint. */
  readonly issuer: string;
  /** The introspection endpoint (RFC 7662). */
  readonly introspectionUrl: string;
  /** The client the MCP server introspects tokens with. */
  readonly resourceServerClient: { readonly clientId: string; readonly clientSecret: string };
  /** The provider itself, for what a test needs beyond this helper. */
  readonly provider: Provider;
  /** How many requests each path received (`/token`, `/token/introspection`, ...). */
  readonly requests: Map<string, number>;
  /** An access token for `service` (client credentials) with `scope`, for `resource` (default: the first). */
  clientCredentialsToken(scope: string, resource?: string): Promise<string>;
  /** Revokes a token (RFC 7009), as the user or an administrator would. */
  revoke(token: string): Promise<void>;
  /** Stops it (open connections too). */
  close(): Promise<void>;
}

const SERVICE_SECRET = "service-secret-for-tests";
const RESOURCE_SERVER_SECRET = "resource-server-secret-for-tests";

/** Starts an authorization server on 127.0.0.1 (a free port). */
export async function startAuthorizationServer(
  options: AuthorizationServerOptions,
): Promise<TestAuthorizationServer> {
  const resources = options.resources;
  if (resources.length === 0) throw new TypeError("startAuthorizationServer: name a resource");
  const privateKey =
    options.signingKey ?? (await generateKeyPair("ES256", { extractable: true })).privateKey;
  const jwk = { ...(await exportJWK(privateKey)), kid: "k1", alg: "ES256", use: "sig" };
  const http = createServer();
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const resourceScope = options.scopes.join(" ");

  const provider = new Provider(issuer, {
    jwks: { keys: [jwk] },
    clientDefaults: { id_token_signed_response_alg: "ES256" },
    clients: [
      {
        client_id: "service",
        client_secret: SERVICE_SECRET,
        grant_types: ["client_credentials"],
        redirect_uris: [],
        response_types: [],
        token_endpoint_auth_method: "client_secret_post",
      },
      {
        client_id: "resource-server",
        client_secret: RESOURCE_SERVER_SECRET,
        grant_types: [],
        redirect_uris: [],
        response_types: [],
        token_endpoint_auth_method: "client_secret_basic",
      },
      {
        client_id: "pre-registered-client",
        client_secret: "pre-registered-secret",
        grant_types: ["authorization_code", "refresh_token"],
        redirect_uris: [...(options.redirectUris ?? [])],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
      },
      ...(options.clients ?? []),
    ],
    scopes: ["openid", "offline_access", ...options.scopes],
    pkce: { required: () => true },
    issueRefreshToken: (_ctx: unknown, client: { grantTypeAllowed(type: string): boolean }) =>
      client.grantTypeAllowed("refresh_token"),
    findAccount: (_ctx: unknown, sub: string) => ({
      accountId: sub,
      claims: () => ({ sub }),
    }),
    interactions: {
      url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}`,
    },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      dPoP: { enabled: options.dpop ?? false },
      introspection: { enabled: true },
      revocation: { enabled: true },
      registration: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: (_ctx: unknown, _client: unknown, oneOf?: string) => oneOf ?? resources[0],
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, indicator: string) => {
          if (!resources.includes(indicator)) throw new Error("unknown resource");
          return {
            scope: resourceScope,
            audience: indicator,
            accessTokenTTL: options.accessTokenTTL ?? 600,
            accessTokenFormat: options.tokenFormat ?? "jwt",
            ...(options.tokenFormat === "opaque" ? {} : { jwt: { sign: { alg: "ES256" } } }),
          };
        },
      },
    },
  });
  const requests = new Map<string, number>();
  const callback = provider.callback();
  http.on("request", (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? "/", issuer).pathname;
    requests.set(path, (requests.get(path) ?? 0) + 1);
    if (path.startsWith("/interaction/"))
      finishInteraction(provider, req, res).catch((error: unknown) => {
        res.statusCode = 500;
        res.end(String(error));
      });
    else callback(req, res);
  });

  const post = async (path: string, form: Record<string, string>) => {
    const response = await fetch(`${issuer}${path}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(form),
    });
    return {
      status: response.status,
      body: (await response.json().catch(() => ({}))) as Record<string, unknown>,
    };
  };

  return {
    issuer,
    introspectionUrl: `${issuer}/token/introspection`,
    resourceServerClient: { clientId: "resource-server", clientSecret: RESOURCE_SERVER_SECRET },
    provider,
    requests,
    async clientCredentialsToken(scope, resource = resources[0]!) {
      const { body } = await post("/token", {
        grant_type: "client_credentials",
        client_id: "service",
        client_secret: SERVICE_SECRET,
        scope,
        resource,
      });
      if (typeof body.access_token !== "string")
        throw new Error(`no token from ${issuer}/token: ${JSON.stringify(body)}`);
      return body.access_token;
    },
    async revoke(token) {
      const { status } = await post("/token/revocation", {
        token,
        client_id: "service",
        client_secret: SERVICE_SECRET,
      });
      if (status !== 200) throw new Error(`revocation at ${issuer} answered ${status}`);
    },
    async close() {
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}

/** Login and consent at once: `test-user` signs in and grants every scope and resource asked for. */
async function finishInteraction(
  provider: Provider,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const details = await provider.interactionDetails(req, res);
  const result: Record<string, unknown> = {};
  if (details.prompt.name === "login") result.login = { accountId: "test-user" };
  if (details.prompt.name === "consent") {
    const grant = details.grantId
      ? await provider.Grant.find(details.grantId)
      : new provider.Grant({
          accountId: details.session?.accountId,
          clientId: String(details.params.client_id),
        });
    if (grant === undefined) throw new Error("the interaction's grant is gone");
    const missing = details.prompt.details;
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(" "));
    if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
    for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {}))
      grant.addResourceScope(indicator, scopes.join(" "));
    result.consent = { grantId: await grant.save() };
  }
  await provider.interactionFinished(req, res, result, { mergeWithLastSubmission: true });
}

/**
 * A user who signs in and consents: follows every redirect from the
 * authorization URL, keeping cookies, until a page answers without one
 * (the client's loopback listener).
 */
export async function signInAndConsent(start: URL): Promise<void> {
  await followRedirects(start);
}

/**
 * A browser's part of a sign-in: follows the redirects from `start`,
 * keeping cookies (at most 10). With `isEnd`, returns the first redirect
 * target it accepts, without requesting it, and a page that answers
 * without a redirect before that is an error; without `isEnd`, it follows
 * until such a page and returns undefined.
 */
export async function followRedirects(
  start: URL,
  isEnd?: (target: URL) => boolean,
): Promise<URL | undefined> {
  const cookies = new Map<string, string>();
  let url = start;
  for (let hop = 0; hop < 10; hop++) {
    const response = await fetch(url, {
      redirect: "manual",
      headers: { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join("; ") },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const at = pair!.indexOf("=");
      cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
    const location = response.headers.get("location");
    if (location === null) {
      if (isEnd) throw new Error(`no redirect: ${response.status} ${await response.text()}`);
      await response.body?.cancel();
      return undefined;
    }
    await response.body?.cancel();
    url = new URL(location, url);
    if (isEnd?.(url)) return url;
  }
  throw new Error("too many redirects");
}
