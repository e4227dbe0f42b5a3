/**
 * Where OAuth metadata lives, as both sides of MCP authorization look for
 * it: a server's auth/ (reaching the authorization server it trusts) and a
 * client's oauth/ (discovering the one a server names). Plain URL
 * arithmetic, in core/ so that the two layers share one definition.
 */

/**
 * Where an authorization server's metadata may be, in the order the spec
 * gives: RFC 8414 then OpenID Connect Discovery; for an issuer with a path,
 * the well-known part inserted before the path, then OpenID's appended.
 */
export function authorizationServerMetadataUrls(issuer: string): string[] {
  const url = new URL(issuer);
  const path = url.pathname === "/" ? "" : url.pathname.replace(/\/$/, "");
  const at = (p: string) => new URL(p, url.origin).href;
  return path === ""
    ? [at("/.well-known/oauth-authorization-server"), at("/.well-known/openid-configuration")]
    : [
        at(`/.well-known/oauth-authorization-server${path}`),
        at(`/.well-known/openid-configuration${path}`),
        at(`${path}/.well-known/openid-configuration`),
      ];
}
