/**
 * The server as an OAuth 2.1 protected resource (spec: basic/authorization):
 * RFC 9728 protected resource metadata, bearer tokens from the
 * Authorization header only (RFC 6750 2.1), JWT access tokens checked with
 * jose per RFC 9068 against the authorization server's JWKS (found through
 * its RFC 8414 or OpenID metadata), `aud` equal to this server's canonical
 * resource URI (RFC 8707), or, for opaque tokens, RFC 7662 introspection
 * (introspection.ts); a token bound to a key (`cnf.jkt`) only with the
 * DPoP scheme and a valid proof for the request (dpop.ts, RFC 9449); and
 * scopes per method and per tool with 403 insufficient_scope naming what
 * is missing (step-up).
 *
 * Only projects with authorization carry this layer, and only they depend
 * on jose. The transport calls it through HttpAuthorization and hands the
 * verified claims to handlers as data; the token itself goes nowhere.
 */
import {
  createRemoteJWKSet,
  customFetch,
  errors as joseErrors,
  jwtVerify,
  type JWTPayload,
  type JWTVerifyGetKey,
} from "jose";
import type { Authorization } from "../core/exchange.js";
import { McpError } from "../core/errors.js";
import type { JsonRpcMessage } from "../core/jsonrpc.js";
import { authorizationServerMetadataUrls } from "../core/well-known.js";
import { isReply, type HttpAuthorization } from "../transport/authorization.js";
import { fetchBounded, MAX_FETCH_BYTES, type BoundedAnswer } from "../transport/bounded-fetch.js";
import {
  errorReply,
  jsonReply,
  type HttpReply,
  type HttpRequest,
} from "../transport/http-reply.js";
import { DpopCheck, type DpopOptions } from "./dpop.js";
import {
  Introspection,
  InvalidToken,
  IntrospectionUnavailable,
  type IntrospectionOptions,
} from "./introspection.js";

/** Scopes a request needs, on top of those every request needs. */
export interface ScopeRules {
  /** Scopes every request needs (also announced in the 401's `scope`). */
  readonly always?: readonly string[];
  /** Scopes by JSON-RPC method (`tools/list`, `resources/read`). */
  readonly methods?: Readonly<Record<string, readonly string[]>>;
  /** Scopes by tool name, for `tools/call` (from tools.json). */
  readonly tools?: Readonly<Record<string, readonly string[]>>;
}

/** How bearer authorization is set up. */
export interface BearerOptions {
  /** The authorization server's issuer URL (MCP_AUTH_ISSUER); tokens must carry it as `iss`. */
  readonly issuer: string;
  /** This server's canonical resource URI (MCP_AUTH_RESOURCE), for example `https://mcp.example.com/mcp`; tokens must carry it in `aud`. */
  readonly resource: string;
  /** Scopes per method and tool. */
  readonly scopes?: ScopeRules;
  /**
   * Check tokens by RFC 7662 introspection instead of as JWTs (for an
   * authorization server that issues opaque access tokens).
   */
  readonly introspection?: IntrospectionOptions;
  /** Signature algorithms accepted (default RS256, PS256, ES256, EdDSA; never `none` nor an HMAC). */
  readonly algorithms?: readonly string[];
  /** DPoP-bound tokens (RFC 9449): whether bearer tokens are still accepted, proof algorithms, window, replay cache. */
  readonly dpop?: DpopOptions;
  /** Clock skew allowed on `exp` and `nbf`, in seconds (default 30). */
  readonly clockToleranceSeconds?: number;
  /** The longest Authorization header accepted, in characters (default 8192). */
  readonly maxTokenLength?: number;
  /** How long a request to the authorization server (metadata, JWKS, introspection) may take, body included, in ms (default 5000). */
  readonly timeoutMs?: number;
  /** The largest answer read from the authorization server (metadata, JWKS, introspection), in bytes (default 1 MiB). */
  readonly maxResponseBytes?: number;
  /** The least time between two JWKS fetches for an unknown `kid`, in ms (default 30000). */
  readonly jwksCooldownMs?: number;
  /** Where failures to reach the authorization server are reported (never with a token). */
  readonly onError?: (message: string) => void;
  /** The fetch used to reach the authorization server (default: global fetch). */
  readonly fetch?: typeof fetch;
}

/** Algorithms accepted by default: asymmetric only, so a public key can never sign a token. */
export const DEFAULT_ALGORITHMS: readonly string[] = ["RS256", "PS256", "ES256", "EdDSA"];

/** Why the authorization server could not be used: its metadata or keys are unreachable or wrong. */
export class AuthorizationServerError extends Error {
  override readonly name = "AuthorizationServerError";
}

/**
 * The path of the protected resource metadata of `resource` (RFC 9728 3.1):
 * the well-known prefix inserted before the resource's path.
 */
export function metadataPath(resource: string): string {
  const path = new URL(resource).pathname;
  return `/.well-known/oauth-protected-resource${path === "/" ? "" : path}`;
}

/** The absolute URL of the protected resource metadata of `resource`. */
export function metadataUrl(resource: string): string {
  return new URL(metadataPath(resource), resource).href;
}

/**
 * Bearer-token authorization for `HttpOptions.authorization`. Checks the
 * options at once (a clear error for a bad issuer or resource); reaches the
 * authorization server only when the first token arrives, or at `ready()`.
 */
export function bearerAuthorization(options: BearerOptions): BearerAuthorization {
  return new BearerAuthorization(options);
}

/** See bearerAuthorization. */
export class BearerAuthorization implements HttpAuthorization {
  readonly issuer: string;
  readonly resource: string;
  private readonly scopes: ScopeRules;
  private readonly algorithms: string[];
  private readonly tolerance: number;
  private readonly maxTokenLength: number;
  private readonly timeoutMs: number;
  private readonly maxResponseBytes: number;
  private readonly cooldownMs: number;
  private readonly report: (message: string) => void;
  private readonly fetchImpl: typeof fetch;
  private readonly paths: ReadonlySet<string>;
  private readonly challengeBase: string;
  private readonly introspection: Introspection | undefined;
  private readonly dpop: DpopCheck;
  private keys: Promise<JWTVerifyGetKey> | undefined;

  constructor(options: BearerOptions) {
    this.issuer = checkedUrl(options.issuer, "the issuer (MCP_AUTH_ISSUER)");
    this.resource = checkedResource(options.resource);
    this.scopes = checkedScopes(options.scopes ?? {});
    this.algorithms = [...(options.algorithms ?? DEFAULT_ALGORITHMS)];
    const weak = this.algorithms.filter((a) => a === "none" || /^HS/i.test(a));
    if (weak.length > 0)
      throw new TypeError(
        `Authorization: the algorithms ${weak.join(", ")} cannot be accepted for access tokens; list asymmetric ones (RS256, PS256, ES256, EdDSA)`,
      );
    this.tolerance = options.clockToleranceSeconds ?? 30;
    this.maxTokenLength = options.maxTokenLength ?? 8192;
    this.timeoutMs = options.timeoutMs ?? 5000;
    this.maxResponseBytes = options.maxResponseBytes ?? MAX_FETCH_BYTES;
    this.cooldownMs = options.jwksCooldownMs ?? 30_000;
    this.report = options.onError ?? ((message) => console.error(message));
    this.fetchImpl = options.fetch ?? fetch;
    const own = metadataPath(this.resource);
    this.paths = new Set([own, "/.well-known/oauth-protected-resource"]);
    this.dpop = new DpopCheck(
      options.dpop ?? {},
      this.resource,
      metadataUrl(this.resource),
      this.tolerance,
      this.report,
    );
    // A server that takes only DPoP-bound tokens challenges with that scheme alone (RFC 9449 7.1).
    this.challengeBase = `${this.dpop.mode === "required" ? "DPoP" : "Bearer"} resource_metadata="${metadataUrl(this.resource)}"`;
    this.introspection = options.introspection && this.introspectionOf(options.introspection);
  }

  /** The introspection check, after its options are checked (a clear error for a bad URL or missing credentials). */
  private introspectionOf(options: IntrospectionOptions): Introspection {
    checkedUrl(options.url, "the introspection endpoint (MCP_AUTH_INTROSPECTION_URL)");
    for (const [what, text] of [
      ["client ID (MCP_AUTH_CLIENT_ID)", options.clientId],
      ["client secret (MCP_AUTH_CLIENT_SECRET)", options.clientSecret],
    ] as const)
      if (text === "")
        throw new TypeError(
          `Authorization: introspection needs this server's ${what} at the authorization server`,
        );
    return new Introspection(options, {
      issuer: this.issuer,
      resource: this.resource,
      timeoutMs: this.timeoutMs,
      maxResponseBytes: this.maxResponseBytes,
      clockToleranceSeconds: this.tolerance,
      fetch: this.fetchImpl,
    });
  }

  /** The protected resource metadata document (RFC 9728 2). */
  metadataDocument(): Record<string, unknown> {
    const supported = new Set([
      ...(this.scopes.always ?? []),
      ...Object.values(this.scopes.methods ?? {}).flat(),
      ...Object.values(this.scopes.tools ?? {}).flat(),
    ]);
    return {
      resource: this.resource,
      authorization_servers: [this.issuer],
      bearer_methods_supported: ["header"],
      ...(supported.size > 0 ? { scopes_supported: [...supported].sort() } : {}),
      ...this.dpop.metadata(),
    };
  }

  metadata(request: HttpRequest): HttpReply | undefined {
    if (!this.paths.has(request.path)) return undefined;
    return jsonReply(200, this.metadataDocument(), { "cache-control": "max-age=300" });
  }

  /**
   * Finds the authorization server's metadata (and keys, for JWTs) now, so
   * a wrong issuer shows at start; rejects with AuthorizationServerError.
   */
  async ready(): Promise<void> {
    if (this.introspection) await this.authorizationServerMetadata();
    else await this.keySet();
  }

  async authenticate(request: HttpRequest): Promise<Authorization | HttpReply> {
    if (request.query !== undefined && hasAccessTokenParameter(request.query))
      return this.unauthorized(
        "invalid_request",
        "send the access token in the Authorization header, never in the URL",
      );
    const header = request.header("authorization");
    if (header === undefined) return this.unauthorized();
    if (header.length > this.maxTokenLength)
      return this.unauthorized("invalid_token", "the Authorization header is too large");
    const match = /^(Bearer|DPoP) +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header);
    if (!match)
      return this.unauthorized(
        "invalid_request",
        "the Authorization header must be `Bearer <token>` or `DPoP <token>`",
      );
    const scheme = match[1]!.toLowerCase() === "dpop" ? "dpop" : "bearer";
    const token = match[2]!;
    // Bearer tokens at a server that takes only bound ones: refused before the authorization server is asked.
    if (scheme === "bearer" && this.dpop.mode === "required")
      return (await this.dpop.confirm(request, scheme, token, {}))!;
    const verdict = await this.verified(token);
    if (isReply(verdict)) return verdict;
    return (await this.dpop.confirm(request, scheme, token, verdict.claims)) ?? verdict;
  }

  /** What the token grants once checked (as a JWT, or by introspection), or the refusal. */
  private async verified(token: string): Promise<Authorization | HttpReply> {
    if (this.introspection) return this.introspected(token);
    let keys: JWTVerifyGetKey;
    try {
      keys = await this.keySet();
    } catch (error) {
      return this.unavailable(error);
    }
    try {
      const { payload } = await jwtVerify(token, keys, {
        issuer: this.issuer,
        audience: this.resource,
        algorithms: this.algorithms,
        clockTolerance: this.tolerance,
        typ: "at+jwt",
        requiredClaims: ["exp", "iat", "sub"],
      });
      return authorizationOf(payload);
    } catch (error) {
      if (isKeyFetchFailure(error)) return this.unavailable(error);
      return this.unauthorized("invalid_token", tokenProblem(error));
    }
  }

  /** The verdict on an opaque token: what introspection grants, 401, or 503 when it cannot be asked. */
  private async introspected(token: string): Promise<Authorization | HttpReply> {
    try {
      return await this.introspection!.check(token);
    } catch (error) {
      if (error instanceof InvalidToken) return this.unauthorized("invalid_token", error.message);
      if (error instanceof IntrospectionUnavailable) return this.unavailable(error);
      throw error;
    }
  }

  authorize(message: JsonRpcMessage, authorization: Authorization): HttpReply | undefined {
    const needed = this.scopesFor(message);
    const granted = new Set(authorization.scopes);
    const missing = needed.filter((scope) => !granted.has(scope));
    if (missing.length === 0) return undefined;
    // Step-up: name every scope the request needs, with those already granted, so one new grant covers it.
    // Granted scopes come from the token: only well-formed ones reach the header.
    const kept = authorization.scopes.filter(isScopeToken);
    const wanted = [...new Set([...kept, ...needed])].join(" ");
    const description = `this request needs the scope ${missing.join(" ")}`;
    return {
      ...errorReply(403, message.id ?? null, new McpError(-32001, `Forbidden: ${description}`)),
      headers: {
        "content-type": "application/json",
        "www-authenticate": `${this.challengeBase}, error="insufficient_scope", scope="${wanted}", error_description="${description}"`,
      },
    };
  }

  /** The scopes `message` needs: every request's, its method's, and for tools/call its tool's. */
  scopesFor(message: JsonRpcMessage): string[] {
    const needed = [...(this.scopes.always ?? [])];
    const method = typeof message.method === "string" ? message.method : undefined;
    if (method !== undefined) needed.push(...(this.scopes.methods?.[method] ?? []));
    if (method === "tools/call") {
      const name = (message.params as { name?: unknown } | undefined)?.name;
      if (typeof name === "string" && Object.hasOwn(this.scopes.tools ?? {}, name))
        needed.push(...this.scopes.tools![name]!);
    }
    return [...new Set(needed)];
  }

  /** 401 with the challenge (RFC 6750 3; RFC 9728 5.1). No error code when no token was sent. */
  private unauthorized(error?: string, description?: string): HttpReply {
    const always = this.scopes.always ?? [];
    let challenge = this.challengeBase;
    if (always.length > 0) challenge += `, scope="${always.join(" ")}"`;
    if (error) challenge += `, error="${error}", error_description="${description}"`;
    if (this.dpop.mode === "required") challenge += `, algs="${this.dpop.algorithms.join(" ")}"`;
    const reason = description ?? "this server needs an OAuth access token";
    return {
      ...errorReply(401, null, new McpError(-32001, `Unauthorized: ${reason}`)),
      headers: { "content-type": "application/json", "www-authenticate": challenge },
    };
  }

  /** 503 when the authorization server's keys cannot be had: the token may be fine, so not 401. */
  private unavailable(error: unknown): HttpReply {
    this.report(`Authorization: cannot check access tokens: ${describe(error)}`);
    return errorReply(
      503,
      null,
      new McpError(
        -32000,
        "Service Unavailable: the authorization server cannot be reached to check the token; try again later",
      ),
    );
  }

  /** The JWKS, found once through the issuer's metadata; a failure is retried on the next request. */
  private keySet(): Promise<JWTVerifyGetKey> {
    this.keys ??= this.discoverKeys().catch((error: unknown) => {
      this.keys = undefined;
      throw error;
    });
    return this.keys;
  }

  private async discoverKeys(): Promise<JWTVerifyGetKey> {
    const metadata = await this.authorizationServerMetadata();
    const jwksUri = metadata.jwks_uri;
    if (typeof jwksUri !== "string")
      throw new AuthorizationServerError(
        `the metadata of ${this.issuer} has no jwks_uri; set MCP_AUTH_INTROSPECTION_URL for opaque tokens`,
      );
    return createRemoteJWKSet(new URL(jwksUri), {
      // The bounded fetch keeps the deadline; jose's own would only come after it.
      timeoutDuration: this.timeoutMs + 1000,
      cooldownDuration: this.cooldownMs,
      cacheMaxAge: 10 * 60_000,
      [customFetch]: (url: string) => this.fetchKeySet(url),
    });
  }

  /**
   * The JWKS document for jose, read with the limits of every request to
   * the authorization server. Any failure is an AuthorizationServerError
   * (503), never a jose error that would read as a bad token (401).
   */
  private async fetchKeySet(url: string): Promise<Response> {
    const answer = await this.fetchFromAuthorizationServer(url, "the JWKS");
    if (answer.status !== 200)
      throw new AuthorizationServerError(`the JWKS at ${url} answered HTTP ${answer.status}`);
    const body = jsonObjectOf(answer.text);
    if (body === undefined || !Array.isArray(body.keys))
      throw new AuthorizationServerError(`the JWKS at ${url} is not a JSON key set`);
    return new Response(answer.text, {
      status: 200,
      headers: { "content-type": "application/json" },
    });
  }

  /** A GET to the authorization server within the time and size limits; a failure says what and where. */
  private async fetchFromAuthorizationServer(url: string, what: string): Promise<BoundedAnswer> {
    try {
      return await fetchBounded(
        url,
        { headers: { accept: "application/json" } },
        { timeoutMs: this.timeoutMs, maxBytes: this.maxResponseBytes, fetch: this.fetchImpl },
      );
    } catch (error) {
      throw new AuthorizationServerError(
        `the authorization server ${this.issuer} cannot be reached for ${what} (${describe(error)}); check MCP_AUTH_ISSUER and that the server is up`,
        { cause: error },
      );
    }
  }

  /**
   * The issuer's metadata: RFC 8414 (path inserted), then OpenID Connect
   * Discovery (path inserted, then appended), first found wins. Its
   * `issuer` must equal ours exactly (RFC 8414 3.3).
   */
  private async authorizationServerMetadata(): Promise<Record<string, unknown>> {
    const problems: string[] = [];
    for (const url of authorizationServerMetadataUrls(this.issuer)) {
      const answer = await this.fetchFromAuthorizationServer(url, "the metadata");
      if (answer.status !== 200) {
        problems.push(`${url}: HTTP ${answer.status}`);
        continue;
      }
      const metadata = jsonObjectOf(answer.text);
      if (metadata === undefined) {
        problems.push(`${url}: not a JSON object`);
        continue;
      }
      if (metadata.issuer !== this.issuer)
        throw new AuthorizationServerError(
          `the metadata at ${url} names the issuer ${JSON.stringify(metadata.issuer)}, not ${this.issuer}; set MCP_AUTH_ISSUER to the exact issuer`,
        );
      return metadata;
    }
    throw new AuthorizationServerError(
      `no authorization server metadata for ${this.issuer} (${problems.join("; ")}); check MCP_AUTH_ISSUER`,
    );
  }
}

/** Where an issuer's metadata may be, in the order the spec gives (core/well-known.ts, shared with a client's oauth/). */
export { authorizationServerMetadataUrls as metadataCandidates } from "../core/well-known.js";

/**
 * Whether a query string carries an `access_token` parameter, in any letter
 * case or percent-encoding: a token in the URL ends up in logs (RFC 6750 5.3).
 */
export function hasAccessTokenParameter(query: string): boolean {
  for (const name of new URLSearchParams(query).keys())
    if (name.trim().toLowerCase() === "access_token") return true;
  return false;
}

/** Whether `scope` is one RFC 6750 3 scope token: printable ASCII without space, `"` or `\`. */
export function isScopeToken(scope: string): boolean {
  return /^[\x21\x23-\x5B\x5D-\x7E]+$/.test(scope);
}

/** The configured scopes, each checked to be a scope token, since they go into headers. */
function checkedScopes(rules: ScopeRules): ScopeRules {
  const all = [
    ...(rules.always ?? []),
    ...Object.values(rules.methods ?? {}).flat(),
    ...Object.values(rules.tools ?? {}).flat(),
  ];
  const bad = all.filter((scope) => !isScopeToken(scope));
  if (bad.length > 0)
    throw new TypeError(
      `Authorization: the scopes ${bad.map((s) => JSON.stringify(s)).join(", ")} are not scope tokens (RFC 6750 3: printable ASCII without space, " or \\)`,
    );
  return rules;
}

/** `text` parsed as a JSON object, or undefined when it is anything else. */
function jsonObjectOf(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** An error's message with the messages of its causes, for the operator's log. */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause;
  return cause instanceof Error && !error.message.includes(cause.message)
    ? `${error.message}: ${describe(cause)}`
    : error.message;
}

/** The Authorization a verified payload grants. */
function authorizationOf(payload: JWTPayload): Authorization {
  const scope = typeof payload.scope === "string" ? payload.scope : "";
  return {
    subject: payload.sub,
    clientId: typeof payload.client_id === "string" ? payload.client_id : undefined,
    scopes: scope.split(" ").filter((s) => s !== ""),
    expiresAt: payload.exp,
    claims: payload,
  };
}

/** Whether a verification failed because the JWKS could not be fetched (not the token's fault). */
function isKeyFetchFailure(error: unknown): boolean {
  return (
    error instanceof joseErrors.JWKSTimeout ||
    error instanceof joseErrors.JWKSInvalid ||
    !(error instanceof joseErrors.JOSEError)
  );
}

/** What was wrong with a token, in words that never quote it. */
function tokenProblem(error: unknown): string {
  if (error instanceof joseErrors.JWTExpired) return "the token has expired";
  if (error instanceof joseErrors.JWTClaimValidationFailed)
    return `the token's ${error.claim} claim is not accepted`;
  if (error instanceof joseErrors.JOSEAlgNotAllowed)
    return "the token is signed with an algorithm this server does not accept";
  if (error instanceof joseErrors.JWKSNoMatchingKey)
    return "the token is signed with a key the authorization server does not publish";
  if (error instanceof joseErrors.JWSSignatureVerificationFailed)
    return "the token's signature does not verify";
  return "the token is not a valid access token";
}

function checkedUrl(value: string, what: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TypeError(`Authorization: ${what} ${JSON.stringify(value)} is not a URL`);
  }
  if (url.protocol !== "https:" && !isLoopbackHost(url.hostname))
    throw new TypeError(
      `Authorization: ${what} ${value} must use https (http only on 127.0.0.1 or localhost)`,
    );
  return value;
}

/** The canonical resource URI (RFC 8707 2; spec: canonical server URI): absolute, no fragment, lower-case scheme and host. */
function checkedResource(value: string): string {
  checkedUrl(value, "the resource (MCP_AUTH_RESOURCE)");
  const url = new URL(value);
  if (url.hash !== "" || value.includes("#"))
    throw new TypeError(
      `Authorization: the resource (MCP_AUTH_RESOURCE) ${value} must not have a fragment`,
    );
  // Lower-case scheme and host; the path stays as given (no trailing slash added).
  const path = value.slice(value.indexOf("//") + 2).replace(/^[^/?]*/, "");
  return `${url.protocol}//${url.host}${path}`;
}

function isLoopbackHost(host: string): boolean {
  return host === "localhost" || host === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(host);
}
