/**
 * `mcp-gen auth-dev` signs in without a prompt, so what it hands out must
 * stay on this machine (generator/dev/auth-server.ts): a client registering
 * a redirect URI off loopback (`https://evil.example/cb`) is refused with
 * invalid_redirect_uri (RFC 7591), a loopback one is registered, and a browser
 * request from another origin than the server's own is refused instead of
 * having its Origin reflected in CORS headers. Real oidc-provider, real
 * HTTP on 127.0.0.1.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  isLoopbackRedirect,
  startDevAuthorizationServer,
  type DevAuthorizationServer,
} from "../../generator/dev/auth-server.js";
import { scaffoldServer, writeProject } from "../../generator/scaffold/scaffold.js";
import { tempDir, testSources } from "../helpers/index.js";
import { linkNodeModules } from "../helpers/project.js";

let server: DevAuthorizationServer;

beforeAll(async () => {
  const project = join(tempDir("auth-dev-loopback"), "srv");
  const { files } = await scaffoldServer({
    dir: project,
    name: "srv",
    auth: true,
    sources: testSources(),
  });
  writeProject(project, files);
  linkNodeModules(project);
  server = await startDevAuthorizationServer({ dir: project, port: 0, log: () => {} });
}, 120_000);
afterAll(() => server?.close());

const register = (redirect: string, origin?: string) =>
  fetch(`${server.issuer}/reg`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(origin ? { origin } : {}) },
    body: JSON.stringify({
      redirect_uris: [redirect],
      token_endpoint_auth_method: "none",
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
    }),
  });

describe("auth-dev's redirect URIs", () => {
  it.each(["https://evil.example/cb", "http://192.168.1.5:8080/cb", "myapp://callback"])(
    "%s is refused at registration (invalid_redirect_uri)",
    async (redirect) => {
      const refused = await register(redirect);
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({
        error: "invalid_redirect_uri",
        error_description: expect.stringContaining("is not on this machine") as unknown,
      });
    },
  );

  it.each(["http://127.0.0.1:4000/callback", "http://localhost:4000/cb", "http://[::1]:4000/cb"])(
    "%s is registered",
    async (redirect) => {
      expect((await register(redirect)).status).toBe(201);
    },
  );

  it("loopback means http(s) on 127.0.0.1, localhost or [::1], without a fragment", () => {
    expect(isLoopbackRedirect("http://127.0.0.1/cb")).toBe(true);
    expect(isLoopbackRedirect("http://127.0.0.1.evil.example/cb")).toBe(false);
    expect(isLoopbackRedirect("http://localhost@evil.example/cb")).toBe(false);
    expect(isLoopbackRedirect("http://localhost/cb#x")).toBe(false);
  });
});

describe("auth-dev's CORS", () => {
  it("refuses a browser request of another origin instead of reflecting it", async () => {
    const refused = await fetch(`${server.issuer}/.well-known/openid-configuration`, {
      headers: { origin: "https://evil.example" },
    });
    expect(refused.status).toBe(403);
    expect(refused.headers.get("access-control-allow-origin")).toBeNull();
    expect((await register("http://127.0.0.1:4000/cb", "https://evil.example")).status).toBe(403);
  });

  it("answers its own origin, and requests without one", async () => {
    const own = await fetch(`${server.issuer}/.well-known/openid-configuration`, {
      headers: { origin: server.issuer },
    });
    expect(own.status).toBe(200);
    expect(own.headers.get("access-control-allow-origin")).toBe(server.issuer);
    expect((await fetch(`${server.issuer}/.well-known/openid-configuration`)).status).toBe(200);
  });
});
