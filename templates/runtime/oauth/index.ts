/**
 * OAuth for clients (spec: basic/authorization): OAuthClient, the HTTP
 * transport's auth hook that signs in on a 401, steps up on a 403
 * insufficient_scope and refreshes expired tokens, with oauth4webapi; the
 * grants without a user (client credentials, workload identity,
 * enterprise-managed authorization) and DPoP-bound tokens; and
 * the discovery steps oauth4webapi leaves (the WWW-Authenticate challenge,
 * protected resource and authorization server metadata locations and
 * checks, scope selection).
 */
export {
  assertionFromFile,
  assertionFromVariable,
  MAX_ASSERTION_BYTES,
  privateKeyFromFile,
  type AssertionSource,
  type ClientCredentials,
} from "./credentials.js";
export {
  authorizationServerMetadataUrls,
  parseBearerChallenge,
  parseChallenge,
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
export { DpopKey } from "./dpop.js";
export {
  ID_JAG,
  JWT_BEARER,
  TOKEN_EXCHANGE,
  type ClientCredentialsGrant,
  type EnterpriseGrant,
  type IdentityProvider,
  type MachineGrant,
  type WorkloadGrant,
} from "./grants.js";
export {
  loopbackRedirect,
  type LoopbackRedirect,
  type LoopbackRedirectOptions,
} from "./loopback-redirect.js";
export {
  clientAuthFromEnvironment,
  FLOWS,
  type ClientAuthDefaults,
  type ClientAuthOptions,
  type Flow,
} from "./settings.js";
export {
  FileTokenStore,
  MemoryTokenStore,
  type GrantKey,
  type StoredClient,
  type StoredGrant,
  type TokenStore,
} from "./token-store.js";
