/**
 * Guards: checks every HTTP request passes, in order, before its body is
 * read as JSON-RPC. A guard refuses a request with a reply, or lets it
 * through with undefined. The built-in ones check the path and the Host
 * and Origin headers; more (authorization, for one) come through
 * `HttpOptions.guards`.
 */
import { McpError } from "../core/errors.js";
import { emptyReply, errorReply, type HttpReply, type HttpRequest } from "./http-reply.js";

/** A check a request passes before anything reads its body. */
export type Guard = (
  request: HttpRequest,
) => HttpReply | undefined | Promise<HttpReply | undefined>;

/** The host names accepted by default: this machine's. */
export const LOCALHOST: readonly string[] = ["localhost", "127.0.0.1", "[::1]", "::1"];

/** Only the MCP endpoint's path is served (404 elsewhere). */
export function endpointGuard(endpoint: string): Guard {
  return (request) => (request.path === endpoint ? undefined : emptyReply(404));
}

/**
 * DNS-rebinding protection (spec: Streamable HTTP, security): the Host
 * header, and Origin when sent, must name an allowed host (any port);
 * otherwise 403 with an error without id. `"any"` turns the check off
 * (only behind something that does it).
 */
export function originGuard(allowedHosts: readonly string[] | "any"): Guard {
  if (allowedHosts === "any") return () => undefined;
  const forbidden = () =>
    errorReply(
      403,
      null,
      new McpError(-32000, "Forbidden: the Host or Origin header is not allowed"),
    );
  return (request) => {
    const host = request.header("host");
    if (host === undefined || !allowedHosts.includes(hostName(host))) return forbidden();
    const origin = request.header("origin");
    if (origin === undefined) return undefined;
    if (origin === "null") return forbidden();
    try {
      return allowedHosts.includes(hostName(new URL(origin).host)) ? undefined : forbidden();
    } catch {
      return forbidden();
    }
  };
}

/** The host name of a `host[:port]` value, lower-cased; IPv6 literals keep their brackets. */
function hostName(value: string): string {
  return (
    value.startsWith("[") ? value.slice(0, value.indexOf("]") + 1) : value.split(":")[0]!
  ).toLowerCase();
}
