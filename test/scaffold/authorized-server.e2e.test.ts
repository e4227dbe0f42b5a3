/**
 * A scaffolded `--auth` server in its own process, behind oidc-provider
 * (test/helpers/authorized-server.ts), reached the way a client signs in: the
 * authorization code flow with PKCE and the resource indicator (login and
 * consent automated), the token used on a tool, a tool that needs a scope
 * the token lacks refused with 403 insufficient_scope naming it, a new
 * authorization with that scope (step-up) served, and a refreshed token
 * accepted. Also the same server with opaque tokens, checked by
 * introspection. The server's output never holds a token.
 */
import { createHash, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { followRedirects } from "../helpers/authorization-server.js";
import { startAuthorizedServer, type AuthorizedServer } from "../helpers/authorized-server.js";
import { headersFor, raw, request } from "../helpers/mcp-client.js";

const REDIRECT = "http://127.0.0.1:9/callback";
const CLIENT = { id: "pre-registered-client", secret: "pre-registered-secret" };

/** The tokens of an authorization code flow run the way a browser and a client would, without either. */
async function signIn(
  issuer: string,
  resource: string,
  scope: string,
): Promise<{ access: string; refresh?: string; scope: string }> {
  const verifier = randomBytes(32).toString("base64url");
  const state = randomBytes(16).toString("base64url");
  const authorize = new URL(`${issuer}/auth`);
  for (const [key, value] of Object.entries({
    client_id: CLIENT.id,
    redirect_uri: REDIRECT,
    response_type: "code",
    scope,
    state,
    resource,
    code_challenge: createHash("sha256").update(verifier).digest("base64url"),
    code_challenge_method: "S256",
  }))
    authorize.searchParams.set(key, value);
  const target = (await followRedirects(authorize, (url) => url.href.startsWith(REDIRECT)))!;
  expect(target.searchParams.get("state")).toBe(state);
  expect(target.searchParams.get("iss")).toBe(issuer);
  const code = target.searchParams.get("code") ?? undefined;
  if (code === undefined)
    throw new Error("the authorization code flow did not end at the redirect URI");
  return token(
    {
      grant_type: "authorization_code",
      code,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
      resource,
    },
    issuer,
  );
}

/** A token response from the token endpoint, for the pre-registered client (client_secret_basic). */
async function token(
  form: Record<string, string>,
  issuer: string,
): Promise<{ access: string; refresh?: string; scope: string }> {
  const response = await fetch(`${issuer}/token`, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      authorization: `Basic ${Buffer.from(`${CLIENT.id}:${CLIENT.secret}`).toString("base64")}`,
    },
    body: new URLSearchParams(form),
  });
  const body = (await response.json()) as Record<string, unknown>;
  if (typeof body.access_token !== "string") throw new Error(JSON.stringify(body));
  return {
    access: body.access_token,
    ...(typeof body.refresh_token === "string" ? { refresh: body.refresh_token } : {}),
    scope: String(body.scope),
  };
}

describe.each(["jwt", "opaque"] as const)(
  "a scaffolded --auth server behind a real authorization server (%s tokens)",
  (tokenFormat) => {
    let server: AuthorizedServer;
    const used: string[] = [];

    beforeAll(async () => {
      server = await startAuthorizedServer({
        auth: { scopes: ["mcp:read"], tools: { echo: ["mcp:write"] } },
        tokenFormat,
        redirectUris: [REDIRECT],
      });
    }, 120_000);
    afterAll(async () => {
      await server?.close();
    });

    const send = (message: Record<string, unknown>, access?: string) =>
      raw(server.url, {
        headers: {
          ...headersFor(message),
          ...(access ? { authorization: `Bearer ${access}` } : {}),
        },
        body: JSON.stringify(message),
      });
    const echo = request("tools/call", { name: "echo", arguments: { text: "hi" } });
    const list = request("tools/list");

    it("refuses a request without a token with 401 and the challenge", async () => {
      const reply = await send(list);
      expect(reply.status).toBe(401);
      expect(reply.headers["www-authenticate"]).toBe(
        `Bearer resource_metadata="${new URL("/.well-known/oauth-protected-resource/mcp", server.url).href}", scope="mcp:read"`,
      );
    });

    it("signs in, calls, is refused a tool it lacks the scope for, steps up, and refreshes", async () => {
      const { issuer } = server.authorizationServer;
      const first = await signIn(issuer, server.url, "mcp:read offline_access");
      used.push(first.access);
      expect(first.access.split(".")).toHaveLength(tokenFormat === "jwt" ? 3 : 1);
      expect((await send(list, first.access)).status).toBe(200);
      const refused = await send(echo, first.access);
      expect(refused.status).toBe(403);
      expect(String(refused.headers["www-authenticate"])).toContain(
        'error="insufficient_scope", scope="mcp:read mcp:write"',
      );
      const wider = await signIn(issuer, server.url, "mcp:read mcp:write offline_access");
      used.push(wider.access);
      const served = await send(echo, wider.access);
      expect(served.status).toBe(200);
      expect(served.text).toContain("hi");
      expect(wider.refresh).toBeDefined();
      const refreshed = await token(
        { grant_type: "refresh_token", refresh_token: wider.refresh!, resource: server.url },
        issuer,
      );
      used.push(refreshed.access);
      expect(refreshed.access).not.toBe(wider.access);
      expect((await send(echo, refreshed.access)).status).toBe(200);
    });

    it("never writes a token to its output", () => {
      expect(used.length).toBe(3);
      expect(used.filter((access) => server.stderr().includes(access.slice(-20)))).toEqual([]);
    });
  },
);
