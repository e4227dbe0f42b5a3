/**
 * Authorization for servers (OAuth 2.1 protected resource): carried only
 * by projects with authorization on, the only ones that depend on jose.
 */
export {
  AuthorizationServerError,
  BearerAuthorization,
  bearerAuthorization,
  DEFAULT_ALGORITHMS,
  metadataCandidates,
  metadataPath,
  metadataUrl,
  type BearerOptions,
  type ScopeRules,
} from "./bearer.js";
export {
  DEFAULT_DPOP_WINDOW_SECONDS,
  DEFAULT_REPLAY_ENTRIES,
  DPOP_ALGORITHMS,
  DpopCheck,
  MemoryReplayCache,
  ReplayCacheUnavailable,
  type DpopMode,
  type DpopOptions,
  type ReplayCache,
} from "./dpop.js";
export {
  Introspection,
  IntrospectionUnavailable,
  InvalidToken,
  type IntrospectionOptions,
} from "./introspection.js";
export { authSettingsFromEnvironment, type AuthDefaults } from "./settings.js";
