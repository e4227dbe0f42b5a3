/**
 * `mcp-gen auth-dev` (generator/dev/auth-server.ts) in a project made by
 * `mcp-gen server --auth`, driven through the library: a client registers
 * itself, `dev-user` signs in without a prompt, the access token is a JWT
 * for the resource asked for, with the project's scopes; a resource off
 * loopback is refused; keys and registrations outlive a restart; while it
 * runs `.auth-dev/server.env` names it, and `mcp-gen dev` starts the
 * server pointed at it. Real oidc-provider, real HTTP on 127.0.0.1.
 */
import { createHash, randomBytes } from "node:crypto";
import { createServer } from "node:net";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  startDevAuthorizationServer,
  type DevAuthorizationServer,
} from "../../generator/dev/auth-server.js";
import { startDev } from "../../generator/dev/dev.js";
import { McpGenError } from "../../generator/diagnostics.js";
import { scaffoldServer, writeProject } from "../../generator/scaffold/scaffold.js";
import { freePort } from "../../scripts/shared/free-port.js";
import { tempDir, testSources } from "../helpers/index.js";
import { followRedirects } from "../helpers/authorization-server.js";
import { headersFor, raw, request } from "../helpers/mcp-client.js";
import { linkNodeModules } from "../helpers/project.js";
import { until } from "../helpers/wait.js";

const REDIRECT = "http://127.0.0.1:9/callback";
const RESOURCE = "http://127.0.0.1:3000/mcp";
let project: string;
const log: string[] = [];

beforeAll(async () => {
  project = join(tempDir("auth-dev"), "srv");
  const { files } = await scaffoldServer({
    dir: project,
    name: "srv",
    auth: true,
    sources: testSources(),
  });
  writeProject(project, files);
  // A tool scope too: the authorization server offers every scope mcp-gen.json names.
  const settingsFile = join(project, "mcp-gen.json");
  const settings = JSON.parse(readFileSync(settingsFile, "utf8")) as Record<string, unknown>;
  writeFileSync(
    settingsFile,
    JSON.stringify({ ...settings, auth: { scopes: ["mcp"], tools: { echo: ["mcp:write"] } } }),
  );
  linkNodeModules(project);
}, 60_000);

const start = (port = 0) =>
  startDevAuthorizationServer({ dir: project, port, log: (line) => log.push(line) });

/** A public client registered the way the scaffolded client registers itself. */
async function register(issuer: string): Promise<string> {
  const response = await fetch(`${issuer}/reg`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      redirect_uris: [REDIRECT],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      application_type: "native",
      token_endpoint_auth_method: "none",
      client_name: "test client",
    }),
  });
  const body = (await response.json()) as Record<string, unknown>;
  expect(response.status, JSON.stringify(body)).toBe(201);
  return String(body.client_id);
}

/** The authorization code flow with PKCE, the browser's part done with plain HTTP; the token response. */
async function signIn(
  issuer: string,
  clientId: string,
  resource: string,
  scope: string,
): Promise<Record<string, unknown>> {
  const verifier = randomBytes(32).toString("base64url");
  const authorize = new URL(`${issuer}/auth`);
  const params = {
    client_id: clientId,
    redirect_uri: REDIRECT,
    response_type: "code",
    ...(scope === "" ? {} : { scope }),
    state: "s1",
    resource,
    code_challenge: createHash("sha256").update(verifier).digest("base64url"),
    code_challenge_method: "S256",
  };
  for (const [key, value] of Object.entries(params)) authorize.searchParams.set(key, value);
  const next = (await followRedirects(authorize, (target) => target.href.startsWith(REDIRECT)))!;
  expect(next.searchParams.get("iss")).toBe(issuer);
  const code = next.searchParams.get("code");
  if (code === null) return Object.fromEntries(next.searchParams);
  const token = await fetch(`${issuer}/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      client_id: clientId,
      code,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
      resource,
    }),
  });
  return (await token.json()) as Record<string, unknown>;
}

async function jwks(issuer: string) {
  return (await (await fetch(`${issuer}/jwks`)).json()) as { keys: Array<{ kid: string }> };
}

describe("the development authorization server", () => {
  let server: DevAuthorizationServer;
  let clientId: string;
  let kid: string;

  beforeAll(async () => {
    server = await start();
  });
  afterAll(async () => {
    await server?.close();
  });

  it("listens on 127.0.0.1, offers the project's scopes, registration, PKCE and iss", async () => {
    expect(server.issuer).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const metadata = (await (
      await fetch(`${server.issuer}/.well-known/oauth-authorization-server`)
    ).json()) as Record<string, unknown>;
    expect(metadata).toMatchObject({
      issuer: server.issuer,
      registration_endpoint: `${server.issuer}/reg`,
      scopes_supported: ["openid", "offline_access", "mcp", "mcp:write"],
      response_types_supported: ["code"],
      code_challenge_methods_supported: ["S256"],
      authorization_response_iss_parameter_supported: true,
    });
    expect(server.settings).toEqual({ MCP_AUTH_ISSUER: server.issuer });
  });

  it("signs dev-user in without a prompt: a JWT access token for the resource, with the scopes", async () => {
    clientId = await register(server.issuer);
    const tokens = await signIn(server.issuer, clientId, RESOURCE, "mcp mcp:write offline_access");
    expect(typeof tokens.refresh_token).toBe("string");
    const access = String(tokens.access_token);
    const keys = await jwks(server.issuer);
    const { payload, protectedHeader } = await jwtVerify(access, createLocalJWKSet(keys), {
      issuer: server.issuer,
      audience: RESOURCE,
      typ: "at+jwt",
    });
    expect(protectedHeader.alg).toBe("ES256");
    expect(payload).toMatchObject({ sub: "dev-user", client_id: clientId, scope: "mcp mcp:write" });
    kid = decodeProtectedHeader(access).kid!;
    expect(log.some((line) => line.startsWith(`dev-user granted client ${clientId}`))).toBe(true);
  });

  it("gives a sign-in that names no scope the project's scopes (RFC 6749 3.3)", async () => {
    const tokens = await signIn(server.issuer, clientId, RESOURCE, "");
    const { payload } = await jwtVerify(
      String(tokens.access_token),
      createLocalJWKSet(await jwks(server.issuer)),
      { issuer: server.issuer, audience: RESOURCE },
    );
    expect(payload.scope).toBe("mcp mcp:write");
  });

  it("issues tokens for any loopback resource (another PORT), and for no other", async () => {
    const other = await signIn(server.issuer, clientId, "http://localhost:4123/mcp", "mcp");
    expect(typeof other.access_token).toBe("string");
    const refused = await signIn(server.issuer, clientId, "https://mcp.example.com/mcp", "mcp");
    expect(refused.error).toBe("invalid_target");
  });

  it("keeps what must last in .auth-dev/, never committed; server.env only while it runs", async () => {
    const folder = join(project, ".auth-dev");
    expect(readFileSync(join(folder, ".gitignore"), "utf8")).toMatch(/^\*$/m);
    expect(readFileSync(join(folder, "server.env"), "utf8")).toContain(
      `MCP_AUTH_ISSUER=${server.issuer}\n`,
    );
    await server.close();
    expect(existsSync(join(folder, "server.env"))).toBe(false);
    // Restarted: the same signing key, and the client registered before is still known.
    server = await start();
    expect((await jwks(server.issuer)).keys.map((k) => k.kid)).toEqual([kid]);
    const again = await signIn(server.issuer, clientId, RESOURCE, "mcp");
    expect(decodeProtectedHeader(String(again.access_token)).kid).toBe(kid);
  });

  it("says when its port is taken, and refuses a project without auth", async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      await expect(start(port)).rejects.toThrow(/MCPG813|in use/);
    } finally {
      blocker.close();
    }
    const plain = join(tempDir("auth-dev-plain"), "plain");
    const { files } = await scaffoldServer({ dir: plain, name: "plain", sources: testSources() });
    writeProject(plain, files);
    const error = await startDevAuthorizationServer({ dir: plain, log: () => {} }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(McpGenError);
    expect((error as McpGenError).diagnostics[0]!.code).toBe("MCPG811");
  });
});

describe("npm run dev while it runs", () => {
  it("starts the server pointed at it: the 401 challenge leads there", async () => {
    const server = await start();
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/mcp`;
    const devLog: string[] = [];
    const dev = startDev({ dir: project, env: { PORT: String(port) }, log: (l) => devLog.push(l) });
    try {
      const metadataUrl = new URL("/.well-known/oauth-protected-resource/mcp", url);
      const metadata = await until(
        async () => {
          const response = await fetch(metadataUrl).catch(() => undefined);
          return response?.ok ? ((await response.json()) as Record<string, unknown>) : undefined;
        },
        { what: "the protected resource metadata", timeoutMs: 120_000 },
      );
      expect(metadata).toMatchObject({ resource: url, authorization_servers: [server.issuer] });
      expect(devLog).toContain(
        `authorization server: ${server.issuer} (npm run auth:dev, from .auth-dev/server.env)`,
      );
      const list = request("tools/list");
      const reply = await raw(url, { headers: headersFor(list), body: JSON.stringify(list) });
      expect(reply.status).toBe(401);
      expect(reply.headers["www-authenticate"]).toBe(
        `Bearer resource_metadata="${metadataUrl.href}", scope="mcp"`,
      );
      // mcp-gen.json changed after scaffolding: the first regeneration ends before the first start.
      expect(devLog).toContain("server started");
      expect(devLog.filter((line) => line.startsWith("server restarted"))).toEqual([]);
    } finally {
      await dev.close();
      await server.close();
    }
  }, 180_000);
});
