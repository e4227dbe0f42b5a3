/**
 * Authorization as the HTTP transport sees it: a stage after the guards
 * that answers the protected resource metadata, turns a request's
 * credentials into an Authorization (or refuses it with 401), and, once
 * the body is read, checks that the Authorization covers the message (or
 * refuses it with 403). How tokens are checked lives elsewhere (auth/,
 * which brings jose): the transport only calls this interface, and passes
 * the Authorization on to the served side as data.
 */
import type { Authorization } from "../core/exchange.js";
import type { JsonRpcMessage } from "../core/jsonrpc.js";
import type { HttpReply, HttpRequest } from "./http-reply.js";

/** What the HTTP transport calls when authorization is on (`HttpOptions.authorization`). */
export interface HttpAuthorization {
  /**
   * The reply for a GET of `path` when it is one of the metadata documents
   * this resource publishes (RFC 9728); undefined for any other path.
   */
  metadata(request: HttpRequest): HttpReply | undefined;
  /** Who the request acts for, or the refusal (401, or 503 when tokens cannot be checked now). */
  authenticate(request: HttpRequest): Promise<Authorization | HttpReply>;
  /** A refusal (403 insufficient_scope) when `authorization` does not cover `message`; else undefined. */
  authorize(message: JsonRpcMessage, authorization: Authorization): HttpReply | undefined;
}

/** Whether an authenticate result is a refusal rather than an Authorization. */
export function isReply(value: Authorization | HttpReply): value is HttpReply {
  return "kind" in value && "status" in value;
}
