/**
 * The server as an OAuth protected resource when the authorization server
 * is broken or hostile (templates/runtime/auth, transport/bounded-fetch.ts),
 * over real HTTP on 127.0.0.1: a node:http stand-in for the authorization
 * server answers its metadata and JWKS with garbage, errors, redirects to
 * another origin, silence, a body that trickles, or more than the size
 * limit. A valid token then gets 503 with the cause reported, in bounded
 * time, never 401. Tokens whose claims carry header-breaking characters
 * get a well-formed 403 and the server keeps serving; a token in the query
 * is refused in any spelling; a legacy session serves only the subject
 * that opened it.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { webcrypto } from "node:crypto";
import { exportJWK, generateKeyPair, SignJWT, type JWK } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listenOnLoopback, closeServer } from "../../helpers/loopback.js";
import { bearerAuthorization, type BearerOptions } from "../../../templates/runtime/auth/index.js";
import {
  fetchHandler,
  McpHttpHandler,
  serveHttp,
  type RunningHttpServer,
} from "../../../templates/runtime/index.js";
import { headersFor, raw, request, testServer } from "../../helpers/mcp-client.js";

/** What the stand-in answers on a path: a good document, or one way of failing. */
type Behaviour =
  | "good"
  | "garbage"
  | "status"
  | "redirect-away"
  | "redirect-same"
  | "redirect-loop"
  | "hang"
  | "trickle"
  | "oversized";

const RESOURCE = "http://127.0.0.1:1/mcp";
const TWO_MIB = 2 * 1024 * 1024;

describe("an authorization server that is broken or hostile", () => {
  const behaviour = {
    metadata: "good" as Behaviour,
    jwks: "good" as Behaviour,
    introspection: "good" as Behaviour,
  };
  let hostile: Server;
  let elsewhere: Server;
  let issuer: string;
  let elsewhereOrigin: string;
  let privateKey: webcrypto.CryptoKey;
  let jwk: JWK;
  const pending = new Set<ServerResponse>();

  /** The good documents, by path. */
  const documents = (): Record<string, unknown> => ({
    "/.well-known/oauth-authorization-server": { issuer, jwks_uri: `${issuer}/jwks` },
    "/moved/.well-known/oauth-authorization-server": { issuer, jwks_uri: `${issuer}/jwks` },
    "/jwks": { keys: [jwk] },
    "/moved/jwks": { keys: [jwk] },
    "/introspect": {
      active: true,
      iss: issuer,
      aud: RESOURCE,
      sub: "alice",
      scope: "mcp:read",
      exp: Math.floor(Date.now() / 1000) + 600,
    },
  });

  /** Answers `path` as `how` says; the good document otherwise. */
  const answer = (res: ServerResponse, path: string, how: Behaviour) => {
    const document = documents()[path];
    const json = JSON.stringify(document);
    switch (how) {
      case "good":
        if (document === undefined) return res.writeHead(404).end();
        return res.writeHead(200, { "content-type": "application/json" }).end(json);
      case "garbage":
        return res.writeHead(200, { "content-type": "application/json" }).end("<html>oops");
      case "status":
        return res.writeHead(500).end("{}");
      case "redirect-away":
        // The same document, from another origin: following it would have worked.
        return res.writeHead(302, { location: `${elsewhereOrigin}${path}` }).end();
      case "redirect-same":
        return res.writeHead(302, { location: `/moved${path}` }).end();
      case "redirect-loop":
        return res.writeHead(302, { location: path }).end();
      case "hang":
        pending.add(res);
        return;
      case "trickle": {
        // Headers at once, then one byte of a valid document every 100 ms.
        res.writeHead(200, { "content-type": "application/json" });
        let at = 0;
        const timer = setInterval(() => {
          if (res.destroyed || at >= json.length) {
            clearInterval(timer);
            return void res.end();
          }
          res.write(json[at++]);
        }, 100);
        return;
      }
      case "oversized": {
        // Valid JSON, just too large: without a limit it would be accepted.
        const padded = JSON.stringify({ ...(document as object), padding: "x".repeat(TWO_MIB) });
        return res.writeHead(200, { "content-type": "application/json" }).end(padded);
      }
    }
  };

  beforeAll(async () => {
    const pair = await generateKeyPair("ES256", { extractable: true });
    privateKey = pair.privateKey;
    jwk = { ...(await exportJWK(pair.publicKey)), kid: "k1", alg: "ES256", use: "sig" };
    hostile = createServer((req: IncomingMessage, res: ServerResponse) => {
      const path = (req.url ?? "/").split("?")[0]!;
      if (path.startsWith("/moved/")) return answer(res, path, "good");
      if (path.endsWith("/jwks")) return answer(res, path, behaviour.jwks);
      if (path === "/introspect") return answer(res, path, behaviour.introspection);
      if (path.startsWith("/.well-known/oauth-authorization-server"))
        return answer(res, path, behaviour.metadata);
      res.writeHead(404).end();
    });
    issuer = await listenOnLoopback(hostile);
    elsewhere = createServer((req, res) => {
      const path = (req.url ?? "/").split("?")[0]!;
      answer(res, path, "good");
    });
    elsewhereOrigin = await listenOnLoopback(elsewhere);
  });
  afterAll(async () => {
    for (const res of pending) res.destroy();
    await closeServer(hostile);
    await closeServer(elsewhere);
  });

  const sign = (claims: { sub?: string; scope?: string } = {}) =>
    new SignJWT({ scope: claims.scope ?? "mcp:read", client_id: "app" })
      .setProtectedHeader({ alg: "ES256", typ: "at+jwt", kid: "k1" })
      .setIssuer(issuer)
      .setAudience(RESOURCE)
      .setSubject(claims.sub ?? "alice")
      .setIssuedAt()
      .setExpirationTime("10m")
      .sign(privateKey);

  /** A server protected by a fresh authorization (no cache from another case), and what it reports. */
  async function protectedServer(options: Partial<BearerOptions> = {}) {
    const reports: string[] = [];
    const server = testServer();
    server.tool({ name: "whoami", inputSchema: { type: "object" } }, (_args, ctx) => ({
      content: [{ type: "text", text: String(ctx.authorization?.subject) }],
    }));
    server.tool({ name: "admin", inputSchema: { type: "object" } }, () => ({
      content: [{ type: "text", text: "done" }],
    }));
    const authorization = bearerAuthorization({
      issuer,
      resource: RESOURCE,
      timeoutMs: 500,
      scopes: { always: ["mcp:read"], tools: { admin: ["mcp:admin"] } },
      onError: (message) => reports.push(message),
      ...options,
    });
    const mcp = await serveHttp(server, { port: 0, authorization });
    return { mcp, reports, server };
  }

  const callWith = (mcp: RunningHttpServer, token: string, tool = "whoami") => {
    const message = request("tools/call", { name: tool, arguments: {} });
    return raw(mcp.url, {
      headers: { ...headersFor(message), authorization: `Bearer ${token}` },
      body: JSON.stringify(message),
    });
  };

  it("serves a valid token when the authorization server behaves (the control case)", async () => {
    behaviour.metadata = "good";
    behaviour.jwks = "good";
    const { mcp } = await protectedServer();
    try {
      const reply = await callWith(mcp, await sign());
      expect(reply.status).toBe(200);
      expect(reply.text).toContain("alice");
    } finally {
      await mcp.close();
    }
  });

  it("follows a redirect within the authorization server's origin", async () => {
    behaviour.metadata = "redirect-same";
    behaviour.jwks = "redirect-same";
    const { mcp } = await protectedServer();
    try {
      expect((await callWith(mcp, await sign())).status).toBe(200);
    } finally {
      await mcp.close();
    }
  });

  const failures: Array<[string, "metadata" | "jwks", Behaviour, RegExp]> = [
    ["metadata that is not JSON", "metadata", "garbage", /not a JSON object/],
    ["metadata answered with 500", "metadata", "status", /HTTP 500/],
    [
      "metadata redirected to another origin",
      "metadata",
      "redirect-away",
      /redirect to http:\/\/127\.0\.0\.1:\d+ is not followed/,
    ],
    ["metadata redirected to itself forever", "metadata", "redirect-loop", /more than 3 redirects/],
    ["metadata never answered", "metadata", "hang", /no answer within 500 ms/],
    ["metadata that trickles in", "metadata", "trickle", /no answer within 500 ms/],
    ["metadata of 2 MiB", "metadata", "oversized", /more than 1048576 bytes/],
    ["a JWKS that is not JSON", "jwks", "garbage", /JWKS .* is not a JSON key set/],
    ["a JWKS answered with 500", "jwks", "status", /JWKS at .* answered HTTP 500/],
    ["a JWKS redirected to another origin", "jwks", "redirect-away", /is not followed/],
    ["a JWKS never answered", "jwks", "hang", /no answer within 500 ms/],
    ["a JWKS that trickles in", "jwks", "trickle", /no answer within 500 ms/],
    ["a JWKS of 2 MiB", "jwks", "oversized", /more than 1048576 bytes/],
  ];

  it.each(failures)(
    "answers a valid token with 503, never 401, for %s, and reports why",
    async (_what, where, how, cause) => {
      behaviour.metadata = where === "metadata" ? how : "good";
      behaviour.jwks = where === "jwks" ? how : "good";
      const { mcp, reports } = await protectedServer();
      try {
        const token = await sign();
        const started = Date.now();
        const reply = await callWith(mcp, token);
        expect(reply.status).toBe(503);
        expect(reply.headers["www-authenticate"]).toBeUndefined();
        expect(Date.now() - started).toBeLessThan(3000);
        expect(reports.join("\n")).toMatch(cause);
        expect(reports.join("\n")).not.toContain(token.slice(-24));
      } finally {
        await mcp.close();
        behaviour.metadata = "good";
        behaviour.jwks = "good";
      }
    },
  );

  it.each([
    ["not JSON", "garbage", /without a JSON object/],
    ["a redirect to another origin", "redirect-away", /is not followed/],
    ["silence", "hang", /no answer within 500 ms/],
    ["2 MiB", "oversized", /more than 1048576 bytes/],
  ] as Array<[string, Behaviour, RegExp]>)(
    "answers 503 when introspection answers with %s, and reports why",
    async (_what, how, cause) => {
      const introspection = { url: `${issuer}/introspect`, clientId: "rs", clientSecret: "secret" };
      const { mcp, reports } = await protectedServer({ introspection });
      try {
        behaviour.introspection = "good";
        expect((await callWith(mcp, "opaque-token-1")).status).toBe(200);
        behaviour.introspection = how;
        const reply = await callWith(mcp, "opaque-token-2");
        expect(reply.status).toBe(503);
        expect(reports.join("\n")).toMatch(cause);
      } finally {
        await mcp.close();
        behaviour.introspection = "good";
      }
    },
  );

  it("reads at most the configured size, and more when allowed", async () => {
    behaviour.metadata = "good";
    behaviour.jwks = "oversized";
    const small = await protectedServer({ maxResponseBytes: 100 });
    const large = await protectedServer({ maxResponseBytes: 4 * 1024 * 1024 });
    try {
      behaviour.jwks = "good";
      // The metadata document alone is over 100 bytes.
      expect((await callWith(small.mcp, await sign())).status).toBe(503);
      expect(small.reports.join("\n")).toMatch(/more than 100 bytes/);
      behaviour.jwks = "oversized";
      expect((await callWith(large.mcp, await sign())).status).toBe(200);
    } finally {
      await small.mcp.close();
      await large.mcp.close();
      behaviour.jwks = "good";
    }
  });

  describe("claims that would break a header", () => {
    let mcp: RunningHttpServer;
    let server: ReturnType<typeof testServer>;
    beforeAll(async () => {
      behaviour.metadata = "good";
      behaviour.jwks = "good";
      ({ mcp, server } = await protectedServer());
    });
    afterAll(() => mcp.close());

    /** RFC 6750 3: `Bearer` then comma-separated auth-params, each a quoted string without `"`, `\` or controls. */
    const WELL_FORMED =
      /^Bearer [a-z_]+="[\x20\x21\x23-\x5B\x5D-\x7E]*"(, [a-z_]+="[\x20\x21\x23-\x5B\x5D-\x7E]*")*$/;

    it.each([
      ["CR and LF", "mcp:read\r\nx-injected: yes"],
      ["a lone LF", "mcp:read\nx-injected:yes"],
      ["a double quote", 'mcp:read" error="forged'],
      ["a backslash", "mcp:read\\"],
    ])("answers a token whose scope holds %s with a well-formed 403", async (_what, scope) => {
      const reply = await callWith(mcp, await sign({ scope }), "admin");
      expect(reply.status).toBe(403);
      const challenge = String(reply.headers["www-authenticate"]);
      expect(challenge).toMatch(WELL_FORMED);
      expect(challenge).toContain('error="insufficient_scope"');
      expect(challenge).not.toContain("forged");
      expect(reply.headers["x-injected"]).toBeUndefined();
      // The scope the challenge asks for names only well-formed scopes, the needed ones among them.
      const asked = /scope="([^"]*)"/.exec(challenge)![1]!.split(" ");
      expect(asked).toEqual(expect.arrayContaining(["mcp:read", "mcp:admin"]));
      // Still serving.
      expect((await callWith(mcp, await sign())).status).toBe(200);
    });

    it("keeps granted scopes that are well-formed in the step-up challenge", async () => {
      const reply = await callWith(mcp, await sign({ scope: "mcp:read extra" }), "admin");
      expect(reply.status).toBe(403);
      expect(String(reply.headers["www-authenticate"])).toContain(
        'scope="mcp:read extra mcp:admin"',
      );
    });

    it.each(["access_token", "ACCESS_TOKEN", "Access_Token", "access%5Ftoken", "x=1&aCcEsS_tOkEn"])(
      "refuses a token in the query as %s, with invalid_request",
      async (name) => {
        const token = await sign();
        const message = request("tools/call", { name: "whoami", arguments: {} });
        const reply = await raw(`${mcp.url}?${name}=${token}`, {
          headers: { ...headersFor(message), authorization: `Bearer ${token}` },
          body: JSON.stringify(message),
        });
        expect(reply.status).toBe(401);
        expect(String(reply.headers["www-authenticate"])).toContain('error="invalid_request"');
        expect(reply.text).toMatch(/never in the URL/);
      },
    );

    it("reports nothing to the server's error handler", () => {
      expect(server.errors).toEqual([]);
    });
  });

  describe("legacy sessions belong to the subject that opened them", () => {
    let mcp: RunningHttpServer;
    beforeAll(async () => {
      behaviour.metadata = "good";
      behaviour.jwks = "good";
      ({ mcp } = await protectedServer());
    });
    afterAll(() => mcp.close());

    const legacy = (
      token: string,
      message: Record<string, unknown>,
      session?: string,
      method = "POST",
    ) =>
      raw(mcp.url, {
        method,
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          authorization: `Bearer ${token}`,
          ...(session ? { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" } : {}),
        },
        ...(method === "POST" ? { body: JSON.stringify(message) } : {}),
      });

    it("refuses another subject's token on a session, and serves the owner", async () => {
      const alice = await sign({ sub: "alice" });
      const mallory = await sign({ sub: "mallory" });
      const opened = await legacy(alice, {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-11-25",
          capabilities: {},
          clientInfo: { name: "legacy", version: "1.0.0" },
        },
      });
      expect(opened.status).toBe(200);
      const session = String(opened.headers["mcp-session-id"]);
      const list = { jsonrpc: "2.0", id: 2, method: "tools/list" };
      expect((await legacy(mallory, list, session)).status).toBe(404);
      expect((await legacy(mallory, {}, session, "GET")).status).toBe(404);
      expect((await legacy(mallory, {}, session, "DELETE")).status).toBe(404);
      const served = await legacy(alice, list, session);
      expect(served.status).toBe(200);
      expect(served.text).toContain("whoami");
      expect((await legacy(alice, {}, session, "DELETE")).status).toBe(200);
    });
  });
});

describe("a reply that cannot be written", () => {
  it("is answered 500 and reported by the Fetch adapter too", async () => {
    const server = testServer();
    const handler = new McpHttpHandler(server, {
      guards: [() => ({ kind: "body", status: 400, headers: { "x-note": "a\r\nb" }, body: "" })],
    });
    const message = request("server/discover");
    const response = await fetchHandler(handler)(
      new Request("http://localhost/mcp", {
        method: "POST",
        headers: headersFor(message),
        body: JSON.stringify(message),
      }),
    );
    expect(response.status).toBe(500);
    expect(server.errors).toHaveLength(1);
  });

  it("is answered 500 and reported, and the server keeps serving", async () => {
    const server = testServer();
    let broken = true;
    const mcp = await serveHttp(server, {
      port: 0,
      // A guard whose reply carries a header node refuses to send.
      guards: [
        () =>
          broken
            ? { kind: "body", status: 400, headers: { "x-note": "a\r\nb" }, body: "" }
            : undefined,
      ],
    });
    try {
      const message = request("server/discover");
      const send = () =>
        raw(mcp.url, { headers: headersFor(message), body: JSON.stringify(message) });
      const reply = await send();
      expect(reply.status).toBe(500);
      expect(reply.headers["x-note"]).toBeUndefined();
      expect(server.errors.map(String).join("\n")).toMatch(/Invalid character in header/);
      broken = false;
      expect((await send()).status).toBe(200);
    } finally {
      await mcp.close();
    }
  });
});
