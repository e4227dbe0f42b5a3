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
 * authentication as RFC 6749 encodes it) is in discovery.ts and
 * registration.ts; requests.ts makes every request (https only, bounded in
 * time, failures as OAuthError).
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
} from "./token-store.js";
import {
  authorizationServerMetadataUrls,
  parseBearerChallenge,
  resourceMatches,
  resourceMetadataUrls,
  scopeToRequest,
  type BearerChallenge,
} from "./discovery.js";
import { clientAuthentication, clientFor, type PreRegisteredClient } from "./registration.js";
import { describeError, OAuthError, OAuthRequests } from "./requests.js";

export { clientAuthentication, type PreRegisteredClient } from "./registration.js";
export { OAuthError } from "./requests.js";

/** How a client signs in. */
export interface OAuthClientOptions {
  /** Where the authorization server sends the user back (a loopback URL, an app's URL). */
  readonly redirectUri: string;
  /**
   * Shows the authorization page to the user and resolves with the URL the
   * authorization server redirected to (it carries code, state and iss).
   * A loopback redirect (oauth/loopback-redirect) does this for
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
  private readonly requests: OAuthRequests;

  constructor(private readonly options: OAuthClientOptions) {
    this.store = options.store ?? new MemoryTokenStore();
    this.requests = new OAuthRequests(options);
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
      const response = await this.requests.get(url, "resource metadata");
      if (response.status >= 400 && response.status < 500) {
        tried.push(`${url} (HTTP ${response.status})`);
        continue;
      }
      if (response.status !== 200)
        throw new OAuthError("resource metadata", `${url} answered HTTP ${response.status}`);
      const prm = await this.requests.json(response, url, "resource metadata");
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
      const response = await this.requests.get(url, "authorization server metadata");
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

  /** The authorization code flow for `scope`, ending with a grant saved and in use. */
  private async authorizeWith(
    discovered: Discovered,
    scope: string | undefined,
    kept: StoredClient | undefined,
  ): Promise<void> {
    const { as, prm, key } = discovered;
    const client = await clientFor(discovered.as, kept, this.options, this.requests);
    // Kept before the user is sent away, so a registration is not repeated when the flow fails.
    await this.store.save(key, { client });
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    this.requests.checkProtocol(as.authorization_endpoint!, "authorization");
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
    const response = await this.requests.call("token", as.token_endpoint!, () =>
      oauth.authorizationCodeGrantRequest(
        as,
        { ...client },
        clientAuthentication(client),
        answered,
        this.options.redirectUri,
        verifier,
        { ...this.requests.requestOptions(), additionalParameters: { resource: prm.resource } },
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
    const response = await this.requests.call("token", as.token_endpoint!, () =>
      oauth.refreshTokenGrantRequest(
        as,
        { ...grant.client },
        clientAuthentication(grant.client),
        grant.refresh_token!,
        { ...this.requests.requestOptions(), additionalParameters: { resource: prm.resource } },
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
}

function expired(grant: StoredGrant): boolean {
  return grant.expires_at !== undefined && grant.expires_at - EXPIRY_MARGIN_MS <= Date.now();
}
