/**
 * OAuth for clients (spec: basic/authorization): OAuthClient, the HTTP
 * transport's auth hook that signs in on a 401, steps up on a 403
 * insufficient_scope and refreshes expired tokens, with oauth4webapi; and
 * the discovery steps oauth4webapi leaves (the WWW-Authenticate challenge,
 * protected resource and authorization server metadata locations and
 * checks, scope selection).
 */
export {
  authorizationServerMetadataUrls,
  parseBearerChallenge,
  resourceMatches,
  resourceMetadataUrls,
  scopeToRequest,
  type BearerChallenge,
} from "./discovery.js";
export {
  clientAuthentication,
  OAuthClient,
  OAuthError,
  type OAuthClientOptions,
  type PreRegisteredClient,
} from "./flow.js";
export {
  loopbackRedirect,
  type LoopbackRedirect,
  type LoopbackRedirectOptions,
} from "./loopback-redirect.js";
export {
  FileTokenStore,
  MemoryTokenStore,
  type GrantKey,
  type StoredClient,
  type StoredGrant,
  type TokenStore,
} from "./token-store.js";
