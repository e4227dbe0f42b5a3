/**
 * Guards: checks every HTTP request passes, in order, before its body is
 * read as JSON-RPC. A guard refuses a request with a reply, or lets it
 * through with undefined. The built-in ones check the path, the Host and
 * Origin headers and the content type of a POST; more (authorization, for
 * one) come through `HttpOptions.guards`.
 */
import { isIP } from "node:net";
import { Codes, McpError } from "../core/errors.js";
import { emptyReply, errorReply, type HttpReply, type HttpRequest } from "./http-reply.js";

/** A check a request passes before anything reads its body. */
export type Guard = (
  request: HttpRequest,
) => HttpReply | undefined | Promise<HttpReply | undefined>;

/** The host names accepted by default: this machine's. */
export const LOCALHOST: readonly string[] = ["localhost", "127.0.0.1", "[::1]"];

/** Only the MCP endpoint's path is served (404 elsewhere). */
export function endpointGuard(endpoint: string): Guard {
  return (request) => (request.path === endpoint ? undefined : emptyReply(404));
}

/**
 * DNS-rebinding protection (spec: Streamable HTTP, security). The Host
 * header must be one well-formed `host[:port]` whose host is in
 * `allowedHosts` (any port). Origin, when sent, must be one well-formed
 * origin (`scheme://host[:port]`, nothing else): one of `allowedOrigins`
 * when they are given, else one whose host is an allowed host. Otherwise
 * 403 with an error without id that names the setting to change. `"any"`
 * turns a check off (only behind something that does it).
 */
export function hostGuard(
  allowedHosts: readonly string[] | "any",
  allowedOrigins?: readonly string[] | "any",
): Guard {
  const hosts = allowedHosts === "any" ? "any" : new Set(allowedHosts.map(normalHost));
  const origins =
    allowedOrigins === undefined || allowedOrigins === "any"
      ? allowedOrigins
      : new Set(allowedOrigins.map((o) => parseOrigin(o)?.text ?? o.toLowerCase()));
  return (request) => {
    if (hosts !== "any") {
      const host = request.header("host");
      const parsed = host === undefined ? undefined : parseHostHeader(host);
      if (!parsed || !hosts.has(parsed.host))
        return forbidden(
          host === undefined
            ? "the request has no Host header"
            : `the Host header ${JSON.stringify(host)} is not an allowed host`,
          "ALLOWED_HOSTS (option allowedHosts)",
        );
    }
    const origin = request.header("origin");
    if (origin === undefined || origins === "any") return undefined;
    const parsed = parseOrigin(origin);
    const allowed =
      parsed !== undefined &&
      (origins === undefined
        ? hosts === "any" || hosts.has(parsed.host)
        : origins.has(parsed.text));
    return allowed
      ? undefined
      : forbidden(
          `the Origin header ${JSON.stringify(origin)} is not an allowed origin`,
          origins === undefined
            ? "ALLOWED_ORIGINS (option allowedOrigins) or ALLOWED_HOSTS (option allowedHosts)"
            : "ALLOWED_ORIGINS (option allowedOrigins)",
        );
  };
}

/**
 * A POST must carry a JSON body (spec: Streamable HTTP, sending messages):
 * any other `Content-Type`, or none, is 415. Parameters such as
 * `charset=utf-8` are allowed.
 */
export function contentTypeGuard(): Guard {
  return (request) => {
    if (request.method !== "POST") return undefined;
    const type = request.header("content-type");
    const media = type?.split(";")[0]!.trim().toLowerCase();
    if (media === "application/json") return undefined;
    return errorReply(
      415,
      null,
      new McpError(
        Codes.InvalidRequest,
        "Unsupported Media Type: send Content-Type: application/json",
        {
          contentType: type ?? null,
        },
      ),
    );
  };
}

function forbidden(reason: string, setting: string): HttpReply {
  return errorReply(
    403,
    null,
    new McpError(-32000, `Forbidden: ${reason}; to accept it, add it to ${setting}`),
  );
}

/** A host and its optional port, as the Host header and origins carry them. */
export interface HostAndPort {
  /** The host, lower-cased; an IPv6 literal keeps its brackets. */
  readonly host: string;
  readonly port?: number;
}

/**
 * Parses a Host header strictly (RFC 9110 7.2, RFC 3986 3.2.2): exactly one
 * `host[:port]`, where host is a DNS name, an IPv4 address or a bracketed
 * IPv6 literal and port is 1 to 5 digits up to 65535. Anything else,
 * `localhost:evil.example`, `[::1].evil.example`, `localhost:80@evil.example`
 * or two values joined by a comma among them, is undefined.
 */
export function parseHostHeader(value: string): HostAndPort | undefined {
  const match = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(?::(\d{1,5}))?$/.exec(value);
  if (!match) return undefined;
  const host = match[1]!.toLowerCase();
  if (host.startsWith("[") ? isIP(host.slice(1, -1)) !== 6 : !isHostName(host)) return undefined;
  if (match[2] === undefined) return { host };
  const port = Number(match[2]);
  return port >= 1 && port <= 65535 ? { host, port } : undefined;
}

/**
 * Parses an Origin header strictly (RFC 6454 7): `scheme://host[:port]`
 * with nothing after it, no user information, no path. `text` is the
 * origin lower-cased, to compare with allowed origins.
 */
export function parseOrigin(value: string): (HostAndPort & { readonly text: string }) | undefined {
  const match = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#@\s]+)$/.exec(value);
  if (!match) return undefined;
  const hostPort = parseHostHeader(match[2]!);
  return hostPort && { ...hostPort, text: value.toLowerCase() };
}

/** A DNS name (labels of letters, digits and inner hyphens) or a dotted IPv4 address. */
function isHostName(host: string): boolean {
  if (host.length > 253) return false;
  if (/^[\d.]+$/.test(host)) return isIP(host) === 4;
  const labels = host.endsWith(".") ? host.slice(0, -1).split(".") : host.split(".");
  return labels.every((label) => /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/.test(label));
}

/** An allowed host as configured, in the form parseHostHeader gives (`::1` becomes `[::1]`). */
function normalHost(host: string): string {
  const lower = host.trim().toLowerCase();
  return isIP(lower) === 6 ? `[${lower}]` : lower;
}

/** Whether a listening address reaches only this machine. */
export function isLoopback(address: string): boolean {
  const host = address.replace(/^\[|\]$/g, "").toLowerCase();
  return host === "localhost" || host === "::1" || /^127\.\d+\.\d+\.\d+$/.test(host);
}
