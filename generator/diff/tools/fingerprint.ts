/**
 * The fingerprint of a tool contract: a hash that changes exactly when
 * what a caller relies on changes, so a CI job or a registry can pin a
 * server's tools and notice any change.
 *
 * The contract of a tool is the JSON object of its `name`, `inputSchema`,
 * and, when the tool has them, `outputSchema`, `annotations` and
 * `execution`; nothing else (its title, description, icons and `_meta`
 * are outside). The fingerprint is `sha256:` and the lowercase hex SHA-256
 * of the UTF-8 bytes of that object's canonical JSON (RFC 8785, the JSON
 * Canonicalization Scheme): object keys sorted by their UTF-16 code
 * units, no insignificant whitespace, strings and numbers as ECMAScript's
 * JSON.stringify writes them. The schemas are hashed as the server sends
 * them: two schemas that mean the same but are written differently
 * (`required` in another order, a description edited) have different
 * fingerprints; `mcp-gen diff --tools` says what such a change means.
 *
 * The fingerprint of a list is that of the object mapping each tool's name
 * to its fingerprint, hashed the same way.
 */
import { createHash } from "node:crypto";
import { isJsonObject, type JsonObject, type JsonValue } from "../../load/json.js";

/** The fields of a tool that make its contract, in the order of the definition above. */
export const CONTRACT_FIELDS = [
  "name",
  "inputSchema",
  "outputSchema",
  "annotations",
  "execution",
] as const;

/**
 * A JSON value as RFC 8785 canonical JSON. (A string with a lone
 * surrogate, which RFC 8785 refuses, is written as JSON.stringify escapes
 * it, so every value has a fingerprint.)
 */
export function canonicalJson(value: JsonValue): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (isJsonObject(value)) {
    // Array.prototype.sort compares strings by UTF-16 code units, as RFC 8785 §3.2.3 sorts keys.
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k]!)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** The contract of a tool: its contract fields that it has. */
export function toolContract(tool: JsonObject): JsonObject {
  const contract: JsonObject = {};
  for (const field of CONTRACT_FIELDS)
    if (tool[field] !== undefined) contract[field] = tool[field]!;
  return contract;
}

/** `sha256:` and the hex SHA-256 of a value's canonical JSON. */
export function fingerprintOf(value: JsonValue): string {
  return `sha256:${createHash("sha256").update(canonicalJson(value), "utf8").digest("hex")}`;
}

/** The fingerprint of one tool's contract. */
export function toolFingerprint(tool: JsonObject): string {
  return fingerprintOf(toolContract(tool));
}

/** Each tool's fingerprint by name (in the list's order), and the fingerprint of the list. */
export function listFingerprints(tools: ReadonlyMap<string, JsonObject>): {
  readonly tools: Readonly<Record<string, string>>;
  readonly list: string;
} {
  const byName: Record<string, string> = {};
  for (const [name, tool] of tools)
    Object.defineProperty(byName, name, {
      value: toolFingerprint(tool),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return { tools: byName, list: fingerprintOf(byName) };
}
