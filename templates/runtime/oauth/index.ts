/**
 * OAuth for clients: what discovery needs beyond oauth4webapi (the
 * WWW-Authenticate challenge, protected resource metadata locations and
 * checks, authorization server metadata locations, scope selection).
 */
export {
  authorizationServerMetadataUrls,
  parseBearerChallenge,
  resourceMatches,
  resourceMetadataUrls,
  scopeToRequest,
  type BearerChallenge,
} from "./discovery.js";
