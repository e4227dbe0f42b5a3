/**
 * How a client signs in, from its project's configuration (mcp-gen.json's
 * `auth`, written to src/generated/auth.gen.ts) with the environment over
 * it, so one build can run as a user's command line, a service, a workload
 * or an enterprise application:
 *
 * | Variable                          | Meaning                                                        |
 * | --------------------------------- | -------------------------------------------------------------- |
 * | `MCP_AUTH_FLOW`                   | `authorization_code` (default), `client_credentials`, `workload`, `enterprise` |
 * | `MCP_AUTH_CLIENT_ID`              | the client at the MCP server's authorization server             |
 * | `MCP_AUTH_CLIENT_SECRET`          | its secret (only from the environment)                         |
 * | `MCP_AUTH_CLIENT_AUTH_METHOD`     | client_secret_basic, client_secret_post, private_key_jwt, none |
 * | `MCP_AUTH_CLIENT_KEY_FILE`        | its private key (PKCS #8 PEM) for private_key_jwt              |
 * | `MCP_AUTH_CLIENT_KEY_ALG`         | the key's algorithm (default ES256)                            |
 * | `MCP_AUTH_WORKLOAD_TOKEN_FILE`    | the file the platform keeps the workload's identity token in   |
 * | `MCP_AUTH_WORKLOAD_TOKEN_VARIABLE`| or the variable it puts it in                                  |
 * | `MCP_AUTH_IDP_ISSUER`             | the enterprise identity provider                               |
 * | `MCP_AUTH_IDP_TOKEN_ENDPOINT`     | its token endpoint (default: from its metadata)                |
 * | `MCP_AUTH_IDP_CLIENT_ID`          | this application's client there                                |
 * | `MCP_AUTH_IDP_CLIENT_SECRET`      | its secret (only from the environment)                         |
 * | `MCP_AUTH_ID_TOKEN_FILE`          | the user's ID token from the enterprise sign-in                |
 * | `MCP_AUTH_ID_TOKEN_VARIABLE`      | or the variable that holds it                                  |
 * | `MCP_AUTH_DPOP`                   | 1 / 0: bind tokens to a key with DPoP                          |
 */
import { SettingError } from "../transport/settings.js";
import {
  assertionFromFile,
  assertionFromVariable,
  privateKeyFromFile,
  type AssertionSource,
  type ClientCredentials,
} from "./credentials.js";
import type { MachineGrant } from "./grants.js";
import type { PreRegisteredClient } from "./registration.js";

type Env = Readonly<Record<string, string | undefined>>;

/** The flows a client signs in with. */
export const FLOWS = [
  "authorization_code",
  "client_credentials",
  "workload",
  "enterprise",
] as const;
/** One of FLOWS. */
export type Flow = (typeof FLOWS)[number];

const METHODS = ["client_secret_basic", "client_secret_post", "private_key_jwt", "none"] as const;

/** mcp-gen.json's `auth` of a client: no secrets (those come only from the environment). */
export interface ClientAuthDefaults {
  readonly flow?: Flow;
  readonly clientId?: string;
  readonly tokenEndpointAuthMethod?: (typeof METHODS)[number];
  readonly keyFile?: string;
  readonly keyAlgorithm?: string;
  readonly workload?: { readonly tokenFile?: string; readonly tokenVariable?: string };
  readonly enterprise?: {
    readonly issuer?: string;
    readonly tokenEndpoint?: string;
    readonly clientId?: string;
    readonly idTokenFile?: string;
    readonly idTokenVariable?: string;
  };
  readonly dpop?: boolean;
}

/** What OAuthClient takes from the settings (its `grant`, `dpop` and `preRegistered`). */
export interface ClientAuthOptions {
  readonly flow: Flow;
  readonly grant?: MachineGrant;
  readonly dpop: boolean;
  readonly preRegistered?: PreRegisteredClient;
}

/**
 * The sign-in of `defaults` with `env` over it; throws SettingError naming
 * the variable to set when a flow lacks what it needs.
 */
export function clientAuthFromEnvironment(
  defaults: ClientAuthDefaults = {},
  env: Env = process.env,
): ClientAuthOptions {
  const flow = (value(env, "MCP_AUTH_FLOW") ?? defaults.flow ?? "authorization_code") as Flow;
  if (!FLOWS.includes(flow))
    throw new SettingError(
      "MCP_AUTH_FLOW",
      `MCP_AUTH_FLOW must be one of ${FLOWS.join(", ")}, not ${JSON.stringify(flow)}`,
    );
  const dpop = flagOf(env, "MCP_AUTH_DPOP") ?? defaults.dpop ?? false;
  const client = clientCredentials(defaults, env, flow);
  if (flow === "authorization_code") {
    if (client === undefined) return { flow, dpop };
    const secret = client.clientSecret;
    return {
      flow,
      dpop,
      preRegistered: {
        clientId: client.clientId,
        ...(secret !== undefined ? { clientSecret: secret } : {}),
      },
    };
  }
  if (client === undefined)
    throw new SettingError(
      "MCP_AUTH_CLIENT_ID",
      `MCP_AUTH_CLIENT_ID must name this client at the authorization server for the ${flow} flow (or set auth.clientId in mcp-gen.json)`,
    );
  if (flow === "client_credentials")
    return { flow, dpop, grant: { kind: "client_credentials", client } };
  if (flow === "workload") {
    const assertion = source(
      env,
      "MCP_AUTH_WORKLOAD_TOKEN",
      defaults.workload ?? {},
      "the workload's identity token",
    );
    return { flow, dpop, grant: { kind: "workload", client, assertion } };
  }
  return {
    flow,
    dpop,
    grant: { kind: "enterprise", client, idp: identityProvider(defaults, env) },
  };
}

/** The client's own credentials, when a client ID is configured. */
function clientCredentials(
  defaults: ClientAuthDefaults,
  env: Env,
  flow: Flow,
): ClientCredentials | undefined {
  const clientId = value(env, "MCP_AUTH_CLIENT_ID") ?? defaults.clientId;
  const clientSecret = value(env, "MCP_AUTH_CLIENT_SECRET");
  const keyFile = value(env, "MCP_AUTH_CLIENT_KEY_FILE") ?? defaults.keyFile;
  const method = methodOf(env, defaults);
  if (clientId === undefined) {
    if (clientSecret !== undefined || keyFile !== undefined)
      throw new SettingError(
        "MCP_AUTH_CLIENT_ID",
        "MCP_AUTH_CLIENT_SECRET or a key file is set but no MCP_AUTH_CLIENT_ID: name the client they belong to",
      );
    return undefined;
  }
  if (flow === "authorization_code" && keyFile !== undefined)
    throw new SettingError(
      "MCP_AUTH_CLIENT_KEY_FILE",
      "MCP_AUTH_CLIENT_KEY_FILE (private_key_jwt) is for the flows without a user: set MCP_AUTH_FLOW",
    );
  const algorithm = value(env, "MCP_AUTH_CLIENT_KEY_ALG") ?? defaults.keyAlgorithm ?? "ES256";
  return {
    clientId,
    ...(clientSecret !== undefined ? { clientSecret } : {}),
    ...(keyFile !== undefined ? { privateKey: privateKeyFromFile(keyFile, algorithm) } : {}),
    ...(method !== undefined ? { method } : {}),
  };
}

/** The enterprise identity provider that exchanges the user's ID token for an ID-JAG. */
function identityProvider(defaults: ClientAuthDefaults, env: Env) {
  const own = defaults.enterprise ?? {};
  const issuer = value(env, "MCP_AUTH_IDP_ISSUER") ?? own.issuer;
  const clientId = value(env, "MCP_AUTH_IDP_CLIENT_ID") ?? own.clientId;
  if (issuer === undefined || !URL.canParse(issuer))
    throw new SettingError(
      "MCP_AUTH_IDP_ISSUER",
      "MCP_AUTH_IDP_ISSUER must be the enterprise identity provider's issuer URL for the enterprise flow (or auth.enterprise.issuer in mcp-gen.json)",
    );
  if (clientId === undefined)
    throw new SettingError(
      "MCP_AUTH_IDP_CLIENT_ID",
      "MCP_AUTH_IDP_CLIENT_ID must name this application's client at the identity provider (or auth.enterprise.clientId in mcp-gen.json)",
    );
  const secret = value(env, "MCP_AUTH_IDP_CLIENT_SECRET");
  const tokenEndpoint = value(env, "MCP_AUTH_IDP_TOKEN_ENDPOINT") ?? own.tokenEndpoint;
  return {
    issuer,
    ...(tokenEndpoint !== undefined ? { tokenEndpoint } : {}),
    client: { clientId, ...(secret !== undefined ? { clientSecret: secret } : {}) },
    idToken: source(
      env,
      "MCP_AUTH_ID_TOKEN",
      { tokenFile: own.idTokenFile, tokenVariable: own.idTokenVariable },
      "the user's ID token",
    ),
  };
}

/** An assertion from `<prefix>_FILE` or the variable `<prefix>_VARIABLE` names (the environment over `own`). */
function source(
  env: Env,
  prefix: string,
  own: { readonly tokenFile?: string | undefined; readonly tokenVariable?: string | undefined },
  what: string,
): AssertionSource {
  const file = value(env, `${prefix}_FILE`) ?? own.tokenFile;
  const variable = value(env, `${prefix}_VARIABLE`) ?? own.tokenVariable;
  if (file !== undefined && variable !== undefined)
    throw new SettingError(
      `${prefix}_FILE`,
      `${prefix}_FILE and ${prefix}_VARIABLE both name ${what}: set one`,
    );
  if (file !== undefined) return assertionFromFile(file);
  if (variable !== undefined) return assertionFromVariable(variable, env);
  throw new SettingError(
    `${prefix}_FILE`,
    `${prefix}_FILE (a file) or ${prefix}_VARIABLE (an environment variable) must say where ${what} is`,
  );
}

function methodOf(env: Env, defaults: ClientAuthDefaults): ClientCredentials["method"] {
  const method = value(env, "MCP_AUTH_CLIENT_AUTH_METHOD") ?? defaults.tokenEndpointAuthMethod;
  if (method === undefined) return undefined;
  if (!(METHODS as readonly string[]).includes(method))
    throw new SettingError(
      "MCP_AUTH_CLIENT_AUTH_METHOD",
      `MCP_AUTH_CLIENT_AUTH_METHOD must be one of ${METHODS.join(", ")}, not ${JSON.stringify(method)}`,
    );
  return method as ClientCredentials["method"];
}

function flagOf(env: Env, name: string): boolean | undefined {
  const text = value(env, name)?.toLowerCase();
  if (text === undefined) return undefined;
  if (["1", "true", "on", "yes"].includes(text)) return true;
  if (["0", "false", "off", "no"].includes(text)) return false;
  throw new SettingError(name, `${name} must be 1 or 0 (true, false), not ${JSON.stringify(text)}`);
}

function value(env: Env, name: string): string | undefined {
  const text = env[name]?.trim();
  return text === "" ? undefined : text;
}
