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
 * Without a user (`grant`: client credentials, workload identity,
 * enterprise-managed authorization; grants.ts) the same discovery leads to
 * a token request of that grant instead of the authorization code flow,
 * and an expired token is replaced by a new request. With `dpop` every
 * token is asked for with a DPoP proof and, when the authorization server
 * binds it, sent with a proof per request (dpop.ts); a resource server's
 * `use_dpop_nonce` is answered by sending the request once more with its
 * nonce.
 *
 * oauth4webapi does the protocol steps; what it leaves (the challenge, the
 * metadata locations, the registration response, Basic client
 * authentication as RFC 6749 encodes it) is in discovery.ts and
 * registration.ts; requests.ts makes every request (https only, bounded in
 * time, failures as OAuthError).
 * Showing the authorization page to the user is the caller's `authorize`.
 */
import { decodeJwt } from "jose";
import * as oauth from "oauth4webapi";
import type { HttpAuth, HttpRefusal, RetryVerdict } from "../transport/http-client.js";
import {
  MemoryTokenStore,
  type GrantKey,
  type StoredClient,
  type StoredGrant,
  type TokenStore,
} from "./token-store.js";
import { DpopKey } from "./dpop.js";
import { requestMachineToken, tokenRequest, type MachineGrant } from "./grants.js";
import {
  parseBearerChallenge,
  parseChallenge,
  scopeToRequest,
  type BearerChallenge,
} from "./discovery.js";
import {
  authorizationServerMetadata,
  resourceMetadata,
  type ResourceMetadata,
} from "./metadata.js";
import { clientAuthentication, clientFor, type PreRegisteredClient } from "./registration.js";
import { describeError, OAuthError, OAuthRequests } from "./requests.js";

export { clientAuthentication, type PreRegisteredClient } from "./registration.js";
export { OAuthError } from "./requests.js";

/** How a client signs in. */
export interface OAuthClientOptions {
  /**
   * Where the authorization server sends the user back (a loopback URL, an
   * app's URL). Needed for the authorization code flow (no `grant`).
   */
  readonly redirectUri?: string;
  /**
   * Shows the authorization page to the user and resolves with the URL the
   * authorization server redirected to (it carries code, state and iss).
   * A loopback redirect (oauth/loopback-redirect) does this for
   * command-line clients. Needed for the authorization code flow (no `grant`).
   */
  readonly authorize?: (authorizationUrl: URL) => Promise<URL>;
  /**
   * A grant without a user, used instead of the authorization code flow:
   * client credentials, workload identity or enterprise-managed
   * authorization (see grants.ts).
   */
  readonly grant?: MachineGrant;
  /**
   * Bind tokens to a key with DPoP (RFC 9449): every token request carries
   * a proof, and a token the authorization server binds is sent with a
   * proof per request. The key is kept with the tokens in the store.
   */
  readonly dpop?: boolean;
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
  /** The DPoP key of the current grant (with `dpop`). */
  private dpopKey?: DpopKey;
  /** How often each scope set was asked for on step-up since the last sign-in: a server that never accepts is not asked forever. */
  private readonly stepUps = new Map<string, number>();
  /** One sign-in at a time: refusals that arrive together share it. */
  private pending: Promise<boolean> = Promise.resolve(true);
  private readonly store: TokenStore;
  private readonly requests: OAuthRequests;

  constructor(private readonly options: OAuthClientOptions) {
    if (options.grant === undefined && (!options.redirectUri || !options.authorize))
      throw new TypeError(
        "OAuthClient: the authorization code flow needs redirectUri and authorize; a client without a user names its grant",
      );
    this.store = options.store ?? new MemoryTokenStore();
    this.requests = new OAuthRequests(options);
  }

  /** The scopes of the current grant (space-separated), once signed in. */
  get scope(): string | undefined {
    return this.grant?.scope;
  }

  async headers(url?: URL, method = "POST"): Promise<Readonly<Record<string, string>>> {
    await this.pending.catch(() => {});
    if (
      this.grant?.access_token !== undefined &&
      (this.grant.refresh_token !== undefined || this.options.grant !== undefined) &&
      expired(this.grant) &&
      this.discovered
    ) {
      const discovered = this.discovered;
      await this.serialised(async () =>
        this.grant !== undefined && expired(this.grant)
          ? this.renew(discovered).catch(() => false)
          : true,
      );
    }
    const token = this.grant?.access_token;
    if (token === undefined) return {};
    if (this.grant?.token_type === "dpop" && this.dpopKey && url)
      return {
        authorization: `DPoP ${token}`,
        dpop: await this.dpopKey.proof(method, url, token),
      };
    return { authorization: `Bearer ${token}` };
  }

  refused(refusal: HttpRefusal): Promise<RetryVerdict> {
    const header = refusal.headers["www-authenticate"];
    const challenge = parseBearerChallenge(header) ?? parseChallenge(header, "DPoP");
    const scheme = /^(?:Bearer|DPoP) +(.+)$/i.exec(refusal.sent.authorization ?? "");
    const sent = scheme ? scheme[1] : undefined;
    if (refusal.status === 401 && parseChallenge(header, "DPoP")?.error === "use_dpop_nonce")
      return Promise.resolve(
        !refusal.retried.includes("dpop-nonce") && this.takeNonce(refusal, sent) && "dpop-nonce",
      );
    // New credentials were already tried for this request: the refusal stands (no second sign-in).
    if (refusal.retried.includes("credentials")) return Promise.resolve(false);
    return this.serialised(async () => {
      // The token was renewed since that request was sent: try the new one.
      if (this.grant?.access_token !== undefined && this.grant.access_token !== sent) return true;
      if (refusal.status === 403) return this.stepUp(refusal.url, challenge);
      if (refusal.status === 401) return this.signIn(refusal.url, challenge, sent);
      return false;
    });
  }

  /**
   * A resource server's `use_dpop_nonce` (RFC 9449 9): the request is sent
   * once more with the nonce it gave, unless the refused proof already
   * carried that nonce (the server will not take it) or it is no nonce.
   * The transport sends a request at most twice, so a server that asks
   * again and again gets one retry per request, never a loop.
   */
  private takeNonce(refusal: HttpRefusal, sent: string | undefined): boolean {
    if (!this.dpopKey || sent === undefined || sent !== this.grant?.access_token) return false;
    const nonce = refusal.headers["dpop-nonce"];
    let used: unknown;
    try {
      used = decodeJwt(refusal.sent.dpop ?? "").nonce;
    } catch {
      used = undefined;
    }
    if (nonce === undefined || nonce === used) return false;
    return this.dpopKey.keepNonce(refusal.url, nonce);
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
    const stored = await this.loadGrant(discovered.key);
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
      offline: this.options.grant === undefined && (this.options.offlineAccess ?? true),
    });
    await this.obtain(discovered, scope, stored?.client);
    return true;
  }

  /**
   * The stored grant of `key`, with its DPoP key; a grant bound to a key
   * that cannot be read is no grant (its token is of no use without it).
   */
  private async loadGrant(key: GrantKey): Promise<StoredGrant | undefined> {
    const stored = await this.store.load(key);
    this.dpopKey = undefined;
    if (stored?.dpop_key === undefined || !this.options.dpop)
      return stored?.token_type === "dpop" ? { client: stored.client } : stored;
    this.dpopKey = await DpopKey.fromJwk(stored.dpop_key);
    return this.dpopKey ? stored : { client: stored.client };
  }

  /** New tokens for `scope`: the configured grant without a user, else the authorization code flow. */
  private async obtain(
    discovered: Discovered,
    scope: string | undefined,
    kept: StoredClient | undefined,
  ): Promise<void> {
    const grant = this.options.grant;
    if (grant === undefined) return this.authorizeWith(discovered, scope, kept);
    const dpop = await this.keyForGrant();
    const { client, tokens } = await requestMachineToken(grant, {
      as: discovered.as,
      resource: discovered.prm.resource,
      scope,
      requests: this.requests,
      ...(dpop ? { dpop } : {}),
    });
    await this.keep(discovered.key, client, tokens, scope);
  }

  /** An expired token replaced: refreshed when there is a refresh token, else asked for again without a user. */
  private async renew(discovered: Discovered): Promise<boolean> {
    if (await this.refresh(discovered).catch(() => false)) return true;
    if (this.options.grant === undefined) return false;
    await this.obtain(discovered, this.grant?.scope, this.grant?.client);
    return true;
  }

  /** The DPoP key new tokens are bound to (with `dpop`): the grant's, else a new one. */
  private async keyForGrant(): Promise<DpopKey | undefined> {
    if (!this.options.dpop) return undefined;
    this.dpopKey ??= await DpopKey.generate();
    return this.dpopKey;
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
      offline: this.options.grant === undefined && (this.options.offlineAccess ?? true),
    });
    // The same scopes asked for again and again mean the server will not take what is granted.
    const asked = (scope ?? "").split(" ").sort().join(" ");
    const times = this.stepUps.get(asked) ?? 0;
    if (times >= (this.options.maxStepUps ?? 2)) return false;
    this.stepUps.set(asked, times + 1);
    await this.obtain(discovered, scope, this.grant?.client);
    return true;
  }

  /** Protected resource metadata, then the authorization server's. */
  private async discover(
    serverUrl: URL,
    challenge: BearerChallenge | undefined,
  ): Promise<Discovered> {
    const prm = await resourceMetadata(serverUrl, challenge, this.requests);
    const issuer = prm.authorization_servers[0]!;
    const as = await authorizationServerMetadata(issuer, this.requests, !this.options.grant);
    // A grant without a user is kept apart per grant and client: another configuration never reuses it.
    const grant = this.options.grant;
    const client = grant ? { client: `${grant.kind} ${grant.client.clientId}` } : {};
    return { prm, as, key: { issuer: as.issuer, resource: prm.resource, ...client } };
  }

  /** The authorization code flow for `scope`, ending with a grant saved and in use. */
  private async authorizeWith(
    discovered: Discovered,
    scope: string | undefined,
    kept: StoredClient | undefined,
  ): Promise<void> {
    const { as, prm, key } = discovered;
    const redirectUri = this.options.redirectUri!;
    const client = await clientFor(
      discovered.as,
      kept,
      { ...this.options, redirectUri },
      this.requests,
    );
    // Kept before the user is sent away, so a registration is not repeated when the flow fails.
    await this.store.save(key, { client });
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    this.requests.checkProtocol(as.authorization_endpoint!, "authorization");
    const url = new URL(as.authorization_endpoint!);
    const params: Record<string, string> = {
      response_type: "code",
      client_id: client.client_id,
      redirect_uri: redirectUri,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      state,
      resource: prm.resource,
      ...(scope !== undefined ? { scope } : {}),
    };
    for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
    let callback: URL;
    try {
      callback = await this.options.authorize!(url);
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
    const dpop = await this.keyForGrant();
    const tokens = await tokenRequest(
      { as, requests: this.requests, ...(dpop ? { dpop } : {}) },
      client,
      (options) =>
        oauth.authorizationCodeGrantRequest(
          as,
          { ...client },
          clientAuthentication(client),
          answered,
          redirectUri,
          verifier,
          { ...options, additionalParameters: { resource: prm.resource } },
        ),
      (response) => oauth.processAuthorizationCodeResponse(as, { ...client }, response),
    );
    await this.keep(key, client, tokens, scope);
  }

  /** Exchanges the refresh token; false when there is none or the server refuses it. */
  private async refresh(discovered: Discovered): Promise<boolean> {
    const grant = this.grant;
    if (grant?.refresh_token === undefined) return false;
    const { as, prm, key } = discovered;
    let tokens: oauth.TokenEndpointResponse;
    try {
      // A refresh token bound with DPoP is only of use with its key: the grant's own.
      tokens = await tokenRequest(
        { as, requests: this.requests, ...(this.dpopKey ? { dpop: this.dpopKey } : {}) },
        grant.client,
        (options) =>
          oauth.refreshTokenGrantRequest(
            as,
            { ...grant.client },
            clientAuthentication(grant.client),
            grant.refresh_token!,
            { ...options, additionalParameters: { resource: prm.resource } },
          ),
        (response) => oauth.processRefreshTokenResponse(as, { ...grant.client }, response),
      );
    } catch (error) {
      // The server's answer refused it (not a network failure): the refresh token is spent.
      if (!(error instanceof OAuthError) || !isAnswerError(error.cause)) throw error;
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
    // oauth4webapi lower-cases token_type and accepts only bearer and dpop here. A server that does not
    // do DPoP answers bearer to a proof (RFC 9449 5): the token is then sent as a bearer token.
    const bound = tokens.token_type === "dpop" && this.dpopKey !== undefined;
    const grant: StoredGrant = {
      client,
      access_token: tokens.access_token,
      ...(refresh !== undefined ? { refresh_token: refresh } : {}),
      ...(tokens.expires_in !== undefined
        ? { expires_at: Date.now() + tokens.expires_in * 1000 }
        : {}),
      ...(scope !== undefined ? { scope } : {}),
      token_type: bound ? "dpop" : "bearer",
      // The key goes with a bound token, and with a refresh token that may be bound to it too.
      ...(this.dpopKey && (bound || refresh !== undefined)
        ? { dpop_key: { ...(await this.dpopKey.toJwk()) } as Record<string, string> }
        : {}),
    };
    await this.store.save(key, grant);
    this.grant = grant;
  }
}

/** Whether a token request failed on the server's answer (an error, an invalid response), not on the way there. */
function isAnswerError(cause: unknown): boolean {
  return (
    cause instanceof oauth.ResponseBodyError ||
    cause instanceof oauth.OperationProcessingError ||
    cause instanceof oauth.UnsupportedOperationError ||
    cause instanceof oauth.WWWAuthenticateChallengeError
  );
}

function expired(grant: StoredGrant): boolean {
  return grant.expires_at !== undefined && grant.expires_at - EXPIRY_MARGIN_MS <= Date.now();
}
