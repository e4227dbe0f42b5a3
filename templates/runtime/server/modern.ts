/**
 * The modern era (2026-07-28 and on): stateless requests, each carrying
 * its protocol version and client capabilities in `_meta`. Checks the
 * version, validates the request against its exact definition, routes it
 * (dispatch.ts; MRTR rounds in mrtr.ts), and shapes the result
 * (resultType, caching hints, serverInfo), checking it against the schema
 * before it leaves.
 */
import { capabilitiesOf, META } from "../core/era.js";
import { Codes, McpError, methodNotFound } from "../core/errors.js";
import { methodRefusal } from "../core/extensions.js";
import type { Exchange, Outcome } from "../core/exchange.js";
import {
  errorResponse,
  isJsonObject,
  metaOf,
  paramsOf,
  resultResponse,
  type JsonRpcId,
  type JsonRpcMessage,
} from "../core/jsonrpc.js";
import { checkOutgoingMeta } from "../core/meta-keys.js";
import { requestEntry, validateDefinition } from "../core/protocol.js";
import { traceContextOf } from "../core/trace-context.js";
import { handlerError, route, type Call, type Result } from "./dispatch.js";
import type { ServerFeatures } from "./features.js";
import { withInputs } from "./mrtr.js";
import { errorCodeOf, requestAttributes, startSpan } from "./telemetry.js";

/** Results that carry caching hints (spec: caching). */
const CACHEABLE = new Set([
  "tools/list",
  "prompts/list",
  "resources/list",
  "resources/templates/list",
  "resources/read",
  "server/discover",
]);

/** Serves one modern-era message (a request or notification carrying the `_meta` envelope). */
export async function serveModern(
  server: ServerFeatures,
  message: JsonRpcMessage,
  exchange: Exchange,
): Promise<Outcome> {
  const id = message.id;
  const meta = metaOf(message) ?? {};
  const version = meta[META.protocolVersion];
  const supported = server.protocol.PROTOCOL_VERSION;
  if (typeof version === "string" && version !== supported)
    return refuse(
      id,
      new McpError(Codes.UnsupportedProtocolVersion, `Unsupported protocol version: ${version}`, {
        supported: [supported],
        requested: version,
      }),
    );
  // A method of an extension whose rule does not hold is refused before anything else is looked at,
  // its params included: -32601 when the server did not declare what it needs, -32021 when the
  // request's client did not. The same rule for every merged extension, Tasks among them.
  const undeclared =
    "id" in message
      ? methodRefusal(server.protocol, String(message.method), {
          client: capabilitiesOf(meta),
          get server() {
            return server.capabilities();
          },
        })
      : undefined;
  if (undeclared) return refuse(id, undeclared);
  if ("id" in message) {
    try {
      // An extension's own work on its requests before they are checked (Tasks: tasks/update).
      message = await server.prepare(message);
    } catch (error) {
      return {
        response: errorResponse(id, handlerError(server, String(message.method), error)),
      };
    }
  }
  const parsed = server.protocol.parseMessage(message);
  if (!parsed.ok) return { response: errorResponse(parsed.id ?? id, parsed.error), refused: true };
  if (!("id" in message)) return {};
  const method = message.method as string;
  const entry = requestEntry(server.protocol, method, "server");
  if (!entry || !server.offers(method)) return refuse(id, methodNotFound(method));
  const params = paramsOf(message);
  const { name, attributes } = requestAttributes(method, id, supported, params);
  const span = await startSpan(name, "server", attributes, traceContextOf(meta));
  const outcome = await span.run(() =>
    answer(server, method, params, id as JsonRpcId, exchange, (run) =>
      withInputs(server, method, params, meta, entry.mrtr, exchange, run, span.trace),
    ),
  );
  span.end(errorCodeOf(outcome));
  return outcome;
}

/** Routes a checked request and shapes its result, or answers with the error its handler threw. */
async function answer(
  server: ServerFeatures,
  method: string,
  params: Record<string, unknown>,
  id: JsonRpcId,
  exchange: Exchange,
  withContext: Call["withContext"],
): Promise<Outcome> {
  try {
    const result = await route({
      era: "modern",
      server,
      method,
      params,
      id,
      exchange,
      withContext,
    });
    if (result === undefined) return {};
    return {
      response: resultResponse(id, checkResult(server, method, shape(server, method, result, id))),
    };
  } catch (error) {
    return { response: errorResponse(id, handlerError(server, method, error)) };
  }
}

function refuse(id: unknown, error: McpError): Outcome {
  return { response: errorResponse(id, error.toJSON()), refused: true };
}

/**
 * Adds the protocol fields a handler leaves out: resultType, caching hints,
 * serverInfo, and the subscription id of a listen stream's closing result.
 */
function shape(server: ServerFeatures, method: string, result: Result, id: JsonRpcId): Result {
  // The handler's keys, checked before the runtime adds the reserved ones it owns.
  checkOutgoingMeta(result._meta, `${method} result`);
  const shaped: Result =
    result.resultType === undefined ? { ...result, resultType: "complete" } : { ...result };
  if (CACHEABLE.has(method) && shaped.resultType === "complete") {
    if (shaped.ttlMs === undefined) shaped.ttlMs = server.cache.ttlMs;
    if (shaped.cacheScope === undefined) shaped.cacheScope = server.cache.cacheScope;
  }
  shaped._meta = {
    ...(isJsonObject(result._meta) ? result._meta : {}),
    [META.serverInfo]: server.info,
    ...(method === "subscriptions/listen" ? { [META.subscriptionId]: id } : {}),
  };
  return shaped;
}

/** Checks a result against the definition its resultType selects; a handler's mistake becomes -32603 here, not on the wire. */
function checkResult(server: ServerFeatures, method: string, result: Result): Result {
  if (!server.validateResults) return result;
  const definition = server.protocol.METHODS[method]?.results[result.resultType as string];
  const verdict = definition
    ? validateDefinition(server.protocol, definition, result)
    : {
        ok: false as const,
        errors: [{ path: "/resultType", message: `is not one ${method} may return` }],
      };
  if (verdict.ok) return result;
  server.onError(
    new Error(
      `invalid ${method} result: ${verdict.errors.map((e) => `${e.path} ${e.message}`).join("; ")}`,
    ),
    `${method} handler`,
  );
  throw new McpError(Codes.InternalError, "Internal error: the server produced an invalid result");
}
