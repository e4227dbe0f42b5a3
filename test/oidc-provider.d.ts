/**
 * The part of oidc-provider (a test-only authorization server; it ships no
 * types) that the tests use.
 */
declare module "oidc-provider" {
  import type { RequestListener } from "node:http";

  /** An OpenID Provider / OAuth 2.0 authorization server. */
  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    /** The request listener that serves every endpoint. */
    callback(): RequestListener;
    on(event: string, listener: (...args: unknown[]) => void): this;
  }
}
