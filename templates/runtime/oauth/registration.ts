/**
 * Which client an OAuth client is at an authorization server: credentials
 * registered beforehand, a client ID metadata document, one registered
 * earlier and kept, or a dynamic registration (RFC 7591) made now; and
 * how that client authenticates at the token endpoint.
 */
import * as oauth from "oauth4webapi";
import type { StoredClient } from "./token-store.js";
import { bodyText, isLoopback, OAuthError, type OAuthRequests } from "./requests.js";

/** Credentials this client was given by an authorization server beforehand. */
export interface PreRegisteredClient {
  readonly clientId: string;
  readonly clientSecret?: string;
  /** client_secret_basic (default with a secret), client_secret_post or none (default without). */
  readonly tokenEndpointAuthMethod?: "client_secret_basic" | "client_secret_post" | "none";
  /** The issuer they are for (default: any). */
  readonly issuer?: string;
}

/** The client's options registration follows (see OAuthClientOptions). */
export interface RegistrationSettings {
  readonly redirectUri: string;
  readonly preRegistered?: PreRegisteredClient;
  readonly clientMetadataUrl?: string;
  readonly clientName?: string;
}

/** The client to use at this authorization server: pre-registered, a metadata document, kept, or registered now. */
export async function clientFor(
  as: oauth.AuthorizationServer,
  kept: StoredClient | undefined,
  settings: RegistrationSettings,
  requests: OAuthRequests,
): Promise<StoredClient> {
  const pre = settings.preRegistered;
  if (pre && (pre.issuer === undefined || pre.issuer === as.issuer))
    return {
      client_id: pre.clientId,
      ...(pre.clientSecret !== undefined ? { client_secret: pre.clientSecret } : {}),
      token_endpoint_auth_method:
        pre.tokenEndpointAuthMethod ??
        (pre.clientSecret !== undefined ? "client_secret_basic" : "none"),
    };
  if (settings.clientMetadataUrl !== undefined && as.client_id_metadata_document_supported === true)
    return { client_id: settings.clientMetadataUrl, token_endpoint_auth_method: "none" };
  if (kept) return kept;
  return register(as, settings, requests);
}

/**
 * Dynamic client registration (RFC 7591). The response is read here:
 * oauth4webapi's reader demands client_secret_expires_at with every
 * secret, which RFC 7591 makes optional.
 */
async function register(
  as: oauth.AuthorizationServer,
  settings: RegistrationSettings,
  requests: OAuthRequests,
): Promise<StoredClient> {
  if (as.registration_endpoint === undefined)
    throw new OAuthError(
      "registration",
      `${as.issuer} offers no dynamic registration and this client has no credentials for it: register it there and pass them as preRegistered`,
    );
  const method = chooseRegistrationMethod(as.token_endpoint_auth_methods_supported);
  const response = await requests.call("registration", as.registration_endpoint, () =>
    oauth.dynamicClientRegistrationRequest(
      as,
      {
        redirect_uris: [settings.redirectUri],
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        application_type: isNativeRedirect(settings.redirectUri) ? "native" : "web",
        client_name: settings.clientName ?? "MCP client",
        ...(method !== undefined ? { token_endpoint_auth_method: method } : {}),
      },
      requests.requestOptions(),
    ),
  );
  if (response.status !== 201 && response.status !== 200)
    throw new OAuthError(
      "registration",
      `${as.registration_endpoint} answered HTTP ${response.status}: ${await bodyText(response)}`,
    );
  const body = await requests.json(response, as.registration_endpoint, "registration");
  if (typeof body.client_id !== "string" || body.client_id === "")
    throw new OAuthError("registration", `${as.registration_endpoint} returned no client_id`);
  return {
    client_id: body.client_id,
    ...(typeof body.client_secret === "string" ? { client_secret: body.client_secret } : {}),
    ...(typeof body.token_endpoint_auth_method === "string"
      ? { token_endpoint_auth_method: body.token_endpoint_auth_method }
      : method !== undefined
        ? { token_endpoint_auth_method: method }
        : {}),
  };
}

/**
 * How a client authenticates at the token endpoint. Basic is written here:
 * RFC 6749 2.3.1 form-encodes id and secret before joining them, and
 * oauth4webapi's encoder also escapes characters form encoding leaves as
 * they are (`-` becomes `%2D`), which servers that do not decode reject.
 */
export function clientAuthentication(client: StoredClient): oauth.ClientAuth {
  const secret = client.client_secret;
  switch (client.token_endpoint_auth_method) {
    case "client_secret_post":
      if (secret === undefined) break;
      return oauth.ClientSecretPost(secret);
    case "none":
      return oauth.None();
    default:
      if (secret === undefined) return oauth.None();
      return (_as, c, _body, headers) => {
        const credentials = `${formEncode(c.client_id)}:${formEncode(secret)}`;
        headers.set("authorization", `Basic ${btoa(credentials)}`);
      };
  }
  return oauth.None();
}

/** application/x-www-form-urlencoded encoding of one value (RFC 6749 appendix B). */
function formEncode(value: string): string {
  return new URLSearchParams({ v: value }).toString().slice(2);
}

/** The token endpoint method to ask for in registration: none when offered (PKCE protects a public client). */
function chooseRegistrationMethod(supported: readonly string[] | undefined): string | undefined {
  if (supported === undefined) return undefined;
  return ["none", "client_secret_basic", "client_secret_post"].find((m) => supported.includes(m));
}

/** A redirect to a loopback address or a custom scheme is a native application's (RFC 8252). */
function isNativeRedirect(uri: string): boolean {
  const url = new URL(uri);
  return (url.protocol !== "https:" && url.protocol !== "http:") || isLoopback(url.hostname);
}
