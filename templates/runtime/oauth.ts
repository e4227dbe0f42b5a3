/**
 * The mcp-gen runtime's OAuth for clients (`src/mcp-gen/runtime/oauth.ts`
 * in a client project made with authorization; it needs oauth4webapi):
 * an OAuthClient is the `auth` of an HTTP connection.
 *
 * ```ts
 * const redirect = await loopbackRedirect({ open: (url) => console.log(`Sign in: ${url.href}`) });
 * const auth = new OAuthClient({
 *   redirectUri: redirect.redirectUri,
 *   authorize: (url) => redirect.authorize(url),
 *   store: new FileTokenStore(join(homedir(), ".config", "my-client", "tokens")),
 * });
 * const channel = connectHttp("https://example.com/mcp", { auth });
 * ```
 */
export * from "./oauth/index.js";
export { type HttpRefusal, type RetryVerdict } from "./transport/index.js";
