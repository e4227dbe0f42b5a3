/**
 * The `_meta` key rules (spec: basic, General fields, `_meta`): a key is an
 * optional prefix of dot-separated labels ending in `/`, then a name; a
 * prefix whose second label is `modelcontextprotocol` or `mcp` is
 * reserved for MCP. The runtime sets the reserved keys it owns
 * (`io.modelcontextprotocol/serverInfo`, `.../subscriptionId`, the
 * request envelope) itself; keys a handler or an application adds to an
 * outgoing message are checked here first, so that a malformed or
 * reserved key never reaches the peer.
 */

const LABEL = "[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?";
const KEY = new RegExp(
  `^(?:(${LABEL}(?:\\.${LABEL})*)/)?(?:[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)?$`,
);

/** Whether `key` follows the `_meta` key grammar (prefix and name). */
export function isValidMetaKey(key: string): boolean {
  return KEY.test(key);
}

/**
 * Whether `key`'s prefix is reserved for MCP: its second label is
 * `modelcontextprotocol` or `mcp` (`io.modelcontextprotocol/`, `dev.mcp/`,
 * `com.mcp.tools/`; not `com.example.mcp/`).
 */
export function isReservedMetaKey(key: string): boolean {
  const prefix = KEY.exec(key)?.[1];
  if (prefix === undefined) return false;
  const second = prefix.split(".")[1];
  return second === "modelcontextprotocol" || second === "mcp";
}

/** Why `key` may not be added to an outgoing `_meta` by application code, or undefined when it may. */
export function metaKeyProblem(key: string): string | undefined {
  if (!isValidMetaKey(key))
    return `"${printable(key)}" is not a valid _meta key (an optional prefix of dot-separated labels that start with a letter and end with a letter or digit, then "/", then a name that starts and ends with a letter or digit and has only letters, digits, "-", "_" and "." inside)`;
  if (isReservedMetaKey(key))
    return `"${key}" uses a prefix reserved for MCP (its second label is "modelcontextprotocol" or "mcp"); the runtime sets the reserved keys it supports itself (fix: use a prefix of your own, such as com.example/${key.slice(key.indexOf("/") + 1)})`;
  return undefined;
}

/**
 * Throws when `meta` (the `_meta` of an outgoing message, as application
 * code wrote it) has a key that is malformed or reserved. `where` names
 * the message for the error: a programming error of the handler, which
 * the runtime reports and answers with -32603.
 */
export function checkOutgoingMeta(meta: unknown, where: string): void {
  if (typeof meta !== "object" || meta === null || Array.isArray(meta)) return;
  for (const key of Object.keys(meta)) {
    const problem = metaKeyProblem(key);
    if (problem !== undefined) throw new MetaKeyError(`${where}: _meta key ${problem}`);
  }
}

/** A handler put a malformed or reserved key into an outgoing `_meta`. */
export class MetaKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MetaKeyError";
  }
}

/** A key as it may be quoted in an error: control characters escaped, at most 80 characters. */
function printable(key: string): string {
  const escaped = JSON.stringify(key).slice(1, -1);
  return escaped.length > 80 ? `${escaped.slice(0, 80)}…` : escaped;
}
