/**
 * OAuth end to end on 127.0.0.1, every part real: an MCP server of the
 * runtime as a protected resource (auth/, tokens checked with jose), a real
 * authorization server (oidc-provider; login and consent automated), and
 * the runtime's client with OAuthClient, whose authorization goes through
 * a loopback redirect listener, driven by a headless "browser" that
 * follows oidc-provider's redirects with its cookies. The client signs in
 * on the server's 401 (dynamic registration, PKCE, the resource
 * indicator, RFC 9207 iss), calls a tool, is refused one that needs a
 * scope it lacks, steps up and succeeds, and keeps working past its
 * token's expiry with a refreshed token.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearerAuthorization } from "../../templates/runtime/auth/index.js";
import { McpClient } from "../../templates/runtime/client/index.js";
import { OAuthClient } from "../../templates/runtime/oauth/index.js";
import { serveHttp, type RunningHttpServer } from "../../templates/runtime/index.js";
import { connectHttp } from "../../templates/runtime/transport/http-client.js";
import { loopbackRedirect } from "../../templates/runtime/oauth/loopback-redirect.js";
import { freePort } from "../../scripts/shared/free-port.js";
import {
  signInAndConsent,
  startAuthorizationServer,
  type TestAuthorizationServer,
} from "../helpers/authorization-server.js";
import { legacy, protocol, testServer } from "../helpers/mcp-client.js";

/** Seconds an access token lives: inside the client's refresh margin, so it refreshes before each use. */
const TOKEN_TTL = 2;

describe("a client signs in to a protected MCP server with a real authorization server", () => {
  let as: TestAuthorizationServer;
  let mcp: RunningHttpServer;
  let client: McpClient;
  let auth: OAuthClient;
  let resource: string;
  const browsed: string[] = [];

  beforeAll(async () => {
    const port = await freePort();
    resource = `http://127.0.0.1:${port}/mcp`;
    as = await startAuthorizationServer({
      resources: [resource],
      scopes: ["mcp", "mcp:write"],
      accessTokenTTL: TOKEN_TTL,
    });
    const server = testServer();
    server.tool({ name: "read_notes", inputSchema: { type: "object" } }, (_args, ctx) => ({
      content: [{ type: "text", text: (ctx.authorization?.scopes ?? []).join(" ") }],
    }));
    server.tool({ name: "write_note", inputSchema: { type: "object" } }, () => ({
      content: [{ type: "text", text: "written" }],
    }));
    mcp = await serveHttp(server, {
      port,
      authorization: bearerAuthorization({
        issuer: as.issuer,
        resource,
        scopes: { always: ["mcp"], tools: { write_note: ["mcp:write"] } },
        onError: () => {},
      }),
    });
    const redirect = await loopbackRedirect({
      open: (url) => {
        browsed.push(url.href);
        void signInAndConsent(url).catch(() => {});
      },
      timeoutMs: 20_000,
    });
    auth = new OAuthClient({
      redirectUri: redirect.redirectUri,
      authorize: (url) => redirect.authorize(url),
      clientName: "end-to-end",
    });
    client = new McpClient({
      protocol,
      legacy,
      channel: connectHttp(resource, { auth }),
      info: { name: "oauth-end-to-end", version: "1.0.0" },
    });
  }, 60_000);
  afterAll(async () => {
    await client?.close();
    await mcp?.close();
    await as?.close();
  });

  const text = (result: unknown) =>
    (result as { content: Array<{ text: string }> }).content[0]!.text;

  it("signs in on the server's 401 and calls a tool with the token", async () => {
    await client.connect();
    expect(text(await client.callTool("read_notes", {}))).toBe("mcp");
    expect(as.requests.get("/reg")).toBe(1);
    expect(browsed).toHaveLength(1);
    const asked = new URL(browsed[0]!).searchParams;
    expect(asked.get("resource")).toBe(resource);
    expect(asked.get("code_challenge_method")).toBe("S256");
    expect(asked.get("scope")).toBe("mcp offline_access");
  });

  it("is refused a tool that needs a scope it lacks, steps up and succeeds", async () => {
    expect(text(await client.callTool("write_note", {}))).toBe("written");
    expect(browsed).toHaveLength(2);
    expect(new URL(browsed[1]!).searchParams.get("scope")?.split(" ").sort()).toEqual([
      "mcp",
      "mcp:write",
      "offline_access",
    ]);
    expect(auth.scope?.split(" ")).toEqual(expect.arrayContaining(["mcp", "mcp:write"]));
    expect(as.requests.get("/reg")).toBe(1); // the same client, registered once
  });

  it("keeps working past its token's expiry with a refreshed token, without a new sign-in", async () => {
    const tokensBefore = as.requests.get("/token") ?? 0;
    await new Promise((resolve) => setTimeout(resolve, (TOKEN_TTL + 1) * 1000));
    expect(text(await client.callTool("read_notes", {}))).toContain("mcp");
    expect(as.requests.get("/token")).toBeGreaterThan(tokensBefore);
    expect(browsed).toHaveLength(2);
  });
});
