/**
 * The part of oidc-provider (a test-only authorization server; it ships no
 * types) that the tests use.
 */
declare module "oidc-provider" {
  import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";

  /** A grant being given at consent. */
  interface Grant {
    addOIDCScope(scope: string): void;
    addOIDCClaims(claims: readonly string[]): void;
    addResourceScope(indicator: string, scope: string): void;
    save(): Promise<string>;
  }

  /** What an interaction (login, consent) is about. */
  interface InteractionDetails {
    readonly grantId?: string;
    readonly session?: { readonly accountId: string };
    readonly params: Readonly<Record<string, unknown>>;
    readonly prompt: {
      readonly name: string;
      readonly details: {
        readonly missingOIDCScope?: readonly string[];
        readonly missingOIDCClaims?: readonly string[];
        readonly missingResourceScopes?: Readonly<Record<string, readonly string[]>>;
      };
    };
  }

  /** An OpenID Provider / OAuth 2.0 authorization server. */
  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    /** The request listener that serves every endpoint. */
    callback(): RequestListener;
    on(event: string, listener: (...args: unknown[]) => void): this;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
    readonly Grant: {
      new (init: { accountId?: string; clientId: string }): Grant;
      find(id: string): Promise<Grant | undefined>;
    };
  }
}
