/**
 * Opaque access tokens checked by RFC 7662 introspection
 * (templates/runtime/auth/introspection.ts behind bearerAuthorization),
 * over real HTTP on 127.0.0.1 against oidc-provider's introspection
 * endpoint: an active token is served with its claims, an unknown, a
 * revoked and another resource's token are refused with 401, a JWT the
 * endpoint will not introspect too, wrong client credentials and an
 * endpoint that is down or silent get 503 in bounded time, and an answer is
 * reused only until the cache time or the token's `exp`, whichever is first.
 */
import { createServer } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listenOnLoopback, closeServer } from "../../helpers/loopback.js";
import {
  bearerAuthorization,
  Introspection,
  type BearerAuthorization,
} from "../../../templates/runtime/auth/index.js";
import { serveHttp, type RunningHttpServer } from "../../../templates/runtime/index.js";
import { freePort } from "../../../scripts/shared/free-port.js";
import {
  startAuthorizationServer,
  type TestAuthorizationServer,
} from "../../helpers/authorization-server.js";
import { headersFor, raw, request, testServer } from "../../helpers/mcp-client.js";

describe("opaque tokens checked by introspection", () => {
  let as: TestAuthorizationServer;
  let jwtAs: TestAuthorizationServer;
  let mcp: RunningHttpServer;
  let resource: string;
  let auth: BearerAuthorization;
  const other = "http://127.0.0.1:1/other";
  const logged: string[] = [];
  const server = testServer();

  beforeAll(async () => {
    resource = `http://127.0.0.1:${await freePort()}/mcp`;
    as = await startAuthorizationServer({
      resources: [resource, other],
      scopes: ["mcp:read", "mcp:admin"],
      tokenFormat: "opaque",
    });
    jwtAs = await startAuthorizationServer({ resources: [resource], scopes: ["mcp:read"] });
    server.tool({ name: "whoami", inputSchema: { type: "object" } }, (_args, ctx) => ({
      content: [
        {
          type: "text",
          text: JSON.stringify({
            subject: ctx.authorization?.subject,
            clientId: ctx.authorization?.clientId,
            scopes: ctx.authorization?.scopes,
            aud: ctx.authorization?.claims.aud,
          }),
        },
      ],
    }));
    server.tool({ name: "admin", inputSchema: { type: "object" } }, () => ({
      content: [{ type: "text", text: "done" }],
    }));
    auth = bearerAuthorization({
      issuer: as.issuer,
      resource,
      scopes: { always: ["mcp:read"], tools: { admin: ["mcp:admin"] } },
      introspection: { url: as.introspectionUrl, ...as.resourceServerClient },
      onError: (message) => logged.push(message),
    });
    mcp = await serveHttp(server, { port: Number(new URL(resource).port), authorization: auth });
  });
  afterAll(async () => {
    await mcp?.close();
    await as?.close();
    await jwtAs?.close();
  });

  const call = (tool: string) => request("tools/call", { name: tool, arguments: {} });
  const post = (token: string, tool = "whoami") => {
    const message = call(tool);
    return raw(mcp.url, {
      headers: { ...headersFor(message), authorization: `Bearer ${token}` },
      body: JSON.stringify(message),
    });
  };
  const introspections = () => as.requests.get("/token/introspection") ?? 0;

  it("serves an active token for this resource, with the claims introspection gave", async () => {
    const token = await as.clientCredentialsToken("mcp:read");
    expect(token.split(".")).toHaveLength(1); // opaque, not a JWT
    const reply = await post(token);
    expect(reply.status).toBe(200);
    const text = (JSON.parse(reply.text) as { result: { content: Array<{ text: string }> } }).result
      .content[0]!.text;
    expect(JSON.parse(text)).toEqual({
      subject: undefined,
      clientId: "service",
      scopes: ["mcp:read"],
      aud: resource,
    });
  });

  it("asks once for a token used twice within the cache time", async () => {
    const token = await as.clientCredentialsToken("mcp:read");
    const before = introspections();
    expect((await post(token)).status).toBe(200);
    expect((await post(token)).status).toBe(200);
    expect(introspections() - before).toBe(1);
  });

  it("refuses a tool whose scope the token lacks with 403, and serves it after step-up", async () => {
    const refused = await post(await as.clientCredentialsToken("mcp:read"), "admin");
    expect(refused.status).toBe(403);
    expect(String(refused.headers["www-authenticate"])).toContain('error="insufficient_scope"');
    const served = await post(await as.clientCredentialsToken("mcp:read mcp:admin"), "admin");
    expect(served.status).toBe(200);
  });

  describe("refused with 401 invalid_token, the token never logged", () => {
    const cases: Array<[string, () => Promise<string>]> = [
      ["an unknown token", () => Promise.resolve("x".repeat(43))],
      [
        "a revoked token",
        async () => {
          const token = await as.clientCredentialsToken("mcp:read");
          await as.revoke(token);
          return token;
        },
      ],
      ["a token for another resource", () => as.clientCredentialsToken("mcp:read", other)],
      ["a JWT the endpoint will not introspect", () => jwtAs.clientCredentialsToken("mcp:read")],
    ];
    it.each(cases)("%s", async (_what, make) => {
      const token = await make();
      const reply = await post(token);
      expect(reply.status).toBe(401);
      expect(String(reply.headers["www-authenticate"])).toContain('error="invalid_token"');
      const leaked = [reply.text, String(reply.headers["www-authenticate"]), ...logged].filter(
        (text) => text.includes(token.slice(-20)),
      );
      expect(leaked).toEqual([]);
    });
  });

  it("answers 503 with a report naming the credentials when the endpoint refuses them", async () => {
    const reports: string[] = [];
    const wrong = bearerAuthorization({
      issuer: as.issuer,
      resource,
      introspection: { url: as.introspectionUrl, clientId: "resource-server", clientSecret: "no" },
      onError: (m) => reports.push(m),
    });
    const token = await as.clientCredentialsToken("mcp:read");
    const verdict = await wrong.authenticate(bearerRequest(token));
    expect("status" in verdict && verdict.status).toBe(503);
    expect(reports.join("\n")).toMatch(/refused this server's client credentials \(HTTP 401/);
    expect(reports.join("\n")).toMatch(/MCP_AUTH_CLIENT_SECRET/);
    expect(reports.join("\n")).not.toContain(token);
  });

  it("answers 503 within bounded time when the endpoint is down or silent", async () => {
    const reports: string[] = [];
    const silent = createServer(() => {
      /* never answers */
    });
    const silentUrl = `${await listenOnLoopback(silent)}/introspect`;
    try {
      for (const url of ["http://127.0.0.1:1/introspect", silentUrl]) {
        const authorization = bearerAuthorization({
          issuer: as.issuer,
          resource,
          timeoutMs: 500,
          introspection: { url, ...as.resourceServerClient },
          onError: (m) => reports.push(m),
        });
        const started = Date.now();
        const verdict = await authorization.authenticate(bearerRequest("abc.def"));
        expect("status" in verdict && verdict.status).toBe(503);
        expect(Date.now() - started).toBeLessThan(3000);
      }
      expect(reports.join("\n")).toMatch(
        /cannot be reached \(.*\); check MCP_AUTH_INTROSPECTION_URL/,
      );
      expect(reports.join("\n")).toMatch(/no answer within 500 ms/);
      expect(reports.join("\n")).not.toContain("abc.def");
    } finally {
      await closeServer(silent);
    }
  });

  it("keeps no answer past the token's exp, nor past the cache time", async () => {
    let asked = 0;
    const counting: typeof fetch = (input, init) => {
      asked += 1;
      return fetch(input, init);
    };
    const context = {
      issuer: as.issuer,
      resource,
      timeoutMs: 2000,
      clockToleranceSeconds: 0,
      fetch: counting,
    };
    const url = as.introspectionUrl;
    // A cache time longer than the token lives: its exp bounds the answer.
    const long = new Introspection(
      { url, ...as.resourceServerClient, cacheSeconds: 3600 },
      context,
    );
    const token = await as.clientCredentialsToken("mcp:read");
    const now = Date.now();
    const first = await long.check(token, now);
    expect(first.expiresAt).toBeGreaterThan(now / 1000);
    await long.check(token, now + 1000);
    expect(asked).toBe(1);
    await expect(long.check(token, first.expiresAt! * 1000 + 1)).rejects.toThrow(/expired/);
    expect(asked).toBe(2);
    // A cache time shorter than the token lives: asked again once it is over.
    const short = new Introspection({ url, ...as.resourceServerClient, cacheSeconds: 60 }, context);
    await short.check(token, now);
    await short.check(token, now + 59_000);
    expect(asked).toBe(3);
    await short.check(token, now + 61_000);
    expect(asked).toBe(4);
  });

  it("refuses settings that cannot work, with what to set", () => {
    expect(() =>
      bearerAuthorization({
        issuer: as.issuer,
        resource,
        introspection: { url: "http://example.com/introspect", clientId: "a", clientSecret: "b" },
      }),
    ).toThrow(/introspection endpoint \(MCP_AUTH_INTROSPECTION_URL\).*must use https/);
    expect(() =>
      bearerAuthorization({
        issuer: as.issuer,
        resource,
        introspection: { url: as.introspectionUrl, clientId: "a", clientSecret: "" },
      }),
    ).toThrow(/client secret \(MCP_AUTH_CLIENT_SECRET\)/);
  });
});

/** A request as the transport hands it to authenticate, with `token` in its Authorization header. */
function bearerRequest(token: string) {
  return {
    method: "POST",
    path: "/mcp",
    query: "",
    header: (name: string) => (name === "authorization" ? `Bearer ${token}` : undefined),
    body: "",
    signal: new AbortController().signal,
  };
}
