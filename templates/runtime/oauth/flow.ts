/**
 * A client's OAuth 2.1 authorization (spec: basic/authorization), as the
 * HTTP transport's auth hook: the first request goes without a token; the
 * server's 401 starts discovery (protected resource metadata, then the
 * authorization server's), registration (pre-registered, a client ID
 * metadata document, or dynamic registration), the authorization code flow
 * with PKCE S256, the resource indicator and RFC 9207's `iss` check, and
 * the token request; the request is then sent again with the token. A 403
 * insufficient_scope asks for the scopes the server named on top of those
 * granted (step-up, a bounded number of times); an expired token is
 * refreshed; a 401 for a token re-reads the protected resource metadata, so
 * a server that moved to another authorization server is followed there,
 * with a registration of its own.
 *
 * oauth4webapi does the protocol steps; what it leaves (the challenge, the
 * metadata locations, the registration response, Basic client
 * authentication as RFC 6749 encodes it) is here and in discovery.ts.
 * Showing the authorization page to the user is the caller's `authorize`.
 */
import * as oauth from "oauth4webapi";
import type { HttpAuth, HttpRefusal } from "../transport/http-client.js";
import {
  MemoryTokenStore,
  type GrantKey,
  type StoredClient,
  type StoredGrant,
  type TokenStore,
} from "../transport/token-store.js";
import {
  authorizationServerMetadataUrls,
  parseBearerChallenge,
  resourceMatches,
  resourceMetadataUrls,
  scopeToRequest,
  type BearerChallenge,
} from "./discovery.js";

/** Credentials this client was given by an authorization server beforehand. */
export interface PreRegisteredClient {
  readonly clientId: string;
  readonly clientSecret?: string;
  /** client_secret_basic (default with a secret), client_secret_post or none (default without). */
  readonly tokenEndpointAuthMethod?: "client_secret_basic" | "client_secret_post" | "none";
  /** The issuer they are for (default: any). */
  readonly issuer?: string;
}

/** How a client signs in. */
export interface OAuthClientOptions {
  /** Where the authorization server sends the user back (a loopback URL, an app's URL). */
  readonly redirectUri: string;
  /**
   * Shows the authorization page to the user and resolves with the URL the
   * authorization server redirected to (it carries code, state and iss).
   * A loopback redirect (transport/loopback-redirect) does this for
   * command-line clients.
   */
  readonly authorize: (authorizationUrl: URL) => Promise<URL>;
  /** Credentials registered beforehand; used before anything else. */
  readonly preRegistered?: PreRegisteredClient;
  /**
   * The https URL of this client's metadata document: its client_id at an
   * authorization server that accepts client ID metadata documents.
   */
  readonly clientMetadataUrl?: string;
  /** Sent in dynamic registration. */
  readonly clientName?: string;
  /** Where grants are kept (default: in memory). */
  readonly store?: TokenStore;
  /** Ask for offline_access (a refresh token) where the authorization server offers it (default true). */
  readonly offlineAccess?: boolean;
  /** How often one set of scopes is asked for on step-up before a 403 is final (default 2). */
  readonly maxStepUps?: number;
  /** The time allowed for each request to a metadata, registration or token endpoint (default 30 000 ms). */
  readonly timeoutMs?: number;
  /**
   * Allow http:// authorization servers and metadata. Default: only on
   * loopback hosts (localhost, 127.0.0.1, [::1]), as for local testing.
   */
  readonly allowHttp?: boolean;
  /** The fetch used for every OAuth request (default: the global one). */
  readonly fetch?: typeof fetch;
}

/** Why a sign-in failed: the step and what went wrong. */
export class OAuthError extends Error {
  constructor(
    readonly step:
      | "resource metadata"
      | "authorization server metadata"
      | "registration"
      | "authorization"
      | "token",
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`OAuth ${step}: ${message}`, options);
    this.name = "OAuthError";
  }
}

/** The protected resource metadata a client uses (RFC 9728). */
interface ResourceMetadata {
  /** Verbatim, as the resource indicator. */
  readonly resource: string;
  readonly authorization_servers: readonly string[];
  readonly scopes_supported?: readonly string[];
}

/** What discovery found for the server being called. */
interface Discovered {
  readonly prm: ResourceMetadata;
  readonly as: oauth.AuthorizationServer;
  readonly key: GrantKey;
}

/** Grants older than this before their expiry are refreshed before use. */
const EXPIRY_MARGIN_MS = 30_000;

/**
 * An OAuth client for one MCP server, used as the HTTP transport's `auth`:
 * `connectHttp(url, { auth: new OAuthClient({ redirectUri, authorize }) })`.
 */
export class OAuthClient implements HttpAuth {
  private discovered?: Discovered;
  private grant?: StoredGrant;
  /** How often each scope set was asked for on step-up since the last sign-in: a server that never accepts is not asked forever. */
  private readonly stepUps = new Map<string, number>();
  /** One sign-in at a time: refusals that arrive together share it. */
  private pending: Promise<boolean> = Promise.resolve(true);
  private readonly store: TokenStore;

  constructor(private readonly options: OAuthClientOptions) {
    this.store = options.store ?? new MemoryTokenStore();
  }

  /** The scopes of the current grant (space-separated), once signed in. */
  get scope(): string | undefined {
    return this.grant?.scope;
  }

  async headers(): Promise<Readonly<Record<string, string>>> {
    await this.pending.catch(() => {});
    if (
      this.grant?.access_token !== undefined &&
      this.grant.refresh_token !== undefined &&
      this.grant.expires_at !== undefined &&
      this.grant.expires_at - EXPIRY_MARGIN_MS <= Date.now() &&
      this.discovered
    ) {
      const discovered = this.discovered;
      await this.serialised(async () =>
        this.grant !== undefined && expired(this.grant)
          ? this.refresh(discovered).catch(() => false)
          : true,
      );
    }
    const token = this.grant?.access_token;
    return token === undefined ? {} : { authorization: `Bearer ${token}` };
  }

  refused(refusal: HttpRefusal): Promise<boolean> {
    const challenge = parseBearerChallenge(refusal.headers["www-authenticate"]);
    const bearer = /^Bearer (.+)$/i.exec(refusal.sent.authorization ?? "");
    const sent = bearer ? bearer[1] : undefined;
    return this.serialised(async () => {
      // The token was renewed since that request was sent: try the new one.
      if (this.grant?.access_token !== undefined && this.grant.access_token !== sent) return true;
      if (refusal.status === 403) return this.stepUp(refusal.url, challenge);
      if (refusal.status === 401) return this.signIn(refusal.url, challenge, sent);
      return false;
    });
  }

  private serialised(step: () => Promise<boolean>): Promise<boolean> {
    const next = this.pending.catch(() => true).then(step);
    this.pending = next;
    return next;
  }

  /**
   * After a 401: discovery from the challenge (the resource metadata may
   * now name another authorization server), then a stored token other than
   * the refused one, a refresh, or a new authorization.
   */
  private async signIn(
    serverUrl: URL,
    challenge: BearerChallenge | undefined,
    refused: string | undefined,
  ): Promise<boolean> {
    const discovered = await this.discover(serverUrl, challenge);
    this.discovered = discovered;
    this.stepUps.clear();
    const stored = await this.store.load(discovered.key);
    this.grant = stored;
    if (stored?.access_token !== undefined && stored.access_token !== refused && !expired(stored))
      return true;
    if (stored?.refresh_token !== undefined && (await this.refresh(discovered).catch(() => false)))
      return true;
    const scope = scopeToRequest({
      ...(challenge ? { challenge } : {}),
      ...(discovered.prm.scopes_supported
        ? { scopesSupported: discovered.prm.scopes_supported }
        : {}),
      ...(discovered.as.scopes_supported ? { serverScopes: discovered.as.scopes_supported } : {}),
      offline: this.options.offlineAccess ?? true,
    });
    await this.authorizeWith(discovered, scope, stored?.client);
    return true;
  }

  /**
   * After a 403 insufficient_scope: the scopes granted plus those the
   * server named, when that asks for more than before and the limit allows.
   */
  private async stepUp(serverUrl: URL, challenge: BearerChallenge | undefined): Promise<boolean> {
    if (challenge?.error !== "insufficient_scope" || challenge.scope === undefined) return false;
    const discovered = this.discovered ?? (await this.discover(serverUrl, challenge));
    this.discovered = discovered;
    const granted = (this.grant?.scope ?? "").split(" ").filter((s) => s !== "");
    const scope = scopeToRequest({
      challenge,
      previous: granted,
      ...(discovered.as.scopes_supported ? { serverScopes: discovered.as.scopes_supported } : {}),
      offline: this.options.offlineAccess ?? true,
    });
    // The same scopes asked for again and again mean the server will not take what is granted.
    const asked = (scope ?? "").split(" ").sort().join(" ");
    const times = this.stepUps.get(asked) ?? 0;
    if (times >= (this.options.maxStepUps ?? 2)) return false;
    this.stepUps.set(asked, times + 1);
    await this.authorizeWith(discovered, scope, this.grant?.client);
    return true;
  }

  /** Protected resource metadata, then the authorization server's. */
  private async discover(
    serverUrl: URL,
    challenge: BearerChallenge | undefined,
  ): Promise<Discovered> {
    const prm = await this.resourceMetadata(serverUrl, challenge);
    const issuer = prm.authorization_servers[0]!;
    const as = await this.authorizationServerMetadata(issuer);
    return { prm, as, key: { issuer: as.issuer, resource: prm.resource } };
  }

  private async resourceMetadata(
    serverUrl: URL,
    challenge: BearerChallenge | undefined,
  ): Promise<ResourceMetadata> {
    const tried: string[] = [];
    for (const url of resourceMetadataUrls(serverUrl.href, challenge)) {
      const response = await this.get(url, "resource metadata");
      if (response.status >= 400 && response.status < 500) {
        tried.push(`${url} (HTTP ${response.status})`);
        continue;
      }
      if (response.status !== 200)
        throw new OAuthError("resource metadata", `${url} answered HTTP ${response.status}`);
      const prm = await this.json(response, url, "resource metadata");
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
   * `issuer` must be the issuer asked for, character for character, and it
   * must offer PKCE with S256; otherwise it is not used.
   */
  private async authorizationServerMetadata(issuer: string): Promise<oauth.AuthorizationServer> {
    const tried: string[] = [];
    for (const url of authorizationServerMetadataUrls(issuer)) {
      const response = await this.get(url, "authorization server metadata");
      if (response.status >= 400 && response.status < 500) {
        tried.push(`${url} (HTTP ${response.status})`);
        continue;
      }
      let as: oauth.AuthorizationServer;
      try {
        as = await oauth.processDiscoveryResponse(new URL(issuer), response);
      } catch (error) {
        throw new OAuthError(
          "authorization server metadata",
          `${url}: ${(error as Error).message}`,
          { cause: error },
        );
      }
      if (as.issuer !== issuer)
        throw new OAuthError(
          "authorization server metadata",
          `${url} names the issuer ${as.issuer}, not ${issuer}: it is not used`,
        );
      if (!as.code_challenge_methods_supported?.includes("S256"))
        throw new OAuthError(
          "authorization server metadata",
          `${issuer} does not offer PKCE with S256 (code_challenge_methods_supported), which this client requires`,
        );
      if (as.authorization_endpoint === undefined || as.token_endpoint === undefined)
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

  /** The client to use at this authorization server: pre-registered, a metadata document, kept, or registered now. */
  private async clientFor(
    discovered: Discovered,
    kept: StoredClient | undefined,
  ): Promise<StoredClient> {
    const pre = this.options.preRegistered;
    if (pre && (pre.issuer === undefined || pre.issuer === discovered.as.issuer))
      return {
        client_id: pre.clientId,
        ...(pre.clientSecret !== undefined ? { client_secret: pre.clientSecret } : {}),
        token_endpoint_auth_method:
          pre.tokenEndpointAuthMethod ??
          (pre.clientSecret !== undefined ? "client_secret_basic" : "none"),
      };
    if (
      this.options.clientMetadataUrl !== undefined &&
      discovered.as.client_id_metadata_document_supported === true
    )
      return { client_id: this.options.clientMetadataUrl, token_endpoint_auth_method: "none" };
    if (kept) return kept;
    return this.register(discovered);
  }

  /**
   * Dynamic client registration (RFC 7591). The response is read here:
   * oauth4webapi's reader demands client_secret_expires_at with every
   * secret, which RFC 7591 makes optional.
   */
  private async register(discovered: Discovered): Promise<StoredClient> {
    const { as } = discovered;
    if (as.registration_endpoint === undefined)
      throw new OAuthError(
        "registration",
        `${as.issuer} offers no dynamic registration and this client has no credentials for it: register it there and pass them as preRegistered`,
      );
    const method = chooseRegistrationMethod(as.token_endpoint_auth_methods_supported);
    const response = await this.call("registration", as.registration_endpoint, () =>
      oauth.dynamicClientRegistrationRequest(
        as,
        {
          redirect_uris: [this.options.redirectUri],
          grant_types: ["authorization_code", "refresh_token"],
          response_types: ["code"],
          application_type: isNativeRedirect(this.options.redirectUri) ? "native" : "web",
          client_name: this.options.clientName ?? "MCP client",
          ...(method !== undefined ? { token_endpoint_auth_method: method } : {}),
        },
        this.requestOptions(),
      ),
    );
    if (response.status !== 201 && response.status !== 200)
      throw new OAuthError(
        "registration",
        `${as.registration_endpoint} answered HTTP ${response.status}: ${await bodyText(response)}`,
      );
    const body = await this.json(response, as.registration_endpoint, "registration");
    if (typeof body.client_id !== "string" || body.client_id === "")
      throw new OAuthError("registration", `${as.registration_endpoint} returned no client_id`);
    return {
      client_id: body.client_id,
      ...(typeof body.client_secret === "string" ? { client_secret: body.client_secret } : {}),
      ...(typeof body.token_endpoint_auth_method === "string"
        ? { token_endpoint_auth_method: body.token_endpoint_auth_method }
        : method !== undefined
          ? { token_endpoint_auth_method: method }
          : {}),
    };
  }

  /** The authorization code flow for `scope`, ending with a grant saved and in use. */
  private async authorizeWith(
    discovered: Discovered,
    scope: string | undefined,
    kept: StoredClient | undefined,
  ): Promise<void> {
    const { as, prm, key } = discovered;
    const client = await this.clientFor(discovered, kept);
    // Kept before the user is sent away, so a registration is not repeated when the flow fails.
    await this.store.save(key, { client });
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    this.checkProtocol(as.authorization_endpoint!, "authorization");
    const url = new URL(as.authorization_endpoint!);
    const params: Record<string, string> = {
      response_type: "code",
      client_id: client.client_id,
      redirect_uri: this.options.redirectUri,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      state,
      resource: prm.resource,
      ...(scope !== undefined ? { scope } : {}),
    };
    for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
    let callback: URL;
    try {
      callback = await this.options.authorize(url);
    } catch (error) {
      throw new OAuthError("authorization", (error as Error).message, { cause: error });
    }
    let answered: URLSearchParams;
    try {
      // RFC 9207: iss compared with the metadata's issuer, exactly; the state with the one sent.
      answered = oauth.validateAuthResponse(as, { ...client }, callback, state);
    } catch (error) {
      throw new OAuthError("authorization", describeError(error), { cause: error });
    }
    const response = await this.call("token", as.token_endpoint!, () =>
      oauth.authorizationCodeGrantRequest(
        as,
        { ...client },
        clientAuthentication(client),
        answered,
        this.options.redirectUri,
        verifier,
        { ...this.requestOptions(), additionalParameters: { resource: prm.resource } },
      ),
    );
    let tokens: oauth.TokenEndpointResponse;
    try {
      tokens = await oauth.processAuthorizationCodeResponse(as, { ...client }, response);
    } catch (error) {
      throw new OAuthError("token", describeError(error), { cause: error });
    }
    await this.keep(key, client, tokens, scope);
  }

  /** Exchanges the refresh token; false when there is none or the server refuses it. */
  private async refresh(discovered: Discovered): Promise<boolean> {
    const grant = this.grant;
    if (grant?.refresh_token === undefined) return false;
    const { as, prm, key } = discovered;
    const response = await this.call("token", as.token_endpoint!, () =>
      oauth.refreshTokenGrantRequest(
        as,
        { ...grant.client },
        clientAuthentication(grant.client),
        grant.refresh_token!,
        { ...this.requestOptions(), additionalParameters: { resource: prm.resource } },
      ),
    );
    let tokens: oauth.TokenEndpointResponse;
    try {
      tokens = await oauth.processRefreshTokenResponse(as, { ...grant.client }, response);
    } catch {
      await this.store.save(key, { client: grant.client });
      this.grant = { client: grant.client };
      return false;
    }
    await this.keep(key, grant.client, tokens, grant.scope, grant.refresh_token);
    return true;
  }

  private async keep(
    key: GrantKey,
    client: StoredClient,
    tokens: oauth.TokenEndpointResponse,
    asked: string | undefined,
    previousRefresh?: string,
  ): Promise<void> {
    const refresh = tokens.refresh_token ?? previousRefresh;
    const scope = tokens.scope ?? asked;
    const grant: StoredGrant = {
      client,
      access_token: tokens.access_token,
      ...(refresh !== undefined ? { refresh_token: refresh } : {}),
      ...(tokens.expires_in !== undefined
        ? { expires_at: Date.now() + tokens.expires_in * 1000 }
        : {}),
      ...(scope !== undefined ? { scope } : {}),
    };
    await this.store.save(key, grant);
    this.grant = grant;
  }

  /** A GET for metadata, bounded in time; a network failure is the step's error. */
  private async get(url: string, step: OAuthError["step"]): Promise<Response> {
    this.checkProtocol(url, step);
    const fetcher = this.options.fetch ?? fetch;
    try {
      return await fetcher(url, {
        headers: { accept: "application/json" },
        redirect: "manual",
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 30_000),
      });
    } catch (error) {
      throw new OAuthError(step, `cannot reach ${url}: ${describeError(error)}`, { cause: error });
    }
  }

  /** An oauth4webapi request, its network failures and timeouts reported as the step's error. */
  private async call(
    step: OAuthError["step"],
    endpoint: string,
    request: () => Promise<Response>,
  ): Promise<Response> {
    this.checkProtocol(endpoint, step);
    try {
      return await request();
    } catch (error) {
      throw new OAuthError(step, describeError(error), { cause: error });
    }
  }

  private requestOptions() {
    const timeout = this.options.timeoutMs ?? 30_000;
    return {
      signal: () => AbortSignal.timeout(timeout),
      ...(this.options.fetch ? { [oauth.customFetch]: this.options.fetch } : {}),
      // oauth4webapi refuses http:// endpoints; checkProtocol already allowed these.
      [oauth.allowInsecureRequests]: true,
    };
  }

  /** https only, unless allowed or on a loopback host. */
  private checkProtocol(url: string, step: OAuthError["step"]): void {
    const parsed = new URL(url);
    if (parsed.protocol === "https:") return;
    if (parsed.protocol === "http:" && (this.options.allowHttp || isLoopback(parsed.hostname)))
      return;
    throw new OAuthError(step, `${url} is not https; set allowHttp to allow it`);
  }

  private async json(
    response: Response,
    url: string,
    step: OAuthError["step"],
  ): Promise<Record<string, unknown>> {
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      throw new OAuthError(step, `${url} did not answer JSON`);
    }
    if (typeof body !== "object" || body === null || Array.isArray(body))
      throw new OAuthError(step, `${url} did not answer a JSON object`);
    return body as Record<string, unknown>;
  }
}

/**
 * How a client authenticates at the token endpoint. Basic is written here:
 * RFC 6749 2.3.1 form-encodes id and secret before joining them, and
 * oauth4webapi's encoder also escapes characters form encoding leaves as
 * they are (`-` becomes `%2D`), which servers that do not decode reject.
 */
export function clientAuthentication(client: StoredClient): oauth.ClientAuth {
  const secret = client.client_secret;
  switch (client.token_endpoint_auth_method) {
    case "client_secret_post":
      if (secret === undefined) break;
      return oauth.ClientSecretPost(secret);
    case "none":
      return oauth.None();
    default:
      if (secret === undefined) return oauth.None();
      return (_as, c, _body, headers) => {
        const credentials = `${formEncode(c.client_id)}:${formEncode(secret)}`;
        headers.set("authorization", `Basic ${btoa(credentials)}`);
      };
  }
  return oauth.None();
}

/** application/x-www-form-urlencoded encoding of one value (RFC 6749 appendix B). */
function formEncode(value: string): string {
  return new URLSearchParams({ v: value }).toString().slice(2);
}

/** The token endpoint method to ask for in registration: none when offered (PKCE protects a public client). */
function chooseRegistrationMethod(supported: readonly string[] | undefined): string | undefined {
  if (supported === undefined) return undefined;
  return ["none", "client_secret_basic", "client_secret_post"].find((m) => supported.includes(m));
}

/** A redirect to a loopback address or a custom scheme is a native application's (RFC 8252). */
function isNativeRedirect(uri: string): boolean {
  const url = new URL(uri);
  return (url.protocol !== "https:" && url.protocol !== "http:") || isLoopback(url.hostname);
}

function isLoopback(hostname: string): boolean {
  return hostname === "localhost" || hostname === "127.0.0.1" || hostname === "[::1]";
}

function expired(grant: StoredGrant): boolean {
  return grant.expires_at !== undefined && grant.expires_at - EXPIRY_MARGIN_MS <= Date.now();
}

function describeError(error: unknown): string {
  if (error instanceof oauth.ResponseBodyError)
    return `${error.error}${error.error_description ? `: ${error.error_description}` : ""} (HTTP ${error.status})`;
  if (error instanceof oauth.AuthorizationResponseError)
    return `${error.error}${error.error_description ? `: ${error.error_description}` : ""}`;
  if (error instanceof Error && error.name === "TimeoutError") return "no answer in time";
  return error instanceof Error ? error.message : String(error);
}

async function bodyText(response: Response): Promise<string> {
  try {
    return (await response.text()).slice(0, 500);
  } catch {
    return "";
  }
}
