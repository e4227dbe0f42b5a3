/**
 * Authorization settings from the environment, for a server started as a
 * process (a scaffolded project's index.ts):
 *
 * | Variable                     | Option                  | Default                          |
 * | ---------------------------- | ----------------------- | -------------------------------- |
 * | `MCP_AUTH_ISSUER`            | `issuer`                | from mcp-gen.json, else required |
 * | `MCP_AUTH_RESOURCE`          | `resource`              | the server's public URL + /mcp   |
 * | `MCP_AUTH_TIMEOUT_MS`        | `timeoutMs`             | 5000                             |
 * | `MCP_AUTH_INTROSPECTION_URL` | (RFC 7662 introspection) | not supported yet: refused     |
 *
 * The environment wins over the project's defaults, so one build can be
 * pointed at another authorization server without being rebuilt.
 */
import { SettingError, integer } from "../transport/settings.js";
import type { BearerOptions, ScopeRules } from "./bearer.js";

type Env = Readonly<Record<string, string | undefined>>;

/** What the project itself says (mcp-gen.json's `auth`, tools.json's scopes), before the environment. */
export interface AuthDefaults {
  readonly issuer?: string;
  readonly resource?: string;
  readonly scopes?: ScopeRules;
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
  if (value(env, "MCP_AUTH_INTROSPECTION_URL") !== undefined)
    throw new SettingError(
      "MCP_AUTH_INTROSPECTION_URL",
      "MCP_AUTH_INTROSPECTION_URL: token introspection (RFC 7662) is not supported by this version; unset it and have the authorization server issue JWT access tokens (RFC 9068)",
    );
  const resource = value(env, "MCP_AUTH_RESOURCE") ?? defaults.resource ?? publicUrl;
  for (const [name, url] of [
    ["MCP_AUTH_ISSUER", issuer],
    ["MCP_AUTH_RESOURCE", resource],
  ] as const)
    if (!URL.canParse(url))
      throw new SettingError(name, `${name} must be an absolute URL, not ${JSON.stringify(url)}`);
  const timeoutMs = integer(env, "MCP_AUTH_TIMEOUT_MS", 1, 600_000);
  return {
    issuer,
    resource,
    ...(defaults.scopes ? { scopes: defaults.scopes } : {}),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
  };
}

function value(env: Env, name: string): string | undefined {
  const text = env[name]?.trim();
  return text === "" ? undefined : text;
}
