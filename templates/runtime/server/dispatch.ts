/**
 * One routing table for both eras: which request method runs what, and in
 * which era the method exists. The era modules check a request before
 * routing it (modern.ts, legacy.ts) and shape its result after. Feature
 * handlers run through `call.withContext`, which gives them their era's
 * context: the rounds of a Multi Round-Trip Request on 2026-07-28,
 * requests to the client on a legacy session.
 */
import { capabilitiesOf, type Era } from "../core/era.js";
import { Codes, McpError, methodNotFound } from "../core/errors.js";
import type { Exchange } from "../core/exchange.js";
import {
  describeCondition,
  extensionRequired,
  methodRefusal,
  resultRefusal,
  undeclaredPolicy,
  type Declared,
} from "../core/extensions.js";
import { isJsonObject, type JsonRpcErrorObject, type JsonRpcId } from "../core/jsonrpc.js";
import type { ProtocolModule } from "../core/protocol.js";
import type { RequestContext } from "./context.js";
import { errorToSend } from "./error-policy.js";
import type { ServerFeatures } from "./features.js";
import { inToolSpan } from "./telemetry.js";
import { listen } from "./subscriptions.js";

/** A result as handlers produce it, before its era shapes it. */
export type Result = Record<string, unknown>;

/** What the requests of a legacy session may change in it. */
export interface SessionControl {
  /** Answers `initialize`: negotiates the version, records the client, declares the server. */
  initialize(params: Readonly<Record<string, unknown>>): Result;
  /** `logging/setLevel`; resolves once a shared session store has the change. */
  setLogLevel(level: string): void | Promise<void>;
  /** `resources/subscribe`; resolves once a shared session store has the change. */
  subscribe(uri: string): void | Promise<void>;
  /** `resources/unsubscribe`; resolves once a shared session store has the change. */
  unsubscribe(uri: string): void | Promise<void>;
}

/** One request being routed. */
export interface Call {
  readonly era: Era;
  readonly server: ServerFeatures;
  readonly method: string;
  readonly params: Record<string, unknown>;
  readonly id: JsonRpcId;
  readonly exchange: Exchange;
  /** The session the request belongs to (legacy era only). */
  readonly session?: SessionControl;
  /** Runs a feature handler with this era's context. */
  withContext(run: (ctx: RequestContext) => Result | Promise<Result>): Promise<Result>;
}

interface Route {
  readonly eras: readonly Era[];
  /** The result, or undefined for a request that ends without one (a listen stream). */
  run(call: Call): Result | undefined | Promise<Result | undefined>;
}

const MODERN: readonly Era[] = ["modern"];
const LEGACY: readonly Era[] = ["legacy"];
const BOTH: readonly Era[] = ["modern", "legacy"];

/** Resource not found, as each era answers it (2026-07-28: -32602; before: -32002). */
const RESOURCE_NOT_FOUND: Readonly<Record<Era, (uri: string) => McpError>> = {
  modern: (uri) => new McpError(Codes.InvalidParams, `Resource not found: ${uri}`, { uri }),
  legacy: (uri) => new McpError(Codes.ResourceNotFound, "Resource not found", { uri }),
};

/** The built-in methods. A method of the protocol module not listed here goes to `server.method` handlers. */
const ROUTES: ReadonlyMap<string, Route> = new Map<string, Route>([
  ["server/discover", { eras: MODERN, run: ({ server }) => discover(server) }],
  [
    "subscriptions/listen",
    {
      eras: MODERN,
      run: async ({ server, params, exchange, id }) => {
        const requested = isJsonObject(params.notifications) ? params.notifications : {};
        const meta = isJsonObject(params._meta) ? params._meta : {};
        // An extension's listen field (Tasks' taskIds) only for clients that declare the extension.
        const filter = await server.listenFilter(
          requested,
          capabilitiesOf(meta),
          exchange.authorization,
        );
        return listen(server.changes, filter, exchange, id);
      },
    },
  ],
  [
    "initialize",
    { eras: LEGACY, run: ({ session, params }) => sessionOf(session).initialize(params) },
  ],
  ["ping", { eras: LEGACY, run: () => ({}) }],
  [
    "logging/setLevel",
    {
      eras: LEGACY,
      run: async ({ session, params }) => {
        await sessionOf(session).setLogLevel(String(params.level));
        return {};
      },
    },
  ],
  [
    "resources/subscribe",
    {
      eras: LEGACY,
      run: async ({ session, params }) => {
        await sessionOf(session).subscribe(String(params.uri));
        return {};
      },
    },
  ],
  [
    "resources/unsubscribe",
    {
      eras: LEGACY,
      run: async ({ session, params }) => {
        await sessionOf(session).unsubscribe(String(params.uri));
        return {};
      },
    },
  ],
  ["tools/list", { eras: BOTH, run: ({ server, params, era }) => server.listTools(params, era) }],
  ["resources/list", { eras: BOTH, run: ({ server, params }) => server.listResources(params) }],
  [
    "resources/templates/list",
    { eras: BOTH, run: ({ server, params }) => server.listResourceTemplates(params) },
  ],
  ["prompts/list", { eras: BOTH, run: ({ server, params }) => server.listPrompts(params) }],
  [
    "tools/call",
    {
      eras: BOTH,
      run: (call) =>
        call.withContext((ctx) =>
          inToolSpan(
            ctx,
            String(call.params.name),
            (error) => handlerError(call.server, call.method, error, protocolOf(call), false).code,
            () => call.server.callTool(call.params, ctx, call.era),
          ),
        ),
    },
  ],
  [
    "resources/read",
    {
      eras: BOTH,
      run: (call) =>
        call.withContext((ctx) =>
          call.server.readResource(call.params, ctx, RESOURCE_NOT_FOUND[call.era]),
        ),
    },
  ],
  [
    "prompts/get",
    {
      eras: BOTH,
      run: (call) => call.withContext((ctx) => call.server.getPrompt(call.params, ctx)),
    },
  ],
  [
    "completion/complete",
    {
      eras: BOTH,
      run: (call) => call.withContext((ctx) => call.server.complete(call.params, ctx)),
    },
  ],
]);

/**
 * Runs the handler of a request: the built-in route of its method in its
 * era, else (2026-07-28) the handler of an extension in use, else a handler
 * registered with `server.method`, else -32601.
 */
export async function route(call: Call): Promise<Result | undefined> {
  const negotiated = negotiating(call);
  const builtIn = ROUTES.get(call.method);
  if (builtIn?.eras.includes(call.era)) return builtIn.run(negotiated);
  const ofExtension = call.era === "modern" ? call.server.extensionMethod(call.method) : undefined;
  if (ofExtension)
    return negotiated.withContext(
      (ctx) => ofExtension(call.params, ctx) as Result | Promise<Result>,
    );
  if (call.era === "legacy" && call.server.extensionMethod(call.method))
    throw methodNotFound(call.method);
  const custom = call.server.customMethod(call.method);
  if (custom)
    return negotiated.withContext((ctx) => custom(call.params, ctx) as Result | Promise<Result>);
  throw methodNotFound(call.method);
}

/**
 * The call with extension negotiation around its handler (spec: versioning,
 * extension negotiation; the rule is the manifest's, core/extensions.ts): a
 * method of an extension runs only when its conditions hold, and a result
 * whose resultType an extension adds goes only where the extension's rule
 * for results holds (by default, to a client that declared it). Otherwise
 * the request is answered -32021 with the extension in
 * `requiredCapabilities.extensions`; a handler that falls back to core
 * behaviour instead asks `ctx.declares(id)` first, and for an extension
 * whose manifest says `"undeclared": "fallback"` a result that reaches such
 * a client anyway is the server's bug (-32603, logged), as is a result of
 * an extension the server itself did not declare as its rule needs. The
 * same rule holds for every merged extension, Tasks included.
 */
function negotiating(call: Call): Call {
  const { protocol } = call.server;
  return {
    ...call,
    withContext: (run) =>
      call.withContext(async (ctx) => {
        const declared: Declared = {
          client: ctx.clientCapabilities,
          get server() {
            return call.server.capabilities();
          },
        };
        const refused = methodRefusal(protocol, call.method, declared);
        if (refused) throw refused;
        const result = await run(ctx);
        const refusal = resultRefusal(protocol, result.resultType, declared);
        if (!refusal) return result;
        const { id, unmet } = refusal;
        const resultType = String(result.resultType);
        if (unmet.declares === "server" || undeclaredPolicy(protocol, id) === "fallback") {
          call.server.onError(
            new Error(
              unmet.declares === "server"
                ? `${call.method} returned resultType "${resultType}" of the ${id} extension, which needs the server to declare ${describeCondition(id, unmet)} (fix: declare it in the server's extensions)`
                : `${call.method} returned resultType "${resultType}" of the ${id} extension to a client that does not declare it; the extension falls back to core behaviour ("undeclared": "fallback"), so the handler must check ctx.declares("${id}") first`,
            ),
            `${call.method} handler`,
          );
          throw new McpError(Codes.InternalError, "Internal error");
        }
        throw extensionRequired(
          id,
          `${call.method} answers with resultType "${resultType}" of the ${id} extension here: declare ${describeCondition(id, unmet)} under capabilities.extensions in the request's client capabilities`,
        );
      }),
  };
}

/**
 * What a request whose handler failed answers with (error-policy.ts): an
 * McpError as thrown when its code may be sent in the era's revision
 * (`protocol`, the served one by default); anything else is a bug,
 * reported to `server.onError` and answered with -32603 without internals.
 */
export function handlerError(
  server: ServerFeatures,
  method: string,
  error: unknown,
  protocol: ProtocolModule = server.protocol,
  report = true,
): JsonRpcErrorObject {
  return errorToSend(protocol, report ? server.onError : () => {}, `${method} handler`, error);
}

/** The revision a call's era speaks. */
function protocolOf(call: Call): ProtocolModule {
  return call.era === "legacy" && call.server.legacy ? call.server.legacy : call.server.protocol;
}

/** The `server/discover` result (2026-07-28). */
function discover(server: ServerFeatures): Result {
  const result: Result = {
    supportedVersions: [server.protocol.PROTOCOL_VERSION],
    capabilities: server.capabilities(),
  };
  if (server.instructions !== undefined) result.instructions = server.instructions;
  return result;
}

function sessionOf(session: SessionControl | undefined): SessionControl {
  if (!session) throw new McpError(Codes.InternalError, "a legacy request without its session");
  return session;
}
