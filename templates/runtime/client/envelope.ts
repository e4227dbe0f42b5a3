/**
 * The `_meta` envelope a client puts on every 2026-07-28 request (spec:
 * basic, `_meta`): the protocol version, the capabilities the client
 * declares for this request, and who it is. It is what makes a request
 * modern (core/era); a server checks it, a client writes it.
 */
import { META } from "../core/era.js";
import { isJsonObject } from "../core/jsonrpc.js";

/** What a client says about itself on each request. */
export interface ClientEnvelope {
  readonly protocolVersion: string;
  readonly capabilities: Readonly<Record<string, unknown>>;
  readonly clientInfo?: { readonly name: string; readonly version: string };
}

/**
 * A request's params with the envelope in `_meta`. Other `_meta` keys the
 * params carry (a progressToken, a log level) are kept; the envelope's keys
 * are the envelope's.
 */
export function withEnvelope(
  params: Readonly<Record<string, unknown>> | undefined,
  envelope: ClientEnvelope,
): Record<string, unknown> {
  const meta: Record<string, unknown> = {
    ...(isJsonObject(params?._meta) ? params._meta : {}),
    [META.protocolVersion]: envelope.protocolVersion,
    [META.clientCapabilities]: envelope.capabilities,
  };
  if (envelope.clientInfo) meta[META.clientInfo] = envelope.clientInfo;
  return { ...params, _meta: meta };
}
