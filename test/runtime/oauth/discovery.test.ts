/**
 * The client's OAuth discovery helpers (templates/runtime/oauth): the
 * Bearer challenge, where protected resource and authorization server
 * metadata may be, whether a resource belongs to the server, and scope
 * selection with step-up.
 */
import { describe, expect, it } from "vitest";
import {
  authorizationServerMetadataUrls,
  parseBearerChallenge,
  resourceMatches,
  resourceMetadataUrls,
  scopeToRequest,
} from "../../../templates/runtime/oauth/index.js";

describe("the Bearer challenge", () => {
  it("reads quoted and token parameters, escapes included", () => {
    expect(
      parseBearerChallenge(
        'Bearer error="insufficient_scope", scope="a b", resource_metadata="http://x/.well-known/oauth-protected-resource/mcp", error_description="say \\"hi\\""',
      ),
    ).toEqual({
      error: "insufficient_scope",
      scope: "a b",
      resource_metadata: "http://x/.well-known/oauth-protected-resource/mcp",
      error_description: 'say "hi"',
    });
    expect(parseBearerChallenge("bearer realm=mcp")).toEqual({ realm: "mcp" });
    expect(parseBearerChallenge("Bearer")).toEqual({});
  });

  it("finds Bearer after another scheme, and stops at the next one", () => {
    expect(parseBearerChallenge('Basic realm="x", Bearer scope="s", DPoP algs="ES256"')).toEqual({
      scope: "s",
    });
    expect(parseBearerChallenge('Basic realm="x"')).toBe(undefined);
    expect(parseBearerChallenge(undefined)).toBe(undefined);
  });
});

describe("where the metadata is", () => {
  it("uses the challenge's resource_metadata alone when it names one", () => {
    expect(
      resourceMetadataUrls("http://localhost:3000/mcp", {
        resource_metadata: "http://localhost:3000/custom/prm",
      }),
    ).toEqual(["http://localhost:3000/custom/prm"]);
  });

  it("else the path-aware well-known URL, then the root one", () => {
    expect(resourceMetadataUrls("http://localhost:3000/mcp")).toEqual([
      "http://localhost:3000/.well-known/oauth-protected-resource/mcp",
      "http://localhost:3000/.well-known/oauth-protected-resource",
    ]);
    expect(resourceMetadataUrls("http://localhost:3000/")).toEqual([
      "http://localhost:3000/.well-known/oauth-protected-resource",
    ]);
  });

  it("authorization server metadata: OAuth then OpenID, path inserted then appended", () => {
    expect(authorizationServerMetadataUrls("http://as.example")).toEqual([
      "http://as.example/.well-known/oauth-authorization-server",
      "http://as.example/.well-known/openid-configuration",
    ]);
    expect(authorizationServerMetadataUrls("http://as.example/tenant1")).toEqual([
      "http://as.example/.well-known/oauth-authorization-server/tenant1",
      "http://as.example/.well-known/openid-configuration/tenant1",
      "http://as.example/tenant1/.well-known/openid-configuration",
    ]);
  });
});

describe("whether a resource is the server's", () => {
  it.each([
    ["http://localhost:3000/mcp", "http://localhost:3000/mcp", true],
    ["http://localhost:3000", "http://localhost:3000/mcp", true],
    ["http://localhost:3000/", "http://localhost:3000/mcp", true],
    ["http://localhost:3000/mc", "http://localhost:3000/mcp", false],
    ["http://localhost:3001/mcp", "http://localhost:3000/mcp", false],
    ["https://localhost:3000/mcp", "http://localhost:3000/mcp", false],
    ["not a url", "http://localhost:3000/mcp", false],
  ])("%s for %s: %s", (resource, server, expected) => {
    expect(resourceMatches(resource, server)).toBe(expected);
  });
});

describe("the scope to ask for", () => {
  it("the challenge's scope first, else scopes_supported, else none", () => {
    expect(scopeToRequest({ challenge: { scope: "a" }, scopesSupported: ["b"] })).toBe("a");
    expect(scopeToRequest({ scopesSupported: ["b", "c"] })).toBe("b c");
    expect(scopeToRequest({})).toBe(undefined);
  });

  it("keeps what was granted on step-up, and adds offline_access only when the server lists it", () => {
    expect(scopeToRequest({ challenge: { scope: "write" }, previous: ["read"] })).toBe(
      "read write",
    );
    expect(scopeToRequest({ scopesSupported: ["a"], offline: true, serverScopes: ["a"] })).toBe(
      "a",
    );
    expect(
      scopeToRequest({ scopesSupported: ["a"], offline: true, serverScopes: ["offline_access"] }),
    ).toBe("a offline_access");
  });
});
