/**
 * The grants a client uses without a user (MCP authorization extensions):
 *
 * - client credentials (OAuth 2.1 4.2; SEP-1046), authenticated with a
 *   client secret or a private key (`private_key_jwt`): oauth4webapi's
 *   clientCredentialsGrantRequest;
 * - workload identity (SEP-1933): the platform's identity token presented
 *   as an RFC 7523 `jwt-bearer` assertion: oauth4webapi's
 *   genericTokenEndpointRequest;
 * - enterprise-managed authorization (SEP-990): the user's ID token from
 *   the enterprise identity provider exchanged there (RFC 8693) for an
 *   identity assertion authorization grant (ID-JAG), then presented to the
 *   MCP server's authorization server as a `jwt-bearer` assertion: two
 *   genericTokenEndpointRequest calls.
 *
 * Every token request carries the resource indicator and, with DPoP, a
 * proof; an authorization server's `use_dpop_nonce` gets exactly one
 * retry with its nonce. An error answer is reported as it is, never
 * retried with another grant.
 */
import * as oauth from "oauth4webapi";
import { authorizationServerMetadataUrls } from "../core/well-known.js";
import type { StoredClient } from "./token-store.js";
import {
  machineAuthentication,
  type AssertionSource,
  type ClientCredentials,
} from "./credentials.js";
import type { DpopKey } from "./dpop.js";
import { describeError, OAuthError, type OAuthRequests } from "./requests.js";

/** RFC 7523 2.1. */
export const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";
/** RFC 8693 2.1. */
export const TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";
/** The token type of an identity assertion authorization grant. */
export const ID_JAG = "urn:ietf:params:oauth:token-type:id-jag";
/** RFC 8693 3. */
export const ID_TOKEN = "urn:ietf:params:oauth:token-type:id_token";

/** How a client without a user gets its tokens (OAuthClientOptions.grant). */
export type MachineGrant = ClientCredentialsGrant | WorkloadGrant | EnterpriseGrant;

/** Client credentials: the client acts for itself. */
export interface ClientCredentialsGrant {
  readonly kind: "client_credentials";
  readonly client: ClientCredentials;
}

/** Workload identity: the platform's identity token is the grant (assertionFromFile, assertionFromVariable). */
export interface WorkloadGrant {
  readonly kind: "workload";
  readonly assertion: AssertionSource;
  /** The client at the authorization server (often authenticated by the assertion alone: method none). */
  readonly client: ClientCredentials;
}

/** Enterprise-managed authorization: the user's enterprise sign-in, exchanged for an ID-JAG. */
export interface EnterpriseGrant {
  readonly kind: "enterprise";
  /** The client at the MCP server's authorization server. */
  readonly client: ClientCredentials;
  readonly idp: IdentityProvider;
}

/** The enterprise identity provider that issues ID-JAGs. */
export interface IdentityProvider {
  /** Its issuer: its token endpoint is found in its metadata. */
  readonly issuer: string;
  /** Its token endpoint, when its metadata is not to be read. */
  readonly tokenEndpoint?: string;
  /** This application's client there. */
  readonly client: ClientCredentials;
  /** The user's ID token from signing in there. */
  readonly idToken: AssertionSource;
}

/** What a grant request needs to know. */
export interface GrantContext {
  readonly as: oauth.AuthorizationServer;
  /** The resource indicator, verbatim from the protected resource metadata. */
  readonly resource: string;
  readonly scope: string | undefined;
  readonly requests: OAuthRequests;
  readonly dpop?: DpopKey;
}

/** The tokens a machine grant gives, and the client it used. */
export interface GrantResult {
  readonly client: StoredClient;
  readonly tokens: oauth.TokenEndpointResponse;
}

/** Asks the authorization server for tokens with `grant`. */
export async function requestMachineToken(
  grant: MachineGrant,
  context: GrantContext,
): Promise<GrantResult> {
  const { client, auth } = await machineAuthentication(grant.client);
  const parameters: Record<string, string> = {
    resource: context.resource,
    ...(context.scope !== undefined ? { scope: context.scope } : {}),
  };
  if (grant.kind === "client_credentials") {
    const tokens = await tokenRequest(context, client, (options) =>
      oauth.clientCredentialsGrantRequest(context.as, { ...client }, auth, parameters, options),
    );
    return { client, tokens };
  }
  const assertion =
    grant.kind === "workload"
      ? await grant.assertion()
      : await identityAssertion(grant.idp, context);
  const tokens = await tokenRequest(context, client, (options) =>
    oauth.genericTokenEndpointRequest(
      context.as,
      { ...client },
      auth,
      JWT_BEARER,
      { ...parameters, assertion },
      options,
    ),
  );
  return { client, tokens };
}

type RequestOptions = ReturnType<OAuthRequests["requestOptions"]> & {
  DPoP?: oauth.DPoPHandle;
};

/**
 * One request to the authorization server's token endpoint and its answer,
 * with a DPoP proof when the client binds its tokens; a `use_dpop_nonce`
 * answer is retried once with the nonce it gave, and only once.
 */
export async function tokenRequest(
  context: Pick<GrantContext, "as" | "requests" | "dpop">,
  client: StoredClient,
  send: (options: RequestOptions) => Promise<Response>,
  process: (response: Response) => Promise<oauth.TokenEndpointResponse> = (response) =>
    oauth.processGenericTokenEndpointResponse(context.as, { ...client }, response),
): Promise<oauth.TokenEndpointResponse> {
  const endpoint = context.as.token_endpoint;
  if (endpoint === undefined)
    throw new OAuthError("token", `${context.as.issuer} names no token_endpoint`);
  const options: RequestOptions = {
    ...context.requests.requestOptions(),
    ...(context.dpop ? { DPoP: context.dpop.tokenRequests() } : {}),
  };
  for (let attempt = 0; ; attempt++) {
    const response = await context.requests.call("token", endpoint, () => send(options));
    try {
      return await process(response);
    } catch (error) {
      if (context.dpop && attempt === 0 && oauth.isDPoPNonceError(error)) continue;
      throw new OAuthError("token", `${endpoint}: ${describeError(error)}`, { cause: error });
    }
  }
}

/**
 * The ID-JAG for this client and resource: the user's ID token exchanged
 * at the identity provider (RFC 8693), whose answer must be an ID-JAG
 * (`issued_token_type`) of token type `N_A` (it is a grant, not an access
 * token); anything else is refused before it reaches the authorization server.
 */
async function identityAssertion(idp: IdentityProvider, context: GrantContext): Promise<string> {
  const provider = await identityProviderMetadata(idp, context.requests);
  const { client, auth } = await machineAuthentication(idp.client);
  const subjectToken = await idp.idToken();
  const endpoint = provider.token_endpoint!;
  const response = await context.requests.call("token exchange", endpoint, () =>
    oauth.genericTokenEndpointRequest(
      provider,
      { ...client },
      auth,
      TOKEN_EXCHANGE,
      {
        requested_token_type: ID_JAG,
        audience: context.as.issuer,
        resource: context.resource,
        ...(context.scope !== undefined ? { scope: context.scope } : {}),
        subject_token: subjectToken,
        subject_token_type: ID_TOKEN,
      },
      context.requests.requestOptions(),
    ),
  );
  let answer: oauth.TokenEndpointResponse;
  try {
    answer = await oauth.processGenericTokenEndpointResponse(provider, { ...client }, response, {
      // RFC 8693 2.2.1: a token that is not an access token has the token_type N_A.
      recognizedTokenTypes: { n_a: () => {} },
    });
  } catch (error) {
    throw new OAuthError("token exchange", `${endpoint}: ${describeError(error)}`, {
      cause: error,
    });
  }
  if (answer.issued_token_type !== ID_JAG || answer.token_type !== "n_a")
    throw new OAuthError(
      "token exchange",
      `${endpoint} answered a token of type ${shown(answer.issued_token_type)} (token_type ${shown(answer.token_type)}), not an ID-JAG (${ID_JAG}, token_type N_A): it is not sent on`,
    );
  return answer.access_token;
}

/** The identity provider's token endpoint: given, or from its metadata (RFC 8414, then OpenID). */
async function identityProviderMetadata(
  idp: IdentityProvider,
  requests: OAuthRequests,
): Promise<oauth.AuthorizationServer> {
  if (idp.tokenEndpoint !== undefined)
    return { issuer: idp.issuer, token_endpoint: idp.tokenEndpoint };
  const tried: string[] = [];
  for (const url of authorizationServerMetadataUrls(idp.issuer)) {
    const response = await requests.get(url, "token exchange");
    if (response.status >= 400 && response.status < 500) {
      tried.push(`${url} (HTTP ${response.status})`);
      continue;
    }
    let metadata: oauth.AuthorizationServer;
    try {
      metadata = await oauth.processDiscoveryResponse(new URL(idp.issuer), response);
    } catch (error) {
      throw new OAuthError("token exchange", `${url}: ${describeError(error)}`, { cause: error });
    }
    if (metadata.token_endpoint === undefined)
      throw new OAuthError("token exchange", `${url} names no token_endpoint`);
    return metadata;
  }
  throw new OAuthError(
    "token exchange",
    `no metadata found for the identity provider ${idp.issuer} (tried ${tried.join(", ")}); set its token endpoint`,
  );
}

/** A value from a peer, for an error message: a string quoted and cut short, anything else its type. */
function shown(value: unknown): string {
  return typeof value === "string" ? JSON.stringify(value.slice(0, 100)) : typeof value;
}
