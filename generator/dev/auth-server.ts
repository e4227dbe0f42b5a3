/**
 * `mcp-gen auth-dev` (`npm run auth:dev` in a project made by
 * `mcp-gen server --auth`): an OAuth 2.1 authorization server for
 * development, oidc-provider from the project's own node_modules, on
 * 127.0.0.1 only.
 *
 * - One user, `dev-user`, signs in without a password prompt and consents
 *   to every scope asked for: opening the sign-in address is the whole
 *   sign-in.
 * - The scopes are the project's (mcp-gen.json's `auth`: `scopes`,
 *   `methods`, `tools`), plus openid and offline_access.
 * - Clients register themselves (dynamic client registration, RFC 7591),
 *   as the scaffolded client does; registrations are kept in `.auth-dev/`.
 *   Since the sign-in needs no prompt, codes go only to this machine: a
 *   redirect URI must be http(s) on 127.0.0.1, localhost or [::1], and a
 *   request from a browser page of another origin than the server's own is
 *   refused (403), so no page can read its answers.
 * - Access tokens are JWTs (RFC 9068, ES256) whose audience is the
 *   resource indicator (RFC 8707) the client sends: any http URL on
 *   127.0.0.1 or localhost (the server's `http://127.0.0.1:3000/mcp` and
 *   whatever PORT it runs on), or mcp-gen.json's `auth.resource`.
 * - PKCE S256 is required; authorization responses carry `iss` (RFC 9207).
 * - The signing key is made on the first run and kept in `.auth-dev/`
 *   (git-ignored), so tokens stay valid across restarts.
 *
 * - Clients without a user (client credentials, workload identity,
 *   enterprise-managed authorization) and DPoP-bound tokens for every
 *   grant: auth-dev-machine.ts.
 *
 * While it runs, `.auth-dev/server.env` names it (MCP_AUTH_ISSUER), and
 * `mcp-gen dev` (`npm run dev`) gives that to the server.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { diagnostic, McpGenError } from "../diagnostics.js";
import { readSettings } from "../project/settings.js";
import {
  authDevFolder,
  loadOrCreateKeys,
  removeServerEnv,
  writeServerEnv,
  type DevKeys,
} from "./auth-dev-files.js";
import { devStore } from "./auth-dev-store.js";
import {
  machineFlows,
  withMachineFlows,
  type GrantErrors,
  type GrantProvider,
} from "./auth-dev-machine.js";

/** The port it listens on unless told otherwise. */
export const DEFAULT_AUTH_DEV_PORT = 3001;
/** The user every sign-in signs in as. */
export const DEV_USER = "dev-user";
/** How long an access token lives, in seconds. */
const ACCESS_TOKEN_TTL = 3600;

/** Options of {@link startDevAuthorizationServer}. */
export interface DevAuthorizationServerOptions {
  /** The server project (it holds mcp-gen.json and node_modules/oidc-provider). */
  readonly dir: string;
  /** The port on 127.0.0.1 (default 3001; 0 for any free one). */
  readonly port?: number;
  /** One line per sign-in and per problem. */
  readonly log: (line: string) => void;
}

/** A running development authorization server. */
export interface DevAuthorizationServer {
  /** `http://127.0.0.1:<port>`: the issuer, and the base of every endpoint. */
  readonly issuer: string;
  /** The scopes it grants (the project's, with openid and offline_access). */
  readonly scopes: readonly string[];
  /** The MCP_AUTH_* settings that point a server at it. */
  readonly settings: Readonly<Record<string, string>>;
  /** For each flow without a user, the env file of a client's MCP_AUTH_* settings. */
  readonly flows: Readonly<Record<string, string>>;
  /** Stops it and removes `.auth-dev/server.env` (keys and registrations stay). */
  close(): Promise<void>;
}

/** The slice of oidc-provider used here (it ships no types). */
interface Provider {
  callback(): (req: IncomingMessage, res: ServerResponse) => void;
  use(middleware: (ctx: RequestContext, next: () => Promise<void>) => Promise<void>): void;
  on(event: string, listener: (...args: unknown[]) => void): unknown;
  interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<Interaction>;
  interactionFinished(
    req: IncomingMessage,
    res: ServerResponse,
    result: Record<string, unknown>,
    options?: { mergeWithLastSubmission?: boolean },
  ): Promise<void>;
  readonly Grant: {
    new (init: { accountId?: string; clientId: string }): Grant;
    find(id: string): Promise<Grant | undefined>;
  };
}
interface Grant {
  addOIDCScope(scope: string): void;
  addOIDCClaims(claims: readonly string[]): void;
  addResourceScope(indicator: string, scope: string): void;
  save(): Promise<string>;
}
interface Interaction {
  readonly grantId?: string;
  readonly session?: { readonly accountId: string };
  readonly params: Readonly<Record<string, unknown>>;
  readonly prompt: {
    readonly name: string;
    readonly details: {
      readonly missingOIDCScope?: readonly string[];
      readonly missingOIDCClaims?: readonly string[];
      readonly missingResourceScopes?: Readonly<Record<string, readonly string[]>>;
    };
  };
}
interface OidcModule {
  readonly default: new (issuer: string, configuration: Record<string, unknown>) => Provider;
  readonly errors?: {
    readonly InvalidTarget?: new (description: string) => Error;
    readonly InvalidClientMetadata?: new (description: string) => Error;
  };
}

/** Starts the authorization server of the server project at `options.dir`. */
export async function startDevAuthorizationServer(
  options: DevAuthorizationServerOptions,
): Promise<DevAuthorizationServer> {
  const project = projectAuth(options.dir);
  const oidc = await loadOidcProvider(options.dir);
  const dir = authDevFolder(options.dir);
  const keys = loadOrCreateKeys(dir);
  const http = createServer();
  const port = await listen(http, options.port ?? DEFAULT_AUTH_DEV_PORT);
  const issuer = `http://127.0.0.1:${port}`;
  const jose = (await loadFromProject(options.dir, "jose")) as typeof import("jose");
  const machine = machineFlows(dir, keys, devResources(project), jose);
  const provider = new oidc.default(
    issuer,
    withMachineFlows(
      providerConfiguration(project, keys, devStore(dir), oidc.errors ?? {}),
      machine,
    ),
  );
  await machine.start(
    provider as unknown as GrantProvider,
    oidc.errors as unknown as GrantErrors,
    issuer,
  );
  provider.use(defaultScope(project));
  const ownOrigins = new Set([issuer, `http://localhost:${port}`]);
  provider.on("server_error", (_ctx, error) => options.log(`error: ${String(error)}`));
  // A refused grant says why on the terminal (the token endpoint's answer only names the error).
  provider.on("grant.error", (_ctx, error) =>
    options.log(`token request refused: ${grantProblem(error)}`),
  );
  const callback = provider.callback();
  http.on("request", (req: IncomingMessage, res: ServerResponse) => {
    const origin = req.headers.origin;
    // oidc-provider reflects any Origin into CORS headers; only the server's own pages may read it.
    if (origin !== undefined && !ownOrigins.has(origin)) {
      res.writeHead(403, { "content-type": "text/plain" });
      res.end(`origin ${origin} is not this development server's own (${issuer})`);
      return;
    }
    if (new URL(req.url ?? "/", issuer).pathname.startsWith("/interaction/"))
      signInDevUser(provider, req, res, options.log).catch((error: unknown) => {
        options.log(`sign-in failed: ${String(error)}`);
        res.statusCode = 500;
        res.end("sign-in failed; see the terminal of npm run auth:dev");
      });
    else callback(req, res);
  });
  const settings = { MCP_AUTH_ISSUER: issuer };
  writeServerEnv(options.dir, settings);
  return {
    issuer,
    scopes: ["openid", "offline_access", ...project.scopes],
    settings,
    flows: machine.envFiles,
    async close() {
      machine.stop();
      removeServerEnv(options.dir);
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}

/** What the project's mcp-gen.json says about its authorization. */
interface ProjectAuth {
  readonly scopes: readonly string[];
  /** mcp-gen.json's `auth.resource`, accepted besides loopback resources. */
  readonly resource?: string;
}

/** The project's scopes (every scope `auth` names) and resource; MCPG811 outside a server with `auth`. */
function projectAuth(dir: string): ProjectAuth {
  let settings;
  try {
    settings = readSettings(dir);
  } catch {
    throw new McpGenError([diagnostic("MCPG811", { dir })]);
  }
  if (settings.kind !== "server" || typeof settings.auth !== "object")
    throw new McpGenError([diagnostic("MCPG811", { dir })]);
  const auth = settings.auth;
  const named = [
    ...(auth.scopes ?? []),
    ...Object.values(auth.methods ?? {}).flat(),
    ...Object.values(auth.tools ?? {}).flat(),
  ];
  return {
    scopes: [...new Set(named)].filter((s) => s !== "openid" && s !== "offline_access"),
    ...(auth.resource !== undefined ? { resource: auth.resource } : {}),
  };
}

/** oidc-provider from the project's node_modules (MCPG812 when it is not installed). */
async function loadOidcProvider(dir: string): Promise<OidcModule> {
  let path: string;
  try {
    path = createRequire(join(dir, "package.json")).resolve("oidc-provider");
  } catch {
    throw new McpGenError([diagnostic("MCPG812", { dir })]);
  }
  return (await import(pathToFileURL(path).href)) as OidcModule;
}

/** The part of a request oidc-provider's middleware sees (Koa's context). */
interface RequestContext {
  readonly method: string;
  readonly path: string;
  query: Record<string, unknown>;
}

/**
 * An authorization request that names no scope gets the project's scopes
 * (openid when it has none), as RFC 6749 3.3 lets a server default it.
 * oidc-provider alone refuses such a request with access_denied, and an
 * OAuth client that omits `scope` (MCP clients do when the server names
 * no scopes) could not sign in.
 */
function defaultScope(project: ProjectAuth) {
  const scope = project.scopes.length > 0 ? project.scopes.join(" ") : "openid";
  return async (ctx: RequestContext, next: () => Promise<void>): Promise<void> => {
    if (ctx.method === "GET" && ctx.path === "/auth" && ctx.query.scope === undefined)
      ctx.query = { ...ctx.query, scope };
    await next();
  };
}

/** A package from the project's node_modules (jose, which --auth servers depend on); MCPG812 when missing. */
async function loadFromProject(dir: string, name: string): Promise<unknown> {
  let path: string;
  try {
    path = createRequire(join(dir, "package.json")).resolve(name);
  } catch {
    throw new McpGenError([diagnostic("MCPG812", { dir })]);
  }
  return import(pathToFileURL(path).href);
}

/** What a refused token request got wrong, from oidc-provider's error (never a token). */
function grantProblem(error: unknown): string {
  const {
    error: code,
    error_description: description,
    error_detail: detail,
  } = error as Record<string, unknown>;
  return [code, detail ?? description].filter((part) => typeof part === "string").join(": ");
}

/** The project's resources, as the authorization code flow's tokens see them. */
function devResources(project: ProjectAuth) {
  return {
    scope: project.scopes.join(" "),
    ttl: ACCESS_TOKEN_TTL,
    accepts: (indicator: string) => isDevResource(indicator, project.resource),
  };
}

/** Listens on 127.0.0.1 only; a port in use is an error that says what to do. */
function listen(http: ReturnType<typeof createServer>, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    http.once("error", (error: NodeJS.ErrnoException) =>
      reject(
        error.code === "EADDRINUSE" ? new McpGenError([diagnostic("MCPG813", { port })]) : error,
      ),
    );
    http.listen(port, "127.0.0.1", () => {
      const address = http.address();
      resolve(typeof address === "object" && address !== null ? address.port : port);
    });
  });
}

/** A resource indicator this server issues tokens for: http(s) on a loopback host, or the project's own. */
export function isDevResource(indicator: string, projectResource?: string): boolean {
  if (indicator === projectResource) return true;
  if (!URL.canParse(indicator)) return false;
  const url = new URL(indicator);
  return (
    (url.protocol === "http:" || url.protocol === "https:") &&
    ["127.0.0.1", "localhost", "[::1]"].includes(url.hostname) &&
    url.hash === ""
  );
}

/** Whether a redirect URI is on this machine: http(s) on a loopback host, no fragment. */
export function isLoopbackRedirect(uri: string): boolean {
  if (!URL.canParse(uri)) return false;
  const url = new URL(uri);
  return (
    (url.protocol === "http:" || url.protocol === "https:") &&
    ["127.0.0.1", "localhost", "[::1]"].includes(url.hostname) &&
    url.hash === ""
  );
}

/** oidc-provider's configuration: see this file's comment for what each part is for. */
function providerConfiguration(
  project: ProjectAuth,
  keys: DevKeys,
  adapter: new (model: string) => object,
  errors: NonNullable<OidcModule["errors"]>,
): Record<string, unknown> {
  const { InvalidTarget, InvalidClientMetadata } = errors;
  const scope = project.scopes.join(" ");
  return {
    adapter,
    jwks: { keys: [keys.signing] },
    cookies: { keys: [...keys.cookies] },
    clientDefaults: { id_token_signed_response_alg: "ES256" },
    scopes: ["openid", "offline_access", ...project.scopes],
    // Lifetimes in seconds: a working day's session; grants and refresh tokens for two weeks.
    ttl: {
      AccessToken: ACCESS_TOKEN_TTL,
      AuthorizationCode: 60,
      Interaction: 600,
      Session: 8 * 3600,
      Grant: 14 * 24 * 3600,
      RefreshToken: 14 * 24 * 3600,
    },
    // OAuth 2.1: the authorization code flow only, always with PKCE.
    responseTypes: ["code"],
    pkce: { required: () => true },
    // A refresh token for every client that registered the grant (MCP clients ask for it).
    issueRefreshToken: (_ctx: unknown, client: { grantTypeAllowed(type: string): boolean }) =>
      client.grantTypeAllowed("refresh_token"),
    findAccount: (_ctx: unknown, sub: string) => ({ accountId: sub, claims: () => ({ sub }) }),
    // Checked at registration and whenever a kept registration is loaded.
    extraClientMetadata: {
      properties: ["redirect_uris"],
      validator: (_ctx: unknown, key: string, value: unknown) => {
        const uris: unknown[] = key === "redirect_uris" && Array.isArray(value) ? value : [];
        const away = uris.find((uri) => typeof uri !== "string" || !isLoopbackRedirect(uri));
        if (away === undefined) return;
        const description = `redirect_uris: ${JSON.stringify(away)} is not on this machine; this development server signs in without a prompt, so it sends codes only to http(s) on 127.0.0.1, localhost or [::1]`;
        throw InvalidClientMetadata
          ? new InvalidClientMetadata(description)
          : new Error(description);
      },
    },
    interactions: {
      url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}`,
    },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      revocation: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: (_ctx: unknown, _client: unknown, oneOf?: string) =>
          oneOf ?? project.resource ?? "http://127.0.0.1:3000/mcp",
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, indicator: string) => {
          if (!isDevResource(indicator, project.resource)) {
            const description = `${indicator} is not a resource of this development server (http on 127.0.0.1 or localhost, or auth.resource of mcp-gen.json)`;
            throw InvalidTarget ? new InvalidTarget(description) : new Error(description);
          }
          return {
            scope,
            audience: indicator,
            accessTokenTTL: ACCESS_TOKEN_TTL,
            accessTokenFormat: "jwt",
            jwt: { sign: { alg: "ES256" } },
          };
        },
      },
    },
  };
}

/** Login and consent without a prompt: `dev-user` signs in and grants every scope and resource asked for. */
async function signInDevUser(
  provider: Provider,
  req: IncomingMessage,
  res: ServerResponse,
  log: (line: string) => void,
): Promise<void> {
  const details = await provider.interactionDetails(req, res);
  const result: Record<string, unknown> = {};
  const clientId = String(details.params.client_id);
  if (details.prompt.name === "login") result.login = { accountId: DEV_USER };
  if (details.prompt.name === "consent") {
    const grant = details.grantId
      ? await provider.Grant.find(details.grantId)
      : new provider.Grant({ accountId: details.session?.accountId, clientId });
    if (grant === undefined) throw new Error("the sign-in's grant is gone; start it again");
    const missing = details.prompt.details;
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(" "));
    if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
    for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {})) {
      grant.addResourceScope(indicator, scopes.join(" "));
      log(`${DEV_USER} granted client ${clientId} "${scopes.join(" ")}" for ${indicator}`);
    }
    result.consent = { grantId: await grant.save() };
  }
  await provider.interactionFinished(req, res, result, { mergeWithLastSubmission: true });
}
