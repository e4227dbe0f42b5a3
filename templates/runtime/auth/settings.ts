/**
 * Authorization settings from the environment, for a server started as a
 * process (a scaffolded project's index.ts):
 *
 * | Variable                     | Option                       | Default                                |
 * | ---------------------------- | ---------------------------- | -------------------------------------- |
 * | `MCP_AUTH_ISSUER`            | `issuer`                     | from mcp-gen.json, else required       |
 * | `MCP_AUTH_RESOURCE`          | `resource`                   | the server's public URL + /mcp         |
 * | `MCP_AUTH_TIMEOUT_MS`        | `timeoutMs`                  | 5000                                   |
 * | `MCP_AUTH_MAX_RESPONSE_BYTES`| `maxResponseBytes`           | 1048576 (1 MiB)                        |
 * | `MCP_AUTH_INTROSPECTION_URL` | `introspection.url`          | from mcp-gen.json, else JWTs checked   |
 * | `MCP_AUTH_CLIENT_ID`         | `introspection.clientId`     | from mcp-gen.json; needed with the URL |
 * | `MCP_AUTH_CLIENT_SECRET`     | `introspection.clientSecret` | needed with the URL                    |
 * | `MCP_AUTH_DPOP`              | `dpop.mode`                  | `allowed` (or `required`)              |
 * | `MCP_AUTH_DPOP_WINDOW_S`     | `dpop.windowSeconds`         | 60                                     |
 * | `MCP_AUTH_DPOP_REPLAY_ENTRIES`| the memory replay cache's size | 100000                              |
 *
 * The environment wins over the project's defaults, so one build can be
 * pointed at another authorization server without being rebuilt. The
 * client secret comes only from the environment: mcp-gen.json is checked
 * in, a secret must not be.
 */
import { SettingError, integer } from "../transport/settings.js";
import type { BearerOptions, ScopeRules } from "./bearer.js";
import { MemoryReplayCache, type DpopMode, type DpopOptions } from "./dpop.js";
import type { IntrospectionOptions } from "./introspection.js";

type Env = Readonly<Record<string, string | undefined>>;

/** What the project itself says (mcp-gen.json's `auth`, tools.json's scopes), before the environment. */
export interface AuthDefaults {
  readonly issuer?: string;
  readonly resource?: string;
  readonly scopes?: ScopeRules;
  /** RFC 7662 introspection: the endpoint and this server's client ID (the secret only from MCP_AUTH_CLIENT_SECRET). */
  readonly introspection?: { readonly url?: string; readonly clientId?: string };
  /** Whether bearer tokens are accepted beside DPoP-bound ones (MCP_AUTH_DPOP wins; default allowed). */
  readonly dpop?: DpopMode;
}

/**
 * The options of bearerAuthorization from `env` over `defaults`;
 * `publicUrl` (the server's own URL, `http://127.0.0.1:3000/mcp`) is the
 * resource when neither names one. Throws SettingError naming the variable
 * to set or fix.
 */
export function authSettingsFromEnvironment(
  defaults: AuthDefaults,
  publicUrl: string,
  env: Env = process.env,
): BearerOptions {
  const issuer = value(env, "MCP_AUTH_ISSUER") ?? defaults.issuer;
  if (issuer === undefined)
    throw new SettingError(
      "MCP_AUTH_ISSUER",
      "MCP_AUTH_ISSUER must name the authorization server's issuer URL (e.g. https://auth.example.com), or set auth.issuer in mcp-gen.json",
    );
  const resource = value(env, "MCP_AUTH_RESOURCE") ?? defaults.resource ?? publicUrl;
  const introspection = introspectionSettings(defaults, env);
  for (const [name, url] of [
    ["MCP_AUTH_ISSUER", issuer],
    ["MCP_AUTH_RESOURCE", resource],
    ["MCP_AUTH_INTROSPECTION_URL", introspection?.url],
  ] as const)
    if (url !== undefined && !URL.canParse(url))
      throw new SettingError(name, `${name} must be an absolute URL, not ${JSON.stringify(url)}`);
  const timeoutMs = integer(env, "MCP_AUTH_TIMEOUT_MS", 1, 600_000);
  const maxResponseBytes = integer(env, "MCP_AUTH_MAX_RESPONSE_BYTES", 1024, 64 * 1024 * 1024);
  const dpop = dpopSettings(defaults, env);
  return {
    issuer,
    resource,
    ...(dpop !== undefined ? { dpop } : {}),
    ...(defaults.scopes ? { scopes: defaults.scopes } : {}),
    ...(introspection ? { introspection } : {}),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    ...(maxResponseBytes !== undefined ? { maxResponseBytes } : {}),
  };
}

/**
 * DPoP: the mode (MCP_AUTH_DPOP over mcp-gen.json), the proof window and
 * the memory replay cache's size; undefined when none is set (the
 * defaults: allowed, 60 s, 100 000 proofs).
 */
function dpopSettings(defaults: AuthDefaults, env: Env): DpopOptions | undefined {
  const mode = value(env, "MCP_AUTH_DPOP") ?? defaults.dpop;
  if (mode !== undefined && mode !== "allowed" && mode !== "required")
    throw new SettingError(
      "MCP_AUTH_DPOP",
      `MCP_AUTH_DPOP must be allowed (bearer and DPoP-bound tokens) or required (DPoP-bound tokens only), not ${JSON.stringify(mode)}`,
    );
  const windowSeconds = integer(env, "MCP_AUTH_DPOP_WINDOW_S", 1, 3600);
  const entries = integer(env, "MCP_AUTH_DPOP_REPLAY_ENTRIES", 100, 100_000_000);
  if (mode === undefined && windowSeconds === undefined && entries === undefined) return undefined;
  return {
    ...(mode !== undefined ? { mode } : {}),
    ...(windowSeconds !== undefined ? { windowSeconds } : {}),
    ...(entries !== undefined ? { replayCache: new MemoryReplayCache(entries) } : {}),
  };
}

/** Introspection's settings when its URL is set (environment over mcp-gen.json); undefined when tokens are JWTs. */
function introspectionSettings(defaults: AuthDefaults, env: Env): IntrospectionOptions | undefined {
  const url = value(env, "MCP_AUTH_INTROSPECTION_URL") ?? defaults.introspection?.url;
  const clientId = value(env, "MCP_AUTH_CLIENT_ID") ?? defaults.introspection?.clientId;
  const clientSecret = value(env, "MCP_AUTH_CLIENT_SECRET");
  if (url === undefined) {
    // Credentials with nowhere to go are a mistake in the settings, not something to ignore.
    if (clientSecret !== undefined || value(env, "MCP_AUTH_CLIENT_ID") !== undefined)
      throw new SettingError(
        "MCP_AUTH_INTROSPECTION_URL",
        "MCP_AUTH_CLIENT_ID and MCP_AUTH_CLIENT_SECRET are only used for token introspection: set MCP_AUTH_INTROSPECTION_URL (or auth.introspection.url in mcp-gen.json), or unset them",
      );
    return undefined;
  }
  if (clientId === undefined)
    throw new SettingError(
      "MCP_AUTH_CLIENT_ID",
      "MCP_AUTH_CLIENT_ID must name this server's client at the authorization server, for token introspection (or set auth.introspection.clientId in mcp-gen.json)",
    );
  if (clientSecret === undefined)
    throw new SettingError(
      "MCP_AUTH_CLIENT_SECRET",
      "MCP_AUTH_CLIENT_SECRET must hold this server's client secret, for token introspection (only from the environment, never in mcp-gen.json)",
    );
  return { url, clientId, clientSecret };
}

function value(env: Env, name: string): string | undefined {
  const text = env[name]?.trim();
  return text === "" ? undefined : text;
}
