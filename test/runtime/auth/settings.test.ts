/**
 * Authorization settings from the environment (templates/runtime/auth/settings.ts):
 * the environment over the project's defaults, the resource from the
 * server's public URL by default, and a clear error naming the variable.
 */
import { describe, expect, it } from "vitest";
import { authSettingsFromEnvironment } from "../../../templates/runtime/auth/index.js";

const PUBLIC = "http://127.0.0.1:3000/mcp";

describe("authorization settings from the environment", () => {
  it("takes the issuer and resource from the environment over the project's defaults", () => {
    expect(
      authSettingsFromEnvironment(
        { issuer: "https://old.example.com", resource: "https://old.example.com/mcp" },
        PUBLIC,
        {
          MCP_AUTH_ISSUER: "https://auth.example.com",
          MCP_AUTH_RESOURCE: "https://mcp.example.com/mcp",
          MCP_AUTH_TIMEOUT_MS: "2000",
          MCP_AUTH_MAX_RESPONSE_BYTES: "65536",
        },
      ),
    ).toEqual({
      issuer: "https://auth.example.com",
      resource: "https://mcp.example.com/mcp",
      timeoutMs: 2000,
      maxResponseBytes: 65536,
    });
  });

  it("defaults the resource to the server's public URL and keeps the project's scopes", () => {
    const scopes = { always: ["mcp"], tools: { admin: ["admin"] } };
    expect(
      authSettingsFromEnvironment({ issuer: "https://auth.example.com", scopes }, PUBLIC, {}),
    ).toEqual({ issuer: "https://auth.example.com", resource: PUBLIC, scopes });
  });

  it("takes introspection from the environment over the project's, the secret only from the environment", () => {
    const defaults = {
      issuer: "https://auth.example.com",
      introspection: { url: "https://auth.example.com/introspect", clientId: "mcp-server" },
    };
    expect(
      authSettingsFromEnvironment(defaults, PUBLIC, { MCP_AUTH_CLIENT_SECRET: "s3cret" }),
    ).toEqual({
      issuer: "https://auth.example.com",
      resource: PUBLIC,
      introspection: {
        url: "https://auth.example.com/introspect",
        clientId: "mcp-server",
        clientSecret: "s3cret",
      },
    });
    expect(
      authSettingsFromEnvironment(defaults, PUBLIC, {
        MCP_AUTH_INTROSPECTION_URL: "https://other.example.com/i",
        MCP_AUTH_CLIENT_ID: "other",
        MCP_AUTH_CLIENT_SECRET: "s3cret",
      }).introspection,
    ).toEqual({ url: "https://other.example.com/i", clientId: "other", clientSecret: "s3cret" });
  });

  it.each([
    [{}, /MCP_AUTH_ISSUER must name the authorization server's issuer URL/],
    [{ MCP_AUTH_ISSUER: "auth.example.com" }, /MCP_AUTH_ISSUER must be an absolute URL/],
    [
      { MCP_AUTH_ISSUER: "https://a.example.com", MCP_AUTH_RESOURCE: "/mcp" },
      /MCP_AUTH_RESOURCE must be an absolute URL/,
    ],
    [
      { MCP_AUTH_ISSUER: "https://a.example.com", MCP_AUTH_INTROSPECTION_URL: "https://a/i" },
      /MCP_AUTH_CLIENT_ID must name this server's client/,
    ],
    [
      {
        MCP_AUTH_ISSUER: "https://a.example.com",
        MCP_AUTH_INTROSPECTION_URL: "https://a/i",
        MCP_AUTH_CLIENT_ID: "mcp",
      },
      /MCP_AUTH_CLIENT_SECRET must hold this server's client secret/,
    ],
    [
      {
        MCP_AUTH_ISSUER: "https://a.example.com",
        MCP_AUTH_INTROSPECTION_URL: "introspect",
        MCP_AUTH_CLIENT_ID: "mcp",
        MCP_AUTH_CLIENT_SECRET: "s",
      },
      /MCP_AUTH_INTROSPECTION_URL must be an absolute URL/,
    ],
    [
      { MCP_AUTH_ISSUER: "https://a.example.com", MCP_AUTH_CLIENT_SECRET: "s" },
      /only used for token introspection: set MCP_AUTH_INTROSPECTION_URL/,
    ],
    [
      { MCP_AUTH_ISSUER: "https://a.example.com", MCP_AUTH_TIMEOUT_MS: "soon" },
      /MCP_AUTH_TIMEOUT_MS/,
    ],
  ])("refuses %j with a message naming the variable", (env, message) => {
    expect(() => authSettingsFromEnvironment({}, PUBLIC, env)).toThrow(message);
  });
});
