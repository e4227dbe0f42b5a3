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

/** -32021 naming the extension in `requiredCapabilities.extensions`, for a request that needs it. */
export function extensionRequired(id: string, message: string): McpError {
  return missingCapability({ extensions: { [id]: {} } }, message);
}
