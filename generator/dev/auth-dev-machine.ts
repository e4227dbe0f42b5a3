/**
 * What `mcp-gen auth-dev` offers besides a user's sign-in, so that each of
 * a scaffolded client's flows can be tried against a project's server on
 * this machine:
 *
 * - client credentials: `dev-service` (client_secret_basic) and
 *   `dev-service-jwt` (private_key_jwt, its key in `service-key.pem`);
 * - workload identity: `dev-workload` presents `workload.jwt`, a token
 *   this server writes as a platform would (issuer `<issuer>/workload`,
 *   audience this server), as an RFC 7523 jwt-bearer assertion;
 * - enterprise-managed authorization: this server also plays the
 *   enterprise identity provider. `id-token.jwt` is dev-user's ID token
 *   for `dev-enterprise-idp`; a token exchange (RFC 8693) turns it into an
 *   ID-JAG for `dev-enterprise`, which presents it as a jwt-bearer
 *   assertion and gets a token for dev-user;
 * - DPoP for every grant (oidc-provider's, and the two written here):
 *   a token asked for with a proof is bound to its key (`cnf.jkt`).
 *
 * The client secrets and keys are made on the first run and kept in
 * `.auth-dev/machine.json`; the tokens are written again at every start
 * and every half hour while it runs. `.auth-dev/client-*.env` hold the
 * MCP_AUTH_* settings of each flow, for `node --env-file`. Everything here
 * is readable by the user alone and never committed (`.auth-dev/.gitignore`).
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import type * as Jose from "jose";
import { isJsonObject, parseJsonText } from "../load/json.js";
import { readBoundedFile } from "../load/read-file.js";
import { writeAtomically, type DevKeys } from "./auth-dev-files.js";

/** RFC 7523 2.1. */
const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";
/** RFC 8693 2.1. */
const TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";
const ID_JAG = "urn:ietf:params:oauth:token-type:id-jag";
const ID_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:id_token";
/** How long the workload token and the ID token written to `.auth-dev/` are valid, in seconds. */
const WRITTEN_TOKEN_TTL = 3600;
/** How old a DPoP proof at the token endpoint may be, in seconds. */
const PROOF_WINDOW = 60;

/** The secrets and keys of `.auth-dev/machine.json`. */
interface MachineSecrets {
  readonly serviceSecret: string;
  readonly enterpriseSecret: string;
  /** `dev-service-jwt`'s private key (PKCS #8 PEM). */
  readonly clientKey: string;
  /** The key the stand-in platform signs workload tokens with (PKCS #8 PEM). */
  readonly workloadKey: string;
}

/** The slice of oidc-provider the grants use. */
export interface GrantProvider {
  registerGrantType(
    name: string,
    handler: (ctx: GrantContext) => Promise<void>,
    params: readonly string[],
  ): void;
  readonly AccessToken: new (init: Record<string, unknown>) => IssuedToken;
  readonly ClientCredentials: new (init: Record<string, unknown>) => IssuedToken;
  readonly ResourceServer: new (identifier: string, info: Record<string, unknown>) => object;
  readonly ReplayDetection: {
    unique(namespace: string, id: string, expiresAt: number): Promise<boolean>;
  };
}
interface IssuedToken {
  resourceServer?: object;
  setThumbprint(kind: "jkt", value: string): void;
  save(): Promise<string>;
  readonly tokenType: string;
  readonly expiration: number;
  readonly scope?: string;
}
interface GrantContext {
  readonly oidc: {
    readonly params: Readonly<Record<string, unknown>>;
    readonly client: { readonly clientId: string };
  };
  get(header: string): string;
  body: unknown;
}
/** oidc-provider's error classes (its `errors` export). */
export type GrantErrors = Readonly<
  Record<
    "InvalidGrant" | "InvalidRequest" | "InvalidTarget" | "InvalidDpopProof",
    new (description: string) => Error
  >
>;

/** What the project's resources are: the same rule as the authorization code flow's tokens. */
export interface DevResources {
  readonly scope: string;
  readonly ttl: number;
  /** Whether `indicator` is a resource this server issues tokens for. */
  accepts(indicator: string): boolean;
}

/** The flows without a user of one running development server. */
export interface MachineFlows {
  /** oidc-provider's static clients for them. */
  readonly clients: readonly Record<string, unknown>[];
  /** The files a client uses, for the start message: flow to env file. */
  readonly envFiles: Readonly<Record<string, string>>;
  /** Registers the jwt-bearer and token-exchange grants, writes the tokens and env files. */
  start(provider: GrantProvider, errors: GrantErrors, issuer: string): Promise<void>;
  /** Stops rewriting the tokens. */
  stop(): void;
}

/** The flows of the development server whose `.auth-dev/` folder is `dir`; `jose` is the project's. */
export function machineFlows(
  dir: string,
  keys: DevKeys,
  resources: DevResources,
  jose: typeof Jose,
): MachineFlows {
  const secrets = loadOrCreateSecrets(dir);
  const { kty, crv, x, y } = createPrivateKey(secrets.clientKey).export({ format: "jwk" });
  const clientPublic = { kty, crv, x, y };
  let timer: NodeJS.Timeout | undefined;
  const envFiles = {
    client_credentials: join(dir, "client-credentials.env"),
    "client_credentials (private_key_jwt)": join(dir, "client-credentials-jwt.env"),
    workload: join(dir, "workload.env"),
    enterprise: join(dir, "enterprise.env"),
  };
  return {
    clients: devClients(secrets, clientPublic),
    envFiles,
    async start(provider, errors, issuer) {
      const grants = new DevGrants(provider, errors, issuer, keys, secrets, resources, jose);
      provider.registerGrantType(JWT_BEARER, (ctx) => grants.jwtBearer(ctx), [
        "assertion",
        "scope",
        "resource",
      ]);
      provider.registerGrantType(TOKEN_EXCHANGE, (ctx) => grants.tokenExchange(ctx), [
        "subject_token",
        "subject_token_type",
        "requested_token_type",
        "audience",
        "resource",
        "scope",
      ]);
      writeAtomically(join(dir, "service-key.pem"), secrets.clientKey);
      await grants.writeTokens(dir);
      timer = setInterval(() => void grants.writeTokens(dir).catch(() => {}), 1800_000);
      timer.unref();
      writeEnvFiles(envFiles, dir, issuer, secrets);
    },
    stop() {
      clearInterval(timer);
    },
  };
}

/** The static clients: what a deployment's administrator would have registered. */
function devClients(secrets: MachineSecrets, clientPublic: object): Record<string, unknown>[] {
  const machine = { redirect_uris: [], response_types: [] };
  return [
    {
      ...machine,
      client_id: "dev-service",
      client_secret: secrets.serviceSecret,
      grant_types: ["client_credentials"],
      token_endpoint_auth_method: "client_secret_basic",
    },
    {
      ...machine,
      client_id: "dev-service-jwt",
      grant_types: ["client_credentials"],
      token_endpoint_auth_method: "private_key_jwt",
      token_endpoint_auth_signing_alg: "ES256",
      jwks: { keys: [{ ...clientPublic, use: "sig", alg: "ES256" }] },
    },
    {
      ...machine,
      client_id: "dev-workload",
      grant_types: [JWT_BEARER],
      token_endpoint_auth_method: "none",
    },
    {
      ...machine,
      client_id: "dev-enterprise",
      client_secret: secrets.enterpriseSecret,
      grant_types: [JWT_BEARER],
      token_endpoint_auth_method: "client_secret_basic",
    },
    {
      ...machine,
      client_id: "dev-enterprise-idp",
      grant_types: [TOKEN_EXCHANGE],
      token_endpoint_auth_method: "none",
    },
  ];
}

/** The grants oidc-provider does not have, and the tokens this server writes for them. */
class DevGrants {
  constructor(
    private readonly provider: GrantProvider,
    private readonly errors: GrantErrors,
    private readonly issuer: string,
    private readonly keys: DevKeys,
    private readonly secrets: MachineSecrets,
    private readonly resources: DevResources,
    private readonly jose: typeof Jose,
  ) {}

  private signingKey() {
    return this.jose.importJWK(this.keys.signing, "ES256");
  }

  /** The public half of the signing key: what verifies the ID tokens and ID-JAGs signed here. */
  private signingPublicKey() {
    const { kty, crv, x, y } = this.keys.signing;
    return this.jose.importJWK({ kty, crv, x, y }, "ES256");
  }

  private workloadKey() {
    return this.jose.importPKCS8(this.secrets.workloadKey, "ES256");
  }

  /** The stand-in platform's public key, which the authorization server trusts for workload tokens. */
  private workloadPublicKey() {
    const spki = createPublicKey(this.secrets.workloadKey).export({ type: "spki", format: "pem" });
    return this.jose.importSPKI(spki as string, "ES256");
  }

  /** Writes `workload.jwt` (as a platform would) and `id-token.jwt` (dev-user's enterprise sign-in). */
  async writeTokens(dir: string): Promise<void> {
    const { SignJWT } = this.jose;
    const workload = await new SignJWT({})
      .setProtectedHeader({ alg: "ES256", typ: "JWT" })
      .setIssuer(`${this.issuer}/workload`)
      .setSubject("dev-workload")
      .setAudience(this.issuer)
      .setIssuedAt()
      .setExpirationTime(`${WRITTEN_TOKEN_TTL}s`)
      .sign(await this.workloadKey());
    const idToken = await new SignJWT({ email: "dev-user@example.test" })
      .setProtectedHeader({ alg: "ES256", typ: "JWT", kid: this.keys.signing.kid! })
      .setIssuer(this.issuer)
      .setSubject("dev-user")
      .setAudience("dev-enterprise-idp")
      .setIssuedAt()
      .setExpirationTime(`${WRITTEN_TOKEN_TTL}s`)
      .sign(await this.signingKey());
    writeAtomically(join(dir, "workload.jwt"), `${workload}\n`);
    writeAtomically(join(dir, "id-token.jwt"), `${idToken}\n`);
  }

  /**
   * RFC 7523 jwt-bearer: a workload token of `<issuer>/workload` from
   * dev-workload, or an ID-JAG this server issued for the client that
   * presents it. Each assertion is used once.
   */
  async jwtBearer(ctx: GrantContext): Promise<void> {
    const assertion = this.param(ctx, "assertion");
    const resource = this.resource(ctx);
    const clientId = ctx.oidc.client.clientId;
    const header = this.jose.decodeProtectedHeader(assertion);
    const idJag = header.typ === "oauth-id-jag+jwt";
    const { payload } = await this.jose
      .jwtVerify(
        assertion,
        idJag ? await this.signingPublicKey() : await this.workloadPublicKey(),
        {
          issuer: idJag ? this.issuer : `${this.issuer}/workload`,
          audience: this.issuer,
          algorithms: ["ES256"],
          requiredClaims: ["exp", "sub"],
        },
      )
      .catch((error: unknown) => {
        throw new this.errors.InvalidGrant(
          `the assertion is not accepted: ${(error as Error).message}`,
        );
      });
    if (idJag && (payload.client_id !== clientId || payload.resource !== resource))
      throw new this.errors.InvalidGrant("the ID-JAG is for another client or resource");
    if (!idJag && clientId !== payload.sub)
      throw new this.errors.InvalidGrant(
        `the workload token is for ${payload.sub}, not ${clientId}`,
      );
    if (
      idJag &&
      !(await this.provider.ReplayDetection.unique("id-jag", String(payload.jti), payload.exp!))
    )
      throw new this.errors.InvalidGrant("the ID-JAG was used before");
    const scope = this.scope(ctx);
    const token = idJag
      ? new this.provider.AccessToken({
          accountId: payload.sub,
          client: ctx.oidc.client,
          scope,
          gty: "jwt-bearer",
        })
      : new this.provider.ClientCredentials({ client: ctx.oidc.client, scope });
    await this.issue(ctx, token, resource);
  }

  /** RFC 8693: dev-user's ID token for dev-enterprise-idp, exchanged for an ID-JAG for dev-enterprise. */
  async tokenExchange(ctx: GrantContext): Promise<void> {
    if (ctx.oidc.params.requested_token_type !== ID_JAG)
      throw new this.errors.InvalidRequest(`requested_token_type must be ${ID_JAG}`);
    if (ctx.oidc.params.subject_token_type !== ID_TOKEN_TYPE)
      throw new this.errors.InvalidRequest(`subject_token_type must be ${ID_TOKEN_TYPE}`);
    if (ctx.oidc.params.audience !== this.issuer)
      throw new this.errors.InvalidTarget(
        `audience must be ${this.issuer}, the only authorization server here`,
      );
    const resource = this.resource(ctx);
    const { payload } = await this.jose
      .jwtVerify(this.param(ctx, "subject_token"), await this.signingPublicKey(), {
        issuer: this.issuer,
        audience: ctx.oidc.client.clientId,
        algorithms: ["ES256"],
      })
      .catch((error: unknown) => {
        throw new this.errors.InvalidGrant(
          `the ID token is not accepted: ${(error as Error).message}`,
        );
      });
    const jag = await new this.jose.SignJWT({
      client_id: "dev-enterprise",
      resource,
      ...(this.scope(ctx) ? { scope: this.scope(ctx) } : {}),
    })
      .setProtectedHeader({ alg: "ES256", typ: "oauth-id-jag+jwt", kid: this.keys.signing.kid! })
      .setIssuer(this.issuer)
      .setSubject(String(payload.sub))
      .setAudience(this.issuer)
      .setIssuedAt()
      .setJti(randomBytes(12).toString("base64url"))
      .setExpirationTime("300s")
      .sign(await this.signingKey());
    ctx.body = { access_token: jag, issued_token_type: ID_JAG, token_type: "N_A", expires_in: 300 };
  }

  /** Binds `token` to the DPoP key of the request's proof, when there is one, and answers with it. */
  private async issue(ctx: GrantContext, token: IssuedToken, resource: string): Promise<void> {
    token.resourceServer = new this.provider.ResourceServer(resource, {
      scope: this.resources.scope,
      audience: resource,
      accessTokenTTL: this.resources.ttl,
      accessTokenFormat: "jwt",
      jwt: { sign: { alg: "ES256" } },
    });
    const proof = ctx.get("dpop");
    if (proof) token.setThumbprint("jkt", await this.proofKey(proof, ctx.oidc.client.clientId));
    ctx.body = {
      access_token: await token.save(),
      token_type: token.tokenType,
      expires_in: token.expiration,
      ...(token.scope ? { scope: token.scope } : {}),
    };
  }

  /** The thumbprint of a valid DPoP proof for this token request (RFC 9449 4.3), used once. */
  private async proofKey(proof: string, clientId: string): Promise<string> {
    const { EmbeddedJWK, jwtVerify, calculateJwkThumbprint } = this.jose;
    const verified = await jwtVerify(proof, EmbeddedJWK, {
      typ: "dpop+jwt",
      algorithms: ["ES256", "PS256", "RS256", "EdDSA"],
    }).catch(() => {
      throw new this.errors.InvalidDpopProof("the DPoP proof does not verify");
    });
    const { htm, htu, iat, jti } = verified.payload;
    const now = Math.floor(Date.now() / 1000);
    if (htm !== "POST" || htu !== `${this.issuer}/token`)
      throw new this.errors.InvalidDpopProof("the DPoP proof is for another request");
    if (typeof iat !== "number" || Math.abs(now - iat) > PROOF_WINDOW || typeof jti !== "string")
      throw new this.errors.InvalidDpopProof("the DPoP proof is not recent, or has no jti");
    if (!(await this.provider.ReplayDetection.unique(clientId, jti, iat + PROOF_WINDOW)))
      throw new this.errors.InvalidDpopProof("the DPoP proof was used before");
    return calculateJwkThumbprint(verified.protectedHeader.jwk!, "sha256");
  }

  private param(ctx: GrantContext, name: string): string {
    const value = ctx.oidc.params[name];
    if (typeof value !== "string" || value === "")
      throw new this.errors.InvalidRequest(`${name} is missing`);
    return value;
  }

  private resource(ctx: GrantContext): string {
    const resource = this.param(ctx, "resource");
    if (!this.resources.accepts(resource))
      throw new this.errors.InvalidTarget(
        `${resource} is not a resource of this development server`,
      );
    return resource;
  }

  /** The scopes asked for that the project has (all of them when none are asked for). */
  private scope(ctx: GrantContext): string | undefined {
    const known = this.resources.scope.split(" ").filter((s) => s !== "");
    const asked =
      typeof ctx.oidc.params.scope === "string" ? ctx.oidc.params.scope.split(" ") : known;
    const granted = asked.filter((s) => known.includes(s));
    return granted.length > 0 ? granted.join(" ") : undefined;
  }
}

/** `.auth-dev/machine.json`, made on the first run. */
function loadOrCreateSecrets(dir: string): MachineSecrets {
  const file = join(dir, "machine.json");
  if (existsSync(file)) {
    const value = parseJsonText(readBoundedFile(file).toString("utf8"), file);
    if (
      isJsonObject(value) &&
      ["serviceSecret", "enterpriseSecret", "clientKey", "workloadKey"].every(
        (name) => typeof value[name] === "string",
      )
    )
      return value as unknown as MachineSecrets;
  }
  const pem = () =>
    generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({
      type: "pkcs8",
      format: "pem",
    }) as string;
  const secrets: MachineSecrets = {
    serviceSecret: randomBytes(24).toString("base64url"),
    enterpriseSecret: randomBytes(24).toString("base64url"),
    clientKey: pem(),
    workloadKey: pem(),
  };
  writeAtomically(file, `${JSON.stringify(secrets, null, 2)}\n`);
  return secrets;
}

/** One env file per flow, with the MCP_AUTH_* settings a scaffolded client reads. */
function writeEnvFiles(
  files: Readonly<Record<string, string>>,
  dir: string,
  issuer: string,
  secrets: MachineSecrets,
): void {
  const settings: Record<string, Record<string, string>> = {
    client_credentials: {
      MCP_AUTH_FLOW: "client_credentials",
      MCP_AUTH_CLIENT_ID: "dev-service",
      MCP_AUTH_CLIENT_SECRET: secrets.serviceSecret,
    },
    "client_credentials (private_key_jwt)": {
      MCP_AUTH_FLOW: "client_credentials",
      MCP_AUTH_CLIENT_ID: "dev-service-jwt",
      MCP_AUTH_CLIENT_KEY_FILE: join(dir, "service-key.pem"),
    },
    workload: {
      MCP_AUTH_FLOW: "workload",
      MCP_AUTH_CLIENT_ID: "dev-workload",
      MCP_AUTH_CLIENT_AUTH_METHOD: "none",
      MCP_AUTH_WORKLOAD_TOKEN_FILE: join(dir, "workload.jwt"),
    },
    enterprise: {
      MCP_AUTH_FLOW: "enterprise",
      MCP_AUTH_CLIENT_ID: "dev-enterprise",
      MCP_AUTH_CLIENT_SECRET: secrets.enterpriseSecret,
      MCP_AUTH_IDP_ISSUER: issuer,
      MCP_AUTH_IDP_CLIENT_ID: "dev-enterprise-idp",
      MCP_AUTH_ID_TOKEN_FILE: join(dir, "id-token.jwt"),
    },
  };
  for (const [flow, file] of Object.entries(files)) {
    const lines = Object.entries(settings[flow]!).map(([name, value]) => `${name}=${value}`);
    writeAtomically(
      file,
      `# Written by mcp-gen auth-dev: the ${flow} flow against ${issuer} (add MCP_AUTH_DPOP=1 for DPoP).\n# Each client keeps its tokens apart: MCP_TOKEN_DIR picks where.\n${lines.join("\n")}\n`,
    );
  }
}

/**
 * oidc-provider's configuration with these flows: their clients beside the
 * project's, client credentials on, and DPoP (RFC 9449) on for every grant.
 */
export function withMachineFlows(
  configuration: Record<string, unknown>,
  flows: MachineFlows,
): Record<string, unknown> {
  const features = configuration.features as Record<string, unknown>;
  const ttl = configuration.ttl as Record<string, unknown>;
  return {
    ...configuration,
    // A client's own token lives as long as a user's.
    ttl: { ...ttl, ClientCredentials: ttl.AccessToken },
    clients: [...((configuration.clients as unknown[] | undefined) ?? []), ...flows.clients],
    features: { ...features, clientCredentials: { enabled: true }, dPoP: { enabled: true } },
  };
}
