/**
 * Extension negotiation (spec: versioning, extension negotiation): an
 * extension's methods, notifications and resultTypes are only for a peer
 * that declared the extension under `capabilities.extensions`. The
 * generated EXTENSIONS table says which extension each of them belongs to,
 * so nothing here is written per extension: the Tasks extension and a
 * user's own go through the same checks.
 */
import { missingCapability, type McpError } from "./errors.js";
import { isJsonObject } from "./jsonrpc.js";
import type { ExtensionEntry, ProtocolModule } from "./protocol.js";

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

/**
 * -32021 for a request of an extension that `capabilities` do not declare,
 * undefined for a core method or a declared extension's: the one rule for
 * every merged extension's methods, in either era.
 */
export function undeclaredMethodRefusal(
  protocol: ProtocolModule,
  method: string,
  capabilities: Readonly<Record<string, unknown>>,
): McpError | undefined {
  const id = extensionOfRequest(protocol, method);
  if (id === undefined || declaresExtension(capabilities, id)) return undefined;
  return extensionRequired(
    id,
    `${method} belongs to the ${id} extension: declare it under capabilities.extensions in the request's client capabilities`,
  );
}
