/**
 * Clients without a user, and DPoP, end to end on 127.0.0.1: the
 * runtime's OAuthClient (templates/runtime/oauth) signs in at a real
 * authorization server (oidc-provider, DPoP on) and calls a server
 * protected by the runtime's auth/ layer, which checks the DPoP proofs:
 *
 * - client credentials with client_secret_basic and with private_key_jwt
 *   (a PKCS #8 key file), each with a DPoP-bound token;
 * - the authorization code flow with DPoP;
 * - the DPoP key kept with the tokens in the file token store (mode
 *   0600), so another client process reuses both without a token request;
 * - the settings a scaffolded client reads (clientAuthFromEnvironment).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { decodeJwt, exportJWK, exportPKCS8, generateKeyPair } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../../scripts/shared/free-port.js";
import { bearerAuthorization } from "../../../templates/runtime/auth/index.js";
import { McpClient } from "../../../templates/runtime/client/index.js";
import { serveHttp, type RunningHttpServer } from "../../../templates/runtime/index.js";
import {
  clientAuthFromEnvironment,
  FileTokenStore,
  OAuthClient,
  privateKeyFromFile,
  type OAuthClientOptions,
} from "../../../templates/runtime/oauth/index.js";
import { connectHttp } from "../../../templates/runtime/transport/http-client.js";
import {
  followRedirects,
  startAuthorizationServer,
  type TestAuthorizationServer,
} from "../../helpers/authorization-server.js";
import { legacy, protocol, testServer } from "../../helpers/mcp-client.js";

const SECRET = "svc-secret-for-tests";

describe("clients without a user, and DPoP, against oidc-provider", () => {
  let as: TestAuthorizationServer;
  let mcp: RunningHttpServer;
  let resource: string;
  let dir: string;
  let keyFile: string;
  const reports: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "mcp-oauth-machine-"));
    const pair = await generateKeyPair("ES256", { extractable: true });
    keyFile = join(dir, "client-key.pem");
    writeFileSync(keyFile, await exportPKCS8(pair.privateKey), { mode: 0o600 });
    resource = `http://127.0.0.1:${await freePort()}/mcp`;
    as = await startAuthorizationServer({
      resources: [resource],
      scopes: ["mcp"],
      dpop: true,
      redirectUris: ["http://127.0.0.1:9/callback"],
      clients: [
        {
          client_id: "svc-basic",
          client_secret: SECRET,
          grant_types: ["client_credentials"],
          redirect_uris: [],
          response_types: [],
          token_endpoint_auth_method: "client_secret_basic",
        },
        {
          client_id: "svc-jwt",
          grant_types: ["client_credentials"],
          redirect_uris: [],
          response_types: [],
          token_endpoint_auth_method: "private_key_jwt",
          token_endpoint_auth_signing_alg: "ES256",
          jwks: { keys: [{ ...(await exportJWK(pair.publicKey)), use: "sig" }] },
        },
      ],
    });
    const server = testServer();
    server.tool({ name: "whoami", inputSchema: { type: "object" } }, (_args, ctx) => ({
      content: [
        {
          type: "text",
          text: JSON.stringify({
            clientId: ctx.authorization?.clientId,
            subject: ctx.authorization?.subject,
            bound: (ctx.authorization?.claims.cnf as { jkt?: string } | undefined)?.jkt,
          }),
        },
      ],
    }));
    mcp = await serveHttp(server, {
      port: Number(new URL(resource).port),
      authorization: bearerAuthorization({
        issuer: as.issuer,
        resource,
        scopes: { always: ["mcp"] },
        onError: (message) => reports.push(message),
      }),
    });
  }, 60_000);
  afterAll(async () => {
    await mcp?.close();
    await as?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Connects with `options`, calls whoami, and gives what the server saw and the client. */
  async function whoami(options: OAuthClientOptions) {
    const auth = new OAuthClient(options);
    const client = new McpClient({
      protocol,
      legacy,
      channel: connectHttp(resource, { auth }),
      info: { name: "machine", version: "1.0.0" },
    });
    try {
      await client.connect();
      const result = (await client.callTool("whoami", {})) as { content: Array<{ text: string }> };
      return JSON.parse(result.content[0]!.text) as {
        clientId?: string;
        subject?: string;
        bound?: string;
      };
    } finally {
      await client.close();
    }
  }

  it("client credentials with client_secret_basic and DPoP: a bound token, checked with its proof", async () => {
    const seen = await whoami({
      grant: {
        kind: "client_credentials",
        client: { clientId: "svc-basic", clientSecret: SECRET },
      },
      dpop: true,
    });
    expect(seen.clientId).toBe("svc-basic");
    expect(seen.bound).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(reports).toEqual([]);
  });

  it("client credentials with private_key_jwt from a key file", async () => {
    const seen = await whoami({
      grant: {
        kind: "client_credentials",
        client: { clientId: "svc-jwt", privateKey: privateKeyFromFile(keyFile) },
      },
    });
    expect(seen.clientId).toBe("svc-jwt");
    expect(seen.bound).toBe(undefined);
  });

  it("the authorization code flow with DPoP", async () => {
    const seen = await whoami({
      redirectUri: "http://127.0.0.1:9/callback",
      authorize: async (url) =>
        (await followRedirects(url, (target) => target.href.startsWith("http://127.0.0.1:9/")))!,
      preRegistered: { clientId: "pre-registered-client", clientSecret: "pre-registered-secret" },
      dpop: true,
    });
    expect(seen.subject).toBe("test-user");
    expect(seen.bound).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("keeps the DPoP key with the tokens, readable by the user alone, and another process reuses both", async () => {
    const tokens = join(dir, "tokens");
    const options: OAuthClientOptions = {
      grant: {
        kind: "client_credentials",
        client: { clientId: "svc-basic", clientSecret: SECRET },
      },
      dpop: true,
      store: new FileTokenStore(tokens),
    };
    const before = as.requests.get("/token") ?? 0;
    const first = await whoami(options);
    expect(as.requests.get("/token")).toBe(before + 1);
    const [file] = readdirSync(tokens);
    expect(statSync(join(tokens, file!)).mode & 0o777).toBe(0o600);
    expect(statSync(tokens).mode & 0o777).toBe(0o700);
    const stored = JSON.parse(readFileSync(join(tokens, file!), "utf8")) as {
      grant: { token_type: string; access_token: string; dpop_key: Record<string, string> };
    };
    expect(stored.grant.token_type).toBe("dpop");
    expect(Object.keys(stored.grant.dpop_key).sort()).toEqual(["crv", "d", "kty", "x", "y"]);
    expect((decodeJwt(stored.grant.access_token).cnf as { jkt: string }).jkt).toBe(first.bound);
    // A new client (another run of a command line) with the same store: no token request, the same key.
    const second = await whoami({ ...options, store: new FileTokenStore(tokens) });
    expect(second.bound).toBe(first.bound);
    expect(as.requests.get("/token")).toBe(before + 1);
  });

  it("signs in by the settings a scaffolded client reads", async () => {
    const configured = clientAuthFromEnvironment(
      { flow: "client_credentials", clientId: "svc-jwt", keyFile, dpop: true },
      {},
    );
    expect(configured.flow).toBe("client_credentials");
    const seen = await whoami({ ...configured });
    expect(seen.clientId).toBe("svc-jwt");
    expect(seen.bound).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});

describe("clientAuthFromEnvironment", () => {
  it("reads the flow and credentials, the environment over the project's defaults", () => {
    expect(clientAuthFromEnvironment({}, {})).toEqual({ flow: "authorization_code", dpop: false });
    expect(
      clientAuthFromEnvironment(
        { flow: "client_credentials", clientId: "a" },
        { MCP_AUTH_CLIENT_ID: "b", MCP_AUTH_CLIENT_SECRET: "s", MCP_AUTH_DPOP: "1" },
      ),
    ).toMatchObject({
      flow: "client_credentials",
      dpop: true,
      grant: { kind: "client_credentials", client: { clientId: "b", clientSecret: "s" } },
    });
    expect(
      clientAuthFromEnvironment({}, { MCP_AUTH_CLIENT_ID: "c", MCP_AUTH_CLIENT_SECRET: "s" }),
    ).toMatchObject({
      flow: "authorization_code",
      preRegistered: { clientId: "c", clientSecret: "s" },
    });
  });

  it.each([
    [
      { MCP_AUTH_FLOW: "implicit" },
      /MCP_AUTH_FLOW must be one of authorization_code, client_credentials, workload, enterprise/,
    ],
    [{ MCP_AUTH_FLOW: "client_credentials" }, /MCP_AUTH_CLIENT_ID must name this client/],
    [{ MCP_AUTH_CLIENT_SECRET: "s" }, /no MCP_AUTH_CLIENT_ID/],
    [
      { MCP_AUTH_FLOW: "workload", MCP_AUTH_CLIENT_ID: "w" },
      /MCP_AUTH_WORKLOAD_TOKEN_FILE \(a file\) or MCP_AUTH_WORKLOAD_TOKEN_VARIABLE/,
    ],
    [
      {
        MCP_AUTH_FLOW: "workload",
        MCP_AUTH_CLIENT_ID: "w",
        MCP_AUTH_WORKLOAD_TOKEN_FILE: "/f",
        MCP_AUTH_WORKLOAD_TOKEN_VARIABLE: "V",
      },
      /both name the workload's identity token: set one/,
    ],
    [{ MCP_AUTH_FLOW: "enterprise", MCP_AUTH_CLIENT_ID: "e" }, /MCP_AUTH_IDP_ISSUER must be/],
    [
      {
        MCP_AUTH_FLOW: "enterprise",
        MCP_AUTH_CLIENT_ID: "e",
        MCP_AUTH_IDP_ISSUER: "https://idp.example",
      },
      /MCP_AUTH_IDP_CLIENT_ID must name/,
    ],
    [{ MCP_AUTH_DPOP: "maybe" }, /MCP_AUTH_DPOP must be 1 or 0/],
    [
      { MCP_AUTH_CLIENT_AUTH_METHOD: "tls_client_auth", MCP_AUTH_CLIENT_ID: "c" },
      /MCP_AUTH_CLIENT_AUTH_METHOD must be one of/,
    ],
    [
      { MCP_AUTH_CLIENT_ID: "c", MCP_AUTH_CLIENT_KEY_FILE: "/k" },
      /private_key_jwt\) is for the flows without a user/,
    ],
  ])("refuses %j with a message naming the variable", (env, message) => {
    expect(() => clientAuthFromEnvironment({}, env)).toThrow(message);
  });

  it("never puts a secret in an error message", () => {
    try {
      clientAuthFromEnvironment({}, { MCP_AUTH_CLIENT_SECRET: "very-secret-value" });
    } catch (error) {
      expect((error as Error).message).not.toContain("very-secret-value");
    }
  });
});
