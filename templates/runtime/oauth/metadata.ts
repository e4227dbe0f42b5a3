/**
 * The two metadata documents a client reads before it asks for a token
 * (spec: basic/authorization, authorization server discovery): the MCP
 * server's protected resource metadata (RFC 9728), which must be for the
 * server being called, and its authorization server's metadata (RFC 8414
 * or OpenID), whose `issuer` must be the one asked for.
 */
import * as oauth from "oauth4webapi";
import {
  authorizationServerMetadataUrls,
  resourceMatches,
  resourceMetadataUrls,
  type BearerChallenge,
} from "./discovery.js";
import { OAuthError, type OAuthRequests } from "./requests.js";

/** The protected resource metadata a client uses (RFC 9728). */
export interface ResourceMetadata {
  /** Verbatim, as the resource indicator. */
  readonly resource: string;
  readonly authorization_servers: readonly string[];
  readonly scopes_supported?: readonly string[];
}

/**
 * The protected resource metadata of the server at `serverUrl`: at the
 * challenge's `resource_metadata`, else the well-known URLs (4xx moves on,
 * anything else stops). Its `resource` must be the server's, or no token
 * is asked for.
 */
export async function resourceMetadata(
  serverUrl: URL,
  challenge: BearerChallenge | undefined,
  requests: OAuthRequests,
): Promise<ResourceMetadata> {
  const tried: string[] = [];
  for (const url of resourceMetadataUrls(serverUrl.href, challenge)) {
    const response = await requests.get(url, "resource metadata");
    if (response.status >= 400 && response.status < 500) {
      tried.push(`${url} (HTTP ${response.status})`);
      continue;
    }
    if (response.status !== 200)
      throw new OAuthError("resource metadata", `${url} answered HTTP ${response.status}`);
    const prm = await requests.json(response, url, "resource metadata");
    if (
      typeof prm.resource !== "string" ||
      !Array.isArray(prm.authorization_servers) ||
      prm.authorization_servers.length === 0 ||
      !prm.authorization_servers.every((s) => typeof s === "string")
    )
      throw new OAuthError(
        "resource metadata",
        `${url} names no resource or no authorization_servers`,
      );
    if (!resourceMatches(prm.resource, serverUrl.href))
      throw new OAuthError(
        "resource metadata",
        `${url} is for the resource ${prm.resource}, not for ${serverUrl.href}: no token is asked for it`,
      );
    const scopes = prm.scopes_supported;
    return {
      resource: prm.resource,
      authorization_servers: prm.authorization_servers,
      ...(Array.isArray(scopes) && scopes.every((s) => typeof s === "string")
        ? { scopes_supported: scopes }
        : {}),
    };
  }
  throw new OAuthError(
    "resource metadata",
    `${serverUrl.href} asks for authorization but publishes no protected resource metadata (tried ${tried.join(", ")})`,
  );
}

/**
 * The first metadata document found at the issuer's well-known URLs. Its
 * `issuer` must be the issuer asked for, character for character, and,
 * for the authorization code flow, it must offer PKCE with S256;
 * otherwise it is not used.
 */
export async function authorizationServerMetadata(
  issuer: string,
  requests: OAuthRequests,
  interactive: boolean,
): Promise<oauth.AuthorizationServer> {
  const tried: string[] = [];
  for (const url of authorizationServerMetadataUrls(issuer)) {
    const response = await requests.get(url, "authorization server metadata");
    if (response.status >= 400 && response.status < 500) {
      tried.push(`${url} (HTTP ${response.status})`);
      continue;
    }
    let as: oauth.AuthorizationServer;
    try {
      as = await oauth.processDiscoveryResponse(new URL(issuer), response);
    } catch (error) {
      throw new OAuthError("authorization server metadata", `${url}: ${(error as Error).message}`, {
        cause: error,
      });
    }
    if (as.issuer !== issuer)
      throw new OAuthError(
        "authorization server metadata",
        `${url} names the issuer ${as.issuer}, not ${issuer}: it is not used`,
      );
    if (as.token_endpoint === undefined)
      throw new OAuthError("authorization server metadata", `${url} names no token_endpoint`);
    if (!interactive) return as;
    if (!as.code_challenge_methods_supported?.includes("S256"))
      throw new OAuthError(
        "authorization server metadata",
        `${issuer} does not offer PKCE with S256 (code_challenge_methods_supported), which this client requires`,
      );
    if (as.authorization_endpoint === undefined)
      throw new OAuthError(
        "authorization server metadata",
        `${url} names no authorization_endpoint or token_endpoint`,
      );
    return as;
  }
  throw new OAuthError(
    "authorization server metadata",
    `no metadata found for the authorization server ${issuer} (tried ${tried.join(", ")})`,
  );
}
