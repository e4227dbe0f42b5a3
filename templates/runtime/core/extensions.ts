/**
 * Extension negotiation (spec: versioning, extension negotiation): an
 * extension's methods, notifications and resultTypes are sent only once
 * the side its rule names has declared the extension under
 * `capabilities.extensions` (with the settings it names). The generated
 * EXTENSIONS table says which extension each of them belongs to and, from
 * the manifest's `negotiation`, who must declare what; a message the rule
 * does not list needs the client's declaration. The server and the client
 * read the same rule, so nothing here is written per extension: Tasks,
 * Skills and a user's own go through the same checks.
 */
import { Codes, McpError, missingCapability } from "./errors.js";
import { isJsonObject } from "./jsonrpc.js";
import type { ExtensionEntry, NegotiationCondition, ProtocolModule } from "./protocol.js";

/** The Tasks extension's identifier (`ctx.runAsTask` is `ctx.runAs` with it). */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

/** Whether `capabilities` declare the extension `id` (an object under `extensions[id]`). */
export function declaresExtension(
  capabilities: Readonly<Record<string, unknown>>,
  id: string,
): boolean {
  const extensions = capabilities.extensions;
  return isJsonObject(extensions) && Object.hasOwn(extensions, id) && isJsonObject(extensions[id]);
}

/** The extensions merged into a protocol module (none for a plain revision). */
function extensionsOf(protocol: ProtocolModule): ReadonlyArray<ExtensionEntry> {
  return Object.values(protocol.EXTENSIONS ?? {});
}

/** The extension that defines request method `method`, if one does. */
export function extensionOfRequest(protocol: ProtocolModule, method: string): string | undefined {
  return extensionsOf(protocol).find((e) => Object.hasOwn(e.requests ?? {}, method))?.id;
}

/** The extension that defines notification `method`, if one does. */
export function extensionOfNotification(
  protocol: ProtocolModule,
  method: string,
): string | undefined {
  return extensionsOf(protocol).find((e) => Object.hasOwn(e.notifications ?? {}, method))?.id;
}

/** The extension that adds resultType `resultType`, if one does (core values such as "complete" belong to none). */
export function extensionOfResultType(
  protocol: ProtocolModule,
  resultType: unknown,
): string | undefined {
  if (typeof resultType !== "string") return undefined;
  return extensionsOf(protocol).find((e) => (e.resultTypes ?? []).includes(resultType))?.id;
}

/**
 * What a server does when a result of extension `id` would reach a client
 * that did not declare it, as the extension's manifest says: "refuse"
 * (the default) answers -32021; "fallback" means handlers revert to core
 * behaviour themselves, so such a result is the server's bug.
 */
export function undeclaredPolicy(protocol: ProtocolModule, id: string): "refuse" | "fallback" {
  const entry =
    protocol.EXTENSIONS && Object.hasOwn(protocol.EXTENSIONS, id)
      ? protocol.EXTENSIONS[id]
      : undefined;
  return entry?.undeclared === "fallback" ? "fallback" : "refuse";
}

/** -32021 naming the extension in `requiredCapabilities.extensions`, for a request that needs it. */
export function extensionRequired(id: string, message: string): McpError {
  return missingCapability({ extensions: { [id]: {} } }, message);
}

/** The key of an extension's negotiation rule for the resultTypes it adds. */
export const RESULT_RULE = "@result";

/** What a message needs when the rule does not list it: the client's declaration (spec: extension negotiation). */
const CLIENT_DECLARES: readonly NegotiationCondition[] = [{ declares: "client" }];

/** What each side declares, as far as the side asking knows (a server's, before discovery, is unknown). */
export interface Declared {
  readonly client: Readonly<Record<string, unknown>>;
  readonly server: Readonly<Record<string, unknown>>;
}

/** The EXTENSIONS entry of extension `id`. */
function entryOf(protocol: ProtocolModule, id: string): ExtensionEntry | undefined {
  return protocol.EXTENSIONS && Object.hasOwn(protocol.EXTENSIONS, id)
    ? protocol.EXTENSIONS[id]
    : undefined;
}

/** The conditions under which message `key` (a method, or RESULT_RULE) of an extension may be sent. */
export function conditionsOf(entry: ExtensionEntry, key: string): readonly NegotiationCondition[] {
  const rule = entry.negotiation;
  return rule && Object.hasOwn(rule, key) ? rule[key]! : CLIENT_DECLARES;
}

/** Whether `side` declares the extension: its settings type that side, or its rule needs that side's declaration for some message. */
function declaredBy(entry: ExtensionEntry, side: "client" | "server"): boolean {
  if ((entry.capability?.sides ?? ["client", "server"]).includes(side)) return true;
  const keys = [
    ...Object.keys(entry.requests ?? {}),
    ...Object.keys(entry.notifications ?? {}),
    ...((entry.resultTypes ?? []).length > 0 ? [RESULT_RULE] : []),
  ];
  return keys.some((key) => conditionsOf(entry, key).some((c) => c.declares === side));
}

/** Whether a client declares the extension (a scaffolded client does, on every request). */
export function clientDeclares(entry: ExtensionEntry): boolean {
  return declaredBy(entry, "client");
}

/** Whether a server declares the extension (a scaffolded server does, in server/discover). */
export function serverDeclares(entry: ExtensionEntry): boolean {
  return declaredBy(entry, "server");
}

/** Whether `condition` holds for extension `id` given what each side declares. */
function holds(condition: NegotiationCondition, id: string, declared: Declared): boolean {
  const capabilities = condition.declares === "server" ? declared.server : declared.client;
  if (!declaresExtension(capabilities, id)) return false;
  if (condition.setting === undefined) return true;
  const settings = (capabilities.extensions as Record<string, Record<string, unknown>>)[id]!;
  const value = Object.hasOwn(settings, condition.setting)
    ? settings[condition.setting]
    : undefined;
  return sameJson(value, condition.equals ?? true);
}

/** The first condition of message `key` of extension `id` that does not hold; undefined when it may be sent. */
export function unmetCondition(
  protocol: ProtocolModule,
  id: string,
  key: string,
  declared: Declared,
): NegotiationCondition | undefined {
  const entry = entryOf(protocol, id);
  if (!entry) return undefined;
  // The server's conditions first: a method the server does not offer is unknown whoever asks.
  const conditions = [...conditionsOf(entry, key)].sort(
    (a, b) => Number(b.declares === "server") - Number(a.declares === "server"),
  );
  return conditions.find((c) => !holds(c, id, declared));
}

/** "io.example/x", or "io.example/x with directoryRead: true": what a condition asks a side to declare. */
export function describeCondition(id: string, condition: NegotiationCondition): string {
  return condition.setting === undefined
    ? id
    : `${id} with ${condition.setting}: ${JSON.stringify(condition.equals ?? true)}`;
}

/**
 * Why request `method` may not be sent, under its extension's rule:
 * -32601 when a condition on the server fails (a server that did not
 * declare what the method needs does not offer it, as for an unknown
 * method), -32021 naming the extension when one on the client fails;
 * undefined for a core method or one allowed. Both sides ask it: the
 * server of a request it received, the client before it sends one.
 */
export function methodRefusal(
  protocol: ProtocolModule,
  method: string,
  declared: Declared,
): McpError | undefined {
  const id = extensionOfRequest(protocol, method);
  if (id === undefined) return undefined;
  const unmet = unmetCondition(protocol, id, method, declared);
  if (!unmet) return undefined;
  if (unmet.declares === "server")
    return new McpError(
      Codes.MethodNotFound,
      `Method not found: ${method} (it needs the server to declare ${describeCondition(id, unmet)})`,
      { method },
    );
  return extensionRequired(
    id,
    `${method} belongs to the ${id} extension: declare ${describeCondition(id, unmet)} under capabilities.extensions in the request's client capabilities`,
  );
}

/**
 * The extension whose resultType `resultType` is, and the condition of its
 * rule for results that does not hold; undefined for a core resultType or
 * a result that may be sent.
 */
export function resultRefusal(
  protocol: ProtocolModule,
  resultType: unknown,
  declared: Declared,
): { readonly id: string; readonly unmet: NegotiationCondition } | undefined {
  const id = extensionOfResultType(protocol, resultType);
  const unmet = id === undefined ? undefined : unmetCondition(protocol, id, RESULT_RULE, declared);
  return id !== undefined && unmet ? { id, unmet } : undefined;
}

/** Whether notification `method` may be sent under its extension's rule (a core one always may). */
export function notificationAllowed(
  protocol: ProtocolModule,
  method: string,
  declared: Declared,
): boolean {
  const id = extensionOfNotification(protocol, method);
  return id === undefined || unmetCondition(protocol, id, method, declared) === undefined;
}

/** Whether two JSON values are equal (object members in any order). */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b))
    return (
      Array.isArray(a) &&
      Array.isArray(b) &&
      a.length === b.length &&
      a.every((item, i) => sameJson(item, b[i]))
    );
  if (!isJsonObject(a) || !isJsonObject(b)) return false;
  const keys = Object.keys(a);
  return (
    keys.length === Object.keys(b).length &&
    keys.every((k) => Object.hasOwn(b, k) && sameJson(a[k], b[k]))
  );
}
