/**
 * Limits on incoming messages, checked before anything validates them, so
 * hostile input costs little and cannot exhaust the stack of the
 * recursive validators. The depth is checked on the text before it is
 * parsed (nestsDeeperThan), or on the value right after JSON.parse
 * (valueNestsDeeperThan), which is cheaper for a big message: JSON.parse
 * itself is not recursive in V8 (a text 100,000 levels deep parses), and a
 * parser that did run out of stack would throw, which fails the message
 * as unreadable.
 */

/** The deepest nesting of objects and arrays a message may have (default). */
export const MAX_DEPTH = 64;

/** The largest message accepted, in bytes (default; the HTTP transport's body limit). */
export const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

/**
 * The most messages one JSON-RPC batch may hold (default; 2025-03-26
 * sessions only): what a batch asks costs the server as much as that many
 * requests sent at once, and its answers come back together.
 */
export const MAX_BATCH_ITEMS = 100;

/**
 * Whether JSON text nests deeper than `limit` objects and arrays. Scans the
 * text once, skipping strings; the text need not be valid JSON.
 */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      // Strings are most of a message: jump to their closing quote instead of stepping through.
      i = closingQuote(text, i);
      if (i < 0) return false;
    } else if (c === 123 /* { */ || c === 91 /* [ */) {
      if (++depth > limit) return true;
    } else if (c === 125 /* } */ || c === 93 /* ] */) depth--;
  }
  return false;
}

/** The index of the quote that closes the string opening at `open`, or -1 when none does. */
function closingQuote(text: string, open: number): number {
  let from = open + 1;
  for (;;) {
    const quote = text.indexOf('"', from);
    if (quote < 0) return -1;
    // A quote after an odd number of backslashes is escaped.
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === 92 /* \\ */) backslashes++;
    if (backslashes % 2 === 0) return quote;
    from = quote + 1;
  }
}

/**
 * Whether a parsed JSON value nests deeper than `limit` objects and arrays:
 * the same answer as nestsDeeperThan on its text. It descends at most
 * `limit` + 1 levels, so a deep value costs no more stack than a shallow
 * one; for a big message it is several times cheaper than the text scan
 * (a 700 KB tools/list: about 0.3 ms against 1.3 ms), since strings, the
 * most of a message, are never looked into.
 */
export function valueNestsDeeperThan(value: unknown, limit: number): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (limit === 0) return true;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++)
      if (valueNestsDeeperThan(value[i], limit - 1)) return true;
    return false;
  }
  // for-in allocates nothing (Object.values took twice as long on a big list); what JSON.parse
  // makes has only own properties, and Object.prototype has no enumerable ones.
  for (const key in value)
    if (valueNestsDeeperThan((value as Record<string, unknown>)[key], limit - 1)) return true;
  return false;
}

/**
 * The length of a JSON value's text (as JSON.stringify writes it, strings
 * counted without their escapes), counted only until it passes `limit`:
 * then `limit + 1`. Walks the value without building its text, and stops
 * early, so a value of megabytes costs little to refuse.
 */
export function jsonLengthWithin(value: unknown, limit: number): number {
  let length = 0;
  const count = (node: unknown, depth: number): boolean => {
    if (length > limit) return false;
    if (typeof node === "string") length += node.length + 2;
    else if (typeof node === "number" || typeof node === "boolean") length += String(node).length;
    else if (node === null || node === undefined) length += 4;
    else if (depth > MAX_DEPTH) length = limit + 1;
    else if (Array.isArray(node)) {
      length += 2 + Math.max(0, node.length - 1);
      for (const item of node) if (!count(item, depth + 1)) return false;
    } else if (typeof node === "object") {
      length += 2;
      let first = true;
      for (const key in node) {
        if (!Object.hasOwn(node, key)) continue;
        length += key.length + (first ? 3 : 4);
        first = false;
        if (!count((node as Record<string, unknown>)[key], depth + 1)) return false;
      }
    }
    return length <= limit;
  };
  count(value, 0);
  return Math.min(length, limit + 1);
}
