/**
 * The server as an OAuth protected resource (templates/runtime/auth with
 * the HTTP transport's authorization stage), over real HTTP on 127.0.0.1
 * with oidc-provider as the authorization server: protected resource
 * metadata, 401 challenges, tokens from the real server accepted and their
 * claims handed to handlers, 403 insufficient_scope per tool, every bad
 * token refused with 401 without the token ever being logged, and an
 * authorization server that is down or silent answered with 503 in bounded
 * time.
 */
import { createServer } from "node:http";
import { webcrypto } from "node:crypto";
import { exportJWK, exportSPKI, generateKeyPair, importSPKI, SignJWT, type JWK } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listenOnLoopback, closeServer } from "../../helpers/loopback.js";
import {
  bearerAuthorization,
  metadataPath,
  type BearerAuthorization,
} from "../../../templates/runtime/auth/index.js";
import { serveHttp, type RunningHttpServer } from "../../../templates/runtime/index.js";
import {
  startAuthorizationServer,
  type TestAuthorizationServer,
} from "../../helpers/authorization-server.js";
import { headersFor, raw, request, testServer } from "../../helpers/mcp-client.js";

describe("the server as an OAuth protected resource", () => {
  let authorizationServer: TestAuthorizationServer;
  let issuer: string;
  let mcp: RunningHttpServer;
  let resource: string;
  let privateKey: webcrypto.CryptoKey;
  let publicJwk: JWK;
  let spki: string;
  let auth: BearerAuthorization;
  const logged: string[] = [];
  const server = testServer();

  beforeAll(async () => {
    const pair = await generateKeyPair("ES256", { extractable: true });
    privateKey = pair.privateKey;
    publicJwk = await exportJWK(pair.publicKey);
    spki = await exportSPKI(pair.publicKey);
    // The MCP server's port is only known once it listens; the resource is fixed before, on a reserved port.
    const probe = createServer();
    const mcpOrigin = await listenOnLoopback(probe);
    await new Promise((resolve) => probe.close(resolve));
    resource = `${mcpOrigin}/mcp`;
    // It signs with this test's key, so the tests below can also sign tokens of their own with it.
    authorizationServer = await startAuthorizationServer({
      resources: [resource],
      scopes: ["mcp:read", "mcp:admin"],
      signingKey: privateKey,
    });
    issuer = authorizationServer.issuer;

    server.tool({ name: "whoami", inputSchema: { type: "object" } }, (_args, ctx) => ({
      content: [
        {
          type: "text",
          text: JSON.stringify({
            subject: ctx.authorization?.subject,
            clientId: ctx.authorization?.clientId,
            scopes: ctx.authorization?.scopes,
          }),
        },
      ],
    }));
    server.tool({ name: "admin", inputSchema: { type: "object" } }, () => ({
      content: [{ type: "text", text: "done" }],
    }));
    auth = bearerAuthorization({
      issuer,
      resource,
      scopes: { always: ["mcp:read"], tools: { admin: ["mcp:admin"] } },
      onError: (message) => logged.push(message),
    });
    mcp = await serveHttp(server, { port: Number(new URL(resource).port), authorization: auth });
  });
  afterAll(async () => {
    await mcp?.close();
    await authorizationServer?.close();
  });

  const call = (tool: string) => request("tools/call", { name: tool, arguments: {} });
  const post = (message: Record<string, unknown>, headers: Record<string, string> = {}) =>
    raw(mcp.url, {
      headers: { ...headersFor(message), ...headers },
      body: JSON.stringify(message),
    });

  it("publishes its protected resource metadata at the path-aware well-known URL", async () => {
    expect(metadataPath(resource)).toBe("/.well-known/oauth-protected-resource/mcp");
    const reply = await fetch(new URL(metadataPath(resource), resource));
    expect(reply.status).toBe(200);
    expect(await reply.json()).toEqual({
      resource,
      authorization_servers: [issuer],
      bearer_methods_supported: ["header"],
      scopes_supported: ["mcp:admin", "mcp:read"],
      dpop_signing_alg_values_supported: ["ES256", "PS256", "RS256", "EdDSA"],
      dpop_bound_access_tokens_required: false,
    });
  });

  it("answers a request without a token with 401 and a challenge naming the metadata and scope", async () => {
    const reply = await post(call("whoami"));
    expect(reply.status).toBe(401);
    expect(reply.headers["www-authenticate"]).toBe(
      `Bearer resource_metadata="${new URL(metadataPath(resource), resource).href}", scope="mcp:read"`,
    );
  });

  it("accepts a token from the authorization server and hands its claims to the handler", async () => {
    const token = await authorizationServer.clientCredentialsToken("mcp:read");
    const reply = await post(call("whoami"), { authorization: `Bearer ${token}` });
    expect(reply.status).toBe(200);
    const text = (JSON.parse(reply.text) as { result: { content: Array<{ text: string }> } }).result
      .content[0]!.text;
    expect(JSON.parse(text)).toEqual({
      subject: "service",
      clientId: "service",
      scopes: ["mcp:read"],
    });
  });

  it("refuses a tool whose scope the token lacks with 403 insufficient_scope, and serves it after step-up", async () => {
    const narrow = await authorizationServer.clientCredentialsToken("mcp:read");
    const refused = await post(call("admin"), { authorization: `Bearer ${narrow}` });
    expect(refused.status).toBe(403);
    const challenge = String(refused.headers["www-authenticate"]);
    expect(challenge).toContain('error="insufficient_scope"');
    expect(challenge).toContain('scope="mcp:read mcp:admin"');
    expect(challenge).toContain(`resource_metadata="`);
    const wide = await authorizationServer.clientCredentialsToken("mcp:read mcp:admin");
    const served = await post(call("admin"), { authorization: `Bearer ${wide}` });
    expect(served.status).toBe(200);
  });

  describe("bad tokens: each refused with 401, never logged", () => {
    const claims = () => ({
      scope: "mcp:read",
      client_id: "service",
    });
    const sign = (
      overrides: {
        iss?: string;
        aud?: string;
        exp?: number;
        kid?: string;
        key?: webcrypto.CryptoKey;
      } = {},
    ) =>
      new SignJWT(claims())
        .setProtectedHeader({ alg: "ES256", typ: "at+jwt", kid: overrides.kid ?? "k1" })
        .setIssuer(overrides.iss ?? issuer)
        .setAudience(overrides.aud ?? resource)
        .setSubject("someone")
        .setIssuedAt()
        .setExpirationTime(overrides.exp ?? Math.floor(Date.now() / 1000) + 600)
        .sign(overrides.key ?? privateKey);
    const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
    /** A case: how to make its token, and what the challenge says about it besides resource_metadata. */
    type Case = {
      token: string;
      headers: Record<string, string>;
      query?: boolean;
      /** The error code and description the challenge must carry (default: invalid_token, any description). */
      error?: string;
      description?: string;
    };
    const cases: Array<[string, () => Promise<Case>]> = [
      [
        "alg none",
        () =>
          Promise.resolve({
            token: `${base64url({ alg: "none", typ: "at+jwt" })}.${base64url({ iss: issuer, aud: resource, sub: "x", iat: 1, exp: 9e9, scope: "mcp:read" })}.`,
            headers: {},
          }),
      ],
      [
        "HS256 signed with the public key",
        async () => ({
          token: await new SignJWT(claims())
            .setProtectedHeader({ alg: "HS256", typ: "at+jwt", kid: "k1" })
            .setIssuer(issuer)
            .setAudience(resource)
            .setSubject("someone")
            .setIssuedAt()
            .setExpirationTime("10m")
            .sign(new TextEncoder().encode(spki)),
          headers: {},
        }),
      ],
      [
        "wrong aud",
        async () => ({ token: await sign({ aud: "http://127.0.0.1:1/other" }), headers: {} }),
      ],
      [
        "wrong iss",
        async () => ({ token: await sign({ iss: "http://127.0.0.1:1" }), headers: {} }),
      ],
      [
        "expired",
        async () => ({
          token: await sign({ exp: Math.floor(Date.now() / 1000) - 3600 }),
          headers: {},
        }),
      ],
      [
        "unknown kid",
        async () => ({
          token: await sign({ kid: "k9", key: (await generateKeyPair("ES256")).privateKey }),
          headers: {},
        }),
      ],
      // A valid token, in the header too: only the one in the URL makes this a refusal.
      [
        "in the query string",
        async () => ({
          token: await sign(),
          headers: {},
          query: true,
          error: "invalid_request",
          description: "send the access token in the Authorization header, never in the URL",
        }),
      ],
      // Past the 8 KiB limit, under node's 16 KiB header limit (which would answer 431 itself).
      [
        "oversized",
        () =>
          Promise.resolve({
            token: "a".repeat(12_000),
            headers: {},
            description: "the Authorization header is too large",
          }),
      ],
    ];

    it.each(cases)("%s", async (_what, make) => {
      const { token, query, error, description } = await make();
      const message = call("whoami");
      const reply = query
        ? await raw(`${mcp.url}?access_token=${token}`, {
            headers: { ...headersFor(message), authorization: `Bearer ${token}` },
            body: JSON.stringify(message),
          })
        : await post(message, { authorization: `Bearer ${token}` });
      expect(reply.status).toBe(401);
      const challenge = String(reply.headers["www-authenticate"]);
      expect(challenge).toContain("Bearer resource_metadata=");
      // What sets a refused token apart from a request without one (whose challenge has no error).
      expect(challenge).toContain(`error="${error ?? "invalid_token"}"`);
      if (description !== undefined)
        expect(challenge).toContain(`error_description="${description}"`);
      const leaked = [reply.text, String(reply.headers["www-authenticate"]), ...logged].filter(
        (text) => text.includes(token.slice(-24)),
      );
      expect(leaked).toEqual([]);
      expect(server.errors.map(String).filter((e) => e.includes(token.slice(-24)))).toEqual([]);
    });

    it("the public key the HS256 case used is the one the authorization server publishes", async () => {
      const metadata = (await (
        await fetch(`${issuer}/.well-known/openid-configuration`)
      ).json()) as { jwks_uri: string };
      const { keys } = (await (await fetch(metadata.jwks_uri)).json()) as { keys: JWK[] };
      const published = keys.find((key) => key.kid === "k1");
      expect(published).toBeDefined();
      // Same curve and point: the HMAC secret was the very key a verifier would fetch.
      expect({ crv: published!.crv, x: published!.x, y: published!.y }).toEqual({
        crv: publicJwk.crv,
        x: publicJwk.x,
        y: publicJwk.y,
      });
      const fromSpki = await exportJWK(await importSPKI(spki, "ES256"));
      expect({ x: fromSpki.x, y: fromSpki.y }).toEqual({ x: published!.x, y: published!.y });
    });
  });

  it("answers 503 within bounded time when the authorization server is down, with a clear report", async () => {
    const reports: string[] = [];
    const down = bearerAuthorization({
      issuer: "http://127.0.0.1:1",
      resource,
      timeoutMs: 1000,
      onError: (m) => reports.push(m),
    });
    const silent = createServer(() => {
      /* never answers */
    });
    const silentIssuer = await listenOnLoopback(silent);
    const hanging = bearerAuthorization({
      issuer: silentIssuer,
      resource,
      timeoutMs: 500,
      onError: (m) => reports.push(m),
    });
    try {
      for (const authorization of [down, hanging]) {
        const started = Date.now();
        await expect(authorization.ready()).rejects.toThrow(/cannot be reached/);
        const verdict = await authorization.authenticate({
          method: "POST",
          path: "/mcp",
          query: "",
          header: (name) => (name === "authorization" ? "Bearer abc.def.ghi" : undefined),
          body: "",
          signal: new AbortController().signal,
        });
        expect("status" in verdict && verdict.status).toBe(503);
        expect(Date.now() - started).toBeLessThan(3000);
      }
      expect(reports.join("\n")).toMatch(/no answer within 500 ms/);
      expect(reports.join("\n")).not.toContain("abc.def.ghi");
    } finally {
      await closeServer(silent);
    }
  });

  it("refuses configurations that would weaken it, with what to change", () => {
    expect(() => bearerAuthorization({ issuer, resource, algorithms: ["HS256"] })).toThrow(
      /HS256 cannot be accepted/,
    );
    expect(() => bearerAuthorization({ issuer: "http://example.com", resource })).toThrow(
      /must use https/,
    );
    expect(() => bearerAuthorization({ issuer, resource: `${resource}#x` })).toThrow(/fragment/);
  });
});
